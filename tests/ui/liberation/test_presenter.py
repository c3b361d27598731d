"""The Liberation presenter against the real Table, without a window: the public side never
names a hidden card (whatever the state), the private side offers exactly the seat's own
choices, map taps become Attacks and referee questions, the Attack result reads as a reveal,
and the end-of-game audit lists every Evade with its legality."""
from __future__ import annotations

import inspect
import random

import pytest

from rules import PUBLIC, Draw, DrawRequest
from rules.core import IllegalAction
from rules.liberation import GAME, Attack, Evade, Mission, Pass

from companion.ui.games.liberation.presenter import LiberationPresenter
from companion.ui.presenters.actions import GateLine, GateSection


def _deal(t, p):
    """Setup by the presenter's own buttons: discard, deal both hands."""
    while t.view()["phase"] in ("setup-discard", "deal"):
        b = next(b for b in p.buttons() if b.intent == "app-draw")
        for _ in range(b.count):
            t.roll_for_me()


def _choose(t, p, seat, group, pred=lambda c: True):
    c = next(c for c in p.private(seat).choices if c.group == group and pred(c))
    t.submit(c.action)
    return c


def _hidden(t):
    """Every name and id the public may not see right now (the engine's own list)."""
    return t.hidden(PUBLIC)


def _public_texts(p):
    v = p.view()
    out = [p.prompt_line(), p.turn_line(v), p.ask_hint(v), p.info]
    out += [b.label for b in p.buttons()]
    s = p.status(v)
    out += [s["act_text"], s["deck_text"], s["hands_text"], s["map_text"]]
    out += [n for _, n, _ in p.steps(v)]
    r = p.reveal(v)
    if r is not None:
        out += [r.title, r.text, r.city]
    # Answers are verbatim public log lines (they may name a city that is hidden again later).
    assert set(p.answers()) <= {ln.text for ln in p.table.log(PUBLIC)}
    out += [c.label.split("\n", 2)[2] for c in p.cells(v) if c.label.count("\n") == 2]  # state lines (names are the map's)
    return out


def test_the_opening_screen_and_setup_by_buttons(new_table):
    t = new_table(seed=3)
    p = LiberationPresenter(t)
    (b,) = p.buttons()
    assert b.intent == "app-draw" and "Discard the top card face down" in b.label
    s = p.status()
    assert s["act_text"] == "ACT I of III" and s["deck"] == 14 and s["map_text"].startswith("⚠ Placeholder map")
    assert len(p.cells()) == 14 and all(c.state == "free" for c in p.cells())
    assert p.cells()[0].label == "○ City A\nPolitical Center"
    t.roll_for_me()
    ours, apps = p.buttons()
    assert (ours.intent, ours.seat, ours.role) == ("physical-draw", "dyn", "primary")
    assert ours.label == "▤ Dana: enter the 3 cards you drew…"
    assert apps.intent == "app-draw" and apps.label == "⚄ Or the app's deck: deal 3 cards to Dana" and apps.count == 3
    _deal(t, p)
    assert [n for _, n in p.status()["hands"]] == [3, 3] and p.status()["deck"] == 7
    (b,) = p.buttons()
    assert b.intent == "hand" and b.seat == "dyn"
    mine = p.private("dyn")
    assert len(mine.hand) == 3 and [c.group for c in mine.choices] == ["first-city"] * 3
    assert p.private("lib").choices == ()  # not the Liberation's move: its hand only
    first = _choose(t, p, "dyn", "first-city").action.card
    assert {c.id: c.state for c in p.cells()}[first] == "occupied"
    (b,) = p.buttons()
    assert b.intent == "hand" and b.seat == "lib" and "secret base" in b.label
    base = _choose(t, p, "lib", "base").action.card
    assert p.private("lib").base == p.card_label(base)
    assert p.private("dyn").base == ""
    assert p.turn_line() == "Turn 1 · Dana (■ Dynasty)"
    assert p.steps() == [(1, "Draw, unexploit, or neither", "current"),
                         (2, "One action: mission, occupy, attack, unexploit", "todo"), (3, "Discard down to 3", "todo")]
    labels = [b.label for b in p.buttons()]
    assert labels == ["▤ Dana: enter the card you drew…", "⚄ Or the app's deck: draw a card face down", "Don't draw"]


