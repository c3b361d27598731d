"""The seat clocks in a real window (issue 32, item 12), run by ``tests/ui/test_clocks_ui.py``
as ``clock_scenarios:<name>`` through ``tests/ui/driver.py``: a paused clock says so in
words, the admin's steps add up and the table sees the result, a seat lost on time shows
0:00. Screenshots: artifacts/ui/clocks/."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, settle


def _layout(d: Any, where: str, problems: list[str], root: Any = None) -> None:
    from tests.ui.layout_check import check_layout

    problems += [f"{where}: {p}" for p in check_layout(root if root is not None else _screen(d))]


def _whole(w: Any) -> bool:
    """The widget's text is shown whole (not cut, not spilling)."""
    return w.texture_size[0] <= w.width + 1 and w.texture_size[1] <= w.height + 1


def paused_in_words(d: Any) -> Iterator[float]:
    """Pause the clocks: the button says "Paused" in words beside ▶, whole, in the side
    column at 800×480 and 160 % text; tapping it again resumes."""
    from companion.clocks import presets

    problems: list[str] = []
    table = d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    clocks = _screen(d).ids.clocks
    pause = clocks.ids.pause
    d.check(not table.clocks.is_paused, "the clocks run")
    d.tap(pause)
    yield 0.4
    d.check(table.clocks.is_paused, "the tap paused the clocks")
    d.check("Paused" in pause.text and "▶" in pause.text, f"paused, in words beside the symbol: {pause.text!r}")
    d.check(d.is_visible(pause) and _whole(pause), f"the word is whole: {pause.texture_size} in {pause.size}")
    _layout(d, "paused", problems)
    d.shot("clocks-paused")
    d.tap(pause)
    yield 0.4
    d.check(not table.clocks.is_paused and "Paused" not in pause.text, f"resumed: {pause.text!r}")
    d.note(f"paused reads {pause.text!r} then resumed")
    # Four seats' faces beside the word in a side column (Dicetopia's): all whole.
    seats = [{"id": f"{f}-1", "faction": f, "name": n} for f, n in
             (("dangmer", "Dana"), ("bingmai", "Bea"), ("centauri", "Cy"), ("roamers", "Rui"))]
    table = d.app.new_game("dicetopia", seats, {"first": "dangmer-1"}, seed=8, clocks=presets()["Blitz 5+3"])
    yield 0.6
    game = d.app.sm.get_screen("game:dicetopia")
    while table.view()["phase"] in ("roll", "deal"):  # to the first turn: the clocks run
        table.roll_for_me()
    for seat in table.view()["order"]:
        if seat in table.prompt.actors:
            table.submit(game.presenter.hand_page(seat)[0].choices[0].action)
    yield 0.8
    clocks = game.ids.clocks
    if "side_scroll" in game.ids:
        game.ids.side_scroll.scroll_to(clocks, padding=4, animate=False)
        yield 0.3
    d.tap(clocks.ids.pause)
    yield 0.5
    pause = clocks.ids.pause
    d.check(table.clocks.is_paused and "Paused" in pause.text and _whole(pause), f"four seats, paused: {pause.text!r}")
    faces = list(clocks._labels.values())
    d.check(all(d.is_visible(f) and f.texture_size[0] <= f.width + 1 for f in faces), "every face whole beside it")
    _layout(d, "four seats paused", problems, game)
    d.shot("clocks-paused-four-seats")
    d.note(json.dumps(problems))


def admin_steps_add_up(d: Any) -> Iterator[float]:
    """Two "− 0:10" for Ann ask to take 0:20 and take 0:20; the panel then says Ann's
    time; a step for Bob after one for Ann says it replaces Ann's."""
    from companion.clocks import format_time, presets

    table = d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    table.pause()  # the admin's arithmetic, not the running time, is under test
    yield 0.3
    clocks = _screen(d).ids.clocks
    clocks.open_admin()
    yield from _wait_for(lambda: clocks.admin is not None and clocks.admin.ids.seats.children, 3)
    yield 0.4
    admin = clocks.admin

    def step(label: str, row: int) -> Any:
        found = sorted((b for b in d.walk(admin) if getattr(b, "text", "") == label),
                       key=lambda b: -b.to_window(*b.pos)[1])
        return found[row]  # row 0: Ann's (the top), row 1: Bob's

    before = table.clocks.remaining("cops-1")
    d.tap(step("− 0:10", 0))
    yield 0.2
    d.tap(step("− 0:10", 0))
    yield 0.3
    d.check("Take 0:20 from" in admin.question and "Ann" in admin.question, f"the steps add up: {admin.question!r}")
    d.shot("clock-admin-two-steps")
    d.tap("✔ Confirm")
    yield 0.4
    after = table.clocks.remaining("cops-1")
    d.check(abs(before - after - 20) < 0.01, f"Ann lost 0:20: {before} → {after}")
    left = format_time(after)
    d.check("took 0:20 from" in admin.status and f"now has {left}" in admin.status, f"the table sees the result: {admin.status!r}")
    d.check(d.has(f"Ann: {left}", admin), "the seat's row shows the new time")
    d.shot("clock-admin-done")
    d.tap(step("+ 0:10", 0))
    yield 0.2
    d.tap(step("+ 1:00", 1))
    yield 0.3
    d.check("Give" in admin.question and "Bob" in admin.question, f"Bob's step asks for Bob: {admin.question!r}")
    d.check("Replaced, not done" in admin.status and "Ann" in admin.status, f"and says Ann's is replaced: {admin.status!r}")
    d.shot("clock-admin-replaced")
    d.note(f"steps add up: {admin.question} / {admin.status}")


def lost_on_time(d: Any) -> Iterator[float]:
    """Ann's Fischer clock (2 s, +3 s a move) runs out on her first turn: the game is
    lost on time and her face shows 0:00 (it showed 0:03, the increment of a move she
    never made), as does the final board."""
    from companion.clocks import ClockConfig, ClockMode, OvertimePolicy

    cfg = ClockConfig(ClockMode.FISCHER, main=2, increment=3, overtime=OvertimePolicy.LOSS)
    table = d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=cfg)
    yield from settle(d)
    yield from _wait_for(lambda: table.is_over(), 6)
    d.check(table.is_over() and "Ann ran out of time" in table.outcome.reason, f"lost on time: {table.outcome}")
    yield 0.8  # a few clock ticks after the end
    clocks = _screen(d).ids.clocks
    ann = clocks._labels["cops-1"]
    d.check(ann.text.split("\n")[-1] == "0:00", f"Ann's face shows 0:00: {ann.text!r}")
    yield from _wait_for(lambda: d.app.sm.current == "end", 3)
    yield 0.5
    end = d.app.sm.get_screen("end")
    d.check("Time left: Ann 0:00, Bob 0:02" in end.scores, f"the end screen says Ann's time was up: {end.scores!r}")
    d.shot("clock-lost-on-time")
    d.note(f"Ann's face after the flag fell: {ann.text.splitlines()[-1]}")
