"""Setup and the two sides' turns, rule by rule, on the placeholder map."""
from __future__ import annotations

import pytest

from rules.core import PUBLIC, Decision, Draw, DrawRequest, IllegalAction, InvalidSetup, Seat, dumps
from rules.liberation import (
    GAME, Attack, Claim, Discard, Evade, FirstCity, Occupy, Pass, PlaceBase, Sabotage, Unexploit,
)

from .helpers import D, L, SEATS, c, hand, public_text, start


def rejected(state, action, *codes):
    """``action`` is illegal with exactly ``codes`` and leaves ``state`` untouched."""
    before = dumps(state)
    with pytest.raises(IllegalAction) as e:
        GAME.push(state, action)
    assert dumps(state) == before
    assert e.value.codes == codes, e.value.violations
    assert all(v.rule and v.message for v in e.value.violations)
    return e.value


def pass_turn(s):
    seat = s.active
    GAME.push(s, Pass(seat))
    GAME.push(s, Pass(seat))
    assert s.active != seat


# ------------------------------------------------------------------ setup


def test_setup_order_discard_deal_first_city_then_base():
    s = GAME.new(SEATS, {}, seed=4)
    assert s.options["balance"] == 1
    p = GAME.prompt(s)
    assert p.actors == {D} and isinstance(p.awaiting, DrawRequest) and "discard the top card" in p.awaiting.purpose
    GAME.push(s, GAME.sample(s))
    assert len(s.deck.discard) == 1 and len(s.deck) == 13
    for seat in [D, D, D, L, L, L]:
        assert GAME.prompt(s).actors == {seat}
        GAME.push(s, GAME.sample(s))
    assert (len(hand(s, D)), len(hand(s, L)), len(s.deck)) == (3, 3, 7)
    assert GAME.prompt(s).awaiting == Decision(("first_city",), GAME.prompt(s).awaiting.note)
    rejected(s, PlaceBase(L, hand(s, L)[0]), "not-your-turn", "not-awaited")
    first = hand(s, D)[0]
    GAME.push(s, FirstCity(D, first))
    assert s.occupied == [first] and first in public_text(s)
    rejected(s, PlaceBase(L, first), "not-in-hand")
    base = hand(s, L)[1]
    GAME.push(s, PlaceBase(L, base))
    assert s.base == base and len(hand(s, L)) == 2
    assert (s.turn, s.active, s.phase) == (1, D, "step1")       # the Dynasty takes the first turn
    assert base not in public_text(s) and GAME.view(s, L)["base"]["city"] == base


@pytest.mark.parametrize("balance, deck", [(0, 8), (1, 7), (2, 6)])
def test_balance_adjustment_discards_that_many_cards(balance, deck):
    s = start(discard="nmk"[:balance], dyn="abd", lib="efg")
    assert len(s.deck) == deck and len(s.deck.discard) == balance
    assert all("city-n" not in e["text"] for e in GAME.view(s, PUBLIC)["log"])  # face down


def test_setup_is_validated():
    with pytest.raises(InvalidSetup) as e:
        GAME.new(SEATS, {"balance": 3})
    assert e.value.violations[0].code == "bad-option"
    with pytest.raises(InvalidSetup) as e:
        GAME.new([Seat("a", "dynasty"), Seat("b", "dynasty")])
    assert {v.code for v in e.value.violations} == {"faction-count"}
    with pytest.raises(InvalidSetup) as e:
        GAME.new(SEATS, {"map": {"cities": [], "lines": []}})
    assert e.value.violations[0].code == "bad-map" and "14 cities" in e.value.violations[0].message


def test_setup_discard_with_a_card_not_in_the_deck_is_rejected():
    s = GAME.new(SEATS, {"balance": 1}, seed=1)
    rejected(s, Draw(D, "city", "city-z"), "card-not-in-deck")
    GAME.push(s, Draw(D, "city", c("a")))
    rejected(s, Draw(D, "city", "city-z"), "card-not-in-deck")


