"""Liberation UI scenarios, run by ``tests/ui/liberation/test_app.py`` in their own process
(``python -m tests.ui.driver liberation.scenarios:NAME ...``, the shared driver). They drive the
real app with simulated touches only, and check what the widget tree shows."""
from __future__ import annotations

from typing import Any, Iterator
from tests.ui.scenarios import hold_gate

SEATS = [{"id": "dyn", "faction": "dynasty", "name": "Dana"}, {"id": "lib", "faction": "liberation", "name": "Lee"}]
HOLD_S = 1.25  # the gate's hold is 1.2 s (then held on until it opens)


def plan_short_game(max_seed: int = 400) -> tuple[int, dict[str, str]]:
    """A seed whose deal (the app's deck) allows the short game: the Dynasty holds X, the
    Liberation holds B and Y with B–Y and X–Y lines, and X has a neighbour M nobody else
    holds (the failed Attack). Found with the engine alone, before the app starts."""
    from rules.liberation import GAME

    for seed in range(1, max_seed):
        s = GAME.new(SEATS, {}, seed=seed)
        while GAME.view(s)["phase"] in ("setup-discard", "deal"):
            GAME.push(s, GAME.sample(s))
        m = GAME.map_of(s)
        dyn, lib = s.hands["dyn"].cards, s.hands["lib"].cards
        for x in dyn:
            for b in lib:
                for y in lib:
                    if b != y and m.adjacent(b, y) and m.adjacent(x, y) and not m.adjacent(x, b):
                        misses = sorted(n for n in m.neighbours(x) if n not in lib)
                        if misses:
                            return seed, {"X": x, "B": b, "Y": y, "M": misses[0]}
    raise AssertionError("no seed gives the planned short game")


def _screen(d: Any) -> Any:
    return d.app.sm.get_screen("game:liberation")


def _public_texts(d: Any, skip_log: bool = False) -> list[str]:
    """Every text in the widget tree except the map's city labels (the map names every
    city, base or not; nothing on it marks the base) — and the log's, if asked (the log
    names cities that public events showed, which may be hidden again later)."""
    scr = _screen(d)
    inside = {id(w) for w in d.walk(scr.ids.map)}
    if skip_log:
        inside |= {id(w) for w in d.walk(scr.ids.log)}
    out = []
    for w in d.walk():
        if id(w) in inside:
            continue
        for attr in ("text", "hint_text", "who", "prompt_text", "info_text", "message", "reveal_text", "answers_text"):
            v = getattr(w, attr, None)
            if isinstance(v, str) and v:
                out.append(v)
    return out


def _no_leak(d: Any, where: str) -> None:
    """With the gate closed, no label outside the map and the log shows anything the
    engine says is hidden from the public right now (hand cards, the base, the deck)."""
    from rules import PUBLIC

    d.check(not _screen(d).ids.gate.active, f"{where}: the gate is closed")
    hidden = {h for h in d.app.table.hidden(PUBLIC) if len(h) > 2}
    leaks = [(h, t) for t in _public_texts(d, skip_log=True) for h in hidden if h in t]
    d.check(not leaks, f"{where}: hidden information in a public label: {leaks[:3]}")


def _hold_gate(d: Any) -> Iterator[float]:
    """Hold the table's privacy gate open as a person would (the shared driver's way)."""
    return hold_gate(d, _screen(d).ids.gate, HOLD_S)


def _settle(d: Any) -> Iterator[float]:
    """Until the table screen has redrawn after the last change (refresh, then layout)."""
    for _ in range(60):
        # A tap's commit runs on the input pump: wait for the Table's answer, then the redraw.
        if not d.app.sm.has_screen("game:liberation") or not (_screen(d).recording or _screen(d)._refresh_trigger.is_triggered):
            break
        yield 0.05
    yield 0.06


_settle_any = _settle


def _scroll_view_of(w: Any) -> Any:
    from kivy.uix.scrollview import ScrollView

    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def _find(d: Any, text: str) -> Any:
    """The shown widget with ``text``, or one scrolled out of its scroll view (a finger
    would scroll to it first: so do we)."""
    try:
        return d.find(text)
    except Exception:
        w = d.find(text, visible=False)
        sv = _scroll_view_of(w)
        if sv is None:
            raise
        sv.scroll_to(w, padding=10, animate=False)
        return w


