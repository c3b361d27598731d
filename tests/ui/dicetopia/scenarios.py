"""Dicetopia UI scenarios, run by ``tests/ui/dicetopia/test_app.py`` through the shared
driver as ``dicetopia.scenarios:<name>`` (each in its own process, under Xvfb). They drive
the real app by simulated touches and check what the widget tree shows."""
from __future__ import annotations

import json
from typing import Any, Iterator

from tests.ui.liberation.scenarios import _find
from tests.ui.scenarios import _wait_for, hold_gate

HOLD_S = 1.25  # the gate's hold is 1.2 s


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen("game:dicetopia")


def settle(d: Any, extra: float = 0.08, timeout: float = 5.0, since: int | None = None) -> Iterator[float]:
    """Until the table screen has drawn the Table's latest ply (and ``since`` is passed)."""
    app, waited = d.app, 0.0
    while since is not None and app.table is not None and app.table.ply == since and waited < timeout:
        yield 0.05
        waited += 0.05
    while app.sm.has_screen("game:dicetopia") and app.table is not None and waited < timeout and (
            _screen(d).shown_ply != app.table.ply or _screen(d).recording or _screen(d)._refresh_trigger.is_triggered):
        yield 0.05
        waited += 0.05
    yield extra


def _hold_gate(d: Any) -> Iterator[float]:
    """Hold the table's privacy gate open as a person would (the shared driver's way)."""
    return hold_gate(d, _screen(d).ids.gate, HOLD_S)


def _gate_closed(d: Any) -> Iterator[float]:
    gate = _screen(d).ids.gate
    for _ in range(40):
        if not gate.active:
            break
        yield 0.05
    yield 0.1


def _shot(d: Any, name: str) -> None:
    """A screenshot named for the text size too (the test runs at 100 % and 160 %)."""
    d.shot(f"{name}-{int(round(d.app.theme.scale * 100))}")


def _moment(d: Any, what: str) -> Iterator[float]:
    """The result moment over the board says ``what``; a tap puts it away (it would
    otherwise take the taps on the cells under it for a few seconds)."""
    card = getattr(_screen(d), "moment_card", None)
    d.check(card is not None and card.parent is not None and what in card.title + card.text,
            f"the moment says {what!r}: {getattr(card, 'title', None)!r} {getattr(card, 'text', None)!r}")
    d.tap(card)
    for _ in range(20):
        if card.parent is None:
            break
        yield 0.05
    yield 0.05


def _tap(d: Any, text: str) -> Iterator[float]:
    """Tap the shown widget with ``text`` (scrolled into view first), then let it redraw."""
    w = _find(d, text)
    for _ in range(40):
        if (w.width != 100 or w.height != 100) and d.is_visible(w):
            break
        yield 0.05
        w = _find(d, text)
    d.tap(w)
    yield 0.1
    yield from settle(d)


def _cell(d: Any, where: str, index: int, root: Any = None) -> Any:
    from companion.ui.games.dicetopia.screen import DCell

    for w in d.walk(root if root is not None else _screen(d).ids.board):
        if isinstance(w, DCell) and w.where == where and int(w.index) == index:
            return w
    raise AssertionError(f"no cell {where} {index}")


def _tap_cell(d: Any, where: str, index: int) -> Iterator[float]:
    w = _cell(d, where, index)
    _screen(d).ids.board.scroll_to(w, padding=10, animate=False)
    yield 0.1
    d.tap(w)
    yield 0.2
    yield from settle(d)


def _first_die(d: Any, hood: str) -> int:
    cells = d.app.table.view()["city"][hood]
    return next(i for i, c in enumerate(cells) if len(c) == 2 and c[1].isdigit())


