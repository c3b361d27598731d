"""The Dicetopia presenter without a window: the city entered on the grid, the guided
taps (targets, then the action), abilities, missions only behind the gate, the tally."""
from __future__ import annotations

from typing import Any

import pytest

from rules import PUBLIC, Draw, DrawRequest, Roll, RollRequest
from rules.dicetopia.actions import Deploy, Exterminate, Intervene, Keep, Swap

from companion.ui.games.dicetopia.presenter import CityEntry, DicetopiaPresenter

SEATS = [{"id": "shakra-1", "faction": "shakra", "name": "Ann"}, {"id": "tuulu-1", "faction": "tuulu", "name": "Bob"}]


def _to_turns(t: Any, p: DicetopiaPresenter) -> None:
    """The app rolls the city and deals; each player who keeps discards their first mission."""
    while t.view()["phase"] in ("roll", "deal"):
        t.roll_for_me()
    for seat in t.view()["order"]:
        if seat in t.prompt.actors:
            t.submit(p.hand_page(seat)[0].choices[0].action)


def _public_words(p: DicetopiaPresenter) -> list[str]:
    out = [p.prompt_line(), p.turn_line(), p.steps(), p.scores(), p.info]
    out += [b.label for b in p.buttons()]
    for h in p.hoods():
        out += [h.title, h.status] + [c.text + c.words for c in h.cells]
    for b in p.boards():
        out += [b.title, b.token] + [c.text + c.words for c in b.cells]
    return out


def _no_secret(t: Any, p: DicetopiaPresenter) -> None:
    hidden = {h for h in t.hidden(PUBLIC) if len(h) > 3}
    leaks = [(h, w) for w in _public_words(p) for h in hidden if h in w]
    assert not leaks