def test_the_liberations_turn_is_one_button_to_the_gate_and_evades_are_adjacent(new_table):
    t = new_table(seed=5)
    p = LiberationPresenter(t)
    _deal(t, p)
    _choose(t, p, "dyn", "first-city")
    base = _choose(t, p, "lib", "base").action.card
    t.submit(Pass("dyn"))  # no draw
    t.submit(Pass("dyn"))  # no action
    t.roll_for_me()  # the Liberation draws
    (b,) = p.buttons()
    assert b.intent == "hand" and b.seat == "lib"
    assert not any(isinstance(x.action, Evade) for x in p.buttons())
    mine = p.private("lib")
    evades = [c for c in mine.choices if c.group == "evade"]
    assert evades[0].label == f"● Evade: keep the base at {p.city_name(base)}"
    for c in evades[1:]:
        assert GAME.adjacent(t.state, base, c.action.to) and c.label.startswith("● Evade: move the base to ")
    assert {c.action for c in mine.choices} <= set(t.legal_actions())
    assert mine.base == p.card_label(base) and mine.note.startswith("Lines from your base to: ")


def test_tapping_the_map_aims_an_attack_and_the_result_is_a_reveal(new_table):
    # Find a deal where the Liberation holds a card next to one of the Dynasty's cards.
    for seed in range(1, 60):
        t = new_table(seed=seed)
        p = LiberationPresenter(t)
        _deal(t, p)
        dyn = t.private_view("dyn")["hands"]["dyn"]["cards"]
        lib = t.private_view("lib")["hands"]["lib"]["cards"]
        pairs = [(d, c) for d in dyn for c in lib if GAME.adjacent(t.state, d, c)]
        if len(pairs) >= 1 and len(lib) >= 2:
            break
    first, base = pairs[0]
    _choose(t, p, "dyn", "first-city", lambda c: c.action.card == first)
    _choose(t, p, "lib", "base", lambda c: c.action.card == base)
    t.submit(Pass("dyn"))
    assert t.view()["phase"] == "step2"
    # A miss first: a neighbour of the first city that the Liberation does not have.
    held = set(t.private_view("lib")["hands"]["lib"]["cards"]) | {base}
    empty = [n for n in GAME.map_of(t.state).neighbours(first) if n not in held]
    assert p.tap_city(first) is None and "Exploit" in p.info
    cells = {c.id: c for c in p.cells()}
    assert cells[first].selected and all(cells[n].target for n in GAME.map_of(t.state).neighbours(first))
    assert cells[base].label.startswith("⚔ ")
    attack_buttons = [b for b in p.buttons() if isinstance(b.action, Attack)]
    assert {b.action.city for b in attack_buttons} == set(GAME.map_of(t.state).neighbours(first))
    if empty:
        a = p.tap_city(empty[0])
        assert a == Attack("dyn", first, empty[0])
        t.submit(a)
        r = p.reveal()
        assert (r.result, r.title, r.city) == ("miss", "MISS", p.city_name(empty[0])) and "does not hold" in r.text
        # Liberation's turn: nothing; then the Dynasty unexploits and attacks the base.
        t.submit(Pass("lib"))
        t.submit(Pass("lib"))
        (unexploit,) = [b for b in p.buttons() if b.label.startswith("⟲ Unexploit")]
        t.submit(unexploit.action)
    p.tap_city(first)
    t.submit(p.tap_city(base))
    r = p.reveal()
    assert (r.result, r.title) == ("base-found", "BASE FOUND") and r.city == p.city_name(base)
    assert p.is_over() and p.prompt_line().startswith("■ The Dynasty wins") and p.steps() == []
    rows = p.audit_rows()
    assert rows[0] == (f"Setup: base placed at {p.city_name(base)}", True)
    (found,) = [c for c in p.cells() if c.base]
    assert found.id == base and found.label.startswith("★ ") and found.label.endswith("\nthe base")


