"""Cards, burglary, attack, prisons and the Rack, escape and the endgames."""
from __future__ import annotations

import pytest

from rules.core import PUBLIC, Roll
from rules.outrage import (
    GAME, Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, MoveTo, Play, Surrender,
    burglary_target,
)
from rules.outrage.cards import RAVEN

from .helpers import draw, empty_hand, give, log_text, messages, push, put, rejected, started


def raven(kind: str) -> str:
    return next(c.id for c in RAVEN.values() if c.kind == kind)


def to_turn_of(s, seat):
    """Let the other seats pass (their throws move them along the Wall Walk)."""
    guard = 0
    while s.order.current != seat or s.phase != s.phase:
        guard += 1
        assert guard < 20
        cur = s.order.current
        if s.phase == "start":
            push(s, Roll(cur, (1, 2)))
            push(s, MoveTo(cur, next(iter(GAME.moves(s, cur, 3)))))
        elif s.phase in ("draw-tower", "draw-raven"):
            push(s, GAME.sample(s))
        else:
            break
    assert s.order.current == seat


# ------------------------------------------------------------------ changing cards

def test_change_cards_in_lieu_of_a_turn():
    s = started()
    old = list(s.hands["p1"].cards[:2])
    push(s, Change("p1", tuple(old)))
    assert s.phase == "draw-tower"
    push(s, GAME.sample(s))
    push(s, GAME.sample(s))
    assert len(s.hands["p1"]) == 3 and s.order.current == "p2"
    assert s.decks["tower"].cards[-2:] == old
    assert GAME.public_action(s, Change("p1", tuple(old)), PUBLIC).get("cards") is None


# ------------------------------------------------------------------ surrendering weapons

def surrender_setup():
    s = started(3)
    empty_hand(s, "p1")
    give(s, "p1", "mace-1", "sword-1", "file-1")
    put(s, "p1", "w27")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w29"))
    assert s.phase == "surrender"
    return s


def test_surrender_and_a_right_challenge():
    s = surrender_setup()
    push(s, Surrender("p1", ("mace-1",)))  # keeps the Sword back
    assert s.phase == "challenge" and GAME.prompt(s).actors == {"p2"}
    push(s, Challenge("p2"))
    assert len(s.hands["p1"]) == 0 and "surrenders all 2 Tower cards" in log_text(s)


def test_surrender_and_a_wrong_challenge():
    s = surrender_setup()
    n2 = len(s.hands["p2"])
    push(s, Surrender("p1", ("mace-1", "sword-1")))
    push(s, Decline("p2"))
    push(s, Challenge("p3"))
    assert len(s.hands["p3"]) == 0 and "p3" != s.order.current
    assert s.phase == "draw-tower" and s.actor == "p1"  # fresh cards for the revealed one
    push(s, GAME.sample(s))
    assert len(s.hands["p1"]) == 1 and len(s.hands["p2"]) == n2


def test_surrender_only_weapons_from_the_hand():
    s = surrender_setup()
    assert rejected(s, Surrender("p1", ("file-1",))) == ("not-a-weapon",)
    assert rejected(s, Surrender("p1", ("pistols-1",))) == ("not-in-hand",)


# ------------------------------------------------------------------ burglary

@pytest.mark.parametrize("tools, target", [
    (("file-1",), 10), (("crowbar-1",), 9), (("dynamite-1",), 7), (("key-1",), 3), (("file-1", "dynamite-1"), 5),
])
def test_the_books_burglary_examples(tools, target):
    assert burglary_target(tools) == target


def at_the_sword(s, seat="p1"):
    put(s, seat, "t05", accredited=True)
    push(s, Roll(seat, (1, 2)))
    push(s, MoveTo(seat, "t08"))
    assert s.phase == "burgle-offer"


def test_burglary_declared_then_thrown_for_until_made():
    s = started()
    give(s, "p1", "file-1", "dynamite-1")
    at_the_sword(s)
    assert "burgle" not in GAME.prompt(s).public().of("p1").accepted
    push(s, Burgle("p1", ("file-1", "dynamite-1")))
    assert s.order.current == "p2"
    assert GAME.view(s)["pieces"]["p1"]["burglary"]["text"] == "needs 5+, attempt 1"
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "burgle"
    push(s, Roll("p1", (1, 3)))
    assert s.jewels["sword"] == "case" and GAME.view(s)["pieces"]["p1"]["burglary"]["text"] == "needs 5+, attempt 2"
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w06"))
    push(s, Roll("p1", (1, 4)))
    assert s.jewels["sword"] == "p1" and "p1" not in s.burglaries
    assert s.decks["tower"].cards[-2:] == ["file-1", "dynamite-1"]


