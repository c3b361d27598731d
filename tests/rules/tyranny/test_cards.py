"""Every half of every card, for both factions (rulebook: "Tyranny - Cards")."""
from __future__ import annotations

import pytest

from rules.core import Roll
from rules.tyranny import (
    CARDS, DECKS, GAME, Arrest, Capture, MoveTo, PayEscape, PickCard, PlayCard,
)
from rules.tyranny import Decline as No

from .helpers import draw, give, move, new, place, push, rejected, turn_of


def test_both_decks_have_ten_cards_twice_each_with_both_halves():
    for deck in ("gamble", "gains"):
        ids = DECKS[deck]
        assert len(ids) == 20 and len(set(ids)) == 20
        assert sorted({CARDS[c].number for c in ids}) == list(range(1, 11))
        for c in ids:
            card = CARDS[c]
            assert card.criminals.text and card.cops.text and card.criminals.effect and card.cops.effect
    assert len(CARDS) == 40


@pytest.mark.parametrize("card,faction,expected", [
    ("gamble-01a", "criminals", 600), ("gamble-01b", "cops", 400),
    ("gamble-02a", "criminals", 400), ("gamble-02b", "cops", 600),
    ("gamble-09a", "criminals", 400), ("gamble-09b", "cops", 600),
    ("gains-08a", "criminals", 750), ("gains-08b", "cops", 250),
    ("gains-09a", "criminals", 1000), ("gains-09b", "cops", 0),
])
def test_influence_cards(card, faction, expected):
    s = new()
    seat = "crim-1" if faction == "criminals" else "cop-1"
    draw(s, seat, card)
    assert s.influence.value == expected
    assert card in s.decks[card.split("-")[0]].discard
    assert s.actor != seat  # the card ended the turn


def test_percent_cards_round_towards_zero():
    s = new()
    s.influence.set(255)
    draw(s, "crim-1", "gamble-09a")  # lose 20% of 255 = 51
    assert s.influence.value == 204


def test_gamble_3_criminal_immediate_escape():
    s = new()
    give(s, "crim-1", "gamble-03a")
    place(s, "crim-1", "o-market")
    place(s, "cop-1", "o-docks")
    turn_of(s, "cop-1")
    move(s, "cop-1", 2, "o-market")
    push(s, Arrest("cop-1", "crim-1"))
    assert s.phase == "react" and GAME.prompt(s).actors == {"crim-1"}
    push(s, PlayCard("crim-1", "gamble-03a"))
    assert "crim-1" not in s.custody and s.pos["crim-1"] == "o-market"
    assert "gamble-03a" in s.decks["gamble"].discard


def test_gamble_3_cop_inescapable_arrest_beats_the_escape_card():
    s = new()
    give(s, "crim-1", "gamble-03a")
    give(s, "cop-1", "gamble-03b")
    place(s, "crim-1", "o-market")
    place(s, "cop-1", "o-docks")
    turn_of(s, "cop-1")
    move(s, "cop-1", 2, "o-market")
    push(s, Arrest("cop-1", "crim-1"))
    assert GAME.prompt(s).actors == {"cop-1"}
    push(s, PlayCard("cop-1", "gamble-03b"))
    assert s.custody["crim-1"] == [6] and s.pos["crim-1"] == "police-station"
    assert "gamble-03a" in s.hands["crim-1"]  # no chance to play it: the arrest is inescapable
    assert s.actor == "cop-1"  # crim-1 misses its next turn
    assert s.order.skips == {}


def test_gamble_3_declined_then_escape_offered():
    s = new()
    give(s, "crim-1", "gamble-03a")
    give(s, "cop-1", "gamble-03b")
    place(s, "crim-1", "o-market")
    place(s, "cop-1", "o-docks")
    turn_of(s, "cop-1")
    move(s, "cop-1", 2, "o-market")
    push(s, Arrest("cop-1", "crim-1"), No("cop-1"))
    assert GAME.prompt(s).actors == {"crim-1"}
    push(s, No("crim-1"))
    assert s.actor == "crim-1" and s.phase == "custody"


@pytest.mark.parametrize("seat,card,tile", [
    ("crim-1", "gamble-04a", "hideout-inner"), ("cop-1", "gamble-04b", "police-station-inner"),
])
def test_gamble_4_other_tier_from_home(seat, card, tile):
    s = new()
    draw(s, seat, card)
    assert s.pos[seat] == tile