def test_a_referee_question_is_built_on_the_map_and_answered_for_both(new_table):
    # A deal where the Dynasty holds a Research Station (Deep-Space Probe: free, asks
    # "is the base within N steps of X?").
    for seed in range(1, 80):
        t = new_table(seed=seed)
        p = LiberationPresenter(t)
        _deal(t, p)
        dyn = t.private_view("dyn")["hands"]["dyn"]["cards"]
        probes = [c for c in dyn if GAME.map_of(t.state).category_of(c) == "research-station"]
        if probes and len(dyn) == 3:
            break
    probe = probes[0]
    _choose(t, p, "dyn", "first-city", lambda c: c.action.card != probe)
    base = _choose(t, p, "lib", "base").action.card
    t.submit(Pass("dyn"))
    c = _choose(t, p, "dyn", "mission", lambda c: c.action == Mission("dyn", probe))
    assert c.label.startswith("★ Deep-Space Probe (play ") and c.label.endswith("asks the referee")
    assert "tap one city" in p.ask_hint()
    assert [b.label for b in p.buttons()] == ["within 1 step ✔", "within 2 steps"]
    target = GAME.map_of(t.state).city_ids[0]
    p.tap_city(target)
    (two,) = [b for b in p.buttons() if b.intent == "steps" and b.steps == 2]
    p.set_steps(two.steps)
    ask = [b for b in p.buttons() if b.intent == "submit"][0]
    assert ask.label == f"? Ask: is the base within 2 steps of {p.city_name(target)}?"
    t.submit(ask.action)
    truth = GAME.map_of(t.state).distance(target, base) <= 2
    (answer,) = p.answers()
    assert answer.endswith("YES.") == truth and p.city_name(base) not in answer.replace(p.city_name(target), "")


def test_a_mission_and_its_answer_say_what_the_table_resolves_and_what_the_app_did(new_table):
    # Issue 32, item 10: a mission "happened" with no visible effect. The result says the
    # effect is the table's (from its card: the rulebook prints no mission text, L-10),
    # what the app did (the card revealed and discarded, the cost, the question), then
    # the referee's answer; from the public view only.
    for seed in range(1, 80):
        t = new_table(seed=seed)
        p = LiberationPresenter(t)
        _deal(t, p)
        dyn = t.private_view("dyn")["hands"]["dyn"]["cards"]
        probes = [c for c in dyn if GAME.map_of(t.state).category_of(c) == "research-station"]
        if probes and len(dyn) == 3:
            break
    probe = probes[0]
    _choose(t, p, "dyn", "first-city", lambda c: c.action.card != probe)
    _choose(t, p, "lib", "base")
    t.submit(Pass("dyn"))
    assert p.mission_result() is None
    _choose(t, p, "dyn", "mission", lambda c: c.action == Mission("dyn", probe))
    m = p.mission_result()
    name = p.city_name(probe)
    assert (m.kind, m.title, m.ply) == ("mission", "★ Deep-Space Probe", t.ply - 1)
    assert m.lines == (
        f"The table carries out the card's effect: read it on the card of {name}.",
        f"The app: The Dynasty reveals {name} and performs Deep-Space Probe; the card is discarded. No cost. "
        "Next: its referee question, asked on the map; the app answers.")
    target = GAME.map_of(t.state).city_ids[0]
    p.tap_city(target)
    t.submit([b for b in p.buttons() if b.intent == "submit"][0].action)
    a = p.mission_result()
    assert a.kind == "answer" and a.title in ("? The referee answers: YES", "? The referee answers: NO")
    assert a.lines[0] == f"Is the base within 1 step of {p.city_name(target)}?"
    hidden = _hidden(t)
    assert not [h for h in hidden if len(h) > 2 and any(h in line for line in m.lines + a.lines)]


def _random_game(t, p, rng, check):
    steps = 0
    while not p.is_over() and steps < 400:
        steps += 1
        check(t, p)
        assert not any(c.base for c in p.cells())  # never before the end
        prompt = t.prompt
        if isinstance(prompt.awaiting, DrawRequest) and rng.random() < 0.7:
            t.roll_for_me()
            continue
        # Play as a table would: public buttons, or a private choice behind the gate.
        buttons = [b for b in p.buttons() if b.intent == "submit"]
        seat = sorted(prompt.actors)[0]
        choices = list(p.private(seat).choices)
        if t.view()["phase"] == "ask":
            cities = GAME.map_of(t.state).city_ids
            p.tap_city(rng.choice(cities))
            buttons = [b for b in p.buttons() if b.intent == "submit"]
        options = [b.action for b in buttons] + [c.action for c in choices]
        if not options:
            t.roll_for_me()
            continue
        action = rng.choice(options)
        assert action in t.legal_actions()
        t.submit(action)
    return steps


