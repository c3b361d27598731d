"""Joining a game already under way through the setup wizard (issue 16), run by
``tests/ui/test_join_ui.py`` as ``join_scenarios:<name>`` through ``tests/ui/driver.py``."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.scenarios import settle


def _setup(d: Any) -> Any:
    return d.app.sm.get_screen("setup")


def _reach(d: Any, w: Any) -> Iterator[float]:
    """Scroll the view ``w`` sits in (the wizard's page, the gate's list) until it shows,
    as a finger would."""
    from kivy.uix.scrollview import ScrollView

    scroll = w.parent
    while scroll is not None and not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    if scroll is None:
        return
    from tests.ui.scenarios import _wait_for

    # Twice: a page just redrawn may not have laid its widgets out for the first. A touch
    # while the view still moves only stops it (Kivy's ScrollView), so wait for it to rest.
    for _ in range(2):
        scroll.scroll_to(w, padding=40, animate=False)
        yield 0.2
        yield from _wait_for(lambda: abs(scroll.effect_y.velocity) < 1e-3, 2)
    yield 0.2


def _tap_in(d: Any, path: str, text: str) -> Iterator[float]:
    """Tap the button reading ``text`` in the control of the form field ``path``."""
    view = _setup(d)._form_view
    w = d.find(text, root=view.controls[path], visible=False)
    yield from _reach(d, w)
    d.tap(w)
    yield 0.35


def _untold(d: Any, secret: str, control: str, root: Any = None) -> str:
    """"" if the widget tree (all of it, shown or not) tells ``secret`` no more than
    ``control``, a City nobody holds: every City is named as often as any other (the map,
    the form's choices) and no button of it is picked; else what gives it away."""
    from collections import Counter

    texts = Counter(t for t in d.texts(root))
    said = {name: sum(n for t, n in texts.items() if name in t) for name in (secret, control)}
    if said[secret] != said[control]:
        return f"{secret!r} named {said[secret]} times, {control!r} {said[control]}"
    picked = [w for w in d.walk(root) if getattr(w, "state", "") == "down" and secret in str(getattr(w, "text", ""))]
    return f"{secret!r} is picked on {picked}" if picked else ""


def _layout(d: Any, label: str) -> list[str]:
    from tests.ui.layout_check import check_layout

    return [f"{label}: {p}" for p in check_layout(d.app.sm.current_screen)]


def _to_position_page(d: Any, game_title: str) -> Iterator[float]:
    d.app.go("setup")
    yield 0.4
    scr = _setup(d)
    # Scrolled to first, as a finger would: at 160 % text a game or the choice may be below the fold.
    for text in (game_title, "A game already under way"):
        w = d.find(text, root=scr, visible=False)
        yield from _reach(d, w)
        d.tap(w)
        yield 0.3
    d.check(any("you enter the game as it stands" in t for t in d.texts(scr)), "the first page says what joining asks")
    d.tap("Next →")
    yield 0.35
    from kivy.uix.textinput import TextInput

    # The players type their names (the form then speaks of Ann and Bob).
    for ti, name in zip([w for w in d.walk(scr.ids.content) if isinstance(w, TextInput)], ("Ann", "Bob")):
        ti.text = name
    yield 0.2
    for _ in range(2):
        d.tap("Next →")
        yield 0.35
    d.check(scr.step_title.endswith("The game so far"), f"on the position page: {scr.step_title}")


def join_tyranny(d: Any) -> Iterator[float]:
    """Turn 12, influence 640, Bob's criminal in custody: entered by touch, refused live
    until the escape number is given, started, shown on the table, and a move played."""
    from kivy.app import App

    problems: list[str] = []
    yield from _to_position_page(d, "Tyranny")
    scr = _setup(d)
    problems += _layout(d, "join-tyranny-form-top")
    d.shot("join-tyranny-form-top")
    for text in ("+ 5", "+ 5", "+ 1"):
        yield from _tap_in(d, "turn", text)
    yield from _tap_in(d, "round", "+ 5")
    yield from _tap_in(d, "influence", "+ 100")
    for _ in range(4):
        yield from _tap_in(d, "influence", "+ 10")
    yield from _tap_in(d, "seat", "Bob")
    form = scr.model.position_form()
    d.check(form.get("turn") == 12 and form.get("influence") == 640 and form.get("seat") == "criminals-1",
            f"entered: turn {form.get('turn')}, influence {form.get('influence')}, seat {form.get('seat')}")
    yield from _tap_in(d, "pieces.criminals-1.custody", "Yes")
    view = scr._form_view
    said = view.problem_text("pieces.criminals-1.escape_on")
    d.check("needs the numbers that free it" in said, f"the problem shows beside the escape numbers: {said!r}")
    d.check(not scr.can_start and "problem" in scr.footer, f"Start waits for the engine: {scr.footer!r}")
    d.check("criminals-1" not in " ".join(d.texts(scr)), "no seat ids on the page")
    yield from _reach(d, view._problems["pieces.criminals-1.escape_on"])
    d.shot("join-tyranny-problem")
    yield from _tap_in(d, "pieces.criminals-1.escape_on", "6")
    d.check(scr.can_start, f"the engine accepts the position: {scr.footer!r} {scr.problems}")
    d.check(scr._form_view.problem_text("pieces.criminals-1.escape_on") == "", "the problem is gone")
    problems += _layout(d, "join-tyranny-form")
    d.shot("join-tyranny-form")
    for _ in range(3):
        d.tap("Next →")
        yield 0.35
    d.check(scr.step_title.endswith("Start"), f"on the start page: {scr.step_title}")
    shown = " ".join(d.texts(scr))
    d.check("Criminals' influence: 640" in shown and "Turn number (this turn included): 12" in shown,
            f"the summary says what differs: {shown[:400]!r}")
    problems += _layout(d, "join-tyranny-start")
    d.shot("join-tyranny-start")
    d.tap(d.find("▶ Start the game", root=scr))
    yield from settle(d)
    yield 0.5
    app = App.get_running_app()
    table = app.table
    d.check(table is not None and table.view()["influence"] == 640 and table.view()["turn"] == 12,
            "the Table starts from the position")
    game = app.sm.get_screen("game:tyranny")
    d.check(app.sm.current == "game:tyranny", f"the table screen shows: {app.sm.current}")
    d.check(game.ids.influence.value == 640, f"the influence counter shows 640: {game.ids.influence.value}")
    d.check("12" in game.ids.turn.text and "Bob" in game.ids.turn.text, f"turn 12, Bob's: {game.ids.turn.text!r}")
    # The table screen's own layout is the game screens' (tests/ui/test_shell.py and the game tests check it).
    d.shot("join-tyranny-table")
    # Bob tries to escape custody: the face is entered by hand and submitted at once.
    tray = game.ids.dice
    ply = table.ply
    d.tap(d.find("3", root=tray.ids.faces))
    yield 0.3
    d.tap(tray.ids.roll_for_me)
    yield from settle(d, since=ply)
    d.check(table.ply == ply + 1, f"a move was played: ply {table.ply}")
    d.check(any("3" in ln.text for ln in table.log()), f"the roll is in the log: {[ln.text for ln in table.log()][-3:]}")
    d.shot("join-tyranny-played")
    d.note(json.dumps(problems))
    d.note("joined tyranny at turn 12 with 640 and played")


def join_liberation(d: Any) -> Iterator[float]:
    """ACT II, the base and both hands entered behind the gate; the base's City never
    shows on the shared screen (widget tree, footer, summary)."""
    from kivy.app import App

    from companion.ui.widgets.base import TCToggle

    problems: list[str] = []
    yield from _to_position_page(d, "Liberation")
    scr = _setup(d)
    form = scr.model.position_form()
    names = dict(form.choices(form.field("occupied")))
    base_id = "city-k"
    base_name = names[base_id]
    control = names["city-l"]  # a City no one occupies, holds or hides a base on
    yield from _tap_in(d, "act", "ACT II")
    yield from _tap_in(d, "occupied", names["city-a"])
    yield from _tap_in(d, "occupied", names["city-b"])
    yield from _tap_in(d, "exploited", names["city-b"])
    for path in ("deck", "discard"):
        before = form.get(path)
        yield from _tap_in(d, path, "− 1")
        d.check(form.get(path) == before - 1, f"{path}: {before} → {form.get(path)}")
    d.check(form.get("act") == 2 and form.get("occupied")[-2:] == ["city-a", "city-b"], "ACT II and the Cities entered")
    d.check(not scr.can_start and "enter this behind the privacy gate" in scr._form_view.problem_text("secret:liberation-1"),
            f"the base is still to enter: {scr._form_view.problem_text('secret:liberation-1')!r}")
    problems += _layout(d, "join-liberation-form")
    d.shot("join-liberation-form")
    hands = {"dynasty-1": ["city-c", "city-d"], "liberation-1": ["city-e", "city-f"]}
    for seat, name in (("liberation-1", "Bob"), ("dynasty-1", "Ann")):
        view = scr._form_view
        b = d.find(f"◉ {name}: enter in private…", root=view, visible=False)
        yield from _reach(d, b)
        d.tap(b)
        yield 0.4
        gate = scr.ids.gate
        d.check(gate.active and gate.phase == "waiting", f"the gate asks for {name}: {gate.phase}")
        leak = _untold(d, base_name, control)
        d.check(not leak, f"nothing secret while the gate waits: {leak}")
        t = d.press(gate.ids.hold)
        yield 1.6
        d.release(t)
        yield 0.4
        d.check(gate.phase == "open", f"held open: {gate.phase}")
        content = gate.ids.content
        if seat == "liberation-1":
            toggles = [w for w in d.walk(content) if isinstance(w, TCToggle) and w.text == base_name]
            yield from _reach(d, toggles[0])
            d.tap(toggles[0])  # the base's row comes first
            yield 0.3
        for city in hands[seat]:
            toggles = [w for w in d.walk(content) if isinstance(w, TCToggle) and w.text == names[city]]
            yield from _reach(d, toggles[-1])
            d.tap(toggles[-1])  # the hand's row comes last
            yield 0.3
        if seat == "liberation-1":
            problems += _layout(d, "join-liberation-gate")
            d.shot("join-liberation-gate")
        d.tap(d.find("Done — hide", root=gate))
        yield 0.5
        d.check(not gate.active, "the gate closes")
        leak = _untold(d, base_name, control)
        d.check(not leak, f"the base gives nothing away on the shared screen after the gate: {leak}")
    d.check(form.get("private.liberation-1.base") == base_id, "the base was entered")
    d.check(scr.can_start, f"the engine accepts the position: {scr.footer!r} {scr.problems}")
    leak = _untold(d, base_name, control)
    d.check(not leak, f"the base gives nothing away in the widget tree: {leak}")
    problems += _layout(d, "join-liberation-entered")
    d.shot("join-liberation-entered")
    for _ in range(3):
        d.tap("Next →")
        yield 0.35
    shown = " ".join(d.texts(scr))
    d.check("Bob's secret entries: entered" in shown and base_name not in shown, f"the start page: {shown[:300]!r}")
    d.shot("join-liberation-start")
    d.tap(d.find("▶ Start the game", root=scr))
    yield from settle(d)
    yield 0.6
    app = App.get_running_app()
    d.check(app.table is not None and app.table.state.base == base_id and app.table.view()["act"] == 2,
            "the Table starts in ACT II with the base where Bob put it")
    d.check(app.sm.current == "game:liberation", f"the table screen shows: {app.sm.current}")
    leak = _untold(d, base_name, control)
    d.check(not leak, f"the base gives nothing away in the table screen's widget tree: {leak}")
    d.check(not any(base_id in ln.text or base_name in ln.text for ln in app.table.log()), "nor in the log")
    d.shot("join-liberation-table")
    d.note(json.dumps(problems))
    d.note("joined liberation in ACT II with the base behind the gate")


def join_layout(d: Any) -> Iterator[float]:
    """tests/ui/layout_check.py over the new pages: the first page with the choice, the
    position form of each game (custody's escape numbers shown), a holder's secret entry
    behind the gate, and the start page. The last note is the problems found (JSON)."""
    problems: list[str] = []
    scale = int(d.app.theme.scale * 100)
    for title in ("Tyranny", "Liberation"):
        yield from _to_position_page(d, title)
        scr = _setup(d)
        if title == "Tyranny":
            yield from _tap_in(d, "pieces.criminals-1.custody", "Yes")
        problems += _layout(d, f"join-{title.lower()}-form-{scale}")
        d.shot(f"join-layout-{title.lower()}-form-{scale}")
        if title == "Liberation":
            # Only its layout matters here: opened and held by code (join_liberation holds
            # it with a finger, the way a player does).
            scr._open_secret("liberation-1")
            yield 0.3
            gate = scr.ids.gate
            gate.model.press(gate._clock() - 5)
            gate._tick(0)
            yield 0.5
            d.check(gate.phase == "open", f"held open: {gate.phase}")
            problems += _layout(d, f"join-liberation-gate-{scale}")
            d.shot(f"join-layout-liberation-gate-{scale}")
            gate.close()
            yield 0.4
        scr.show_step(0)
        yield 0.3
        problems += _layout(d, f"join-{title.lower()}-first-page-{scale}")
        scr.show_step(len(scr.model.steps()) - 1)
        yield 0.3
        problems += _layout(d, f"join-{title.lower()}-start-{scale}")
        d.app.go("home")
        yield 0.3
    d.note(json.dumps(problems))


def _hold_gate_open(d: Any, seat: str) -> Iterator[float]:
    """Open ``seat``'s secret entry and hold the gate open by code (join_liberation holds it
    with a finger, the way a player does)."""
    scr = _setup(d)
    scr._open_secret(seat)
    yield 0.3
    gate = scr.ids.gate
    gate.model.press(gate._clock() - 5)
    gate._tick(0)
    yield 0.5
    d.check(gate.phase == "open", f"held open: {gate.phase}")


def join_new_games(d: Any) -> Iterator[float]:
    """Dicetopia, Against All Tyrants and Outrage!: each form through
    tests/ui/layout_check.py in players' words, Start held back until the secrets are in;
    then Outrage! is reached and entered by touch (turn 6, Bob held in the Bloody Tower with
    a turn served and carrying the Orb, both hands behind the gate), started, and the engine
    checked. The first two pages are opened by
    code: the touch walk to the page is join_tyranny's and Outrage!'s here, and every page
    build costs a second or two (the suite's budget)."""
    from kivy.app import App

    from companion.ui.presenters.setup import SetupModel
    from companion.ui.widgets.base import TCToggle

    problems: list[str] = []
    scale = int(d.app.theme.scale * 100)
    d.app.go("setup")
    yield 0.4
    scr = _setup(d)
    for gid, first in (("dicetopia", "banxa-1"), ("against_all_tyrants", "attacker-1")):
        model = SetupModel.for_game(gid)
        model.joining = True
        scr.model = model
        scr.show_step(model.steps().index("position"))
        yield 0.4
        form = scr.model.position_form()
        shown = " ".join(d.texts(scr))
        d.check(not any(s["id"] in shown for s in form.seats), f"{gid}: no seat ids on the page")
        said = scr._form_view.problem_text(f"secret:{first}")
        d.check(not scr.can_start and "enter this behind the privacy gate" in said, f"{gid}: Start waits for the secrets: {said!r}")
        problems += _layout(d, f"join-{gid}-form-{scale}")
        d.shot(f"join-{gid}-form-{scale}")
    scr.model = SetupModel.for_game("outrage")  # back to the first page, as a fresh wizard
    scr.show_step(0)
    yield 0.3
    # Outrage!: a game under way, reached and entered by touch.
    yield from _to_position_page(d, "Outrage!")
    scr = _setup(d)
    form = scr.model.position_form()
    d.check(not any(s["id"] in " ".join(d.texts(scr)) for s in form.seats), "outrage: no seat ids on the page")
    problems += _layout(d, f"join-outrage-form-{scale}")
    d.shot(f"join-outrage-form-{scale}")
    yield from _tap_in(d, "turn", "+ 5")
    yield from _tap_in(d, "seat", "Bob")
    yield from _tap_in(d, "pieces.blue-1.held", "Yes")  # the page is made afresh: the prison and turns served appear
    said = scr._form_view.problem_text("pieces.blue-1.square")
    d.check("stands on Bloody Tower" in said, f"the engine's problem beside Bob's square: {said!r}")
    d.check("pieces.blue-1.held.served" in scr._form_view.controls, "turns served are asked once Bob is held")
    problems += _layout(d, f"join-outrage-held-{scale}")
    d.shot(f"join-outrage-held-{scale}")
    # Bob's square from its drop-down list (picked by its name, as a finger picks a row of it).
    spinner = scr._form_view.controls["pieces.blue-1.square"]
    d.check(not spinner.values, "a drop-down's rows are made only when it opens")
    yield from _reach(d, spinner)
    d.tap(spinner)
    yield 0.4
    d.check(spinner.is_open and "Bloody Tower" in spinner.values
            and not any(v.startswith("w") and v[1:].isdigit() for v in spinner.values), "the squares are listed by name")
    spinner.text = "Bloody Tower"  # the row a finger picks (the open list is taller than the screen)
    spinner.is_open = False
    yield 0.3
    yield from _tap_in(d, "pieces.blue-1.held.served", "+ 1")
    d.check(scr._form_view.problem_text("pieces.blue-1.square") == "", "the problem is gone with Bob in the Bloody Tower")
    yield from _tap_in(d, "jewels.orb", "Bob")
    d.check(form.get("turn") == 6 and form.get("seat") == "blue-1" and form.get("jewels", {}).get("orb") == "blue-1",
            f"entered: turn {form.get('turn')}, seat {form.get('seat')}, jewels {form.get('jewels')}")
    hands = {}
    for seat in ("red-1", "blue-1"):
        yield from _hold_gate_open(d, seat)
        gate = scr.ids.gate
        toggles = [w for w in d.walk(gate.ids.content) if isinstance(w, TCToggle)]
        toggles.reverse()  # the walk goes last child first
        for w in (toggles[:3] if seat == "red-1" else toggles[3:6]):
            yield from _reach(d, w)
            d.tap(w)
            yield 0.25
        hands[seat] = list(form.get(f"private.hands.{seat}") or [])
        if seat == "red-1":
            problems += _layout(d, f"join-outrage-gate-{scale}")
            d.shot(f"join-outrage-gate-{scale}")
        d.tap(d.find("Done — hide", root=gate))
        yield 0.5
        d.check(not gate.active, "the gate closes")
    d.check(all(len(h) == 3 for h in hands.values()), f"three cards each: {hands}")
    d.check(scr.can_start, f"the engine accepts the position: {scr.footer!r} {scr.problems}")
    shown = " ".join(d.texts(scr))
    d.check("Bob enters in private: the Tower cards in hand. ✔ Entered." in shown, "the page says Bob's hand is entered")
    for _ in range(3):
        d.tap("Next →")
        yield 0.35
    shown = " ".join(d.texts(scr))
    d.check("Where is the Orb: Bob" in shown and "Turn number (this turn included): 6" in shown,
            f"the summary says what differs: {shown[:400]!r}")
    problems += _layout(d, f"join-outrage-start-{scale}")
    d.tap(d.find("▶ Start the game", root=scr))
    yield from settle(d)
    yield 0.6
    app = App.get_running_app()
    t = app.table
    d.check(t is not None and app.sm.current == "game:outrage", f"the table screen shows: {app.sm.current}")
    d.check(t.state.jewels["orb"] == "blue-1" and t.state.order.turn == 6 and t.state.order.current == "blue-1",
            f"the engine starts from the position: {t.state.jewels} turn {t.state.order.turn}")
    held = t.state.held.get("blue-1")
    d.check(held is not None and (held.place, held.served) == ("bloody", 1) and t.state.pos["blue-1"] == "bloody-tower",
            f"Bob is held in the Bloody Tower, one turn served: {held} on {t.state.pos['blue-1']}")
    d.check({s: t.state.hands[s].cards for s in hands} == hands, "the hands are the ones entered behind the gate")
    d.check(not any(c in ln.text for ln in t.log() for h in hands.values() for c in h), "no hand card in the log")
    d.shot("join-outrage-table")
    d.note(json.dumps(problems))
    d.note("joined outrage at turn 6 with the hands behind the gate")