def test_the_city_entered_on_the_grid_is_the_city_rolled(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"})
    p = DicetopiaPresenter(t)
    assert [b.intent for b in p.buttons()] == ["entry-start", "app-draw"]
    p.start_entry()
    e = p.entry
    assert len(e.spaces) == 18 and e.per_colour == {"purple": 6, "teal": 6, "white": 6}
    for i in range(6):
        assert e.push("purple", i + 1)
    assert not e.push("purple", 3) and e.left("purple") == 0  # a seventh purple die is refused
    for i in range(12):
        e.push(("teal", "white")[i % 2], 6 - i % 6)
    e.pop()
    assert not e.complete and p.hoods()[5].cells[2].kind == "next"
    e.push("white", 1)
    assert e.complete and "entry-done" in [b.intent for b in p.buttons()]
    t.submit(e.roll("shakra-1"))
    city = t.view()["city"]
    assert city["agency"][:3] == ["p1", "p2", "p3"] and city["agency"][3:] == ["-", "-"]
    assert [c.kind for c in p.hoods()[0].cells] == ["die", "die", "die", "unused", "unused"]
    assert p.hoods()[0].cells[0].text == "⚔1"  # glyph and value: never colour alone


def test_a_guided_swap_marks_only_legal_targets_and_then_submits(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"}, seed=3)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    _no_secret(t, p)
    v = t.view()
    assert p.targets() == {(h, i) for h, cells in v["city"].items() for i, c in enumerate(cells) if c[1:].isdigit()}
    deploy = p.tap("congress", 0)
    assert deploy == Deploy("shakra-1", "congress", 0)
    t.submit(deploy)
    assert "Twilight Congress" in p.steps() and "Tap a die" in p.prompt_line()
    first = p.targets()
    assert first and all(w in v["city"] for w, _ in first)
    assert p.tap("agency", 0) is None
    second = p.targets()
    assert second and all(w not in ("agency", "shakra-1", "tuulu-1") for w, _ in second)  # another neighbourhood
    assert p.tap("shakra-1", 0) is None and "board" in p.info  # not a target: its words instead
    w, i = sorted(second)[0]
    action = p.tap(w, i)
    assert isinstance(action, Swap) and {(action.a, action.a_index), (action.b, action.b_index)} == {("agency", 0), (w, i)}
    t.submit(action)
    _no_secret(t, p)


def test_exterminate_and_intervention_by_taps(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"}, seed=4)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    labels = [b.label for b in p.buttons()]
    assert any("Exterminate" in x for x in labels) and not any("Intervention" in x for x in labels)
    p.set_mode("exterminate")
    assert "Exterminate" in p.prompt_line() and p.buttons()[-1].label == "← Back"
    action = p.tap("bank", 1)
    assert action == Exterminate("shakra-1", "bank", 1)
    t.submit(action)
    assert p.hoods()[4].cells[1].text == "✖" and "used" in p.boards()[0].token
    t.submit(p.tap("gugu", 0))
    t.submit(p.tap("agency", 0))  # the reroll: Bob has no Block
    t.roll_for_me()
    assert t.view()["current"] == "tuulu-1"
    p.set_mode("intervene")
    assert p.tap("waste", 0) is None
    twice = [b for b in p.buttons() if "twice" in b.label]
    assert len(twice) == 1 and twice[0].action == Intervene("tuulu-1", "waste", 0, "waste", 0)
    assert isinstance(p.tap("syndicate", 0), Intervene)  # a second die: the action at once


def test_dealt_factions_are_the_seats_factions_and_are_offered_face_up(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1", "deal_factions": True})
    p = DicetopiaPresenter(t)
    assert p.who("shakra-1") == "Ann" and p.seats()[0]["faction"] == ""
    assert [s["faction"] for s in t.seats] == ["shakra", "tuulu"]          # nothing dealt yet: as the table began
    cards = [b for b in p.buttons() if b.intent == "submit"]
    assert len(cards) == 10 and all(isinstance(b.action, Draw) for b in cards)
    t.submit(next(b.action for b in cards if "Hollows" in b.label))
    assert p.who("shakra-1") == "Ann (≈ Hollows)" and p.seats()[0]["faction"] == "hollows"
    assert len([b for b in p.buttons() if b.intent == "submit"]) == 9
    t.submit(next(b.action for b in p.buttons() if b.intent == "submit" and "Banxa" in b.label))
    # The table's seats (its strips, end screen, exports) name the dealt factions, not the chosen ones.
    assert [s["faction"] for s in t.seats] == ["hollows", "banxa"]
    assert [s["faction"] for s in t.record().seats] == ["hollows", "banxa"]


def test_missions_are_behind_the_gate_only_and_the_end_tallies_them(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"}, seed=9)
    p = DicetopiaPresenter(t)
    while t.view()["phase"] in ("roll", "deal"):
        t.roll_for_me()
    page = p.hand_page("shakra-1")[0]
    assert len(page.choices) == 3 and all(isinstance(c.action, Keep) for c in page.choices)
    assert all(b.intent == "hand" for b in p.buttons())  # public buttons never name a mission
    _no_secret(t, p)
    for seat in ("shakra-1", "tuulu-1"):
        t.submit(p.hand_page(seat)[0].choices[0].action)
    assert not p.revealed()
    for _ in range(400):
        if t.outcome is not None:
            break
        prompt = t.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in prompt.waits.values()):
            t.roll_for_me()
            continue
        t.submit(next(a for a in t.legal_actions() if a.seat in prompt.actors and not isinstance(a, (Roll, Draw))))
        _no_secret(t, p)
    assert t.outcome is not None and p.buttons() == []
    assert len(p.revealed()) == 2
    rows = p.tally()
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)
    assert all(any(x.startswith("Loot") for x in lines) for _who, lines, _total in rows)
    assert any(x.startswith("Mission") for _w, lines, _t in rows for x in lines)
    assert "wins" in p.winner_line() or "share" in p.winner_line()


def test_player_words(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"})
    p = DicetopiaPresenter(t)
    said = p.humanise("shakra-1 swaps with the die in congress (RULINGS.md D-07); cash-is-king")
    assert said == "Ann swaps with the die in Twilight Congress; Cash is King"


def test_city_entry_doctest():
    import doctest

    from companion.ui.games.dicetopia import layout, presenter

    assert doctest.testmod(presenter).failed == 0 and doctest.testmod(layout).failed == 0
    assert CityEntry([("agency", 0)], {"purple": 1, "teal": 0, "white": 0}).push("teal", 1) is False


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _deploy_first(t: Any, p: DicetopiaPresenter, hood: str) -> None:
    v = t.view()
    i = next(k for k, c in enumerate(v["city"][hood]) if c[1:].isdigit())
    t.submit(p.tap(hood, i))


def test_block_and_adaptation_are_offered_as_buttons(new_table):
    t = new_table(options={"first": "hollows-1"}, seed=2)  # Ann: Banxa Corporation, Bob: Hollows
    p = DicetopiaPresenter(t)
    while t.view()["phase"] in ("roll", "deal"):
        t.roll_for_me()
    for seat in ("banxa-1", "hollows-1"):
        t.submit(p.hand_page(seat)[0].choices[0].action)
    _deploy_first(t, p, "gugu")  # Bob rerolls: Ann may Block it
    t.submit(p.tap("agency", 0))
    labels = [b.label for b in p.buttons()]
    assert labels == ["▣ Ann: Block it", "Let it happen"]
    t.submit(p.buttons()[1].action)
    t.roll_for_me()
    # Ann swaps Bob's agent in the Gugu Airforce away (Waste Management): Bob may adapt.
    _deploy_first(t, p, "waste")
    agent = next(i for i, c in enumerate(t.view()["city"]["gugu"]) if c == "@hollows-1")
    assert p.tap("gugu", agent) is None
    target = sorted(p.targets())[0]
    t.submit(p.tap(*target))
    adapt = [b for b in p.buttons() if "Adapt" in b.label]
    assert adapt and all("→" in b.label for b in adapt) and p.buttons()[-1].label == "Don't adapt"


def test_hypnosis_and_transcendence_choose_a_neighbourhood_by_button(new_table):
    seats = [{"id": "ewo-1", "faction": "ewo", "name": "Eve"}, {"id": "perceptioneers-1", "faction": "perceptioneers", "name": "Pat"}]
    t = new_table(seats=seats, options={"first": "ewo-1"}, seed=6)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    hyp = [b for b in p.buttons() if "Hypnosis" in b.label]
    assert len(hyp) == 1 and hyp[0].intent == "mode"
    p.set_mode("hypnosis")
    hoods = [b for b in p.buttons() if b.intent == "submit"]
    assert len(hoods) == 6
    t.submit(next(b.action for b in hoods if "Twilight Congress" in b.label))
    assert "in Twilight Congress (Hypnosis)" in p.prompt_line()
    assert {w for w, _ in p.targets()} == {"congress"}
    _deploy_first(t, p, "congress")
    p.set_mode("transcend")
    choices = [b for b in p.buttons() if b.intent == "submit"]
    legal = [a for a in t.legal_actions() if type(a).__name__ == "Transcend"]
    assert choices and [b.action for b in choices] == legal and all("Twilight Congress" not in b.label for b in choices)
    t.submit(choices[0].action)


def test_player_order_the_first_in_order_answers_by_button_before_a_later_ability(new_table):
    """Pat (the Perceptioneers) plays before Ann (Shakra): Ann's Exterminate, announced on
    her turn, waits while Pat uses Hypnosis first or lets it go first, by buttons."""
    seats = [{"id": "perceptioneers-1", "faction": "perceptioneers", "name": "Pat"}, {"id": "shakra-1", "faction": "shakra", "name": "Ann"}]
    t = new_table(seats=seats, options={"first": "perceptioneers-1"}, seed=6)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    while t.view()["current"] == "perceptioneers-1":
        t.submit(next(a for a in t.legal_actions() if a.seat == "perceptioneers-1" and type(a).__name__ not in ("Hypnotize",)))
    p.set_mode("exterminate")
    die = sorted(p.targets())[0]
    t.submit(p.tap(*die))
    v = t.view()
    assert v["phase"] == "first" and v["held"] == {"seat": "shakra-1", "kind": "exterminate", "ability": "Exterminate"}
    assert p.prompt_line() == "Pat comes first in Player Order: Hypnosis before Ann's Exterminate, or let it go first"
    labels = [b.label for b in p.buttons()]
    assert any("Pat: Hypnosis for this turn" in x for x in labels) and "Pat: let Ann's Exterminate go first" in labels
    for b in p.buttons():
        if b.intent == "submit":
            assert not t.game.check(t.state, b.action), b.label
    t.submit(next(b.action for b in p.buttons() if b.label == "Pat: let Ann's Exterminate go first"))
    v = t.view()
    assert v["phase"] == "deploy" and v["held"] is None and v["city"][die[0]][die[1]] == "x"
    _no_secret(t, p)


def test_moments_say_what_a_reroll_and_an_exterminate_decided(new_table):
    t = new_table(seats=SEATS, options={"first": "shakra-1"}, seed=4)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    before = t.view()
    t.submit(Exterminate("shakra-1", "bank", 1))
    m = p.moment(before, t.view())
    assert m is not None and "Observatory Bank" in m.title and "leaves the game" in m.text
    t.submit(p.tap("gugu", 0))
    t.submit(p.tap("agency", 0))
    old = t.view()["city"]["agency"][0]
    before = t.view()
    t.submit(Roll("shakra-1", (6 if old[1] != "6" else 1,)))
    m = p.moment(before, t.view())
    assert m is not None and m.title.startswith("↻ ") and "The Agency" in m.text
    assert p.moment(t.view(), t.view()) is None


def test_cloning_by_taps_and_opportunist_behind_the_gate_at_the_end(new_table):
    seats = [{"id": "dangmer-1", "faction": "dangmer", "name": "Dana"}, {"id": "centauri-1", "faction": "centauri", "name": "Cy"}]
    t = new_table(seats=seats, options={"first": "dangmer-1"}, seed=5)
    p = DicetopiaPresenter(t)
    while t.view()["phase"] in ("roll", "deal"):
        t.roll_for_me()
    t.submit(p.hand_page("dangmer-1")[0].choices[0].action)  # Cy keeps all three (Opportunist)
    for _ in range(400):
        if t.view()["phase"] == "clone":
            break
        prompt = t.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in prompt.waits.values()):
            t.roll_for_me()
            continue
        t.submit(next(a for a in t.legal_actions() if a.seat in prompt.actors and not isinstance(a, (Roll, Draw))))
    assert t.view()["phase"] == "clone" and "Cloning" in p.prompt_line()
    assert {w for w, _ in p.targets()} == {"dangmer-1"}
    assert p.tap("dangmer-1", 0) is None
    assert {w for w, _ in p.targets()} == {"centauri-1"}  # the opponent to the right
    assert p.tap("centauri-1", 2) is None
    copies = [b for b in p.buttons() if "Copy the" in b.label]
    assert sorted(b.action.what for b in copies) == ["colour", "value"] and p.buttons()[-1].label == "Don't clone"
    t.submit(next(b.action for b in copies if b.action.what == "value"))
    while t.view()["phase"] not in ("choose", "over"):
        t.submit(next(a for a in t.legal_actions() if a.seat in t.prompt.actors))
    assert t.view()["phase"] == "choose"
    assert [b.intent for b in p.buttons()] == ["hand"]
    page = p.hand_page("centauri-1")[0]
    assert len(page.choices) == 3 and all(c.label.startswith("Don't score") for c in page.choices)
    t.submit(page.choices[0].action)


def test_the_tables_own_missions_are_entered_behind_the_gate(new_table):
    t = new_table(options={"first": "banxa-1"})
    p = DicetopiaPresenter(t)
    t.roll_for_me()
    assert p.buttons()[0].intent == "physical-draw" and p.buttons()[0].seat == "banxa-1"
    for k in range(3):
        assert p.physical_draw_continues("banxa-1")
        page = p.physical_draw_page("banxa-1")[0]
        assert len(page.choices) == 40 - k  # every card but those already entered: the deck is secret
        t.submit(page.choices[k].action)
    assert p.physical_draw_continues("banxa-1")  # the keeping follows on the same page (D-34)
    assert p.drawn_news(page.choices[2].action) == ""  # a card in hand: nothing to peek at
    assert len(p.hand_page("banxa-1")[0].lines) == 3


@pytest.mark.parametrize("seed,factions", [(11, ("bingmai", "ewo", "perceptioneers")), (12, ("banxa", "hollows", "roamers", "tuulu"))])
def test_every_public_button_is_legal_and_nothing_secret_shows_through_a_whole_game(new_table, seed, factions):
    """A whole game played by the panel's own buttons where it has them: each button's
    action is one the engine accepts, and no public word names a secret mission."""
    seats = [{"id": f"{f}-1", "faction": f, "name": n} for f, n in zip(factions, ("Ann", "Bob", "Cy", "Dee"))]
    t = new_table(seats=seats, options={"first": seats[0]["id"]}, seed=seed)
    p = DicetopiaPresenter(t)
    pressed = set()
    for _ in range(500):
        if t.outcome is not None:
            break
        _no_secret(t, p)
        submits = [b for b in p.buttons() if b.intent == "submit"]
        for b in submits:
            assert not t.game.check(t.state, b.action), b.label
        prompt = t.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in prompt.waits.values()):
            t.roll_for_me()
        elif submits:
            pressed.add(type(submits[0].action).__name__)
            t.submit(submits[0].action)
        else:
            t.submit(next(a for a in t.legal_actions() if a.seat in prompt.actors and not isinstance(a, (Roll, Draw))))
    assert t.outcome is not None and pressed


def test_a_mission_drawn_is_offered_from_what_the_seat_cannot_rule_out(tmp_path):
    """``physical_draws(seat)``, for the gate and the phone alike: every mission but the
    seat's own, whatever the others hold; the gate's page lists the same."""
    from companion import Journal, Table
    from companion.ui.games.dicetopia.presenter import DicetopiaPresenter
    from rules.core import DrawRequest

    from tests.companion.table_helpers import seats_for

    t = Table.create(Journal.open(tmp_path / "j.sqlite3"), game_id="dicetopia", seats=seats_for("dicetopia"), seed=2)
    p = DicetopiaPresenter(t)
    while not any(isinstance(w, DrawRequest) for w in t.prompt.waits.values()):  # the city's roll, factions
        acts = [a for a in t.legal_actions() if not a.chance]
        t.submit(acts[0]) if acts else t.roll_for_me()
    drawing = [s for s, w in t.prompt.waits.items() if isinstance(w, DrawRequest)]
    seat = drawing[0]
    others = [s["id"] for s in t.seats if s["id"] != seat]
    before = p.physical_draws(seat)
    assert [c.label for c in p.physical_draw_page(seat)[0].choices] == [label for label, _a in before]
    for o in others:
        if o not in drawing:
            assert p.physical_draws(o) == []
    state = t._state
    top = state.deck.cards[:2]
    with t._lock:  # another seat holds two missions face down: nothing changes for this one
        for c in top:
            state.deck.cards.remove(c)
            state.hands[others[0]].cards.append(c)
        state.changed()
    assert p.physical_draws(seat) == before
    with t._lock:  # now this seat holds them: they are not offered
        for c in top:
            state.hands[others[0]].cards.remove(c)
            state.hands[seat].cards.append(c)
        state.changed()
    assert [a.card for _l, a in p.physical_draws(seat)] == [a.card for _l, a in before if a.card not in top]
    # Its phone shows those missions with their words; the other seat's shows none of them.
    texts = p.card_texts(seat)
    assert [c for c, _n, _t in texts][-2:] == top and all(text for _c, _n, text in texts)
    assert not {c for c, _n, _t in p.card_texts(others[0])} & set(top)


def test_the_wizard_offers_the_first_player_by_name_and_the_game_starts_with_them():
    from companion.ui.presenters.setup import APP_CHOOSES, SetupModel

    m = SetupModel.for_game("dicetopia")
    m.rename(0, "Ann")
    m.rename(1, "Bob")
    offered = {o.name: o for o in m.option_choices()}
    assert set(offered) == {"first", "deal_factions", "advanced", "relative_ties"}     # every house option
    first = offered["first"]
    assert first.labels == (APP_CHOOSES, "Ann", "Bob") and first.value == first.default == ""
    assert "seat id" not in first.help and first.ruling == "D-02"
    bob = m.seats[1]["id"]
    m.set_option("first", bob)
    assert m.check() == [] and any(line.endswith("→ Bob") for line in m.summary())
    with pytest.raises(ValueError):
        m.set_option("first", "nobody")
    # Bob's seat id changes with his faction and the order: the choice follows him.
    m.set_faction(1, "ewo")
    m.move(1, -1)
    assert m.options["first"] == m.seats[0]["id"] == "ewo-1" and m.check() == []
    state = m.game.new(m.named_seats(), dict(m.options), seed=3)
    assert state.order[0] == "ewo-1" and state.seat_name(state.order[0]) == "Bob"
    # A seat that goes away takes the choice with it: back to the app's draw.
    m.set_seat_count(3)
    assert m.options["first"] == "" and m.check() == []
    m.set_option("deal_factions", True)
    assert m.game.new(m.named_seats(), dict(m.options), seed=3).phase == "deal-factions"


def test_only_an_option_the_engine_takes_as_a_seat_is_offered_by_name():
    from companion.ui.presenters.setup import SetupModel, seat_options

    assert seat_options("dicetopia") == {"first"}
    for gid in ("tyranny", "liberation", "outrage", "against_all_tyrants"):
        assert seat_options(gid) == frozenset(), gid
    # A-A-T's deck options are text too, but hold data: the wizard leaves them to its own page.
    assert not {"attacker_deck", "defender_deck"} & {o.name for o in SetupModel.for_game("against_all_tyrants").option_choices()}


def test_the_journal_names_the_dealt_factions_in_the_library_and_the_statistics(new_table):
    """A game whose factions were dealt is filed under the dealt ones once over: the home
    screen's history (``Journal.games``) and faction statistics (``Journal.stats``)."""
    t = new_table(seats=SEATS, options={"first": "shakra-1", "deal_factions": True}, seed=5)
    p = DicetopiaPresenter(t)
    t.submit(next(b.action for b in p.buttons() if b.intent == "submit" and "Hollows" in b.label))
    t.submit(next(b.action for b in p.buttons() if b.intent == "submit" and "Banxa" in b.label))
    journal = t.journal
    assert [f for f in journal.games()[0].factions] == ["shakra", "tuulu"]  # in play: as created
    for _ in range(400):
        if t.outcome is not None:
            break
        prompt = t.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in prompt.waits.values()):
            t.roll_for_me()
        else:
            t.submit(next(a for a in t.legal_actions() if a.seat in prompt.actors and not isinstance(a, (Roll, Draw))))
    assert t.outcome is not None
    game = journal.games("finished")[0]
    assert [(s["id"], s["faction"], s["name"]) for s in game.players] == [("shakra-1", "hollows", "Ann"), ("tuulu-1", "banxa", "Bob")]
    assert game.factions == ["hollows", "banxa"]
    stats = journal.stats()
    winners = {s["faction"] for s in t.seats if s["id"] in t.outcome.winning_seats}
    assert set(stats.wins_by_faction) == winners and not {"shakra", "tuulu"} & set(stats.wins_by_faction)


def test_the_tally_lists_the_winner_of_a_tie_first_and_explains_the_tie_break(new_table):
    """Equal stars and neighbourhoods: the tie-break (the highest total dice value) decides,
    and the end lists the winner first, though Bob plays first, with the reason in words."""
    from rules.dicetopia.actions import Deploy as D
    city = {"agency": ["@p1", "@p1", "p3", "-", "-"], "gugu": ["@p1", "@p2", "t2", "-", "-"],
            "waste": ["@p2", "@p2", "w4", "-", "-"], "congress": ["@p1", "@p2", "p5", "-", "-"],
            "bank": ["@p1", "@p2", "t6", "-", "-"], "syndicate": ["p1", "t1", "w1", "-", "-"]}
    position = {"order": ["p2", "p1"], "current": "p1", "turn": 5, "factions": {"p1": "ewo", "p2": "tuulu"},
                "flipped": {"p1": False, "p2": False}, "saved": "", "city": city, "removed": [],
                "boards": {"p1": ["p6", "p6", "t3", "w1", "w5", "@"], "p2": ["p2", "t5", "t4", "w3", "w6", "@"]},
                "missions": {"p1": 2, "p2": 2},
                "private": {"p1": {"missions": ["fake-news", "clones"]}, "p2": {"missions": ["pacifist", "marked-bills"]}}}
    seats = [{"id": "p1", "faction": "ewo", "name": "Ann"}, {"id": "p2", "faction": "tuulu", "name": "Bob"}]
    t = new_table(seats=seats, position=position)
    p = DicetopiaPresenter(t)
    for seat in ("p1", "p2"):
        h = "syndicate"
        t.submit(D(seat, h, next(i for i, c in enumerate(t.view()["city"][h]) if c[0] in "ptw")))
        t.submit(Swap(seat, "p1", 0, "p2", 0))
    o = t.outcome
    assert o is not None and o.scores["p1"].total == o.scores["p2"].total and o.winning_seats == ("p1",)
    assert [who for who, _rows, _total in p.tally()] == [p.who("p1"), p.who("p2")]
    assert "wins the tie" in p.winner_line() and "highest total dice value" in p.winner_line()


def test_the_board_reads_without_colour_actions_in_one_line_tokens_and_the_live_score(new_table):
    """Each neighbourhood's name and action on one line; each die its resource's glyph and
    value (colour never the only cue); agents by faction glyph and initial; each faction
    board's ability token, ready then flipped; the live public score."""
    t = new_table(seats=SEATS, options={"first": "shakra-1"}, seed=3)
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    for row in p.hoods():
        name, _, action = row.title.partition(" · ")
        assert "\n" not in row.title and name and action
    for c in (c for row in p.hoods() for c in row.cells if c.kind == "die"):
        value = t.view()["city"][c.where][c.index][1]
        assert c.text[1:] == value and c.colour in c.words and c.text[0] != c.text[1:]
    assert len({c.text[0] for row in p.hoods() for c in row.cells if c.kind == "die"}) == 3  # a glyph per resource
    shakra = p.boards()[0]
    assert shakra.token.startswith("● Exterminate: ready (once per game)")
    hood = next(h for h, cells in t.view()["city"].items() if sum(c[0] in "ptw" for c in cells) > 1)
    i = next(i for i, c in enumerate(t.view()["city"][hood]) if c[0] in "ptw")
    t.submit(Exterminate("shakra-1", hood, i))
    assert p.boards()[0].token.startswith("○ Exterminate: used (token flipped)")
    assert next(c for c in p.hoods() if c.id == hood).cells[i].kind == "dead"
    j = next(i for i, c in enumerate(t.view()["city"]["waste"]) if c[0] in "ptw")
    t.submit(Deploy("shakra-1", "waste", j))
    agent = next(c for c in p.hoods()[2].cells if c.kind == "agent")
    from rules import facts
    assert agent.text == facts.factions("dicetopia")["shakra"].glyph + "A" and agent.faction == "shakra"
    assert "Ann's agent" in agent.words
    score = t.view()["public_score"]
    assert all(f"{p.name(s)} {score[s]} ★" in p.scores() for s in score)


def test_the_loot_line_is_a_sum_with_its_result_after_an_equals_sign(new_table):
    # §6 "LOOT: the total value of all Dice on your Faction Board": the tally adds the
    # dice up, so the line reads as a sum, "Loot: 6 + 2 + 5 = 13 ★" (issue 32, item 12:
    # it read "Loot: 6 + 2 + 5: 13 ★", a sum without its result sign).
    t = new_table(seats=SEATS, options={"first": "shakra-1"})
    p = DicetopiaPresenter(t)
    _to_turns(t, p)
    for _ in range(400):
        if t.outcome is not None:
            break
        prompt = t.prompt
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in prompt.waits.values()):
            t.roll_for_me()
            continue
        t.submit(next(a for a in t.legal_actions() if a.seat in prompt.actors and not isinstance(a, (Roll, Draw))))
    assert t.outcome is not None
    board = t.view()["boards"]
    for seat in t.view()["order"]:
        pips = [int(c[1]) for c in board[seat] if len(c) == 2 and c[1].isdigit()]
        loot = next(r for who, rows, _total in p.tally() if who == p.who(seat) for r in rows if r.startswith("Loot"))
        expected = " + ".join(str(v) for v in pips) + f" = {sum(pips)} ★" if pips else f"{sum(pips)} ★"
        assert loot == f"Loot: {expected}", loot


