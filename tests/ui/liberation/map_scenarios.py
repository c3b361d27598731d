"""The map-entry scenario: from the setup wizard, enter a table's own map from 14 blank
cities — names typed, a category changed, lines by tapping pairs (and one removed by tapping
it again), the problems listed, an unplayable map refused — save it, pick it at setup and
play on it."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.liberation.scenarios import _settle_any, _tap_any


NAMES = ["Aurora", "Borealis", "Cygnus", "Draco", "Eridanus", "Fornax", "Gemini", "Hydra", "Indus", "Lyra",
         "Mensa", "Norma", "Orion", "Pavo"]


def _entry(d: Any) -> Any:
    return d.app.sm.get_screen("liberation-map")


def _type(d: Any, ti: Any, text: str) -> None:
    d.tap(ti)
    ti.text = ""
    ti.insert_text(text)


def liberation_map_entry(d: Any) -> Iterator[float]:
    from kivy.uix.textinput import TextInput

    from companion.ui.games.liberation.mapfiles import saved_maps

    app = d.app
    app.go("setup")
    yield 0.2
    yield from _tap_any(d, "Liberation")
    yield from _tap_any(d, "Next →")
    inputs = sorted((w for w in d.walk(app.sm.get_screen("setup")) if isinstance(w, TextInput)), key=lambda w: -w.to_window(*w.pos)[1])
    for ti, name in zip(inputs, ("Dana", "Lee")):
        _type(d, ti, name)
    yield 0.1
    yield from _tap_any(d, "Next →")
    d.check(d.find("Placeholder map (NOT the printed map)", visible=False), "the placeholder map is offered at setup")
    d.shot("lib-setup-map")
    yield from _tap_any(d, "Enter a new map")
    d.check(app.sm.current == "liberation-map", f"the map entry opens (at {app.sm.current})")
    scr = _entry(d)
    ids = [c.id for c in scr.entry.builder.cities]
    d.check(len(ids) == 14 and not scr.entry.lines(), "a new map starts with 14 blank cities and no lines")
    _type(d, scr.ids.map_name, "Kitchen table")
    scr.ids.map_name.dispatch("on_text_validate")
    yield 0.1
    # Names: tap each city, type its name; change the first one's category.
    for i, cid in enumerate(ids):
        d.tap(scr.ids.map.buttons[cid])
        yield 0.03
        _type(d, scr.ids.city_input, NAMES[i])
        yield 0.03
    d.tap(scr.ids.map.buttons[ids[0]])
    yield 0.05
    before = scr.entry.city(ids[0]).category
    yield from _tap_any(d, "Category: ")
    d.check(scr.entry.city(ids[0]).category != before, "tapping the category changes it")
    yield from _tap_any(d, "Category: ")  # … and round again until every category is used
    for _ in range(3):
        yield from _tap_any(d, "Category: ")
    d.check(scr.entry.city(ids[0]).category == before, "five taps come back to the first category")
    d.check(scr.entry.city(ids[0]).name == "Aurora" and "Aurora\n" in scr.ids.map.buttons[ids[0]].text,
            "the map shows the names typed")
    d.shot("lib-map-names")
    # Lines: a ring by tapping pairs, all but the last: the problems say what is missing.
    yield from _tap_any(d, "╱ Lines")
    pairs = list(zip(ids, ids[1:]))
    for a, b in pairs:
        d.tap(scr.ids.map.buttons[a])
        yield 0.03
        d.tap(scr.ids.map.buttons[b])
        yield 0.05
    d.check(scr.ready, f"a path through all 14 cities is playable: {scr.problems_text!r}")
    d.tap(scr.ids.map.buttons[ids[0]])
    yield 0.03
    d.tap(scr.ids.map.buttons[ids[1]])
    yield 0.1
    d.check("Line removed" in scr.message, f"tapping a pair again removes its line: {scr.message!r}")
    d.check(not scr.ready and "Aurora" in scr.problems_text, f"the problems name the cut-off city: {scr.problems_text!r}")
    d.shot("lib-map-problems")
    yield from _tap_any(d, "✔ Save")
    d.check("Not saved" in scr.message, f"an unplayable map is not saved: {scr.message!r}")
    for a, b in ((ids[0], ids[1]), (ids[-1], ids[0]), (ids[2], ids[9])):
        d.tap(scr.ids.map.buttons[a])
        yield 0.03
        d.tap(scr.ids.map.buttons[b])
        yield 0.05
    d.check(scr.ready and "Line added" in scr.message, f"the map is playable again: {scr.problems_text!r}")
    yield from _tap_any(d, "✔ Save")
    d.check("Saved" in scr.message, f"saved: {scr.message!r}")
    folder = scr.entry.folder
    d.check([m.name for m in saved_maps(folder)] == ["Kitchen table"], f"saved in {folder}")
    d.check(len(saved_maps(folder)[0].lines) == 15, "13 + 2 lines saved")
    d.shot("lib-map-saved")
    yield from _tap_any(d, "← Back")
    d.check(app.sm.current == "setup" and d.has("Kitchen table"), "back at setup with the saved map chosen")
    d.check(d.find("Kitchen table").state == "down", "the saved map is the chosen one")
    names = [s["name"] for s in app.sm.get_screen("setup").model.named_seats()]
    d.check(names == ["Dana", "Lee"], f"the names typed before are kept: {names}")
    d.shot("lib-setup-own-map")
    for _ in range(4):
        if d.has("Start the game"):
            break
        yield from _tap_any(d, "Next →")
    yield from _tap_any(d, "Start the game")
    yield 0.3
    d.check(app.sm.current == "game:liberation", f"the game starts (at {app.sm.current})")
    lib = app.sm.get_screen("game:liberation")
    d.check(lib.map_text == "Kitchen table" and "Aurora" in lib.ids.map.buttons["city-01"].text, f"played on the entered map: {lib.map_text!r}")
    d.shot("lib-table-own-map")
    d.note(f"map entered, saved to {folder.name}, picked at setup and played")


def liberation_map_cards_setup(d: Any) -> Iterator[float]:
    """Setup with the map cards arranged this game, entered by taps per quadrant (a card
    swapped in, flipped, turned), then two turns played on the map they make: the Dynasty's
    Attack aims only at cities adjacent on that map, across the cards' seams too."""
    from kivy.uix.textinput import TextInput

    from rules.liberation import GAME
    from rules.liberation.mapcards import Arrangement, Placement, compose, placeholder_card_set, stub_links
    from tests.ui.liberation.scenarios import _confirm, _hold_gate, _screen, _scroll_view_of, _tap_city

    app = d.app
    app.go("setup")
    yield 0.2
    yield from _tap_any(d, "Liberation")
    yield from _tap_any(d, "Next →")
    setup = app.sm.get_screen("setup")
    inputs = sorted((w for w in d.walk(setup) if isinstance(w, TextInput)), key=lambda w: -w.to_window(*w.pos)[1])
    for ti, name in zip(inputs, ("Dana", "Lee")):
        _type(d, ti, name)
    yield 0.1
    yield from _tap_any(d, "Next →")
    yield from _tap_any(d, "⊞ Map cards arranged this game")
    buttons, status = setup.__dict__["_liberation_cards_view"]
    d.check("Map card 1" in buttons["top-left"][0].text and "✔ The map this game" in status.text,
            f"the four cards are offered in order: {status.text!r}")
    # The table's layout: card 2 top left (card 1 moves to top right), flipped and turned 90°;
    # bottom right turned 180°.
    for widget in (buttons["top-left"][0], buttons["top-left"][2], buttons["top-left"][3],
                   buttons["bottom-right"][3], buttons["bottom-right"][3]):
        sv = _scroll_view_of(widget)  # a finger scrolls the quadrant into view first
        if sv is not None and not d.is_visible(widget):
            sv.scroll_to(widget, padding=10, animate=False)
            yield 0.1
        d.tap(widget)
        yield 0.2
    cs = placeholder_card_set()
    want = Arrangement((Placement("top-left", "card-2", "b", 90), Placement("top-right", "card-1", "a", 0),
                        Placement("bottom-left", "card-3", "a", 0), Placement("bottom-right", "card-4", "a", 180)))
    cards = setup.model.__dict__["liberation_cards"]
    d.check(cards.arrangement == want, f"the taps entered the layout: {cards.describe()}")
    d.check("Map card 2\nside B · ↻ 90°" == buttons["top-left"][0].text and "→" in buttons["top-left"][1].text,
            f"the picture shows the card, its side and its turn: {buttons['top-left'][0].text!r}")
    composed = compose(cs, want)
    d.check(setup.model.options["map"]["id"] == composed.id, "the composed map is the game's map option")
    d.shot("lib-setup-map-cards")
    seat = {s["faction"]: s["id"] for s in setup.model.named_seats()}
    dyn, lib = seat["dynasty"], seat["liberation"]
    for _ in range(4):
        if d.has("Start the game"):
            break
        yield from _tap_any(d, "Next →")
    yield from _tap_any(d, "Start the game")
    yield 0.3
    d.check(app.sm.current == "game:liberation", f"the game starts (at {app.sm.current})")
    m = GAME.map_of(app.table.state)
    d.check(m == composed, "the game plays on the map the cards make")
    scr = _screen(d)
    d.shot("lib-table-map-cards")
    # Setup: the app's deck deals; the first City is one with a neighbour across a seam.
    yield from _tap_any(d, "Discard the top card face down")
    yield from _tap_any(d, "deal 3 cards to Dana")
    yield from _tap_any(d, "deal 3 cards to Lee")
    state = app.table.state
    seams = {a for l in stub_links(cs, want) for a in l}
    hand = state.hands[dyn].cards
    x = next((c for c in hand if c in seams), hand[0])
    yield from _tap_any(d, "place your first City")
    yield from _hold_gate(d)
    yield from _tap_any(d, f"Occupy {m.name_of(x)}")
    yield from _tap_any(d, "place your secret base")
    yield from _hold_gate(d)
    base = state.hands[lib].cards[0]
    yield from _tap_any(d, f"Put your secret base at {m.name_of(base)}")
    # Dynasty turn 1: the Attack aims at exactly the cities next to X on this game's map.
    yield from _tap_any(d, "Don't draw")
    yield from _tap_city(d, x)
    targets = {c for c, b in scr.ids.map.buttons.items() if b.target}
    d.check(targets == set(m.neighbours(x)), f"the targets are X's neighbours on the composed map: {sorted(targets)}")
    d.shot("lib-map-cards-aim")
    safe = sorted(c for c in m.neighbours(x) if c != app.table.state.base and c not in app.table.state.hands[lib].cards)
    if safe:
        yield from _tap_city(d, safe[0])
        yield from _confirm(d)
        d.check(scr.reveal_open and "MISS" in scr.reveal_title, f"a MISS: {scr.reveal_title!r}")
        yield from _tap_any(d, "Continue")
    else:
        yield from _tap_city(d, x)
        yield from _tap_any(d, "Take no action")
    # Liberation turn 1: no draw, no action (behind the gate).
    yield from _tap_any(d, "Don't draw")
    yield from _tap_any(d, "your action")
    yield from _hold_gate(d)
    yield from _tap_any(d, "Take no action")
    d.check(app.table.view()["turn"] >= 3 and app.table.view()["active"] == dyn, f"two turns played: {app.table.view()['turn']}")
    d.shot("lib-map-cards-turn-3")
    d.note(f"map cards arranged by taps and played: {len(composed.lines)} lines, {len(stub_links(cs, want))} across seams")