def test_random_games_never_show_a_hidden_card_in_public_and_end_with_a_full_audit(new_table, soak_factor):
    rng = random.Random(2026)
    games = 6 * soak_factor

    acts = []

    def check(t, p):
        v = t.view()
        if acts and p.act_news(acts[-1], v):
            assert int(v["act"]) == acts[-1] + 1 and p.act_news(acts[-1], v).startswith(f"ACT {'I' * int(v['act'])} begins")
        acts.append(int(v["act"]))
        hidden = {h for h in _hidden(t) if len(h) > 2}
        for text in _public_texts(p):
            leaked = [h for h in hidden if h in text]
            assert not leaked, f"{leaked} in public text {text!r} (phase {t.view()['phase']})"

    for g in range(games):
        t = new_table(seed=100 + g)
        p = LiberationPresenter(t)
        _random_game(t, p, rng, check)
        assert p.is_over()
        v = p.view()
        rows = p.audit_rows(v)
        assert len(rows) == len(v["audit"]["base_history"]) and all(ok for _, ok in rows)
        assert sum(1 for r, _ in rows if r.startswith("Evade ")) == len(v["audit"]["base_history"]) - 1
        assert p.audit_summary(v)[0].startswith("Final base: ")
        assert p.buttons() == []
    assert max(acts) >= 2, "the random games reach a new ACT"


def test_a_resumed_game_shows_the_same_public_screen(tmp_path):
    from companion import Journal, Table

    seats = [{"id": "dyn", "faction": "dynasty", "name": "Dana"}, {"id": "lib", "faction": "liberation", "name": "Lee"}]
    journal = Journal.open(tmp_path / "j.sqlite3")
    t = Table.create(journal, game_id="liberation", seats=seats, options={}, seed=9)
    p = LiberationPresenter(t)
    _deal(t, p)
    _choose(t, p, "dyn", "first-city")
    _choose(t, p, "lib", "base")
    t.submit(Pass("dyn"))
    before = (p.status(), [c.label for c in p.cells()], [b.label for b in p.buttons()], p.steps(), p.prompt_line())
    key = t.key
    t.close()
    again = Table.resume(journal, key)
    q = LiberationPresenter(again)
    assert (q.status(), [c.label for c in q.cells()], [b.label for b in q.buttons()], q.steps(), q.prompt_line()) == before
    again.close()
    journal.close()


class _NoState:
    """A table whose ``state`` may not be read: presenters show view data and public
    options only (the state also holds what the seats hide)."""

    def __init__(self, table: object) -> None:
        self._table = table

    def __getattr__(self, name: str) -> object:
        if name == "state":
            raise AssertionError("a presenter read table.state")
        return getattr(self._table, name)


def test_presenters_never_read_the_table_state(tmp_path) -> None:
    import rules
    from companion.journal import Journal
    from companion.table import Table
    from companion.ui.games.tyranny.presenter import TyrannyPresenter

    for game_id, presenter in (("liberation", LiberationPresenter), ("tyranny", TyrannyPresenter)):
        seats = [{"id": s.id, "faction": s.faction, "name": f"P{i}"} for i, s in enumerate(rules.load(game_id).default_seats())]
        t = Table.create(Journal.open(":memory:"), game_id=game_id, seats=seats, options={}, seed=3)
        p = presenter(_NoState(t))
        called = 0
        # Every public method that takes no argument (what the screens draw from):
        # any read of table.state fails the test; other errors are not this test's concern.
        for name in dir(p):
            attr = getattr(type(p), name, None)
            if name.startswith("_") or not callable(attr):
                continue
            try:
                inspect.signature(attr).bind(p)
            except TypeError:
                continue
            try:
                getattr(p, name)()
            except AssertionError:
                raise
            except Exception:
                pass
            called += 1
        assert called >= 5, (game_id, called)