def test_the_unseen_setup_discard_is_a_stand_in_for_the_tables_card():
    """L-14: nobody saw the setup discard, so a physical draw of the card the app put in
    for it is the table's card; the deck's top card takes its place, just as unseen."""
    s = GAME.new(SEATS, {"balance": 2}, seed=1)
    GAME.push(s, Draw(D, "city", c("a")))
    rejected(s, Draw(D, "city", c("a")), "card-not-in-deck")  # not during the setup discard itself
    GAME.push(s, Draw(D, "city", c("b")))
    top = s.deck.cards[0]
    assert Draw(D, "city", c("a")) in GAME.legal_actions(s)
    GAME.push(s, Draw(D, "city", c("a")))  # the Dynasty's physical card was the stand-in
    assert hand(s, D) == [c("a")]
    assert sorted(s.deck.discard) == sorted([top, c("b")]) and top not in s.deck.cards
    assert len(s.deck.cards) == 14 - 3 and sorted(s.unseen) == sorted(s.deck.discard)
    pub = GAME.view(s, PUBLIC)
    assert (pub["deck"], pub["discard"]) == (11, 2)


def test_a_face_down_discard_is_drawable_a_shown_one_is_not():
    """L-14: a card discarded face down may be the card drawn (the drawer cannot rule it
    out); the deck's top card takes its place. A card shown and discarded (a mission's
    card) is publicly in the discard pile until the reshuffle: refused, saying so."""
    s = start(dyn="abd", lib="efg", discard="n")
    for seat, x in ((D, "c"), (L, "h"), (D, "i")):
        GAME.push(s, Draw(seat, "city", c(x)))
        GAME.push(s, Pass(seat))  # step 2: no action
    GAME.push(s, Discard(D, c("b")))  # step 3: down to 3, face down
    s.shown.append(c("b"))  # test shortcut: as if it had been shown before it was discarded
    err = rejected(s, Draw(L, "city", c("b")), "card-not-in-deck")
    assert err.violations[0].message == "That card was shown and discarded: it is in the discard pile until the next reshuffle."
    s.shown.clear()
    top = s.deck.cards[0]
    GAME.push(s, Draw(L, "city", c("b")))
    assert c("b") in hand(s, L) and top in s.deck.discard and top not in s.deck.cards
    assert not list(GAME.problems(s))


def test_the_stand_ins_go_into_the_reshuffle():
    s = start(dyn="abd", lib="efg", discard="n")
    assert s.unseen == [c("n")]
    while s.deck.cards:
        s.deck.put_discard(s.deck.cards.pop())  # empty the deck (test shortcut)
    GAME.push(s, Draw(D, "city", c("n")))
    assert s.unseen == [] and s.act == 2


# ----------------------------------------------------------- Dynasty turn


def test_dynasty_step1_draw_unexploit_or_neither():
    s = start()
    p = GAME.prompt(s)
    assert p.actors == {D} and p.awaiting.accepted == ("draw", "unexploit", "pass")
    rejected(s, Unexploit(D, c("a")), "not-exploited")
    err = rejected(s, Evade(D, c("a")), "not-awaited", "liberation-only")
    assert "Only the Liberation evades" in str(err)
    GAME.push(s, GAME.sample(s))
    assert len(hand(s, D)) == 3 and s.phase == "step2"
    err = rejected(s, Draw(D, "city", s.deck.cards[0]), "not-awaited", "not-now-draw")    # one draw per turn
    assert "drawn in step 1" in str(err)


def test_occupy_needs_an_unexploited_occupied_city_adjacent_to_a_card_in_hand():
    s = start()   # Dynasty occupies a, holds b d
    GAME.push(s, Pass(D))
    rejected(s, Occupy(D, c("a"), c("d")), "not-adjacent")          # a–d: no line
    rejected(s, Occupy(D, c("b"), c("d")), "not-occupied")
    rejected(s, Occupy(D, c("a"), c("c")), "not-in-hand")
    GAME.push(s, Occupy(D, c("a"), c("b")))
    assert s.occupied == [c("a"), c("b")] and s.exploited == [c("a")]
    assert s.events[-1].kind == "occupy" and s.active == L           # turn over (2 cards in hand)
    pass_turn(s)
    GAME.push(s, Pass(D))
    rejected(s, Occupy(D, c("a"), c("b")), "already-exploited", "not-in-hand")
    GAME.push(s, Occupy(D, c("b"), c("d")))                           # b–d, the new city exploited
    assert s.exploited == [c("a"), c("b")]