def _tap(d: Any, text: str) -> Iterator[float]:
    """Tap the button showing ``text`` once it is laid out (scrolled into view if it is in
    a scroll view), then let the screen redraw."""
    w = _find(d, text)
    for _ in range(40):
        if (w.width != 100 or w.height != 100) and d.is_visible(w):
            break  # 100×100 is Kivy's default size: the layout has not placed it yet
        yield 0.05
        w = _find(d, text)
    sv = _scroll_view_of(w)
    d.tap(w)
    # The driver may rest a finger in a scroll view a moment before lifting it.
    yield 0.16 if sv is not None else 0.03
    yield from _settle(d)


_tap_any = _tap


def _tap_city(d: Any, city: str) -> Iterator[float]:
    d.tap(_screen(d).ids.map.buttons[city])
    yield from _settle(d)


def _confirm(d: Any, cancel_first: bool = False) -> Iterator[float]:
    """An Attack can never be undone: the tap asks first. ``cancel_first``: say no once,
    see that nothing happened, then aim again is the caller's; here it only confirms."""
    scr = _screen(d)
    view = getattr(scr, "_confirm", None)
    for _ in range(20):
        if view is not None and view.parent is not None:
            break
        yield 0.05
        view = getattr(scr, "_confirm", None)
    d.check(view is not None and view.parent is not None, "an irreversible tap asks for confirmation first")
    d.check("cannot be undone" in view.ids.reason.text, f"the question says why: {view.ids.reason.text!r}")
    d.tap(view.ids.cancel if cancel_first else view.ids.ok)
    yield 0.3
    yield from _settle(d)


def liberation_short_game(d: Any) -> Iterator[float]:
    """Setup by touch, the first City and the secret base behind the gate, a failed Attack
    (MISS), a secret Evade (the base is in no public label before or after the hold), a
    successful Attack (BASE FOUND), and the audit showing the Evade as legal."""
    from rules.liberation import GAME

    seed, c = plan_short_game()
    app = d.app
    app.new_game("liberation", SEATS, {}, seed=seed)
    yield 0.3
    d.check(app.sm.current == "game:liberation", f"the Liberation screen opens (at {app.sm.current})")
    scr = _screen(d)
    name = {k: GAME.map_of(app.table.state).name_of(v) for k, v in c.items()}
    d.check(d.has("ACT") and d.has("Deck 14"), "the ACT tracker and the deck count show")
    d.shot("lib-setup")
    yield from _tap(d, "Discard the top card face down")
    yield from _tap(d, "deal 3 cards to Dana")
    yield from _tap(d, "deal 3 cards to Lee")
    d.check("■ Dana: 3 cards" in scr.hands_text and "● Lee: 3 cards" in scr.hands_text, f"hand sizes show: {scr.hands_text!r}")
    # The Dynasty's first City, from its hand behind the gate.
    yield from _tap(d, "place your first City")
    d.check(not any("as your first City" in t for t in d.texts()), "no hand before the hold")
    yield from _hold_gate(d)
    d.shot("lib-gate-first-city")
    yield from _tap(d, f"Occupy {name['X']}")
    d.check(scr.ids.map.buttons[c["X"]].state == "occupied", "the first City is occupied on the map")
    # The Liberation's secret base.
    yield from _tap(d, "place your secret base")
    d.check(not any("Put your secret base" in t for t in d.texts()), "no base choices before the hold")
    yield from _hold_gate(d)
    yield from _tap(d, f"Put your secret base at {name['B']}")
    d.check(not any(name["B"] in t for t in _public_texts(d)), "the base is in no public label after the gate closes")
    _no_leak(d, "after the base is placed")
    # Dynasty turn 1: no draw; a failed Attack from X on M.
    yield from _tap(d, "Don't draw")
    d.check(scr.step_states == ["done", "current", "todo"], f"step 2 is current: {scr.step_states}")
    yield from _tap_city(d, c["X"])
    d.check(scr.ids.map.buttons[c["M"]].target, "the cities next to the exploited one are marked as targets")
    d.shot("lib-aim-attack")
    ply = app.table.ply
    yield from _tap_city(d, c["M"])
    d.shot("lib-attack-confirm")
    yield from _confirm(d, cancel_first=True)
    d.check(app.table.ply == ply and not scr.reveal_open, "Cancel attacks nobody")
    yield from _tap_city(d, c["X"]) if not scr.ids.map.buttons[c["M"]].target else iter(())
    yield from _tap_city(d, c["M"])
    yield from _confirm(d)
    d.check(scr.reveal_open and "MISS" in scr.reveal_title, f"the Attack's MISS is revealed: {scr.reveal_title!r}")
    d.shot("lib-attack-miss")
    yield from _tap(d, "Continue")
    d.check(scr.ids.map.buttons[c["X"]].state == "exploited", "the attacking City is exploited")
    _no_leak(d, "after the miss")
    # Liberation turn: no draw; the secret Evade B → Y behind the gate.
    yield from _tap(d, "Don't draw")
    yield from _tap(d, "your action")
    texts = _public_texts(d)
    d.check(not any(name["B"] in t for t in texts), "before the hold, the base city is in no label outside the map")
    d.check(not any("Your secret base" in t or "Evade:" in t for t in d.texts()), "no base and no Evade choice before the hold")
    d.shot("lib-gate-evade-waiting")
    yield from _hold_gate(d)
    d.check(d.has(f"Your secret base: [b]{name['B']}"), "after the hold the Liberation sees its base")
    d.shot("lib-gate-evade-open")
    yield from _tap(d, f"Evade: move the base to {name['Y']}")
    d.check(app.table.private_view("lib")["base"]["city"] == c["Y"], "the Evade moved the base")
    d.check(not any(name["Y"] in t or name["B"] in t for t in _public_texts(d)), "after the Evade no public label names the base")
    d.check(any("evade" in ln.text.lower() for ln in app.table.log()), "the public log says an Evade happened")
    _no_leak(d, "after the Evade")
    # Dynasty turn 2: unexploit X, then attack Y: BASE FOUND.
    yield from _tap(d, f"Unexploit {name['X']}")
    yield from _tap_city(d, c["X"])
    yield from _tap_city(d, c["Y"])
    yield from _confirm(d)
    d.check(scr.reveal_open and "BASE FOUND" in scr.reveal_title, f"BASE FOUND is revealed: {scr.reveal_title!r}")
    d.shot("lib-attack-base-found")
    yield from _tap(d, "Continue")
    d.check(scr.audit_open, "the audit opens at the end")
    d.check(d.has(f"{name['B']} → {name['Y']} — legal: adjacent"), "the audit shows the Evade and its legality")
    d.shot("lib-audit")
    yield from _tap(d, "Back to the map")
    d.check(scr.ids.map.buttons[c["Y"]].text.startswith("★ ") and scr.ids.map.buttons[c["Y"]].base,
            "after the game the map shows where the base was")
    d.shot("lib-map-base-revealed")
    yield from _tap(d, "The audit: every Evade revealed")
    yield from _tap(d, "Results and export")
    d.check(app.sm.current == "end", f"the results follow (at {app.sm.current})")
    d.shot("lib-end")
    d.note(f"short game seed {seed}: miss on {name['M']}, evade {name['B']} → {name['Y']}, base found")


