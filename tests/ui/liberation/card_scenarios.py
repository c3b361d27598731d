"""The map-cards scenarios (RULINGS L-15 and L-14), from the setup wizard: the table enters
its four double-sided map cards on screen (cities, then per side lines and the lines leaving
each card), the rules' problems shown as it goes; saves them; lays them out for this game —
a layout whose map cannot be played keeps Start off with the reason — and plays a few turns
on that map with every card drawn being the table's own, entered behind the privacy gate.
"""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.liberation.map_scenarios import NAMES, _type
from tests.ui.liberation.scenarios import (
    _enter_physical, _hold_gate, _no_leak, _screen, _scroll_view_of, _settle, _tap,
)

# The set the table enters (city-01 … city-14 named NAMES; city-08 moved from card 2 to
# card 3). Every side has a line leaving the middle of each edge, so the cards always join
# up; but on card 4's side B the last city's only line leaves at right-1, where no other
# card has one: any layout with that side up leaves it without a line (unplayable).
CARDS = {
    "card-1": ["city-01", "city-02", "city-03", "city-04"],
    "card-2": ["city-05", "city-06", "city-07"],
    "card-3": ["city-08", "city-09", "city-10", "city-11"],
    "card-4": ["city-12", "city-13", "city-14"],
}
MIDDLES = ("top-2", "right-2", "bottom-2", "left-2")