def _no_leak(d: Any, where: str) -> None:
    """With the gate closed, no text on the table screen names a mission the public may
    not know (the engine's secrets: the deck and the players' hands)."""
    from rules import PUBLIC

    scr = _screen(d)
    d.check(not scr.ids.gate.active, f"{where}: the gate is closed")
    hidden = {h for h in d.app.table.hidden(PUBLIC) if len(h) > 3}
    texts = [t for t in d.texts(scr)] + [scr.prompt_text, scr.info_text, scr.tally_text]
    leaks = [(h, t) for t in texts for h in hidden if h in t]
    d.check(not leaks, f"{where}: a secret mission in a public label: {leaks[:3]}")


def _layout(d: Any, where: str, problems: list[str]) -> None:
    from tests.ui.layout_check import check_layout

    problems += [f"{where}: {p}" for p in check_layout(_screen(d))]


def _words(d: Any, where: str) -> None:
    """No seat id, neighbourhood or mission id, option id or ruling code on the screen."""
    from rules.dicetopia.tables import tables
    from tests.ui.game_scenarios import internal_names

    t = tables()
    ids = {s["id"] for s in d.app.table.seats} | {h.id for h in t.hoods} | {m for m in t.missions if "-" in m}
    bad = internal_names(d, _screen(d), ids)
    d.check(not bad, f"{where}: internal names on the Dicetopia screen:\n" + "\n".join(bad))


def _wizard(d: Any) -> Iterator[float]:
    """New game from the wizard: Dicetopia, Ann (Banxa Corporation) and Bob (Shakra Pirates)."""
    from kivy.uix.textinput import TextInput

    from companion.ui.widgets.base import TCToggle

    app = d.app
    app.go("setup")
    yield 0.4
    setup = app.sm.get_screen("setup")
    d.tap(d.find("Dicetopia", root=setup, cls=TCToggle))
    yield 0.3
    d.tap(setup.ids.next)
    yield 0.4
    inputs = [w for w in d.walk(setup.ids.content) if isinstance(w, TextInput)]
    d.check(len(inputs) == 2, f"two seats by default: {len(inputs)}")
    inputs[0].text, inputs[1].text = "Ann", "Bob"
    # The second seat's faction: one tap shows all ten, a second picks the Shakra Pirates.
    b = [w for w in d.walk(setup.ids.content) if type(w).__name__ == "TCButton" and w.text not in ("↑", "↓")][1]
    d.tap(b)
    yield 0.4
    picker = setup.faction_picker
    d.check(picker is not None, "one tap on a seat's faction shows every faction at once")
    d.tap(picker.choices["shakra"])
    yield 0.4
    d.check(any("Banxa" in t for t in d.texts(setup.ids.content)) and any("Shakra" in t for t in d.texts(setup.ids.content)),
            "Ann plays Banxa Corporation, Bob the Shakra Pirates")
    d.tap(setup.ids.next)
    yield 0.4
    _shot(d, "dt-wizard-rules")
    d.tap(setup.ids.start)
    yield 0.6
    yield from settle(d)
    d.check(app.sm.current == "game:dicetopia", f"the Dicetopia screen opens (at {app.sm.current})")


def _to_turns(d: Any) -> Iterator[float]:
    """A game just made: the app rolls the city and deals; each player who keeps
    discards their first mission (through the Table, as the players would by taps)."""
    yield 0.4
    yield from settle(d)
    table = d.app.table
    while table.view()["phase"] in ("roll", "deal"):
        table.roll_for_me()
    p = _screen(d).presenter
    for seat in table.view()["order"]:
        if seat in table.prompt.actors:
            table.submit(p.hand_page(seat)[0].choices[0].action)


def _finish_by_engine(d: Any) -> Iterator[float]:
    """Play the rest quickly through the Table (the app's roller and deck, the first legal
    choice), as the players would by taps: the screen follows every change."""
    from rules import Draw, DrawRequest, Roll, RollRequest

    table = d.app.table
    for _ in range(600):
        if table.outcome is not None:
            break
        p = table.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in p.waits.values()):
            table.roll_for_me()
            continue
        actors = sorted(p.actors)
        action = next(a for a in table.legal_actions() if a.seat in actors and not isinstance(a, (Roll, Draw)))
        table.submit(action)
    yield from settle(d)