def test_a_citys_words_go_once_the_game_moves_on(new_table):
    """Issue 16 #10: what a tap on a city said ("… lines to …") is shown only until the
    next action: it never stays on screen into the next step or the opponent's turn."""
    t = new_table(seed=1)
    p = LiberationPresenter(t)
    _deal(t, p)
    _choose(t, p, "dyn", "first-city")
    _choose(t, p, "lib", "base")
    city = GAME.map_of(t.state).cities[0].id
    assert p.tap_city(city) is None and "lines to" in p.info
    t.submit(Pass("dyn"))  # no draw: on to step 2
    assert p.info == ""
    free = next(c.id for c in GAME.map_of(t.state).cities if c.id not in {o["city"] for o in t.view()["occupied"]})
    assert p.tap_city(free) is None and "lines to" in p.info
    t.submit(Pass("dyn"))  # no action: the Liberation's turn
    assert set(t.prompt.actors) == {"lib"} and p.info == ""


def test_engine_and_table_sentences_reach_players_in_their_words(new_table):
    """Issue 16 #6 at the presenter: seat and city ids, action ids and ruling codes in
    what the engine and the Table say become names and words."""
    t = new_table(seed=1)
    p = LiberationPresenter(t)
    city = GAME.map_of(t.state).cities[0]
    said = p.humanise(f"dyn's first_city on {city.id} cannot be taken back (RULINGS L-02); "
                      f"Glossary: missions (referee questions, RULINGS.md L-10)")
    assert said == f"Dana's first city on {city.name} cannot be taken back; Glossary: missions (referee questions)"


# ------------------------------------------------------------ the table's own cards (L-14)


def _page_cards(p, seat):
    """The card ids the physical-draw page offers ``seat`` (its choices' Draws)."""
    sections = p.physical_draw_page(seat)
    return [ch.action.card for sec in sections for ch in sec.choices]


def _enter(t, p, seat, card):
    """Tap ``card`` on ``seat``'s physical-draw page, as the gate page would."""
    (choice,) = [ch for sec in p.physical_draw_page(seat) for ch in sec.choices if ch.action.card == card]
    assert choice.action.source == "card"
    t.submit(choice.action)


def _physical_setup(t, p, rng):
    """Setup with the table's own cards: the unseen discard, then each hand entered card by
    card on the page (the 'cards' are taken from the engine's deck at random: a shuffled
    physical deck), checking the page at each step."""
    t.roll_for_me()  # the unseen setup discard (the one button)
    for seat in ("dyn", "lib"):
        ours = next(b for b in p.buttons() if b.intent == "physical-draw")
        assert ours.seat == seat
        for n in range(3):
            assert p.physical_draw_continues(seat)
            page = p.physical_draw_page(seat)
            text = " ".join(ln.text for sec in page for ln in sec.lines)
            assert f"card {n + 1} of 3" in text
            deck = [a.card for a in t.legal_actions() if isinstance(a, Draw) and a.seat == seat]
            _enter(t, p, seat, rng.choice(deck))
        assert not p.physical_draw_continues(seat)  # the gate closes after the third card
    _choose(t, p, "dyn", "first-city")
    _choose(t, p, "lib", "base")


def test_a_deal_entered_card_by_card_shows_the_cards_entered_so_far(new_table):
    t = new_table(seed=5)
    p = LiberationPresenter(t)
    t.roll_for_me()
    d = [a.card for a in t.legal_actions() if isinstance(a, Draw)][:2]
    _enter(t, p, "dyn", d[0])
    _enter(t, p, "dyn", d[1])
    lines = [ln.text for sec in p.physical_draw_page("dyn") for ln in sec.lines]
    assert "card 3 of 3" in lines[0]
    assert lines[1] == "▤ Entered so far: " + "; ".join(p.card_label(c) for c in d)
    assert d[0] not in _page_cards(p, "dyn") and d[1] not in _page_cards(p, "dyn")
    assert p.physical_draw_continues("dyn") and not p.physical_draw_continues("lib")
    assert p.physical_draw_page("lib") == [GateSection(lines=(GateLine("Nothing to draw now."),))]