def _side_plan(card: str, side: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(lines, stubs) entered on one side of one card."""
    cs = CARDS[card]
    if card == "card-4" and side == "b":
        return [(cs[0], cs[1])], [(cs[0], p) for p in MIDDLES] + [(cs[2], "right-1")]
    if side == "a":
        return list(zip(cs, cs[1:])), [(cs[0], p) for p in MIDDLES]
    return [(cs[-1], c) for c in cs[:-1]], [(cs[-1], p) for p in MIDDLES]


def _cards_screen(d: Any) -> Any:
    return d.app.sm.get_screen("liberation-map-cards")


def _touch(d: Any, w: Any) -> Iterator[float]:
    """Tap ``w`` as a finger would (scrolled into view first if it is in a scroll view)."""
    sv = _scroll_view_of(w)
    if sv is not None and not d.is_visible(w):
        sv.scroll_to(w, padding=10, animate=False)
        yield 0.1
    d.tap(w)
    # A scroll view hands a tap on its content over when the finger lifts (Kivy's
    # ScrollView replays the release a moment later): wait for it.
    yield 0.45 if sv is not None else 0.05


def _back_in_setup(d: Any) -> Iterator[float]:
    """Until the wizard has slid back in (its page rebuilt with every choice kept)."""
    sm = d.app.sm
    for _ in range(40):
        if sm.current == "setup" and not getattr(sm.transition, "is_active", False):
            break
        yield 0.05
    yield 0.2
    d.check(sm.current == "setup", f"back in the wizard (at {sm.current})")


def _layout(d: Any, where: str) -> list[str]:
    from tests.ui.layout_check import check_layout

    return [f"{where}: {p}" for p in check_layout(d.app.sm.current_screen)]


def _wizard_to_map_cards(d: Any) -> Iterator[float]:
    from kivy.uix.textinput import TextInput

    app = d.app
    app.go("setup")
    yield 0.2
    yield from _tap(d, "Liberation")
    yield from _tap(d, "Next →")
    setup = app.sm.get_screen("setup")
    inputs = sorted((w for w in d.walk(setup) if isinstance(w, TextInput)), key=lambda w: -w.to_window(*w.pos)[1])
    for ti, name in zip(inputs, ("Dana", "Lee")):
        _type(d, ti, name)
    yield 0.1
    yield from _tap(d, "Next →")
    yield from _tap(d, "⊞ Map cards arranged this game")


def _to_start(d: Any) -> Iterator[float]:
    for _ in range(4):
        if d.has("Start the game"):
            break
        yield from _tap(d, "Next →")


def liberation_card_set_game(d: Any) -> Iterator[float]:
    """Enter a card set on screen, lay it out (an unplayable layout blocks Start), and play
    a short game on it with physical draws; the engine's state is the last note (JSON)."""
    from rules.liberation import GAME
    from rules.liberation.mapcards import compose

    from companion.ui.games.liberation.mapfiles import load_card_set, saved_card_sets

    app = d.app
    problems: list[str] = []
    yield from _wizard_to_map_cards(d)
    setup = app.sm.get_screen("setup")
    yield from _tap(d, "✎ Enter our map cards")
    d.check(app.sm.current == "liberation-map-cards", f"the card entry opens from the map step (at {app.sm.current})")
    scr = _cards_screen(d)
    yield 0.3
    problems += _layout(d, "card entry, new")
    d.shot("lib-cards-entry-new")
    d.check("City 1 has no name yet" in scr.problems_text, f"unnamed cities are listed: {scr.problems_text!r}")
    _type(d, scr.ids.set_name, "Kitchen cards")
    scr.ids.set_name.dispatch("on_text_validate")
    yield 0.1
    editor = scr.ids.editor
    toggles = scr._toggles
    # Cities: each card's, named on that card; the second city named like the first at
    # first: the rules refuse the duplicate, in the players' words.
    for n, card in enumerate(("card-1", "card-2", "card-3", "card-4")):
        yield from _touch(d, toggles[f"card:{card}"])
        for cid in [c.id for c in scr.entry.cities_on(card)]:
            d.tap(editor.map.buttons[cid])
            yield 0.03
            i = int(cid[-2:]) - 1
            _type(d, scr.ids.city_input, NAMES[0] if cid == "city-02" else NAMES[i])
            yield 0.03
    yield 0.1
    d.check(f"Map card 1, {NAMES[0]}: the name '{NAMES[0]}' is already on Map card 1" in scr.problems_text
            or f"the name '{NAMES[0]}' is already on Map card 1" in scr.problems_text,
            f"a name used twice is refused in the players' words: {scr.problems_text!r}")
    yield from _touch(d, scr.ids.save)
    d.check(scr.message.startswith("✖ Not saved") and NAMES[0] in scr.message, f"not saved with a problem: {scr.message!r}")
    yield from _touch(d, toggles["card:card-1"])
    d.tap(editor.map.buttons["city-02"])
    yield 0.05
    _type(d, scr.ids.city_input, NAMES[1])
    yield 0.05
    # city-08 moves from card 2 to card 3 (the physical card 3 has four cities).
    yield from _touch(d, toggles["card:card-2"])
    d.tap(editor.map.buttons["city-08"])
    yield 0.05
    yield from _touch(d, scr.ids.card)
    d.check(scr.entry.card_of["city-08"] == "card-3" and scr.entry.card == "card-3" and "city-08" in editor.map.buttons,
            f"the city moved to card 3 and the screen followed it: {scr.message!r}")
    d.check(scr.ready, f"named and on their cards, the set is valid: {scr.problems_text!r}")
    d.shot("lib-cards-entry-cities")
    # Per card and side: lines by tapping pairs, exits by a city then an edge position.
    for card in CARDS:
        for side in ("a", "b"):
            yield from _touch(d, toggles[f"card:{card}"])
            yield from _touch(d, toggles[f"side:{side}"])
            lines, stubs = _side_plan(card, side)
            yield from _touch(d, toggles["mode:lines"])
            for a, b in lines:
                d.tap(editor.map.buttons[a])
                yield 0.03
                d.tap(editor.map.buttons[b])
                yield 0.03
            yield from _touch(d, toggles["mode:exits"])
            for city, at in stubs:
                d.tap(editor.map.buttons[city])
                yield 0.03
                d.tap(editor.edges[at])
                yield 0.03
            if card == "card-1" and side == "a":
                d.check("a line leaves" in scr.message and "left edge, 2nd from the top" in scr.message, f"{scr.message!r}")
                problems += _layout(d, "card entry, exits")
                d.shot("lib-cards-entry-exits")
    e = scr.entry
    d.check(e.stubs[("card-4", "b")]["right-1"] == "city-14" and len(e.sides[("card-3", "b")].lines) == 3,
            "the taps entered the lines and exits")
    yield from _touch(d, scr.ids.save)
    d.check("Saved" in scr.message, f"saved: {scr.message!r}")
    saved = saved_card_sets(scr.entry.folder)
    d.check([s.name for s in saved] == ["Kitchen cards"], f"saved in {scr.entry.folder}: {[s.name for s in saved]}")
    cs = load_card_set(scr.entry.folder / "kitchen-cards.json")
    d.check([len(c.cities) for c in cs.cards] == [4, 3, 4, 3] and cs.card("card-2").sides["b"].stubs[0].city == "city-07",
            "the file holds the cards as entered")
    yield from _touch(d, scr.ids.back)
    yield from _back_in_setup(d)
    # Back in the wizard: the set just saved is the one in use, laid out in order.
    d.check(d.find("Kitchen cards", visible=False).state == "down", "back at setup with our cards chosen")
    buttons, status = setup.__dict__["_liberation_cards_view"]
    d.check("✔ The map this game" in status.text and setup.can_start, f"laid out in order they play: {status.text!r}")
    problems += _layout(d, "setup, map cards")
    d.shot("lib-cards-setup-ours")
    # Card 4 flipped (side B up): its last city's only line meets nothing; Start stays off.
    yield from _touch(d, buttons["bottom-right"][2])
    d.check("✖" in status.text and f"'{NAMES[13]}' has no line" in status.text, f"the reason is shown: {status.text!r}")
    d.check(not setup.can_start and f"'{NAMES[13]}' has no line" in setup.footer, f"Start is off, the footer says why: {setup.footer!r}")
    problems += _layout(d, "setup, quadrants, unplayable")
    d.shot("lib-cards-setup-unplayable")
    yield from _to_start(d)
    start = d.find("Start the game", visible=False)
    d.check(start.disabled, "the Start button is off on the last page")
    d.shot("lib-cards-start-blocked")
    for _ in range(4):  # back to the house rules
        if setup.model.steps()[setup.model.step] == "rules":
            break
        yield from _tap(d, "← Back")
    buttons, status = setup.__dict__["_liberation_cards_view"]
    # This game's layout: card 4 flipped back; card 1 turned a quarter; card 2 side B up.
    for w in (buttons["bottom-right"][2], buttons["top-left"][3], buttons["top-right"][2]):
        yield from _touch(d, w)
    cards = setup.model.__dict__["liberation_cards"]
    arrangement = cards.arrangement
    d.check([(p.card, p.side, p.turn) for p in arrangement.placements]
            == [("card-1", "a", 90), ("card-2", "b", 0), ("card-3", "a", 0), ("card-4", "a", 0)],
            f"the taps laid the cards out: {cards.describe()}")
    d.check(setup.can_start and "✔" in status.text, f"playable again: {status.text!r}")
    composed = compose(cs, arrangement)
    seat = {s["faction"]: s["id"] for s in setup.model.named_seats()}
    dyn, lb = seat["dynasty"], seat["liberation"]
    yield from _to_start(d)
    yield from _tap(d, "Start the game")
    yield 0.4
    d.check(app.sm.current == "game:liberation", f"the game starts (at {app.sm.current})")
    d.check(GAME.map_of(app.table.state) == composed, "the engine plays on the map the cards make")
    lib = _screen(d)
    yield from _settle(d)
    # Card 1 is turned 90° clockwise: its top-left city is now top right, its top-right
    # city bottom right, as on the table.
    b = {c: lib.ids.map.buttons[c].center for c in CARDS["card-1"]}
    d.check(b["city-01"][0] > b["city-03"][0] and b["city-01"][1] > b["city-02"][1] and b["city-03"][1] > b["city-04"][1],
            f"card 1's cities are drawn turned with it: {b}")
    problems += _layout(d, "table, map cards")
    d.shot("lib-cards-table")
    # The game: the unseen discard (L-14), both hands and every draw entered behind the gate.
    yield from _tap(d, "face down, unseen")
    yield from _enter_physical(d, dyn, "Dana: enter the 3 cards you drew", 3, shot="lib-cards-phys-deal")
    yield from _enter_physical(d, lb, "Lee: enter the 3 cards you drew", 3)
    yield from _tap(d, "place your first City")
    yield from _hold_gate(d)
    yield from _tap(d, "as your first City")
    yield from _tap(d, "place your secret base")
    yield from _hold_gate(d)
    yield from _tap(d, "Put your secret base at")
    _no_leak(d, "after the base")
    p = lib.presenter
    draws = 0
    for turn in range(3):
        seat = app.table.view()["active"]
        yield from _enter_physical(d, seat, f"{p.name(seat)}: enter the card you drew", 1,
                                   shot="lib-cards-phys-draw" if turn == 0 else "")
        draws += 1
        if seat == dyn:
            yield from _tap(d, "Take no action")
        else:
            yield from _tap(d, "your action")
            yield from _hold_gate(d)
            yield from _tap(d, "Take no action")
        if app.table.view()["phase"] == "step3":
            yield from _tap(d, "discard down to 3 (behind the gate)")
            yield from _hold_gate(d)
            yield from _tap(d, "▥ Discard ")
        _no_leak(d, f"turn {turn + 1}")
    d.shot("lib-cards-after")
    state = app.table.state
    d.note(f"{draws} physical draws on our map cards")
    d.note(json.dumps({
        "map": GAME.map_of(state).id, "composed": composed.id, "turn": app.table.view()["turn"],
        "active": app.table.view()["active"], "dynasty": dyn, "liberation": lb,
        "hands": {s: len(state.hands[s].cards) for s in (dyn, lb)},
        "layout_problems": problems,
    }))


def liberation_card_set_layout(d: Any) -> Iterator[float]:
    """The new screens at the text size given (the test runs it at 160%): the map-cards
    step, the card entry (cities, then exits), and the table on turned cards; each checked
    by tests/ui/layout_check.py, the problems in the last note (JSON)."""
    app = d.app
    problems: list[str] = []
    scale = int(app.theme.scale * 100)
    yield from _wizard_to_map_cards(d)
    setup = app.sm.get_screen("setup")
    yield 0.3
    problems += _layout(d, "setup, map cards")
    d.shot(f"lib-cards-setup-{scale}")
    yield from _tap(d, "✎ Enter our map cards")
    scr = _cards_screen(d)
    yield 0.3
    editor = scr.ids.editor
    d.tap(editor.map.buttons["city-01"])
    yield 0.05
    _type(d, scr.ids.city_input, "Aurora")
    yield 0.1
    problems += _layout(d, "card entry, cities")
    d.shot(f"lib-cards-entry-cities-{scale}")
    yield from _touch(d, scr._toggles["mode:exits"])
    d.tap(editor.map.buttons["city-01"])
    yield 0.03
    d.tap(editor.edges["top-1"])
    yield 0.1
    d.check(scr.entry.exits() == {"top-1": "city-01"}, "an exit entered")
    problems += _layout(d, "card entry, exits")
    d.shot(f"lib-cards-entry-exits-{scale}")
    yield from _touch(d, scr.ids.back)
    yield from _back_in_setup(d)
    buttons, _status = setup.__dict__["_liberation_cards_view"]
    for w in (buttons["top-left"][3], buttons["bottom-right"][3], buttons["bottom-right"][3]):
        yield from _touch(d, w)
    setup.ids.scroll.scroll_to(buttons["bottom-right"][3], padding=10, animate=False)
    yield 0.2
    problems += _layout(d, "setup, quadrants")
    d.shot(f"lib-cards-setup-quadrants-{scale}")
    yield from _to_start(d)
    yield from _tap(d, "Start the game")
    yield 0.5
    d.check(app.sm.current == "game:liberation", f"the game starts (at {app.sm.current})")
    yield from _settle(d)
    problems += _layout(d, "table, map cards")
    d.shot(f"lib-cards-table-{scale}")
    d.note(json.dumps(problems))