def test_every_seat_enters_its_three_missions_and_discards_one_behind_one_gate_pass(new_table):
    # §3 step 3: "deal 3 to each Player. They each get to keep two and discard one" (D-34).
    # Each seat enters its three cards from the table's own deck and, on the same page, the
    # one it discards, before the next seat is dealt (issue 32, item 12: the seats dealt
    # before the last needed a second pass at the gate to discard).
    seats = SEATS + [{"id": "centauri-1", "faction": "centauri", "name": "Cy"}]
    t = new_table(seats=seats, options={"first": "shakra-1"})
    p = DicetopiaPresenter(t)
    t.roll_for_me()
    order = t.view()["order"]
    for seat in order:
        # The deal's buttons are this seat's, whoever else may still keep.
        assert [b.seat for b in p.buttons() if b.intent == "physical-draw"] == [seat]
        for k in range(3):
            assert p.physical_draw_continues(seat)
            page = p.physical_draw_page(seat)[0]
            assert page.lines[0].text == f"Mission {k + 1} of 3: tap the card you drew."
            t.submit(page.choices[0].action)
        if seat == "centauri-1":
            assert not p.physical_draw_continues(seat)  # Opportunist keeps all three: the gate closes
            continue
        assert p.physical_draw_continues(seat)  # the same pass goes on to the keeping
        page = p.physical_draw_page(seat)[0]
        held = list(t.private_view(seat)["missions"][seat]["cards"])
        assert page.title == "Keep two missions: tap the one to discard"
        assert [c.action for c in page.choices] == [Keep(seat, discard=c) for c in held]
        t.submit(page.choices[1].action)
        assert not p.physical_draw_continues(seat)  # kept: the gate closes
        assert not any(b.intent == "hand" and b.seat == seat for b in p.buttons())  # no second pass offered
    assert t.view()["phase"] == "deploy"