@pytest.mark.parametrize("tools, code", [
    (("file-1", "file-2"), "two-of-a-kind"), (("key-1", "file-1"), "key-alone"), (("mace-1",), "not-a-tool"),
])
def test_burglary_tools_no_two_of_a_kind_key_alone(tools, code):
    s = started()
    give(s, "p1", "file-1", "file-2", "key-1", "mace-1")
    at_the_sword(s)
    assert code in rejected(s, Burgle("p1", tools))


def test_two_thieves_the_first_to_qualify_wins_the_other_forfeits():
    s = started()
    give(s, "p1", "file-1")
    give(s, "p2", "key-1")
    at_the_sword(s)
    push(s, Burgle("p1", ("file-1",)))
    at_the_sword(s, "p2")
    push(s, Burgle("p2", ("key-1",)))
    push(s, Roll("p1", (2, 3)))  # needs 10
    push(s, Roll("p2", (1, 2)))  # needs 3
    assert s.jewels["sword"] == "p2" and not s.burglaries
    assert "file-1" in s.decks["tower"].cards and "beaten to it" in log_text(s)


def test_abandon_a_burglary():
    s = started()
    give(s, "p1", "crowbar-1")
    at_the_sword(s)
    push(s, Burgle("p1", ("crowbar-1",)))
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    push(s, Abandon("p1"))
    assert s.phase == "start" and "crowbar-1" in s.decks["tower"].cards


# ------------------------------------------------------------------ attack

def duel(a_cards=(), d_cards=(), a_sq="i0-05", d_sq="i0-10"):
    s = started()
    empty_hand(s, "p1")
    empty_hand(s, "p2")
    give(s, "p1", *a_cards)
    give(s, "p2", *d_cards)
    put(s, "p1", a_sq, accredited=True)
    put(s, "p2", d_sq, accredited=True)
    return s


def test_attack_is_a_secret_commit_then_a_reveal():
    s = duel(("mace-1", "sword-1"), ("dagger-1",))
    s.jewels["orb"] = "p2"
    s.coins["p2"], s.mint = True, 1
    push(s, Attack("p1", "p2"))
    assert GAME.prompt(s).actors == {"p1", "p2"}
    push(s, Arm("p1", ("mace-1", "sword-1")))
    view = GAME.view(s, "p2")
    assert "mace-1" not in str(view) and view["attack"]["committed"] == ["p1"]
    assert GAME.public_action(s, Arm("p1", ("mace-1", "sword-1")), "p2", s.ply - 1) == {"$": "outrage.arm", "seat": "p1", "sealed": True}
    push(s, Arm("p2", ("dagger-1",)))
    assert s.jewels["orb"] == "p1" and s.coins["p1"] and not s.coins["p2"]
    assert s.pos["p2"] == "hospital" and s.pos["p1"] == "i0-10" and s.order.skips == {"p2": 1}
    assert "7 against Bob 3" in log_text(s)
    # The winner redraws the two cards played (then the square's Raven card).
    assert s.phase == "draw-tower"
    push(s, GAME.sample(s))
    push(s, GAME.sample(s))
    assert len(s.hands["p1"]) == 2


def test_a_tie_goes_to_the_defender_who_takes_the_attackers_jewels():
    s = duel(("sword-1",), ("sword-2",))
    s.jewels["sceptre"] = "p1"
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", ("sword-1",)))
    push(s, Arm("p2", ("sword-2",)))
    assert s.jewels["sceptre"] == "p2" and s.pos["p1"] == "hospital" and s.pos["p2"] == "i0-10"


def test_a_winner_with_a_coin_sends_the_losers_coin_to_the_mint():
    s = duel(("pistols-1",), ())
    s.coins["p1"] = s.coins["p2"] = True
    s.mint = 0
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", ("pistols-1",)))
    push(s, Arm("p2", ()))
    assert s.coins == {"p1": True, "p2": False} and s.mint == 1


