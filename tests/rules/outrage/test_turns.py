"""Setup, the dice, movement on the board graph and landing instructions."""
from __future__ import annotations

import pytest

from rules.core import InvalidSetup, Roll
from rules.outrage import GAME, MoveTo, Split, moves
from rules.outrage.cards import RAVEN

from .helpers import draw, give, log_text, messages, push, put, rejected, started


def raven(kind: str, **kw: str) -> str:
    return next(c.id for c in RAVEN.values() if c.kind == kind and all(getattr(c, k) == v for k, v in kw.items()))


# ------------------------------------------------------------------ setup

def test_setup_coins_warders_jewels_and_three_cards_each():
    s = started(4)
    assert s.mint == 4 and not any(s.coins.values())
    assert all(s.warders.values()) and set(s.jewels.values()) == {"case"}
    assert [len(h) for h in s.hands.values()] == [3, 3, 3, 3]
    assert len(s.decks["tower"]) == 57 - 12 and len(s.decks["raven"]) == 59
    assert set(s.pos.values()) == {"w00"}


def test_seat_counts_and_teams():
    with pytest.raises(InvalidSetup):
        GAME.new([("a", "red")], {}, 1)
    with pytest.raises(InvalidSetup):
        GAME.new([(f"s{i}", "red") for i in range(2)], {}, 1)
    s = GAME.new([("a", "red"), ("b", "blue"), ("c", "red"), ("d", "blue")], {"teams": True}, 1)
    assert s.phase == "deal"


def test_first_player_by_a_throw_ties_throw_again():
    s = GAME.new([{"id": "p1", "faction": "red", "name": "Ann"}, {"id": "p2", "faction": "blue", "name": "Bob"},
                  {"id": "p3", "faction": "green", "name": "Cat"}], {}, 3)
    while s.phase == "deal":
        push(s, GAME.sample(s))
    push(s, Roll("p1", (5, 5)))
    push(s, Roll("p2", (6, 4)))
    push(s, Roll("p3", (1, 1)))
    assert s.phase == "first" and s.contenders == ["p1", "p2"]
    assert "Ann and Bob tie on 10" in log_text(s)
    push(s, Roll("p1", (2, 1)))
    push(s, Roll("p2", (2, 2)))
    assert s.phase == "start" and s.order.current == "p2"


# ------------------------------------------------------------------ dice

def test_a_double_earns_a_further_throw():
    s = started()
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w02"))
    assert s.phase == "again" and s.actor == "p1"
    push(s, Roll("p1", (2, 3)))
    push(s, MoveTo("p1", "w07"))
    assert s.order.current == "p2" and s.phase == "start"


def test_three_successive_doubles_go_to_the_bloody_tower():
    s = started()
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w02"))
    push(s, Roll("p1", (3, 3)))
    push(s, MoveTo("p1", "w08"))
    push(s, Roll("p1", (2, 2)))
    assert s.pos["p1"] == "bloody-tower" and s.held["p1"].place == "bloody"
    assert s.order.current == "p2"
    assert "without completing the turn" in log_text(s)


def test_a_double_then_miss_a_turn_forfeits_the_extra_throw():
    s = started()
    put(s, "p1", "w19")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w21"))
    assert s.order.current == "p2"
    assert "loses the further throw" in log_text(s)
    assert s.order.skips == {"p1": 1}


def test_split_seven_moves_both_and_the_other_obeys_the_square():
    s = started()
    push(s, Roll("p1", (5, 2)))
    push(s, Split("p1", "p2", 3))
    push(s, MoveTo("p1", "w03"))
    assert s.mover == "p2" and s.phase == "move"
    assert sorted(moves(s, "p2", 4)) == ["w04"]
    push(s, MoveTo("p1", "w04"))  # the thrower moves the other piece
    assert s.pos["p2"] == "shop"
    # Bob misses his turn: Ann goes again.
    assert s.order.current == "p1" and "Bob misses a turn." in log_text(s)


def test_split_only_on_seven_and_not_into_the_white_tower():
    s = started()
    push(s, Roll("p1", (3, 3)))
    assert rejected(s, Split("p1", "p2", 3)) == ("not-awaited", "not-seven")
    s = started()
    put(s, "p2", "t10", accredited=True)
    push(s, Roll("p1", (6, 1)))
    assert rejected(s, Split("p1", "p2", 3)) == ("not-awaited", "cannot-move-other")
    assert "Ann cannot move Bob" in messages(s, Split("p1", "p2", 3))[1]
    assert "[SPLITTING THE SEVEN]" in messages(s, Split("p1", "p2", 3))[1]


def test_inside_the_white_tower_you_may_split_your_own_seven():
    s = started()
    put(s, "p1", "t01", accredited=True)
    put(s, "p2", "w10")
    push(s, Roll("p1", (4, 3)))
    push(s, Split("p1", "p2", 2))
    push(s, MoveTo("p1", "t03"))
    push(s, MoveTo("p1", "w15"))
    assert s.pos == {"p1": "t03", "p2": "w15"}


# ------------------------------------------------------------------ movement

def test_first_circuit_anticlockwise_without_stairs():
    s = started()
    put(s, "p1", "w30")
    assert sorted(moves(s, "p1", 3)) == ["w33"]
    put(s, "p1", "w30", accredited=True)
    assert {"w33", "w27", "i10-18"} <= set(moves(s, "p1", 3))