def test_unexploit_in_step1_or_as_the_step2_action():
    s = start()
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("b")))
    pass_turn(s)
    GAME.push(s, Unexploit(D, c("a")))                               # step 1
    assert s.exploited == [] and s.phase == "step2"
    GAME.push(s, Attack(D, c("a"), c("c")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Unexploit(D, c("a")))                               # step 2 action
    assert s.exploited == [] and s.active == L


def test_attack_miss_is_a_public_event():
    s = start()
    GAME.push(s, Pass(D))
    rejected(s, Attack(D, c("a"), c("f")), "not-adjacent")
    rejected(s, Attack(D, c("a"), c("zz")), "unknown-city")
    GAME.push(s, Attack(D, c("a"), c("c")))
    e = GAME.view(s, PUBLIC)["events"][-1]
    assert (e["kind"], e["city"], e["exploit"], e["result"]) == ("attack", c("c"), c("a"), "miss")
    assert "MISS" in e["text"] and s.result is None and c("a") in s.exploited


def test_attack_takes_a_card_from_the_liberation_then_occupy_or_discard():
    s = start()                 # Liberation holds e g, base f
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("b")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("b"), c("e")))
    assert s.events[-1].result == "taken" and hand(s, L) == [c("g")]
    assert GAME.prompt(s).awaiting.accepted == ("claim",) and GAME.view(s, PUBLIC)["claim"] == c("e")
    GAME.push(s, Claim(D, occupy=True))
    assert c("e") in s.occupied and s.events[-1].result == "occupied" and s.active == L


def test_a_taken_card_may_be_discarded():
    s = start()
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("b")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("b"), c("e")))
    GAME.push(s, Claim(D, occupy=False))
    assert s.deck.discard[-1] == c("e") and c("e") not in s.occupied


def test_attacking_the_base_wins_for_the_dynasty():
    s = start()                 # base f; f's lines: d e g m
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("b")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("b"), c("d")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("d"), c("f")))
    assert s.events[-1].result == "base-found" and "BASE FOUND" in GAME.view(s)["events"][-1]["text"]
    o = GAME.outcome(s)
    assert o.winner == "dynasty" and o.winning_seats == (D,) and "secret base" in o.reason
    rejected(s, Pass(L), "game-over")


def test_step3_discards_down_to_three_face_down():
    s = start()
    GAME.push(s, GAME.sample(s))          # 3 cards
    GAME.push(s, Pass(D))
    assert s.active == L
    GAME.push(s, GAME.sample(s))          # Liberation: 3
    GAME.push(s, Pass(L))
    GAME.push(s, GAME.sample(s))          # Dynasty: 4
    GAME.push(s, Pass(D))
    assert s.phase == "step3" and GAME.prompt(s).awaiting.accepted == ("discard",)
    rejected(s, Discard(D, c("n")), "not-in-hand")
    card = hand(s, D)[0]
    GAME.push(s, Discard(D, card))
    assert len(hand(s, D)) == 3 and s.deck.discard[-1] == card and s.active == L
    assert card not in public_text(s)


# -------------------------------------------------------- Liberation turn


def liberation_step2(**kw):
    s = start(**kw)
    pass_turn(s)
    GAME.push(s, Pass(L))
    assert s.phase == "step2" and s.active == L
    return s


def test_liberation_step1_may_draw():
    s = start()
    pass_turn(s)
    assert GAME.prompt(s).awaiting.accepted == ("draw", "pass")
    err = rejected(s, Unexploit(L, c("a")), "not-awaited", "dynasty-only")
    assert "Only the Dynasty exploits and unexploits Cities" in str(err)
    GAME.push(s, GAME.sample(s))
    assert len(hand(s, L)) == 3


def test_evade_to_the_same_or_an_adjacent_city_from_hand():
    s = liberation_step2()      # base f, hand e g; f–e, f–g
    assert GAME.view(s, L)["evade_options"] == [c("e"), c("f"), c("g")]
    GAME.push(s, Evade(L, c("e")))
    assert s.base == c("e") and sorted(hand(s, L)) == [c("f"), c("g")]
    assert [(m.from_city, m.to_city) for m in s.moves] == [("", c("f")), (c("f"), c("e"))]


def test_evade_that_is_too_far_is_rejected_without_naming_the_base():
    s = liberation_step2(lib="ehk", base="e")   # base e (lines b f g); hand h k
    e = rejected(s, Evade(L, c("h")), "evade-too-far")
    assert c("e") not in str(e) and "City E" not in str(e)
    rejected(s, Evade(L, c("b")), "not-in-hand")                 # adjacent but not held
    rejected(s, Evade(L, c("a")), "not-in-hand", "evade-too-far")
    GAME.push(s, Evade(L, c("e")))                                # staying is an Evade too
    assert s.base == c("e") and sorted(hand(s, L)) == [c("h"), c("k")]