def plan_mission_game(max_seed: int = 400) -> tuple[int, dict[str, str]]:
    """A seed whose deal gives the Dynasty X and a Research Station R (Deep-Space Probe:
    "is the base within N steps of …?") and the Liberation a card T next to X and a base B."""
    from rules.liberation import GAME

    for seed in range(1, max_seed):
        s = GAME.new(SEATS, {}, seed=seed)
        while GAME.view(s)["phase"] in ("setup-discard", "deal"):
            GAME.push(s, GAME.sample(s))
        m = GAME.map_of(s)
        dyn, lib = s.hands["dyn"].cards, s.hands["lib"].cards
        for r in dyn:
            if m.category_of(r) != "research-station":
                continue
            for x in dyn:
                for t in lib:
                    if x != r and m.adjacent(x, t):
                        b = next(c for c in lib if c != t)
                        return seed, {"X": x, "R": r, "T": t, "B": b}
    raise AssertionError("no seed gives the planned mission game")


def liberation_mission_and_card_taken(d: Any) -> Iterator[float]:
    """A mission that asks the referee (the question built by tapping the map, the answer
    shown to both players), a Liberation turn passed behind the gate, and an Attack that
    takes a card (CARD TAKEN), occupied by the Dynasty."""
    from rules.liberation import GAME

    from companion.clocks import presets

    seed, c = plan_mission_game()
    app = d.app
    preset = sorted(presets())[0]
    app.new_game("liberation", SEATS, {}, seed=seed, clocks=presets()[preset])
    yield 0.3
    scr = _screen(d)
    d.check(scr.ids.clocks.clocks is not None and scr.ids.clocks.opacity == 1, "the seat clocks show (shared widget)")
    name = {k: GAME.map_of(app.table.state).name_of(v) for k, v in c.items()}
    yield from _tap(d, "Discard the top card face down")
    yield from _tap(d, "deal 3 cards to Dana")
    yield from _tap(d, "deal 3 cards to Lee")
    yield from _tap(d, "place your first City")
    yield from _hold_gate(d)
    yield from _tap(d, f"Occupy {name['X']}")
    yield from _tap(d, "place your secret base")
    yield from _hold_gate(d)
    yield from _tap(d, f"Put your secret base at {name['B']}")
    yield from _tap(d, "Don't draw")
    yield from _tap(d, "occupy or mission")
    yield from _hold_gate(d)
    d.shot("lib-gate-dynasty-hand")
    yield from _tap(d, f"★ Deep-Space Probe (play {GAME.map_of(app.table.state).name_of(c['R'])}")
    d.check(scr.reveal_open and "Deep-Space Probe" in scr.reveal_title, "the mission's result is shown to the table")
    yield from _tap(d, "Continue")
    d.check(app.table.view()["phase"] == "ask" and "tap one city" in scr.info_text, f"the question is built on the map: {scr.info_text!r}")
    yield from _tap_city(d, c["X"])
    yield from _tap(d, "within 2 steps")
    d.check(scr.ids.map.buttons[c["X"]].selected, "the city asked about is marked on the map")
    d.shot("lib-ask-question")
    yield from _tap(d, f"? Ask: is the base within 2 steps of {name['X']}?")
    yield from _confirm(d)  # the answer can never be taken back
    truth = GAME.map_of(app.table.state).distance(c["X"], c["B"]) <= 2
    d.check(("YES" if truth else "NO") in scr.answers_text and "The referee answers" in scr.answers_text,
            f"the referee's answer shows for both: {scr.answers_text!r}")
    d.check(not any(name["B"] in t for t in _public_texts(d) if name["B"] != name["X"]), "the answer does not name the base")
    d.check(scr.reveal_open and "The referee answers" in scr.reveal_title, "the answer is shown to the table")
    d.shot("lib-referee-answer")
    yield from _tap(d, "Continue")
    _no_leak(d, "after the referee's answer")
    # Lee draws (the card is seen behind the gate only), then passes behind the gate
    # (even passing would say what Lee could not do).
    yield from _tap(d, "the app's deck: draw a card")
    drawn = [x for x in app.table.private_view("lib")["hands"]["lib"]["cards"] if x not in (c["T"],)]
    _no_leak(d, "after Lee's draw")
    yield from _tap(d, "look at the card you drew")
    yield from _hold_gate(d)
    d.check(any(t.startswith("◉ You drew: ") for t in d.texts()), "the drawn card is shown behind the gate")
    d.check(any(GAME.map_of(app.table.state).name_of(x) in t for x in drawn for t in d.texts() if t.startswith("◉ You drew: ")),
            "it names the card drawn")
    d.shot("lib-gate-drawn-card")
    yield from _tap(d, "Take no action")
    # Dana attacks T from X: the Liberation held it.
    yield from _tap(d, "Unexploit") if d.has("Unexploit") else iter(())
    yield from _tap(d, "Don't draw")
    yield from _tap_city(d, c["X"])
    yield from _tap_city(d, c["T"])
    yield from _confirm(d)
    d.check(scr.reveal_open and "CARD TAKEN" in scr.reveal_title, f"CARD TAKEN is revealed: {scr.reveal_title!r}")
    d.shot("lib-attack-card-taken")
    yield from _tap(d, "Continue")
    yield from _tap(d, f"■ Occupy {name['T']}")
    yield from _confirm(d)  # the claimed card is shown for good
    d.check(scr.ids.map.buttons[c["T"]].state in ("occupied", "exploited"), "the taken card is occupied on the map")
    d.check("● Lee: 2 cards" in scr.hands_text, f"the Liberation's hand shrank: {scr.hands_text!r}")
    d.shot("lib-after-claim")
    _no_leak(d, "after the claim")
    d.note(f"mission seed {seed} with clocks {preset!r}: probe answered, {name['T']} taken and occupied")