def dicetopia_short_game(d: Any) -> Iterator[float]:
    """Setup from the wizard; the table's city roll entered on the colour × value grid;
    missions dealt and kept behind the gate; turns by taps: a reroll through the dice
    tray (Banxa lets it happen), Exterminate, the Agency's bottom card behind the gate;
    then to the end: missions revealed together, the tally line by line, the winner.
    Layout checked at each stage (a note the test reads); no mission ever public."""
    problems: list[str] = []
    yield from _wizard(d)
    app = d.app
    scr = _screen(d)
    seats = {s["name"]: s["id"] for s in app.table.seats}
    ann, bob = seats["Ann"], seats["Bob"]
    v = app.table.view()
    d.check(v["phase"] == "roll", f"the city roll first: {v['phase']}")
    d.check(not scr.ids.dice.is_awaiting, "the tray does not take the city roll (its colours matter)")
    # The city: one tap per die on the colour × value grid, in board order.
    yield from _tap(d, "Enter the table's roll")
    d.check(scr.entering and len(scr.ids.entry_grid.children) == 18, "the colour × value grid shows")
    _layout(d, "city entry", problems)
    colours = ("purple", "teal", "white")
    wanted = []
    for i in range(18):
        colour, value = colours[i % 3], i % 6 + 1
        wanted.append(colour[0] + str(value))
        w = _cell(d, colour, value, root=scr.ids.entry_grid)
        if not d.is_visible(w):
            scr.ids.side_scroll.scroll_to(w, padding=10, animate=False)
            yield 0.1
        d.tap(w)
        yield 0.05
        if i == 8:
            yield from settle(d)
            _shot(d, "dt-city-entry")
    yield from settle(d)
    d.check("0 left" in scr.entry_text, f"each colour counted down: {scr.entry_text!r}")
    yield from _tap(d, "Enter this city")
    v = app.table.view()
    n = len(v["order"])
    entered = [c for h in ("agency", "gugu", "waste", "congress", "bank", "syndicate") for c in v["city"][h] if c != "-"]
    d.check(entered == wanted, f"the city as entered, space by space: {entered}")
    d.check(sum(c == "-" for cells in v["city"].values() for c in cells) == 12 and n == 2, "12 spaces unused at 2 players")
    d.check(_cell(d, "agency", 3).disabled and _cell(d, "agency", 3).text == "—", "an unused space is greyed")
    d.check(_cell(d, "agency", 0).text == "⚔1", f"a die shows its resource's glyph and value: {_cell(d, 'agency', 0).text!r}")
    # Missions: dealt by the app's deck, kept behind the gate.
    for seat in v["order"]:
        yield from _tap(d, f"The app deals 3 missions to {app.table.seat_name(seat)}")
    _no_leak(d, "after the deal")
    for name in ("Ann", "Bob"):
        yield from _tap(d, f"▤ {name}: keep two missions")
        d.check(not any(t.startswith("✖ Discard") for t in d.texts()), "no mission before the hold")
        yield from _hold_gate(d)
        if name == "Ann":
            _shot(d, "dt-gate-keep")
        yield from _tap(d, "✖ Discard")
        yield from _gate_closed(d)
        _no_leak(d, f"after {name} kept two missions")
    v = app.table.view()
    d.check(v["phase"] == "deploy", f"the first turn: {v['phase']}")
    _shot(d, "dt-first-turn")
    _layout(d, "first turn", problems)
    # Three turns by taps.
    rerolled = exterminated = bottomed = False
    for turn in range(3):
        v = app.table.view()
        cur = v["current"]
        if cur == bob and not exterminated:
            yield from _tap(d, "Exterminate a die")
            hood = "syndicate"
            i = _first_die(d, hood)
            yield from _tap_cell(d, hood, i)
            v = app.table.view()
            d.check(v["city"][hood][i] == "x" and v["factions"][bob]["flipped"], "Exterminate removed the die and flipped the token")
            d.check(_cell(d, hood, i).text == "✖", "the dead space shows ✖")
            yield from _moment(d, "leaves the game")
            exterminated = True
        if not rerolled:
            ply = app.table.ply
            yield from _tap_cell(d, "gugu", _first_die(d, "gugu"))
            d.check(app.table.view()["phase"] in ("act",), f"the Gugu Airforce's reroll is next: {app.table.view()['phase']}")
            d.check(any(c.ring_w > 1 for c in (_cell(d, "agency", k) for k in range(3))), "the reroll's targets are marked")
            _shot(d, "dt-reroll-targets")
            _layout(d, "reroll targets", problems)
            yield from _tap_cell(d, "agency", _first_die(d, "agency"))
            if cur == bob:  # Ann's Banxa Corporation may Block the reroll
                d.check(d.has("Ann: Block it"), "Banxa's Block is offered")
                yield from _tap(d, "Let it happen")
            d.check(scr.ids.dice.is_awaiting, "the reroll goes to the dice tray")
            _shot(d, "dt-reroll-tray")
            ply = app.table.ply
            # The tray's faces are laid out on the frame after it starts awaiting.
            yield from _wait_for(lambda: d.has("6", root=scr.ids.dice.ids.faces), 3)
            d.tap(d.find("6", root=scr.ids.dice.ids.faces))
            if scr.ids.dice.model.pending is not None:
                d.tap(scr.ids.dice.ids.roll_for_me)
            yield from settle(d, since=ply)
            d.check(app.table.view()["current"] != cur, "the reroll ends the turn")
            _shot(d, "dt-reroll-moment")
            yield from _moment(d, "is rerolled: 6")
            rerolled = True
        elif not bottomed:
            yield from _tap_cell(d, "agency", _first_die(d, "agency"))
            yield from _tap(d, "the app draws for")
            _no_leak(d, "after the Agency's draw")
            who = app.table.seat_name(cur)
            yield from _tap(d, f"{who}: put a mission on the bottom")
            yield from _hold_gate(d)
            _shot(d, "dt-gate-agency")
            yield from _tap(d, "↓ ")
            yield from _gate_closed(d)
            refusal = [w.text for w in d.walk(scr.ids.gate) if getattr(w, "text", "") and "Rule" in w.text]
            d.check(app.table.view()["phase"] != "agency-bottom", f"the bottom card was put back: {refusal}")
            _no_leak(d, "after the Agency's bottom card")
            bottomed = True
    d.check(rerolled and exterminated and bottomed, "a reroll, Exterminate and the Agency were played by taps")
    # A tap on a neighbourhood's words tells its rule.
    title = next(w for w in d.walk(scr.ids.city) if type(w).__name__ == "DLink" and "Twilight Congress" in w.text)
    scr.ids.board.scroll_to(title, padding=10, animate=False)
    yield 0.1
    d.tap(title)
    yield from settle(d)
    d.check("Swap places between two Dice" in scr.info_text, f"the rule of a neighbourhood: {scr.info_text!r}")
    score = app.table.view()["public_score"]
    d.check(all(f"{app.table.seat_name(s)} {score[s]} ★" in scr.score_text for s in score), f"the live public score: {scr.score_text!r}")
    _no_leak(d, "after three turns")
    _words(d, "after three turns")
    _shot(d, "dt-midgame")
    # To the end (the tally's lines come quicker here than at a table).
    scr.tally_step_s = 0.03
    yield from _finish_by_engine(d)
    for _ in range(120):
        if scr.tally_text.endswith("[/b]") and "wins" in scr.tally_text.split("\n")[-1] or "share" in scr.tally_text.split("\n")[-1]:
            break
        yield 0.1
    d.check("Missions revealed" in scr.tally_text, "the missions revealed together")
    d.check("Loot" in scr.tally_text or "loot" in scr.tally_text, f"the tally's lines: {scr.tally_text[:300]!r}")
    loot = [ln.strip() for ln in scr.tally_text.split("\n") if ln.strip().startswith("Loot:")]
    d.check(len(loot) == 2 and all(" = " in ln and ln.endswith("★") for ln in loot), f"a loot line is a sum and its result: {loot}")
    d.check(app.table.outcome.reason.split(" (§")[0] in scr.tally_text, "the winner and the tie-break explained")
    _shot(d, "dt-end-tally")
    _words(d, "at the end")
    _layout(d, "the end", problems)
    yield from _tap(d, "Results and export")
    d.check(app.sm.current == "end", f"the results follow (at {app.sm.current})")
    d.note(f"short game played: city entered in {len(wanted) + 1} taps, reroll, Exterminate, Agency, tally")
    d.note(json.dumps(problems))