def test_armour_only_in_defence_and_no_two_of_a_kind():
    s = duel(("armour-1", "mace-1", "mace-2"), ("armour-2",))
    push(s, Attack("p1", "p2"))
    assert rejected(s, Arm("p1", ("armour-1",))) == ("armour-defence",)
    assert rejected(s, Arm("p1", ("mace-1", "mace-2"))) == ("two-of-a-kind",)
    push(s, Arm("p1", ("mace-1",)))
    push(s, Arm("p2", ("armour-2",)))
    assert s.pos["p1"] == "hospital"


def test_sanctuary_in_defence_retreats_to_the_chapel_royal():
    s = duel(("crossbow-1",), ("sanctuary-1",))
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", ("crossbow-1",)))
    push(s, Arm("p2", ("sanctuary-1",)))
    assert s.pos["p2"] == "chapel-royal" and s.pos["p1"] == "i0-05"
    assert {"crossbow-1", "sanctuary-1"} <= set(s.decks["tower"].cards)


@pytest.mark.parametrize("square, why", [("t10", "White Tower"), ("w62", "held")])
def test_immune_players_cannot_be_attacked(square, why):
    s = duel()
    put(s, "p2", square)
    if square == "w62":
        from rules.outrage.state import Held
        s.held["p2"] = Held("beauchamp")
    assert "attack" not in GAME.prompt(s).of("p1").accepted
    assert "cannot-attack" in rejected(s, Attack("p1", "p2"))
    assert why in " ".join(messages(s, Attack("p1", "p2")))


def test_only_accredited_players_attack():
    s = duel()
    s.accredited["p1"] = False
    s.changed()
    codes = rejected(s, Attack("p1", "p2"))
    assert "not-accredited" in codes


# ------------------------------------------------------------------ prisons

def test_bloody_tower_a_double_only_released_after_three_attempts():
    s = started()
    from rules.outrage.state import Held
    put(s, "p1", "bloody-tower", accredited=True)
    s.held["p1"] = Held("bloody")
    s.phase = "prison"
    s.changed()
    for attempt in (1, 2):
        assert GAME.view(s)["pieces"]["p1"]["held"]["text"] == f"turn {attempt} of 3"
        push(s, Roll("p1", (1, 2)))
        push(s, Roll("p2", (1, 2)))
        push(s, MoveTo("p2", GAME.view(s)["reachable"][0]))
    push(s, Roll("p1", (1, 2)))
    assert "p1" not in s.held and "released" in log_text(s)


def test_bloody_tower_double_moves_the_total_at_once():
    s = started()
    from rules.outrage.state import Held
    put(s, "p1", "bloody-tower", accredited=True)
    s.held["p1"] = Held("bloody")
    s.phase = "prison"
    s.changed()
    push(s, Roll("p1", (2, 2)))
    assert s.phase == "move" and s.steps == 4
    assert {"w73", "i14-04"} <= set(GAME.moves(s, "p1", 4))


def test_bowyer_tower_pardon_next_turn_then_throw():
    s = started()
    give(s, "p1", "pardon-1")
    put(s, "p1", "w45")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    assert s.phase == "offer" and s.held["p1"].place == "bowyer"
    push(s, Decline("p1"))
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "prison"
    push(s, Play("p1", "pardon-1"))
    assert s.phase == "start" and "p1" not in s.held


def test_bowyer_confession_swaps_places_with_an_opponent():
    s = started()
    give(s, "p1", "confession-1")
    put(s, "p1", "w45")
    put(s, "p2", "w10")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    push(s, Play("p1", "confession-1", "p2"))
    assert s.pos == {"p1": "w10", "p2": "w47"} and s.held["p2"].place == "bowyer" and "p1" not in s.held


def test_beauchamp_pardon_leaves_at_once_and_throws_again():
    s = started()
    give(s, "p1", "pardon-1")
    put(s, "p1", "w60")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w62"))
    push(s, Play("p1", "pardon-1"))
    assert s.phase == "again" and "p1" not in s.held


def rack(s, **hand):
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("rack"))
    assert s.phase == "offer" and s.pos["p1"] == "rack"