def _deck_cards(d: Any, seat: str) -> list[str]:
    """The cards the engine's deck can yield to ``seat`` now: this test's "physical deck"
    (a real table would turn over its own top card)."""
    from rules import Draw

    return sorted(a.card for a in d.app.table.legal_actions() if isinstance(a, Draw) and a.seat == seat)


def _enter_physical(d: Any, seat: str, opens: str, count: int, shot: str = "", theirs: str = "") -> Iterator[float]:
    """``seat`` taps the "enter the card(s) you drew" button, holds the gate, and taps each
    card it drew on the page, the gate staying open between the cards of a deal. With
    ``theirs`` (a card the app had in the other hand), that is the card entered: the drawer
    cannot rule it out, so it is accepted (RULINGS L-14); the occupied Cities, face up on
    the map, are not offered."""
    scr = _screen(d)
    p = scr.presenter
    yield from _tap(d, opens)
    d.check(not d.has("The card you drew"), "no card page before the hold")
    yield from _hold_gate(d)
    for city in d.app.table.state.occupied:
        d.check(not d.has(p.card_label(city), root=scr.ids.gate), f"{p.city_name(city)} (occupied) is not offered")
    if theirs:
        other = "lib" if seat == "dyn" else "dyn"
        before = len(d.app.table.private_view(other)["hands"][other]["cards"])
        d.shot("lib-phys-theirs")
        yield from _tap(d, p.card_label(theirs))
        d.check(theirs in d.app.table.private_view(seat)["hands"][seat]["cards"], "the other hand's card is accepted as drawn")
        d.check(len(d.app.table.private_view(other)["hands"][other]["cards"]) == before, "the other hand keeps its size")
        d.check(not d.has("not in the city deck"), "no refusal anywhere")
        count = 0
    for n in range(count):
        card = _deck_cards(d, seat)[0]  # the table's "physical" top card: one the deck can yield
        if count > 1:
            d.check(d.has(f"card {n + 1} of 3"), f"the deal page says which card comes next ({n + 1})")
        if shot and n == count - 1:
            d.shot(shot)
        yield from _tap(d, p.card_label(card))
        d.check(card in d.app.table.private_view(seat)["hands"][seat]["cards"], f"{p.city_name(card)} is in the hand")
        if n < count - 1:
            d.check(scr.ids.gate.active, "the gate stays open for the next card of the deal")
            d.check(d.has(p.card_label(card), root=scr.ids.gate) and d.has("Entered so far"), "the cards entered so far show")
    yield 0.2
    d.check(not scr.ids.gate.active, "the gate closes once the cards are entered")


