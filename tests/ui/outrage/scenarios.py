"""Outrage! in the real app (tests/ui/outrage/test_app.py): a short six-seat game joined
in progress (tests/ui/outrage/positions.py) with a prison escape, an attack laid face
down behind the gate and revealed, and a burglary; the layout check at 800×480."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.liberation.scenarios import HOLD_S, _find, _scroll_view_of
from tests.ui.outrage.positions import SEATS, heist
from tests.ui.scenarios import hold_gate

SCREEN = "game:outrage"


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen(SCREEN)


def _settle(d: Any, since: int | None = None) -> Iterator[float]:
    scr = _screen(d)
    for _ in range(100):
        moved = since is None or d.app.table.ply != since
        if moved and scr.shown_ply == d.app.table.ply and not (scr.recording or scr._refresh_trigger.is_triggered):
            break
        yield 0.05
    yield 0.1


def _tap(d: Any, text: str, root: Any = None) -> Iterator[float]:
    w = _find(d, text) if root is None else d.find(text, root=root, visible=False)
    for _ in range(40):
        if w.width != 100 or w.height != 100:
            break
        yield 0.05
    sv = _scroll_view_of(w)
    if sv is not None and not d.is_visible(w):
        sv.scroll_to(w, padding=10, animate=False)
        yield 0.1
    d.tap(w)
    yield 0.25 if sv is not None else 0.05


def _throw(d: Any, a: int, b: int) -> Iterator[float]:
    """Enter a physical 2d6 throw on the tray and submit it at once."""
    scr = _screen(d)
    tray = scr.ids.dice
    ply = d.app.table.ply
    for v in (a, b):
        face = d.find(str(v), root=tray.ids.faces, visible=False)
        scr.ids.side_scroll.scroll_to(face, padding=10, animate=False)
        yield 0.1
        d.tap(face)
        yield 0.05
    if tray.model.pending is not None:
        d.tap(tray.ids.roll_for_me)
    yield from _settle(d, since=ply)


def _hold_gate(d: Any) -> Iterator[float]:
    """Hold the table's privacy gate open as a person would (the shared driver's way)."""
    return hold_gate(d, _screen(d).ids.gate, HOLD_S)


def _confirm(d: Any) -> Iterator[float]:
    view = getattr(_screen(d), "_confirm", None)
    if view is not None and view.parent is not None:
        yield from _tap(d, view.confirm_text, root=view)


def _has(d: Any, text: str, root: Any) -> bool:
    return any(text in t for t in d.texts(root))


def _finish(d: Any, seat: str, limit: int = 12) -> Iterator[float]:
    """Play out ``seat``'s turn with the table's simplest answers: the app's cards, the
    first square, a non-double throw, "stay"/"no" to offers, Raven cards read."""
    scr = _screen(d)
    for _ in range(limit):
        t = d.app.table
        if t.outcome is not None or seat not in t.prompt.actors:
            return
        ply = t.ply
        if scr.raven_open:
            d.check(scr.ids.raven_text.text == scr.raven_text != "", "the Raven card shows large over the board")
            d.shot("outrage-raven")
            yield from _tap(d, "✔ Read aloud")
            yield 0.1
        if _has(d, "⚄ App's", scr.ids.actions):
            yield from _tap(d, "⚄ App's", scr.ids.actions)
        elif scr.ids.dice.is_awaiting:
            yield from _throw(d, 1, 2)
        elif _has(d, "→ ", scr.ids.actions):
            yield from _tap(d, "→ ", scr.ids.actions)
            yield from _confirm(d)
        else:
            labels = [b.text for b in d.walk(scr.ids.actions) if getattr(b, "text", "")]
            pick = next((x for x in labels if x.startswith(("No", "Don't", "Stay", "Serve"))), labels[0] if labels else "")
            d.check(pick, f"something to tap for {seat}: {t.prompt}")
            yield from _tap(d, pick, scr.ids.actions)
            yield from _confirm(d)
        yield from _settle(d, since=ply)


def _tap_square(d: Any, square: str) -> Iterator[float]:
    """A finger on the middle of ``square`` on the board."""
    from kivy.tests.common import UnitTestTouch

    board = _screen(d).ids.board
    cell = next(c for c in board._cells if c.id == square)
    x, y, s = board.cell_rect(cell)
    touch = UnitTestTouch(*board.to_window(x + s / 2, y + s / 2))
    touch.touch_down()
    touch.touch_up()
    yield 0.15


def _layout_problems(d: Any) -> list[str]:
    from tests.ui.layout_check import check_layout

    return check_layout(_screen(d))


def outrage_heist(d: Any) -> Iterator[float]:
    """Six seats at 800×480: Ann throws a double out of the Bloody Tower, Bob attacks Cat
    (each lays weapons face down behind the gate; the reveal moment names the winner), Dan
    makes his burglary throw and steals the Sword of State."""
    from tests.ui.game_scenarios import internal_names

    from rules.outrage.board import default_board

    options, position = heist()
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield 0.4
    problems = [f"start: {p}" for p in _layout_problems(d)]
    d.check("turn 3 of 3" in " ".join(scr.strips_text), f"Ann's prison turn on her strip: {scr.strips_text[0]!r}")
    d.check("needs 5+, attempt 2" in " ".join(scr.strips_text), "Dan's burglary target on his strip")
    d.check("RECONSTRUCTED" in scr.mode_text and "checked" in scr.mode_text and scr.mode_text in scr.ids.turn.text,
            f"the movement mode shows: {scr.mode_text!r}")
    d.shot("outrage-start")
    # A tap on a square tells its rule.
    board = scr.ids.board
    cell = next(c for c in board._cells if c.id == "w09")
    x, y, s = board.cell_rect(cell)
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*board.to_window(x + s / 2, y + s / 2))
    touch.touch_down()
    touch.touch_up()
    yield 0.1
    d.check("Tower card" in scr.info_text, f"a tap on a tower tells its rule: {scr.info_text!r}")
    yield from _tap_square(d, "i2-05")
    d.check("Yeoman Warder's post" in scr.info_text, f"a tap on a post tells its rule: {scr.info_text!r}")

    # The prison escape: a double.
    yield from _throw(d, 3, 3)
    d.check("⛓" not in scr.strips_text[0], f"Ann is out: {scr.strips_text[0]!r}")
    card = getattr(scr, "moment_card", None)
    d.check(card is not None and "Ann" in card.title, f"a moment says Ann is out: {getattr(card, 'title', None)!r}")
    d.shot("outrage-escape")
    # Six squares on, to an unmarked Inner Ward square: a Raven card, read aloud.
    yield from _tap(d, "→ Inner Ward row 15 column 2", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    # The table drew it from its own pack: entered in the open, from a searchable list.
    yield from _tap(d, "Enter the Raven card drawn", scr.ids.actions)
    yield 0.2
    d.check(scr.searching and not scr.ids.gate.active, "the Raven list opens on the shared screen, no gate")
    d.check("Raven card" in scr.ids.search_box.hint_text, f"the search says what it finds: {scr.ids.search_box.hint_text!r}")
    scr.ids.search_box.text = "photograph"
    yield 0.3
    problems += [f"raven list: {p}" for p in _layout_problems(d)]
    d.shot("outrage-raven-entry")
    yield from _tap(d, "HAVE YOUR PHOTOGRAPH TAKEN", scr.ids.actions)
    yield from _settle(d)
    d.check(not scr.searching, "the list closes once the card is entered")
    d.check(scr.raven_open and "PHOTOGRAPH" in scr.ids.raven_text.text, f"the Raven card shows large: {scr.raven_text!r}")
    d.shot("outrage-raven")
    yield from _tap(d, "✔ Read aloud")
    d.check(not scr.raven_open, "read aloud: the card is put away")
    yield from _finish(d, "p1")

    # The attack: Bob on Cat, face down behind the gate, then the reveal.
    yield from _tap(d, "⚔ Attack Cat", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    d.check(d.app.table.view()["phase"] == "attack", f"the attack is under way: {d.app.table.prompt}")
    yield from _tap(d, "▤ Bob: lay weapons face down", scr.ids.actions)
    yield from _hold_gate(d)
    card = getattr(scr, "moment_card", None)
    d.check(card is None or card.parent is None, "no result moment lies over the gate's page")
    d.shot("outrage-attack-gate")
    yield from _tap(d, "Lay Sword, Dagger face down", scr.ids.gate)
    yield from _settle(d)
    d.check(not scr.ids.gate.active, "the gate closed after Bob's choice")
    d.check(not d.has("Dagger"), "Bob's weapons are not on the public screen")
    yield from _tap(d, "▤ Cat: lay weapons face down", scr.ids.actions)
    yield from _hold_gate(d)
    yield from _tap(d, "Lay Mace face down", scr.ids.gate)
    yield from _settle(d)
    yield 0.2
    card = getattr(scr, "moment_card", None)
    d.check(card is not None and "against" in card.title and "Bob" in card.title, f"the reveal moment: {getattr(card, 'title', None)!r}")
    d.shot("outrage-attack-reveal")
    yield from _finish(d, "p2")

    # Round to Dan, then his burglary throw (needs 5+).
    for seat in ("p3",):
        yield from _finish(d, seat)
    d.check(d.app.table.prompt.actors == {"p4"}, f"Dan's turn: {d.app.table.prompt}")
    yield from _throw(d, 1, 4)
    dan = scr.strips_text[3]
    d.check("carries Sword of State" in dan, f"Dan carries the Sword: {dan!r}")
    card = getattr(scr, "moment_card", None)
    d.check(card is not None and "Sword of State" in card.title, f"the burglary moment: {getattr(card, 'title', None)!r}")
    d.shot("outrage-burglary")
    problems += [f"after the burglary: {p}" for p in _layout_problems(d)]
    b = default_board()
    ids = {s["id"] for s in SEATS} | set(b.squares) | set(b.jewels)
    bad = internal_names(d, scr, ids)
    d.check(not bad, "internal names on the Outrage screen:\n" + "\n".join(bad))

    # "Swap a card" at the table (RULINGS R-10): Ann names Bob; Bob says behind his gate
    # which of his cards Ann took; Ann's side by the app's blind pick.
    options, position = heist()
    position["pieces"]["p1"].update(square="w72", held=None)
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield from _throw(d, 1, 2)
    yield from _tap(d, "→ Swap a Tower card", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    yield from _tap(d, "Bob", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    d.check(d.app.table.view()["phase"] == "swap", f"the swap is under way: {d.app.table.prompt}")
    problems += [f"swap: {p}" for p in _layout_problems(d)]
    d.shot("outrage-swap")
    yield from _tap(d, "▤ Bob: which of your cards did Ann take?", scr.ids.actions)
    yield from _hold_gate(d)
    d.shot("outrage-swap-gate")
    yield from _tap(d, "Ann took my ", scr.ids.gate)
    yield from _settle(d)
    d.check(not scr.ids.gate.active, "the gate closed after Bob's word")
    yield from _tap(d, "⚄ The app picks the card Bob takes from Ann", scr.ids.actions)
    yield from _confirm(d)  # Bob will see the card he takes: it cannot be undone, so the tap asks first
    yield from _settle(d)
    d.check(d.app.table.view()["phase"] != "swap", f"the swap is done: {d.app.table.prompt}")
    bad = internal_names(d, scr, ids)
    d.check(not bad, "internal names on the Outrage screen after the swap:\n" + "\n".join(bad))
    d.note(json.dumps(problems))
    d.note("outrage: escape, attack, burglary")


def outrage_layout(d: Any) -> Iterator[float]:
    """Six seats, the split-seven dialog's second step and the square search open: the
    layout check (run at 160 % text)."""
    options, position = heist(movement="unchecked")
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield 0.4
    problems = [f"start: {p}" for p in _layout_problems(d)]
    scale = int(d.app.theme.scale * 100)
    d.check("Your own board" in scr.ids.turn.text and "unchecked" in scr.ids.turn.text,
            f"the top bar says the table's own board is in use: {scr.ids.turn.text!r}")
    d.shot(f"outrage-layout-{scale}")
    yield from _throw(d, 3, 3)  # out of the Bloody Tower, six to move: unchecked
    yield from _tap(d, "Find the square", scr.ids.actions)
    yield 0.2
    d.check(scr.searching, "the square search is open")
    scr.ids.search_box.text = "bell"
    yield 0.3
    d.check(_has(d, "→ Bell Tower", scr.ids.actions), f"the search finds the Bell Tower: {d.texts(scr.ids.actions)}")
    # A tap on the board picks a square into the search (the button confirms it).
    yield from _tap_square(d, "w00")
    d.check(scr.ids.search_box.text == "Start" and _has(d, "→ Start", scr.ids.actions),
            f"a tap picks Start: {scr.ids.search_box.text!r} {d.texts(scr.ids.actions)}")
    yield from _tap_square(d, "w71")
    d.check(scr.ids.search_box.text == "Bell Tower", f"then the Bell Tower: {scr.ids.search_box.text!r}")
    yield 0.2
    problems += [f"search: {p}" for p in _layout_problems(d)]
    d.shot(f"outrage-search-{scale}")
    yield from _tap(d, "→ Bell Tower", scr.ids.actions)
    yield from _settle(d)
    d.check(d.app.table.view()["pieces"]["p1"]["square_name"] == "Bell Tower", "Ann is where the table said")

    # The split seven, a two-step dialog: with whom, then how.
    options, position = heist()
    position["pieces"]["p1"].update(square="w10", held=None)
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield from _throw(d, 3, 4)
    yield from _tap(d, "Split the seven", scr.ids.actions)
    d.check(_has(d, "step 1 of 2: with whom?", scr.ids.actions), f"step 1: {d.texts(scr.ids.actions)}")
    yield from _tap(d, "Eve (◇ White)", scr.ids.actions)
    d.check(_has(d, "step 2 of 2", scr.ids.actions), f"step 2: {d.texts(scr.ids.actions)}")
    problems += [f"split: {p}" for p in _layout_problems(d)]
    d.shot(f"outrage-split-{scale}")
    yield from _tap(d, "Ann moves 6 · Eve moves 1", scr.ids.actions)
    yield from _confirm(d)
    yield from _settle(d)
    v = d.app.table.view()
    d.check(v["phase"] == "move" and v["dice"]["steps"] in (6, 1), f"the split is being moved: {d.app.table.prompt}")

    # The end, in teams (Red: Ann, Cat, Eve; Blue: Bob, Dan, Fay): Ann pays the ferryman
    # with the Orb; the shared end screen names the winning team, the scores and the
    # tie-breaks.
    options, position = heist()
    options["teams"] = True
    position["pieces"]["p1"].update(square="cradle", held=None, coin=True)
    position["jewels"]["orb"] = "p1"
    position["mint"] = 4
    team_seats = [dict(s, faction=("red", "blue")[i % 2]) for i, s in enumerate(SEATS)]
    d.app.new_game("outrage", team_seats, options, seed=3, position=position)
    scr = _screen(d)
    yield from _settle(d)
    yield 0.3
    d.check("team ♜ Red, with Cat and Eve" in scr.strips_text[0], f"Ann's strip names her team: {scr.strips_text[0]!r}")
    problems += [f"teams: {p}" for p in _layout_problems(d)]
    d.shot(f"outrage-teams-{scale}")
    yield from _tap(d, "Pay the ferryman", scr.ids.actions)
    yield from _confirm(d)
    for _ in range(60):
        if d.app.sm.current == "end":
            break
        yield 0.05
    yield 0.5
    end = d.app.sm.get_screen("end")
    d.check(d.app.sm.current == "end", f"the end screen shows: {d.app.sm.current}")
    d.check("Team ♜ Red (Ann, Cat and Eve): 2" in end.scores and "Team ♜ Red wins together" in end.scores
            and "Tie-breaks" in end.scores, f"the teams' scores and tie-breaks: {end.scores!r}")
    d.check("Ann, Cat and Eve win" in end.headline, f"the winning team: {end.headline!r}")
    from tests.ui.layout_check import check_layout

    problems += [f"end: {p}" for p in check_layout(end)]
    d.shot(f"outrage-end-{scale}")
    d.note(json.dumps(problems))