def _wizard_to_the_map(d: Any) -> Iterator[float]:
    """Home → the wizard: Liberation, Dana and Lee, then the step with the map."""
    from kivy.uix.textinput import TextInput

    app = d.app
    app.go("setup")
    yield 0.2
    yield from _tap_any(d, "Liberation")
    yield from _tap_any(d, "Next →")
    inputs = sorted((w for w in d.walk(app.sm.get_screen("setup")) if isinstance(w, TextInput)), key=lambda w: -w.to_window(*w.pos)[1])
    for ti, name in zip(inputs, ("Dana", "Lee")):
        _type(d, ti, name)
    yield 0.1
    yield from _tap_any(d, "Next →")


def _start(d: Any) -> Iterator[float]:
    for _ in range(4):
        if d.has("Start the game"):
            break
        yield from _tap_any(d, "Next →")
    yield from _tap_any(d, "Start the game")
    yield 0.3
    d.check(d.app.sm.current == "game:liberation", f"the game starts (at {d.app.sm.current})")


def liberation_first_game_asks_for_the_map(d: Any) -> Iterator[float]:
    """Issue 32, item 10: the table's first Liberation game asks for its printed map and
    says why; the map entered is saved, and the next game plays on it without asking."""
    from companion.ui.games.liberation.mapfiles import saved_maps

    app = d.app
    yield from _wizard_to_the_map(d)
    yield 0.3
    # At the top of the step, read first: on screen without scrolling.
    d.check(d.has("Your first game of Liberation: enter your printed map first?"), "the first game asks for the map")
    d.check(d.has("The app checks every move against the map you play on"), "and says why")
    d.check(d.has("Enter our printed map"), "with the button that does it")
    d.shot("lib-first-game-asks-for-the-map")
    yield from _tap_any(d, "Enter our printed map")
    d.check(app.sm.current == "liberation-map", f"the map entry opens (at {app.sm.current})")
    scr = _entry(d)
    _type(d, scr.ids.map_name, "Our printed map")
    scr.ids.map_name.dispatch("on_text_validate")
    yield 0.1
    ids = [c.id for c in scr.entry.builder.cities]
    for i, cid in enumerate(ids):
        d.tap(scr.ids.map.buttons[cid])
        yield 0.03
        _type(d, scr.ids.city_input, NAMES[i])
        yield 0.03
    yield from _tap_any(d, "╱ Lines")
    for a, b in list(zip(ids, ids[1:])) + [(ids[-1], ids[0])]:
        d.tap(scr.ids.map.buttons[a])
        yield 0.03
        d.tap(scr.ids.map.buttons[b])
        yield 0.05
    d.check(scr.ready, f"a ring of 14 cities is playable: {scr.problems_text!r}")
    yield from _tap_any(d, "✔ Save")
    d.check([m.name for m in saved_maps(scr.entry.folder)] == ["Our printed map"], "saved")
    yield from _tap_any(d, "← Back")
    d.check(app.sm.current == "setup" and d.find("Our printed map", visible=False).state == "down", "back at setup with it chosen")
    d.check(not any("enter your printed map first?" in t for t in d.texts()), "the question is gone")
    yield from _start(d)
    d.check(app.sm.get_screen("game:liberation").map_text == "Our printed map", "the first game plays on it")
    # The next game: no question, the saved map chosen.
    app.go("home")
    yield 0.3
    yield from _wizard_to_the_map(d)
    yield 0.3
    d.check(not any("enter your printed map first?" in t or "Enter our printed map" in t for t in d.texts()),
            "a later game does not ask again")
    chosen = d.find("Our printed map", visible=False)
    d.check(chosen.state == "down", "the saved map is the one chosen")
    d.shot("lib-later-game-uses-the-saved-map")
    yield from _start(d)
    d.check(app.sm.get_screen("game:liberation").map_text == "Our printed map", "and the game plays on it")
    d.note("first game asked for the map; the next used it without asking")