def dicetopia_layout_tour(d: Any) -> Iterator[float]:
    """The layout check over four players' table (30 dice, clocks) at five window sizes,
    landscape and portrait, at the run's text size and at 100 %: mid-turn with targets
    marked, and at the end with the tally (at 800×480 and 600×1024)."""
    from kivy.core.window import Window

    from companion.clocks import presets

    problems: list[str] = []
    app = d.app
    seats = [{"id": f"{f}-1", "faction": f, "name": n} for f, n in
             (("dangmer", "Dana"), ("bingmai", "Bea"), ("centauri", "Cy"), ("roamers", "Rui"))]
    app.new_game("dicetopia", seats, {"first": "dangmer-1"}, seed=8, clocks=presets()["Blitz 5+3"])
    yield from _to_turns(d)
    table = app.table
    p = _screen(d).presenter
    table.submit(p.tap("waste", 0))  # Dana's agent in Waste Management: its targets are marked
    yield from settle(d)
    sizes = [(800, 480), (800, 600), (1024, 600), (1280, 800), (600, 1024)]
    theme = app.theme
    scales = sorted({theme.scale, 1.0}, reverse=True)  # the run's text size, then 100 %

    def tour(what: str) -> Iterator[float]:
        for scale in scales:
            theme.apply(theme.palette, scale)
            for w, h in sizes if what == "turn" else (sizes[0], sizes[-1]):
                Window.size = (w, h)
                yield 0.5
                _layout(d, f"{w}x{h} {int(scale * 100)}% {what}", problems)
                _shot(d, f"dt-tour-{what}-{w}x{h}")

    yield from tour("turn")
    _screen(d).tally_step_s = 0.02
    yield from _finish_by_engine(d)
    yield 1.5
    yield from tour("end")
    d.note(json.dumps(problems))


