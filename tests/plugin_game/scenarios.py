"""Stepping Stones in the real app (run by test_in_the_app.py through tests/ui/driver.py as
``tests.plugin_game.scenarios:<name>``): the wizard lists it, a game is played by touch,
resumed by a new process, and joined in progress through the wizard's position form."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.join_scenarios import _reach, _setup, _tap_in
from tests.ui.scenarios import _wait_for

SCREEN = "game:stepping_stones"


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen(SCREEN)


def _settle(d: Any) -> Iterator[float]:
    app = d.app
    yield from _wait_for(lambda: app.table is not None and app.sm.current == SCREEN and _screen(d).shown_ply == app.table.ply)
    yield 0.2


def _roll(d: Any, face: int) -> Iterator[float]:
    tray = _screen(d).ids.dice
    ply = d.app.table.ply
    w = d.find(str(face), root=tray.ids.faces, visible=False)
    yield from _reach(d, w)  # the side column scrolls at 800×480
    d.tap(w)
    yield 0.1
    if tray.model.pending is not None:
        yield from _reach(d, tray.ids.roll_for_me)
        d.tap(tray.ids.roll_for_me)  # "✔ Now": submitted at once
    yield from _wait_for(lambda: d.app.table.ply > ply)
    d.check(d.app.table.ply > ply, f"the roll of {face} was taken (pending: {tray.model.pending})")
    yield from _settle(d)


def _tap_button(d: Any, label: str) -> Iterator[float]:
    ply = d.app.table.ply
    w = d.find(label, root=_screen(d).ids.actions, visible=False)
    yield from _reach(d, w)
    d.tap(w)
    yield from _wait_for(lambda: d.app.table.ply > ply)
    yield from _settle(d)


def listed_and_played(d: Any) -> Iterator[float]:
    """The wizard offers the game by its title; a game is played by touch: a roll on the
    dice tray, a leap and a gathered pebble from the action panel, the path redrawn."""
    d.app.go("setup")
    yield 0.5
    wiz = _setup(d)
    d.check(d.find("Stepping Stones", root=wiz, visible=False) is not None, "the wizard lists Stepping Stones")
    d.app.new_game("stepping_stones", [{"id": "fox-1", "faction": "fox", "name": "Ann"},
                                       {"id": "hare-1", "faction": "hare", "name": "Bob"}], {}, seed=5)
    yield from _settle(d)
    scr = _screen(d)
    d.check("Ann" in scr.prompt_text and "roll" in scr.prompt_text, f"Ann rolls first: {scr.prompt_text!r}")
    yield from _roll(d, 5)
    d.check("leap or gather" in scr.prompt_text, f"the choice after the roll: {scr.prompt_text!r}")
    yield from _tap_button(d, "Leap forward")
    d.check("the Mill: Ann" in scr.path_text, f"Ann stands on the Mill: {scr.path_text!r}")
    yield from _roll(d, 2)
    yield from _tap_button(d, "Gather a pebble")
    d.check("Bob: 1 pebble" in scr.pebble_text, f"Bob gathered a pebble: {scr.pebble_text!r}")
    d.check("fox-1" not in " ".join(d.texts(scr)) and "mill" not in " ".join(d.texts(scr)), "no ids on the screen")
    d.shot("stepping-stones-played")
    d.note(f"played to ply {d.app.table.ply}: {d.app.table.key}")


def resumed(d: Any) -> Iterator[float]:
    """A new process on the same journal: the game in progress resumes where it was."""
    going = [g for g in d.app.journal.games(status="in-progress") if g.game_id == "stepping_stones"]
    d.check(len(going) == 1, f"one Stepping Stones game in progress: {going}")
    d.app.resume_game(going[0].key)
    yield from _settle(d)
    scr = _screen(d)
    d.check(d.app.table.ply == 4, f"four actions were journaled: ply {d.app.table.ply}")
    d.check("the Mill: Ann" in scr.path_text and "Bob: 1 pebble" in scr.pebble_text, f"as it was: {scr.path_text!r}")
    d.check("Ann" in scr.prompt_text and "roll" in scr.prompt_text, f"Ann's turn again: {scr.prompt_text!r}")
    yield from _roll(d, 6)
    yield from _tap_button(d, "Leap forward")
    d.check("the Well: Ann" in scr.path_text, f"Ann leapt on to the Well: {scr.path_text!r}")


def joined(d: Any) -> Iterator[float]:
    """Joined in progress through the wizard: the game's own form (its stones by name),
    refused while Bob stands on the Tower, started from the position entered."""
    from tests.ui.join_scenarios import _to_position_page

    yield from _to_position_page(d, "Stepping Stones")
    scr = _setup(d)
    yield from _tap_in(d, "stones.fox-1", "the Old Oak")
    yield from _tap_in(d, "pebbles.hare-1", "+ 1")
    yield from _tap_in(d, "pebbles.hare-1", "+ 1")
    yield from _tap_in(d, "seat", "Bob")
    form = scr.model.position_form()
    d.check(form.get("stones.fox-1") == "oak" and form.get("pebbles.hare-1") == 2 and form.get("seat") == "hare-1",
            f"entered: {form.position}")
    d.check(scr.can_start, f"the engine accepts it: {scr.footer!r}")
    for _ in range(3):
        if scr.step_title.endswith("Start"):
            break
        d.tap("Next →")
        yield 0.35
    d.check(scr.step_title.endswith("Start"), f"on the start page: {scr.step_title}")
    d.tap(d.find("▶ Start the game", root=scr))
    yield from _settle(d)
    game = _screen(d)
    d.check("the Old Oak: Ann" in game.path_text and "Bob: 2 pebbles" in game.pebble_text, f"started there: {game.path_text!r}")
    d.check("Bob" in game.prompt_text, f"Bob's turn: {game.prompt_text!r}")
    d.shot("stepping-stones-joined")