def liberation_physical_draws(d: Any) -> Iterator[float]:
    """The table's own City cards: the unseen setup discard, both hands entered card by
    card behind the gate, the first City and the base, then four turns whose draws are all
    entered behind the gate (one of them a card the app had in the other hand: accepted). No drawn card's name is ever in
    the public widget tree."""
    app = d.app
    app.new_game("liberation", SEATS, {}, seed=3)
    yield 0.3
    scr = _screen(d)
    p = scr.presenter
    d.check(d.has("Dana: enter the 3 cards you drew") or d.has("face down, unseen"), "the table screen opens")
    yield from _tap(d, "face down, unseen")
    d.check(d.has("▤ Dana: enter the 3 cards you drew…") and d.has("⚄ Or the app's deck: deal 3 cards to Dana"),
            "the two ways to deal: our own cards, or the app's deck")
    d.shot("lib-phys-choice")
    _no_leak(d, "before the deal")
    yield from _enter_physical(d, "dyn", "Dana: enter the 3 cards you drew", 3, shot="lib-phys-deal")
    _no_leak(d, "after Dana's deal")
    yield from _enter_physical(d, "lib", "Lee: enter the 3 cards you drew", 3)
    _no_leak(d, "after Lee's deal")
    d.check("■ Dana: 3 cards" in scr.hands_text and "● Lee: 3 cards" in scr.hands_text, f"hand sizes: {scr.hands_text!r}")
    yield from _tap(d, "place your first City")
    yield from _hold_gate(d)
    yield from _tap(d, "as your first City")
    yield from _tap(d, "place your secret base")
    yield from _hold_gate(d)
    yield from _tap(d, "Put your secret base at")
    _no_leak(d, "after the base")
    draws = 0
    for turn in range(4):
        seat = app.table.view()["active"]
        other = "lib" if seat == "dyn" else "dyn"
        name = p.name(seat)
        d.check(d.has(f"▤ {name}: enter the card you drew…") and d.has("⚄ Or the app's deck: draw a card face down"),
                f"turn {turn + 1}: our own card or the app's deck")
        theirs = app.table.private_view(other)["hands"][other]["cards"]
        yield from _enter_physical(d, seat, f"{name}: enter the card you drew", 1,
                                   shot="lib-phys-draw" if turn == 0 else "", theirs=theirs[0] if turn == 1 else "")
        draws += 1
        d.check(not d.has("look at the card you drew"), "no peek button: the seat holds its own card")
        _no_leak(d, f"turn {turn + 1}, after the draw")
        if seat == "dyn":
            yield from _tap(d, "Take no action")
        else:
            yield from _tap(d, "your action")
            yield from _hold_gate(d)
            yield from _tap(d, "Take no action")
        if app.table.view()["phase"] == "step3":
            yield from _tap(d, "discard down to 3 (behind the gate)")  # the button, not the prompt
            yield from _hold_gate(d)
            yield from _tap(d, "▥ Discard ")
        _no_leak(d, f"turn {turn + 1}, end")
    d.shot("lib-phys-after")
    d.note(f"{draws} physical draws entered behind the gate")