def dicetopia_player_order(d: Any) -> Iterator[float]:
    """Pat (the Perceptioneers) plays before Ann (the Shakra Pirates): Ann's Exterminate,
    tapped on her turn, waits while Pat answers first by a button (D-32); Pat lets it go
    first and the die leaves the game. At 800×480: the layout, the words, no secret."""
    problems: list[str] = []
    app = d.app
    seats = [{"id": "perceptioneers-1", "faction": "perceptioneers", "name": "Pat"},
             {"id": "shakra-1", "faction": "shakra", "name": "Ann"}]
    app.new_game("dicetopia", seats, {"first": "perceptioneers-1"}, seed=6)
    yield from _to_turns(d)
    table = app.table
    while table.view()["current"] == "perceptioneers-1":  # Pat's turn, without Hypnosis
        table.submit(next(a for a in table.legal_actions() if a.seat == "perceptioneers-1" and a.kind != "hypnotize"))
    yield from settle(d)
    yield from _tap(d, "Exterminate a die")
    hood = "syndicate"
    i = _first_die(d, hood)
    yield from _tap_cell(d, hood, i)
    v = table.view()
    d.check(v["phase"] == "first" and v["city"][hood][i] != "x", f"the Exterminate waits for Pat's answer: {v['phase']}")
    scr = _screen(d)
    d.check("Pat comes first in Player Order" in scr.prompt_text, f"the prompt says who answers first: {scr.prompt_text!r}")
    d.check(d.has("Pat: Hypnosis for this turn"), "Pat may use Hypnosis first")
    _shot(d, "dt-player-order")
    _layout(d, "the Player Order answer", problems)
    _words(d, "the Player Order answer")
    _no_leak(d, "the Player Order answer")
    yield from _tap(d, "Pat: let Ann's Exterminate go first")
    v = table.view()
    d.check(v["phase"] == "deploy" and v["city"][hood][i] == "x", f"then the Exterminate: {v['city'][hood]}")
    yield from _moment(d, "leaves the game")
    d.note(json.dumps(problems))