def test_the_rack_jewels_returned_cards_or_coin_three_turns():
    s = started()
    s.jewels["orb"] = "p1"
    s.coins["p1"], s.mint = True, 1
    rack(s)
    push(s, Decline("p1"))
    assert s.jewels["orb"] == "case" and s.phase == "choose"
    push(s, Choose("p1", "coin"))
    assert not s.coins["p1"] and s.mint == 2 and s.held["p1"].place == "rack"


def test_the_rack_with_nothing_to_hand_in_returns_to_start_accredited():
    s = started()
    empty_hand(s, "p1")
    rack(s)
    push(s, Decline("p1"))
    assert s.pos["p1"] == "w00" and s.accredited["p1"] and "p1" not in s.held


def test_the_rack_pardon_releases_without_penalty():
    s = started()
    give(s, "p1", "rack-pardon-1")
    s.jewels["orb"] = "p1"
    rack(s)
    push(s, Play("p1", "rack-pardon-1"))
    assert s.jewels["orb"] == "p1" and "p1" not in s.held


# ------------------------------------------------------------------ escape and outcome

def at_the_cradle(s, seat="p1"):
    put(s, seat, "w20", accredited=True)
    s.coins[seat], s.mint = True, s.mint - 1
    s.changed()


def test_escape_needs_a_coin_and_wins_the_first_escape_game():
    s = started()
    put(s, "p1", "cradle", accredited=True)
    s.jewels["orb"] = "p1"
    s.changed()
    assert "escape" not in GAME.prompt(s).of("p1").accepted
    assert "no-coin" in rejected(s, Escape("p1"))
    s.coins["p1"], s.mint = True, 1
    s.changed()
    push(s, Escape("p1"))
    assert s.result is not None and s.result.winner == "red" and s.result.winning_seats == ("p1",)
    assert s.result.scores["p1"].total == 2


def test_all_jewels_game_go_back_in_then_scores_with_tie_breaks():
    s2 = started(endgame="all-jewels")
    put(s2, "p1", "cradle", accredited=True)
    s2.coins["p1"], s2.mint = True, 1
    s2.jewels["st-edwards-crown"] = "p1"
    s2.changed()
    push(s2, Escape("p1"))
    assert s2.phase == "ferry" and s2.choices == ["reenter", "retire"]
    push(s2, Choose("p1", "reenter"))
    assert s2.pos["p1"] == "w00" and s2.accredited["p1"] and s2.mint == 2
    while s2.phase == "draw-tower":
        push(s2, GAME.sample(s2))
    assert len(s2.hands["p1"]) == 3 and s2.order.current == "p2"


@pytest.mark.parametrize("held, said", [(1, "1 Tower card returned"), (0, "no Tower cards to return")])
def test_going_back_in_counts_the_cards_returned_in_words(held, said):
    """Issue 32, item 12's kind ("play up to 0 more card(s)"): the log counts what goes
    back to the pack in words that read right for one card and for none."""
    s = started(endgame="all-jewels")
    put(s, "p1", "cradle", accredited=True)
    s.coins["p1"], s.mint = True, 1
    s.jewels["st-edwards-crown"] = "p1"
    keep = s.hands["p1"].cards[:held]
    s.decks["tower"].cards.extend(c for c in s.hands["p1"].cards if c not in keep)
    s.hands["p1"].cards[:] = keep
    s.changed()
    push(s, Escape("p1"))
    push(s, Choose("p1", "reenter"))
    line = next(e.text for e in s.log if "goes back in from Start" in e.text)
    assert said in line and "1 cards" not in line and "0 cards" not in line


@pytest.mark.parametrize("p1, p2, winner, why", [
    (["st-edwards-crown"], ["sword", "prince-of-wales-crown"], "red", "highest value with fewer jewels"),
    (["prince-of-wales-crown", "sword"], ["st-edwards-crown"], "blue", "fewer jewels"),
    (["prince-of-wales-crown"], ["sceptre"], "red", "higher value"),
])
def test_tie_breaks_in_the_books_order(p1, p2, winner, why):
    s = started(endgame="all-jewels")
    s.escaped = {"p1": p1, "p2": p2}
    for j in p1 + p2:
        s.jewels[j] = "escaped"
    GAME._finish(s, "test")
    assert s.result.winner == winner, why