def test_sabotage_discards_the_dynastys_card():
    s = liberation_step2()      # Dynasty holds b d; Liberation e g, base f
    GAME.push(s, Sabotage(L, c("d")))                             # d–f: adjacent to the base
    assert hand(s, D) == [c("b")] and s.deck.discard[-1] == c("d")
    assert s.events[-1].result == "discarded"


def test_sabotage_reach_miss_and_occupied_cities():
    s = liberation_step2()
    rejected(s, Sabotage(L, c("a")), "out-of-reach")              # a: no line to e, f or g
    rejected(s, Sabotage(L, c("q")), "unknown-city")
    GAME.push(s, Sabotage(L, c("l")))                             # l–g: adjacent to a hand card
    assert s.events[-1].result == "miss" and hand(s, D) == [c("b"), c("d")]


def test_sabotage_leaves_occupied_cities_alone():
    s = start(dyn="acd", lib="fgb", base="f")     # the Liberation holds b; a–b
    assert c("a") in s.occupied
    pass_turn(s)
    GAME.push(s, Pass(L))
    GAME.push(s, Sabotage(L, c("a")))                             # a–b: b is in hand
    assert c("a") in s.occupied and s.events[-1].result == "miss"


def test_out_of_turn_actions_are_only_not_your_turn():
    s = liberation_step2()
    e = rejected(s, Evade(D, c("zz")), "not-your-turn")
    assert "city-f" not in str(e)
    rejected(s, Sabotage(D, c("a")), "not-your-turn")


# ------------------------------------------------------------- the deck


def draw_and_pass(s):
    seat = s.active
    GAME.push(s, GAME.sample(s))
    if s.result is not None:
        return
    GAME.push(s, Pass(seat))
    while s.phase == "step3":
        GAME.push(s, Discard(seat, hand(s, seat)[0]))


def test_reshuffles_start_acts_and_the_third_ends_the_game():
    s = start()
    acts = []
    while s.result is None:
        acts.append(s.act)
        draw_and_pass(s)
        assert sorted(s.deck.cards + s.deck.discard + s.occupied + hand(s, D) + hand(s, L) + [s.base]) == sorted(s.map.city_ids)
    assert acts[0] == 1 and 2 in acts and acts[-1] == 3
    assert s.deck.reshuffles == 2 and s.deck.cards == []
    o = GAME.outcome(s)
    assert o.winner == "liberation" and o.winning_seats == (L,) and "three ACTS" in o.reason
    assert not list(GAME.problems(s))


def test_drawing_from_an_empty_deck_reshuffles_the_discards():
    s = start()
    while s.deck.cards:
        draw_and_pass(s)
    assert s.act == 1 and "reshuffles the discards" in GAME.prompt(s).awaiting.purpose
    n = len(s.deck.discard)
    draw_and_pass(s)
    assert s.act == 2 and len(s.deck) == n - 1
    assert "ACT II begins" in " ".join(e["text"] for e in GAME.view(s, PUBLIC)["log"])


def test_nothing_to_draw_means_no_draw():
    s = start()
    s.occupied += s.deck.cards + s.deck.discard   # every card out of the deck (test set-up)
    s.deck.cards.clear()
    s.deck.discard.clear()
    assert not list(GAME.problems(s))
    p = GAME.prompt(s)
    assert isinstance(p.awaiting, Decision) and p.awaiting.kinds == ("unexploit", "pass")
    assert not any(isinstance(a, Draw) for a in GAME.legal_actions(s))


def test_attack_on_a_city_the_dynasty_holds_or_occupies_is_a_plain_miss():
    s = start()
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("b")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("b"), c("a")))          # its own occupied City (ruling L-07)
    assert s.events[-1].result == "miss" and s.occupied == [c("a"), c("b")]


def test_sabotage_may_name_the_liberations_own_cards():
    s = liberation_step2()      # base f, hand e g; e–g
    GAME.push(s, Sabotage(L, c("g")))                 # its own hand card (ruling L-08)
    assert s.events[-1].result == "miss" and hand(s, L) == [c("e"), c("g")]


def test_only_the_seat_that_must_act_gets_rule_checks():
    s = start()
    pass_turn(s)
    GAME.push(s, Pass(L))
    # The Dynasty probing with an Evade learns nothing beyond "not your turn".
    for to in s.map.city_ids:
        e = rejected(s, Evade(D, to), "not-your-turn")
        assert "adjacent" not in str(e)