def dicetopia_faction_picker(d: Any) -> Iterator[float]:
    """Dicetopia's ten factions are chosen from a list shown at once (tapping round ten
    to reach one was slow and hid what there was): at 800×480 with 160 % text every
    faction shows whole, the seat's current one marked; a tap picks it."""
    from companion.ui.widgets.base import TCToggle
    from rules import facts
    from tests.ui.layout_check import check_layout

    app = d.app
    app.go("setup")
    yield 0.4
    setup = app.sm.get_screen("setup")
    d.tap(d.find("Dicetopia", root=setup, cls=TCToggle))
    yield 0.3
    d.tap(setup.ids.next)
    yield 0.4
    second = setup.model.seats[1]["faction"]
    b = [w for w in d.walk(setup.ids.content) if type(w).__name__ == "TCButton" and w.text not in ("↑", "↓")][1]
    d.tap(b)
    yield 0.5
    picker = setup.faction_picker
    d.check(picker is not None, "one tap on the faction shows the list")
    names = facts.factions("dicetopia")
    d.check(sorted(picker.choices) == sorted(names), f"all ten factions: {sorted(picker.choices)}")
    for f, w in picker.choices.items():
        d.check(d.is_visible(w) and w.texture_size[1] <= w.height + 1 and w.texture_size[0] <= w.width + 1,
                f"{f} shows whole without scrolling: {w.texture_size} in {w.size}")
    d.check(picker.choices[second].text.startswith("✔"), f"the seat's faction is marked: {picker.choices[second].text!r}")
    problems = [f"picker: {p}" for p in check_layout(picker)]
    _shot(d, "dt-faction-picker")
    want = next(f for f in names if f not in (second, setup.model.seats[0]["faction"]))
    d.tap(picker.choices[want])
    yield 0.5
    d.check(setup.faction_picker is None and setup.model.seats[1]["faction"] == want,
            f"a tap picks {want}: {setup.model.seats[1]['faction']}")
    d.check(any(names[want].name in t for t in d.texts(setup.ids.content)), "the seat's button names it")
    _shot(d, "dt-faction-picked")
    d.note(f"picked {want} in two taps")
    d.note(json.dumps(problems))


def _tap_gate_choice(d: Any, label: str) -> Iterator[float]:
    """Tap the choice behind the open gate whose words are exactly ``label``."""
    from tests.ui.liberation.scenarios import _scroll_view_of

    gate = _screen(d).ids.gate
    w = next((w for w in d.walk(gate) if getattr(w, "text", None) == label), None)
    d.check(w is not None, f"behind the gate: {label!r}")
    if not d.is_visible(w):
        sv = _scroll_view_of(w)
        if sv is not None:
            sv.scroll_to(w, padding=10, animate=False)
            yield 0.15
    d.tap(w)
    yield 0.3
    yield from settle(d)