def _same_as_fresh(d: Any, where: str) -> None:
    """The map (its cities, and the lines drawn from the same lines and aims), the side
    column's words and the turn's steps as a screen built afresh from the same Table shows them."""
    from tests.ui.fresh_screen import differences

    def lines(live: Any, fresh: Any) -> list[str]:
        # What the map's lines were last drawn from: its lines, the hot ones, the cards' edges.
        a, b = live.ids.map._picture[4:], fresh.ids.map._picture[4:]
        return [] if a == b else [f"the map's lines drawn from {a}, a fresh map's from {b}"]

    bad = differences(_screen(d), ("map",), lines)
    d.check(not bad, f"{where}: the screen differs from a fresh one:\n" + "\n".join(bad[:12]))
    d.note(f"{where}: as a fresh screen")


def liberation_in_place_as_fresh(d: Any) -> Iterator[float]:
    """Taps update the table screen in place (issue 34): through the deal, the first City
    and the base behind the gate, a step and its undo, an aimed and confirmed Attack, the
    live screen shows exactly what a fresh screen bound to the same Table shows."""
    seed, c = plan_short_game()
    app = d.app
    app.new_game("liberation", SEATS, {}, seed=seed)
    yield 0.3
    yield from _settle(d)
    scr = _screen(d)
    _same_as_fresh(d, "a new game")
    yield from _tap(d, "Discard the top card face down")
    yield from _tap(d, "deal 3 cards to Dana")
    yield from _tap(d, "deal 3 cards to Lee")
    _same_as_fresh(d, "the deal")
    yield from _tap(d, "place your first City")
    yield from _hold_gate(d)
    from rules.liberation import GAME

    name = {k: GAME.map_of(app.table.state).name_of(v) for k, v in c.items()}
    yield from _tap(d, f"Occupy {name['X']}")
    yield from _tap(d, "place your secret base")
    yield from _hold_gate(d)
    yield from _tap(d, f"Put your secret base at {name['B']}")
    for _ in range(40):
        if not scr.ids.gate.active:
            break
        yield 0.05
    yield from _settle(d)
    _same_as_fresh(d, "the first City and the base")
    ply = app.table.ply
    yield from _tap(d, "Don't draw")
    _same_as_fresh(d, "a step")
    d.check(not scr.ids.undo.disabled, "undo is offered")
    d.tap(scr.ids.undo)
    yield 0.1
    yield from _settle(d)
    d.check(app.table.ply == ply, f"the step was undone (ply {app.table.ply}, was {ply})")
    _same_as_fresh(d, "the undo")
    yield from _tap(d, "Don't draw")
    yield from _tap_city(d, c["X"])
    d.check(scr.ids.map.buttons[c["M"]].target, "the Attack's targets are marked")
    p = scr.presenter
    aimed = frozenset(p.aimed_lines(p.view()))
    d.check(aimed and scr.ids.map._picture[5] == aimed, f"the aimed lines are drawn hot: {scr.ids.map._picture[5]} for {aimed}")
    yield from _tap_city(d, c["M"])
    yield from _confirm(d)
    yield from _tap(d, "Continue")
    d.check(scr.ids.map.buttons[c["X"]].state == "exploited", "the attacking City is exploited")
    _same_as_fresh(d, "the Attack")
