"""The Liberation presenter against the real Table, without a window: the public side never
names a hidden card (whatever the state), the private side offers exactly the seat's own
choices, map taps become Attacks and referee questions, the Attack result reads as a reveal,
and the end-of-game audit lists every Evade with its legality."""
from __future__ import annotations

import inspect
import random

import pytest

from rules import PUBLIC, DrawRequest
from rules.liberation import GAME, Attack, Evade, Mission, Pass

from companion.ui.games.liberation.presenter import LiberationPresenter


def _deal(t, p):
    """Setup by the presenter's own buttons: discard, deal both hands."""
    while t.view()["phase"] in ("setup-discard", "deal"):
        (b,) = p.buttons()
        assert b.intent == "app-draw"
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
    (b,) = p.buttons()
    assert b.label == "Deal 3 cards to Dana (■ Dynasty)" and b.count == 3
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
    assert labels == ["Draw a card (the app deals it face down)", "Don't draw"]


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