def dicetopia_deal_and_keep_in_one_pass(d: Any) -> Iterator[float]:
    """The table deals its own mission cards (§3 step 3, D-34): Ann, Bob and Cy each enter
    their three behind the gate and, in the same pass, the one they discard (Cy, the
    Centauri Bureau, keeps all three); nobody is asked to the gate a second time. At
    800×480 with 160 % text."""
    problems: list[str] = []
    app = d.app
    seats = [{"id": "banxa-1", "faction": "banxa", "name": "Ann"}, {"id": "hollows-1", "faction": "hollows", "name": "Bob"},
             {"id": "centauri-1", "faction": "centauri", "name": "Cy"}]
    table = app.new_game("dicetopia", seats, {"first": "banxa-1"}, seed=5)
    yield from settle(d)
    while table.view()["phase"] == "roll":
        table.roll_for_me()
    yield from settle(d)
    scr = _screen(d)
    p = scr.presenter
    passes = {"Ann": 0, "Bob": 0, "Cy": 0}
    for name, seat in (("Ann", "banxa-1"), ("Bob", "hollows-1"), ("Cy", "centauri-1")):
        yield from _tap(d, f"▤ {name}: enter the missions you drew")
        yield from _hold_gate(d)
        passes[name] += 1
        for k in range(3):
            # An honest table's card: one still in the deck (any other is accepted too, D-33).
            deck = table.state.deck.cards
            label = next(c.label for c in p.physical_draw_page(seat)[0].choices if c.action.card in deck)
            yield from _tap_gate_choice(d, label)
        if name != "Cy":
            d.check(scr.ids.gate.active and seat in table.prompt.actors, f"{name}'s pass goes on to the keeping")
            d.check(d.has("Keep two missions", scr.ids.gate), f"{name}'s same page asks which to discard")
            _shot(d, f"dt-keep-same-pass-{name.lower()}")
            _layout(d, f"{name} keeps in the same pass", problems)
            yield from _tap(d, "✖ Discard")
        yield from _gate_closed(d)
        _no_leak(d, f"after {name}'s pass")
        d.check(seat not in table.prompt.actors, f"{name} has kept: {sorted(table.prompt.actors)}")
        asked = [t for t in d.texts(scr) if "keep two missions" in t]
        d.check(not asked, f"after {name}'s pass nobody is asked back to the gate to keep: {asked}")
    _shot(d, "dt-keep-all-dealt")
    d.check(table.view()["phase"] == "deploy", f"the first turn: {table.view()['phase']}")
    d.note(f"gate passes: Ann {passes['Ann']}, Bob {passes['Bob']}, Cy {passes['Cy']}")
    d.note(json.dumps(problems))


def dicetopia_app_deal_and_keep_in_one_pass(d: Any) -> Iterator[float]:
    """The app's deck deals the missions (§3 step 3, D-34): each seat's three are dealt face
    down by a public tap, then that seat's one pass at the gate shows them and takes its
    discard, before the next seat is dealt. At 800×480 with 160 % text."""
    problems: list[str] = []
    app = d.app
    seats = [{"id": "banxa-1", "faction": "banxa", "name": "Ann"}, {"id": "hollows-1", "faction": "hollows", "name": "Bob"}]
    table = app.new_game("dicetopia", seats, {"first": "banxa-1"}, seed=6)
    yield from settle(d)
    while table.view()["phase"] == "roll":
        table.roll_for_me()
    yield from settle(d)
    scr = _screen(d)
    passes = {"Ann": 0, "Bob": 0}
    for name, seat in (("Ann", "banxa-1"), ("Bob", "hollows-1")):
        yield from _tap(d, f"⚄ The app deals 3 missions to {name}")
        _no_leak(d, f"after the app dealt {name}'s missions")
        _shot(d, f"dt-app-dealt-{name.lower()}")
        _layout(d, f"the app dealt {name}", problems)
        yield from _tap(d, f"▤ {name}: keep two missions")
        yield from _hold_gate(d)
        passes[name] += 1
        d.check(d.has("Keep two missions", scr.ids.gate), f"{name}'s pass shows the three and asks which to discard")
        _shot(d, f"dt-app-keep-{name.lower()}")
        yield from _tap(d, "✖ Discard")
        yield from _gate_closed(d)
        _no_leak(d, f"after {name}'s pass")
        d.check(seat not in table.prompt.actors, f"{name} has kept: {sorted(table.prompt.actors)}")
        asked = [t for t in d.texts(scr) if "keep two missions" in t]
        d.check(not asked, f"after {name}'s pass nobody is asked back to the gate to keep: {asked}")
    d.check(table.view()["phase"] == "deploy", f"the first turn: {table.view()['phase']}")
    d.note(f"gate passes: Ann {passes['Ann']}, Bob {passes['Bob']}")
    d.note(json.dumps(problems))