def test_the_physical_draw_page_offers_every_card_the_deck_can_yield_and_never_the_exact_deck(new_table):
    """The page lists, in the map's order, every City the seat cannot rule out (not
    occupied, not its own hand or base): it always holds every card the deck can yield, and
    the opponent's cards and the face-down discards are on it too, so it tells nothing."""
    rng = random.Random(11)
    for seed in (2, 7, 19):
        t = new_table(seed=seed)
        p = LiberationPresenter(t)
        _physical_setup(t, p, rng)
        order = [c.id for c in p.map.cities]
        draws = 0
        for turn in range(8):
            if p.is_over():
                break
            if t.view()["phase"] == "step1" and isinstance(t.prompt.awaiting, DrawRequest):
                seat = t.view()["active"]
                offered = _page_cards(p, seat)
                deck = {a.card for a in t.legal_actions() if isinstance(a, Draw) and a.seat == seat}
                pv = t.private_view(seat)
                own = set(pv["hands"][seat]["cards"]) | {o["city"] for o in pv["occupied"]}
                own |= {pv["base"].get("city")} if seat == "lib" else set()
                assert deck <= set(offered), "every card the deck can yield is offered"
                assert offered == [c for c in order if c not in own], "exactly what the seat cannot rule out, map order"
                other = "lib" if seat == "dyn" else "dyn"
                theirs = set(t.private_view(other)["hands"][other]["cards"])
                assert theirs <= set(offered), "the opponent's cards are offered too: the page is not the deck"
                for label, action in p.physical_draws(seat):
                    assert label == p.card_label(action.card)
                # Nothing of the page is public: the public buttons name no hidden card.
                for text in _public_texts(p):
                    assert not [h for h in _hidden(t) if len(h) > 2 and h in text], text
                # A card the app had in the opponent's hand is accepted (L-14): the drawer
                # cannot rule it out, and a refusal would tell it where the card is not.
                for card in theirs:
                    assert not t.game.check(t.state, Draw(seat, "city", card, source="card"))
                _enter(t, p, seat, rng.choice(sorted(deck)))
                draws += 1
                assert p.drawn_news(Draw(seat, "city", "x", source="card")) == ""  # they hold the card
            # The rest of the turn: no action, discard down to 3 by the hand page.
            while not p.is_over() and t.view()["phase"] != "step1":
                seat = t.view()["active"]
                if t.view()["phase"] == "step3":
                    _choose(t, p, seat, "discard")
                elif t.view()["phase"] == "step2":
                    t.submit(Pass(seat))
                else:
                    break
            if t.view()["phase"] == "step1" and not isinstance(t.prompt.awaiting, DrawRequest):
                t.submit(Pass(t.view()["active"]))
        assert draws >= 6, f"seed {seed}: only {draws} physical draws"


def test_the_tables_card_may_be_the_one_the_app_put_in_for_the_unseen_discard(new_table):
    """L-14 through the presenter: nobody saw the setup discard, so whichever of the 14
    cards the table's deck yields first is accepted (the app's stand-in included), and the
    deck and discard counts stay the table's."""
    for card in [c.id for c in LiberationPresenter(new_table(seed=4)).map.cities]:
        t = new_table(seed=4)
        p = LiberationPresenter(t)
        (b,) = p.buttons()
        assert b.intent == "app-draw" and "face down, unseen" in b.label
        t.roll_for_me()
        assert card in _page_cards(p, "dyn")
        _enter(t, p, "dyn", card)
        v = t.view()
        assert (v["deck"], v["discard"]) == (12, 1)
        assert t.private_view("dyn")["hands"]["dyn"]["cards"] == [card]


def test_the_phone_gets_each_city_cards_words_for_its_own_hand_only(new_table):
    """``card_texts(seat)``: the seat's own City cards with what a tap on the City shows
    and the mission its category gives that side; nothing of the other hand."""
    t = new_table(seed=3)
    p = LiberationPresenter(t)
    _deal(t, p)
    for seat, other in (("dyn", "lib"), ("lib", "dyn")):
        mine = t.private_view(seat)["hands"][seat]["cards"]
        texts = p.card_texts(seat)
        assert [c for c, _n, _t in texts] == mine and mine
        for c, name, text in texts:
            assert name == p.city_name(c) and text.startswith(p.describe(c)) and "★ mission: " in text
        assert not {c for c, _n, _t in texts} & set(t.private_view(other)["hands"][other]["cards"])