@pytest.mark.parametrize("seat,card,tile", [
    ("crim-1", "gamble-05a", "police-station"), ("cop-1", "gamble-05b", "hideout"),
])
def test_gamble_5_sent_to_enemy_base_and_miss_a_turn(seat, card, tile):
    s = new()
    draw(s, seat, card)
    assert s.pos[seat] == tile
    other = "cop-1" if seat == "crim-1" else "crim-1"
    assert s.actor == other
    push(s, Roll(other, (1,)))
    push(s, MoveTo(other, next(iter(s.routes))))
    while s.phase not in ("start", "custody"):
        push(s, No(s.actor))
    assert s.actor == other  # seat missed its turn


@pytest.mark.parametrize("seat,card", [("crim-1", "gamble-06a"), ("cop-1", "gamble-06b")])
def test_gamble_6_move_forward_within_six(seat, card):
    s = new()
    draw(s, seat, card)
    assert s.phase == "move"
    assert sorted(s.routes) == sorted(["o-market", "o-safe-1", "o-factory", "o-tunnel-a", "o-arcade", "o-gains-1"])
    assert rejected(s, MoveTo(seat, "o-garage")) == ("unreachable",)
    push(s, MoveTo(seat, "o-factory"))
    assert s.pos[seat] == "o-factory"


@pytest.mark.parametrize("seat,card,tile", [("crim-1", "gamble-07a", "police-station-inner"), ("cop-1", "gamble-07b", "police-station-inner")])
def test_gamble_7_switch_tier_from_anywhere(seat, card, tile):
    s = new()
    give(s, seat, card)
    place(s, seat, "o-docks")
    turn_of(s, seat)
    push(s, PlayCard(seat, card))
    assert s.pos[seat] == tile and s.phase == "start" and s.actor == seat  # the turn goes on
    push(s, Roll(seat, (1,)))
    assert s.phase == "move" and list(s.routes) == ["i-bank"]


@pytest.mark.parametrize("seat,card", [("crim-1", "gamble-08a"), ("cop-1", "gamble-08b")])
def test_gamble_8_roll_and_move(seat, card):
    s = new()
    draw(s, seat, card)
    assert GAME.prompt(s).awaiting.purpose == "card move"
    push(s, Roll(seat, (3,)))
    assert list(s.routes) == ["o-factory"]
    push(s, MoveTo(seat, "o-factory"))
    assert s.pos[seat] == "o-factory"


@pytest.mark.parametrize("seat,card", [("crim-1", "gamble-10a"), ("cop-1", "gamble-10b")])
def test_gamble_10_miss_a_turn(seat, card):
    s = new()
    draw(s, seat, card)
    assert s.order.skips == {seat: 1}


@pytest.mark.parametrize("seat,card", [("crim-1", "gains-01a"), ("cop-1", "gains-01b")])
def test_gains_1_extra_capture_roll(seat, card):
    s = new()
    give(s, seat, card)
    place(s, seat, "o-factory")  # range 4-6
    turn_of(s, seat)
    push(s, Capture(seat), PlayCard(seat, card), Roll(seat, (1,)))
    assert s.phase == "capture" and s.actor == seat
    push(s, Roll(seat, (5,)))
    assert s.owner["o-factory"] == GAME.seat_faction(s, seat)


@pytest.mark.parametrize("seat,card", [("crim-1", "gains-02a"), ("cop-1", "gains-02b")])
def test_gains_2_capture_range_1_to_3(seat, card):
    s = new()
    give(s, seat, card)
    place(s, seat, "o-factory")  # range 4-6
    turn_of(s, seat)
    push(s, Capture(seat), PlayCard(seat, card), Roll(seat, (2,)))
    assert s.owner["o-factory"] == GAME.seat_faction(s, seat)


@pytest.mark.parametrize("seat,card", [("crim-1", "gains-03a"), ("cop-1", "gains-03b")])
def test_gains_3_take_the_closest_property_in_front(seat, card):
    s = new()
    mine = GAME.seat_faction(s, seat)
    s.owner["o-garage"] = mine  # already ours: the next one is taken
    draw(s, seat, card)
    assert s.owner["o-bar"] == mine


@pytest.mark.parametrize("seat,card", [("crim-1", "gains-04a"), ("cop-1", "gains-04b")])
def test_gains_4_neutralise_the_closest_enemy_property_in_front(seat, card):
    s = new()
    mine = GAME.seat_faction(s, seat)
    theirs = "cops" if mine == "criminals" else "criminals"
    s.owner.update({"o-garage": mine, "o-bar": theirs, "o-pawnshop": theirs})
    draw(s, seat, card)
    assert "o-bar" not in s.owner and s.owner["o-garage"] == mine and s.owner["o-pawnshop"] == theirs