def test_teams_score_together():
    s = GAME.new([("a", "red"), ("b", "blue"), ("c", "red"), ("d", "blue")], {"teams": True, "endgame": "all-jewels"}, 1)
    s.escaped = {"a": ["sword"], "b": ["orb"], "c": ["sceptre"], "d": []}
    GAME._finish(s, "test")
    assert s.result.winner == "red" and s.result.scores["red"].total == 4 and set(s.result.winning_seats) == {"a", "c"}


def test_rope_or_ladder_out_of_the_white_tower_where_marked():
    s = started()
    give(s, "p1", "rope-1")
    put(s, "p1", "t11", accredited=True)
    assert "play" not in GAME.prompt(s).of("p1").private
    assert rejected(s, Play("p1", "rope-1")) == ("not-awaited", "card-not-playable")
    assert "only on a White Tower square marked for it" in messages(s, Play("p1", "rope-1"))[1]
    put(s, "p1", "t12")
    assert "play" in GAME.prompt(s).of("p1").private
    push(s, Play("p1", "rope-1"))
    assert s.pos["p1"] == "i7-06" and "rope-1" in s.decks["tower"].cards


@pytest.mark.parametrize("card", ["rope-2", "ladder-1", "disguise-2", "pardon-3"])
def test_beauchamp_escape_cards_at_the_start_of_the_next_turn(card):
    s = started()
    give(s, "p1", card)
    put(s, "p1", "w60")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w62"))
    push(s, Decline("p1"))  # no Pardon played on arrival
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "prison" and "play" in GAME.prompt(s).of("p1").private
    push(s, Play("p1", card))
    assert s.phase == "start" and "p1" not in s.held


def test_the_rack_rope_escape_and_three_turns():
    s = started()
    give(s, "p1", "ladder-2")
    s.coins["p1"], s.mint = True, 1
    rack(s)
    push(s, Decline("p1"))
    push(s, Choose("p1", "coin"))
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "rack" and GAME.view(s)["pieces"]["p1"]["held"]["text"] == "turn 1 of 3"
    push(s, Play("p1", "ladder-2"))
    assert s.phase == "start" and "p1" not in s.held
    push(s, Roll("p1", (1, 1)))
    assert "i11-09" in GAME.moves(s, "p1", 1)  # out by the Rack's way out


def test_bowyer_three_turns_without_a_double():
    s = started()
    put(s, "p1", "w45")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    push(s, Decline("p1"))
    for turn in (1, 2, 3):
        put(s, "p2", "w00")
        push(s, Roll("p2", (1, 2)))
        push(s, MoveTo("p2", "w03"))
        assert GAME.view(s)["pieces"]["p1"]["held"]["text"] == f"turn {turn} of 3"
        push(s, Roll("p1", (1, 2)))
    assert "p1" not in s.held and "released from the Bowyer Tower" in log_text(s)


def test_team_mates_do_not_attack_each_other():
    seats = [{"id": "p1", "faction": "red", "name": "Ann"}, {"id": "p2", "faction": "blue", "name": "Bob"},
             {"id": "p3", "faction": "red", "name": "Cat"}, {"id": "p4", "faction": "blue", "name": "Dan"}]
    s = GAME.new(seats, {"teams": True}, 3)
    while s.phase == "deal":
        push(s, GAME.sample(s))
    for i, seat in enumerate(("p1", "p2", "p3", "p4")):
        push(s, Roll(seat, (6, 6) if i == 0 else (1, 2)))
    for seat, sq in (("p1", "i0-05"), ("p2", "i0-10"), ("p3", "i2-03"), ("p4", "w40")):
        put(s, seat, sq, accredited=True)
    assert sorted(a.target for a in GAME.legal_actions(s).of_kind("attack")) == ["p2", "p4"]
    msgs = messages(s, Attack("p1", "p3"))
    assert any("Cat is on Ann's own team" in m and m.endswith("[ATTACK]") for m in msgs), msgs


def test_the_rack_pardon_also_frees_during_the_three_turns():
    s = started()
    s.coins["p1"], s.mint = True, 1
    rack(s)
    push(s, Decline("p1"))
    push(s, Choose("p1", "coin"))
    give(s, "p1", "rack-pardon-1")
    put(s, "p2", "w00")
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    push(s, Play("p1", "rack-pardon-1"))
    assert s.phase == "start" and "p1" not in s.held