def test_queens_house_ends_the_circuit_whatever_the_throw_then_accreditation():
    s = started()
    put(s, "p1", "w75")
    push(s, Roll("p1", (6, 5)))
    assert sorted(moves(s, "p1", 11)) == ["w77"]
    push(s, MoveTo("p1", "w77"))
    assert s.order.current == "p2"
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "accredit" and s.actor == "p1"
    push(s, Roll("p1", (2, 2)))
    assert not s.accredited["p1"]
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w06"))
    push(s, Roll("p1", (2, 3)))
    assert s.accredited["p1"] and "accredited by the Resident Governor" in log_text(s)


def test_a_tower_pass_accredits_at_once():
    from rules.outrage import Play
    s = started()
    put(s, "p1", "w77")
    s.phase = "accredit"
    give(s, "p1", "tower-pass-1")
    assert "play" in GAME.prompt(s).of("p1").private
    assert "play" not in GAME.prompt(s).public().of("p1").accepted
    push(s, Play("p1", "tower-pass-1"))
    assert s.accredited["p1"] and "tower-pass-1" in s.decks["tower"].cards


def test_never_the_same_square_twice_in_a_turn():
    s = started()
    put(s, "p1", "w10", accredited=True)
    push(s, Roll("p1", (1, 1)))
    assert sorted(moves(s, "p1", 2)) == ["w08", "w12"]
    push(s, MoveTo("p1", "w12"))
    push(s, Roll("p1", (1, 2)))
    assert sorted(moves(s, "p1", 3)) == ["w15"]  # back over w11 and w10 is not allowed
    assert "unreachable" in rejected(s, MoveTo("p1", "w09"))


def test_white_tower_follows_the_arrows():
    s = started()
    put(s, "p1", "t03", accredited=True)
    assert sorted(moves(s, "p1", 3)) == ["t06"]


def test_warders_block_unless_a_disguise_is_played():
    s = started()
    put(s, "p1", "i2-04", accredited=True)
    push(s, Roll("p1", (1, 2)))
    assert rejected(s, MoveTo("p1", "i2-07")) == ("warder-blocks",)
    give(s, "p1", "disguise-1")
    push(s, MoveTo("p1", "i2-07", "disguise-1"))
    assert s.pos["p1"] == "i2-07" and "disguise-1" in s.decks["tower"].cards


def test_warder_called_out_to_an_occupied_post_sends_that_player_to_the_bloody_tower():
    s = started()
    s.warders["chapel"] = False
    put(s, "p2", "i2-02", accredited=True)
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    assert s.phase == "draw-raven"
    draw(s, "p1", "raven", raven("warder-out", post="chapel"))
    assert s.warders["chapel"] and s.held["p2"].place == "bloody" and s.pos["p2"] == "bloody-tower"


def test_movement_unchecked_lets_the_player_name_the_square():
    s = started(movement="unchecked")
    push(s, Roll("p1", (2, 3)))
    push(s, MoveTo("p1", "w56"))  # the table's own board: the engine applies the Mint's rules
    assert s.coins["p1"] and s.phase == "draw-tower"


# ------------------------------------------------------------------ landings

def test_the_mint_gives_one_coin_and_a_tower_card():
    s = started()
    put(s, "p1", "w53")
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "w56"))
    assert s.coins["p1"] and s.mint == 1 and s.phase == "draw-tower"
    push(s, GAME.sample(s))
    assert len(s.hands["p1"]) == 4


def test_raven_cards_on_unmarked_inner_ward_squares_only():
    s = started()
    put(s, "p1", "i0-02", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-04"))  # circled
    assert s.phase == "again"
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-07"))
    assert s.phase == "draw-raven"


def test_raven_cards_are_read_aloud_and_go_to_the_bottom():
    s = started()
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    card = raven("chief-warder")
    draw(s, "p1", "raven", card)
    assert s.decks["raven"].cards[-1] == card
    assert GAME.view(s)["raven"]["id"] == card
    assert GAME.public_action(s, __import__("rules.core", fromlist=["Draw"]).Draw("p1", "raven", card))["card"] == card


def test_go_to_card_optional_stay_forfeits_the_turn():
    s = started()
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("go", to="shop"))
    from rules.outrage import Choose
    push(s, Choose("p1", "stay"))
    assert s.order.current == "p2" and s.pos["p1"] == "i0-07"


def test_lost_goes_to_queens_house_and_ends_the_turn():
    s = started()
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("lost"))
    assert s.pos["p1"] == "w77" and s.order.current == "p2"


def test_queens_birthday_two_cards_each_on_21_april():
    for today, n in ((False, 1), (True, 2)):
        s = started(3, birthday_today=today)
        put(s, "p1", "i0-05", accredited=True)
        push(s, Roll("p1", (2, 3)))
        push(s, MoveTo("p1", "i0-10"))
        draw(s, "p1", "raven", raven("birthday"))
        while s.phase == "draw-tower":
            push(s, GAME.sample(s))
        assert [len(h) for h in s.hands.values()] == [3 + n] * 3
        assert GAME.view(s)["birthday_today"] is today