def _same_as_fresh(d: Any, where: str) -> None:
    """The city, the faction boards and the screen's words as a screen built afresh from
    the same Table shows them (the live one is updated in place)."""
    from tests.ui.fresh_screen import differences

    bad = differences(_screen(d), ("city", "boards"))
    d.check(not bad, f"{where}: the screen differs from a fresh one:\n" + "\n".join(bad[:12]))
    d.note(f"{where}: as a fresh screen")


def dicetopia_in_place_as_fresh(d: Any) -> Iterator[float]:
    """Taps update the table screen in place (issue 34): after the colour × value grid is
    opened, used and closed, an Exterminate, the answer of the player first in Player
    Order, and an undo, the live screen shows exactly what a fresh screen bound to the
    same Table shows, and the grid's cells are out of the tree while no roll is entered."""
    app = d.app
    seats = [{"id": "perceptioneers-1", "faction": "perceptioneers", "name": "Pat"},
             {"id": "shakra-1", "faction": "shakra", "name": "Ann"}]
    app.new_game("dicetopia", seats, {"first": "perceptioneers-1"}, seed=6)
    yield 0.4
    yield from settle(d)
    scr = _screen(d)
    _same_as_fresh(d, "a new game")
    yield from _tap(d, "Enter the table's roll")
    grid = scr.ids.entry_grid
    d.check(scr.entering and grid.parent is scr.ids.entry_box.__self__ and len(grid.children) == 18,
            f"the grid shows: entering {scr.entering}, {len(grid.children)} cells")
    cells = list(grid.children)
    for colour, value in (("purple", 3), ("teal", 5)):
        d.tap(_cell(d, colour, value, root=grid))
        yield 0.1
    yield from settle(d)
    d.check(_cell(d, "agency", 0).text == "⚔3", f"the first space shows the die entered: {_cell(d, 'agency', 0).text!r}")
    yield from _tap(d, "Stop entering")
    d.check(not scr.entering and grid.parent is None, "no grid (nor a hidden cell to take a touch) once entering stops")
    _same_as_fresh(d, "the entry stopped")
    yield from _tap(d, "Enter the table's roll")
    d.check(grid.parent is scr.ids.entry_box.__self__ and list(grid.children) == cells, "the grid's cells are kept, not made again")
    yield from _tap(d, "Stop entering")
    yield from _to_turns(d)
    table = app.table
    while table.view()["current"] == "perceptioneers-1":  # Pat's turn, without Hypnosis
        table.submit(next(a for a in table.legal_actions() if a.seat == "perceptioneers-1" and a.kind != "hypnotize"))
    yield from settle(d)
    _same_as_fresh(d, "Ann's turn")
    yield from _tap(d, "Exterminate a die")
    i = _first_die(d, "syndicate")
    yield from _tap_cell(d, "syndicate", i)
    yield from _tap(d, "Pat: let Ann's Exterminate go first")
    yield from _moment(d, "leaves the game")
    d.check(_cell(d, "syndicate", i).text == "✖", "the dead space shows ✖")
    _same_as_fresh(d, "after the Exterminate")
    ply = table.ply
    d.check(not scr.ids.undo.disabled, "undo is offered")
    d.tap(scr.ids.undo)
    yield 0.2
    yield from settle(d)
    d.check(table.ply < ply, f"the undo was done ({ply} → {table.ply})")
    _same_as_fresh(d, "after the undo")