@pytest.mark.parametrize("seat,other,card", [("crim-1", "cop-1", "gains-05a"), ("cop-1", "crim-1", "gains-05b")])
def test_gains_5_opponent_discards_the_card_of_your_choice(seat, other, card):
    s = new()
    give(s, other, "gamble-07a")
    give(s, other, "gains-10a")
    draw(s, seat, card)
    assert s.phase == "pick"
    assert rejected(s, PickCard(seat, other, 2)) == ("no-such-card",)
    assert rejected(s, PickCard(seat, seat, 0)) == ("not-an-opponent",)
    push(s, PickCard(seat, other, 1))
    assert s.hands[other].cards == ["gamble-07a"] and "gains-10a" in s.decks["gains"].discard
    assert s.actor == other


def test_gains_5_with_no_cards_to_discard_does_nothing():
    s = new()
    draw(s, "crim-1", "gains-05a")
    assert s.actor == "cop-1" and s.phase == "start"


def test_gains_6_criminal_escape_on_2_to_6():
    s = new()
    give(s, "crim-1", "gains-06a")
    s.custody["crim-1"] = [6]
    place(s, "crim-1", "police-station")
    turn_of(s, "crim-1")
    push(s, PlayCard("crim-1", "gains-06a"))
    assert s.custody["crim-1"] == [2, 3, 4, 5, 6]
    push(s, Roll("crim-1", (2,)))
    assert "crim-1" not in s.custody


def test_gains_6_cop_chooses_the_escape_number():
    s = new()
    give(s, "cop-1", "gains-06b")
    s.custody["crim-1"] = [6]
    turn_of(s, "cop-1")
    assert rejected(s, PlayCard("cop-1", "gains-06b", target="crim-1", number=7)) == ("bad-number",)
    assert rejected(s, PlayCard("cop-1", "gains-06b", target="cop-1", number=3)) == ("bad-target",)
    push(s, PlayCard("cop-1", "gains-06b", target="crim-1", number=3))
    assert s.custody["crim-1"] == [3]
    push(s, Roll("cop-1", (1,)), MoveTo("cop-1", "o-docks"))
    push(s, Roll("crim-1", (6,)))
    assert s.custody["crim-1"] == [3]  # a 6 no longer frees


def test_gains_6_cop_cannot_be_played_with_nobody_in_custody():
    s = new()
    give(s, "cop-1", "gains-06b")
    assert "play" not in GAME.prompt(s).awaiting.accepted
    assert rejected(s, PlayCard("cop-1", "gains-06b", target="crim-1", number=3)) == ("not-awaited", "not-now-play")


@pytest.mark.parametrize("seat,card", [("crim-1", "gains-07a"), ("cop-1", "gains-07b")])
def test_gains_7_open_or_collapse_any_tunnel_free(seat, card):
    s = new()
    give(s, seat, card)
    turn_of(s, seat)
    push(s, PlayCard(seat, card, tunnel="tunnel-b"))
    assert s.open_tunnels == ["tunnel-b"] and s.influence.value == 500
    s.hands[seat].add(s.decks["gains"].discard.pop())
    push(s, PlayCard(seat, card, tunnel="tunnel-b"))
    assert s.open_tunnels == []
    s.hands[seat].add(s.decks["gains"].discard.pop())
    assert rejected(s, PlayCard(seat, card, tunnel="tunnel-z")) == ("bad-tunnel",)


@pytest.mark.parametrize("seat,other,card", [("crim-1", "cop-1", "gains-10a"), ("cop-1", "crim-1", "gains-10b")])
def test_gains_10_steal_from_a_face_down_hand(seat, other, card):
    s = new()
    give(s, seat, card)
    give(s, other, "gamble-07b")
    turn_of(s, seat)
    push(s, PlayCard(seat, card), PickCard(seat, other, 0))
    assert s.hands[seat].cards == ["gamble-07b"] and s.hands[other].cards == []
    assert s.phase == "start" and s.actor == seat  # the turn goes on
    public = GAME.view(s)
    assert "gamble-07b" not in str(public)


def test_kept_cards_go_face_down_into_the_hand():
    s = new()
    draw(s, "crim-1", "gains-10a")
    assert s.hands["crim-1"].cards == ["gains-10a"]
    assert "gains-10a" not in str(GAME.view(s)) and "gains-10a" not in str(GAME.view(s, "cop-1"))
    assert "gains-10a" in str(GAME.view(s, "crim-1"))


def test_every_effect_key_is_implemented():
    from rules.tyranny import effects
    for card in CARDS.values():
        for half in (card.criminals, card.cops):
            assert half.effect in (effects.KEPT if card.keep else effects.IMMEDIATE), (card.id, half.effect)