def test_with_the_apps_deck_each_seat_keeps_in_one_pass_before_the_next_is_dealt(new_table):
    # The app deals a seat its three face down; that seat's one pass at the gate shows them
    # and takes its discard, while the next seat is dealt.
    t = new_table(seats=SEATS, options={"first": "shakra-1"})
    p = DicetopiaPresenter(t)
    t.roll_for_me()
    deal = next(b for b in p.buttons() if b.intent == "app-draw")
    assert deal.label == "⚄ The app deals 3 missions to Ann" and deal.count == 3
    for _ in range(deal.count):
        t.roll_for_me()
    labels = [(b.label, b.intent, b.seat) for b in p.buttons()]
    assert ("▤ Ann: keep two missions (behind the gate)", "hand", "shakra-1") in labels
    assert ("⚄ The app deals 3 missions to Bob", "app-draw", "tuulu-1") in [(b.label, b.intent, b.seat) for b in p.buttons()]
    _no_secret(t, p)
    page = p.hand_page("shakra-1")[0]
    assert len(page.lines) == 3 and len(page.choices) == 3
    t.submit(page.choices[0].action)
    assert not any(b.intent == "hand" for b in p.buttons())
    assert [b.seat for b in p.buttons() if b.intent == "app-draw"] == ["tuulu-1"]
