"""The issue-17 audit (rules/outrage/README.md, "Issue checklist"): every Tower card kind
with the book's count and value, and the rules whose tests were missing — the split
seven's limits, the secret passage, the Inmost Ward and Sanctuary's immunity, each
prison's way out with its turn count, the Rack's confiscation, escaped jewels secure,
the all-jewels ending and the third tie-break."""
from __future__ import annotations

import pytest

from rules.core import InvalidSetup, Roll
from rules.outrage import GAME, Arm, Attack, Choose, Decline, Escape, MoveTo, Play, Split, moves
from rules.outrage.cards import RAVEN, TOWER
from rules.outrage.state import Held

from .helpers import draw, empty_hand, give, log_text, messages, push, put, rejected, started


def raven(kind: str) -> str:
    return next(c.id for c in RAVEN.values() if c.kind == kind)


def drawn(kind: str, n: int = 2, **options):
    """Ann (accredited) lands on an unmarked Inner Ward square and draws a Raven card."""
    s = started(n, **options)
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    draw(s, "p1", "raven", raven(kind))
    return s


def pass_turn(s, seat: str = "p2") -> None:
    """``seat`` throws 3 from Start and moves (nothing happens on w03)."""
    put(s, seat, "w00")
    push(s, Roll(seat, (1, 2)))
    push(s, MoveTo(seat, "w03"))


# ------------------------------------------------------------------ the Tower pack

BOOK = {  # THE CARDS, Tower Cards: (count, attack factor or burglary points)
    "mace": (5, 2), "dagger": (4, 3), "sword": (3, 5), "armour": (3, 8), "crossbow": (3, 10), "pistols": (3, 15),
    "file": (6, 2), "crowbar": (4, 3), "dynamite": (3, 5), "key": (1, 9),
    "disguise": (3, 0), "rope": (3, 0), "ladder": (3, 0),
    "pardon": (3, 0), "rack-pardon": (1, 0), "sanctuary": (4, 0), "confession": (2, 0), "tower-pass": (3, 0),
}


def test_every_tower_card_kind_has_the_books_count_and_value():
    kinds = {c.kind for c in TOWER.values()}
    assert kinds == set(BOOK)
    for kind, (count, value) in BOOK.items():
        cards = [c for c in TOWER.values() if c.kind == kind]
        assert len(cards) == count, kind
        assert {c.attack if c.group == "weapon" else c.points for c in cards} == {value}, kind
    assert [c.kind for c in TOWER.values() if c.defence_only] == ["armour"] * 3
    assert sum(n for n, _ in BOOK.values()) == 57


@pytest.mark.parametrize("weapons, value", [
    (("mace-1",), 2), (("dagger-1",), 3), (("sword-1",), 5), (("crossbow-1",), 10), (("pistols-1",), 15),
])
def test_each_weapons_attack_factor_decides_a_fight(weapons, value):
    """Each attacking weapon against Armour (8): the higher wins, a tie to the defender."""
    s = started()
    empty_hand(s, "p1")
    empty_hand(s, "p2")
    give(s, "p1", *weapons)
    give(s, "p2", "armour-1")
    put(s, "p1", "i0-05", accredited=True)
    put(s, "p2", "i0-10", accredited=True)
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", weapons))
    push(s, Arm("p2", ("armour-1",)))
    assert f"Ann {value} against Bob 8" in log_text(s)
    assert s.pos["p2" if value > 8 else "p1"] == "hospital"


def test_a_ladder_also_climbs_out_of_the_white_tower():
    s = started()
    give(s, "p1", "ladder-3")
    put(s, "p1", "t12", accredited=True)
    push(s, Play("p1", "ladder-3"))
    assert s.pos["p1"] == "i7-06" and "ladder-3" in s.decks["tower"].cards


def test_a_tower_pass_excuses_a_player_from_the_governors_tea():
    s = drawn("governor-tea")
    give(s, "p1", "tower-pass-3")
    pass_turn(s)
    assert s.phase == "tea" and "play" in GAME.prompt(s).of("p1").private
    push(s, Play("p1", "tower-pass-3"))
    assert s.phase == "start" and s.actor == "p1" and "p1" not in s.tea
    assert "makes their excuses and leaves" in log_text(s)


def test_a_confession_at_the_start_of_a_turn_in_the_bowyer_tower():
    s = started()
    put(s, "p1", "w45")
    put(s, "p2", "w10")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    push(s, Decline("p1"))  # no Confession on arrival
    give(s, "p1", "confession-2")
    pass_turn(s)
    assert s.phase == "prison"
    push(s, Play("p1", "confession-2", "p2"))
    assert s.pos["p1"] == "w03" and s.pos["p2"] == "w47" and s.held["p2"].place == "bowyer"
    assert s.phase == "start" and s.actor == "p1"


def test_the_chief_warder_gives_a_tower_card_and_the_tour_a_coin_and_a_card():
    s = drawn("chief-warder")
    assert s.phase == "draw-tower" and s.actor == "p1"
    s = drawn("tour")
    assert s.pos["p1"] == "w56" and s.coins["p1"] and s.phase == "draw-tower"


def test_a_photograph_with_no_warder_at_post_stays_where_it_is():
    s = started()
    for post in s.warders:
        s.warders[post] = False
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    draw(s, "p1", "raven", raven("photograph"))
    assert s.pos["p1"] == "i0-08" and "stays where they are" in log_text(s)


# ------------------------------------------------------------------ the dice

def test_a_double_then_a_turn_in_hospital_forfeits_the_further_throw():
    s = started()
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("pecked"))
    assert s.pos["p1"] == "hospital" and s.order.current == "p2" and s.order.skips == {"p1": 1}


def test_the_split_is_between_the_thrower_and_one_other_player():
    s = started()
    push(s, Roll("p1", (4, 3)))
    assert "cannot-move-other" in rejected(s, Split("p1", "p1", 3))
    assert "one other player" in messages(s, Split("p1", "p1", 3))[0]


@pytest.mark.parametrize("square", ["t02", "t15"])
def test_no_one_moves_a_player_in_the_inmost_ward_or_white_tower_who_may_split_their_own(square):
    s = started()
    put(s, "p2", square, accredited=True)
    push(s, Roll("p1", (5, 2)))
    assert "cannot-move-other" in rejected(s, Split("p1", "p2", 3))
    s = started()
    put(s, "p1", square, accredited=True)
    push(s, Roll("p1", (6, 1)))
    push(s, Split("p1", "p2", 1))
    assert s.split == ["p2", 6]


# ------------------------------------------------------------------ movement

def test_the_secret_passage_is_out_of_bounds_first_then_one_move():
    s = started()
    put(s, "p1", "w22")
    assert sorted(moves(s, "p1", 2)) == ["w24"]
    put(s, "p1", "w22", accredited=True)
    assert "chapel-royal" in moves(s, "p1", 2)
    route, _ = moves(s, "p1", 2)["chapel-royal"]
    assert route == ("w22", "w23", "chapel-royal")


# ------------------------------------------------------------------ attack

@pytest.mark.parametrize("where", ["inmost", "sanctuary", "beauchamp"])
def test_the_inmost_ward_sanctuary_and_the_beauchamp_tower_are_immune(where):
    s = started()
    put(s, "p1", "i0-05", accredited=True)
    put(s, "p2", "i0-10", accredited=True)
    if where == "inmost":
        put(s, "p2", "t02")
    elif where == "sanctuary":
        s.sanctuary.append("p2")
    else:
        put(s, "p2", "w62")
        s.held["p2"] = Held("beauchamp")
    s.changed()
    assert "attack" not in GAME.prompt(s).of("p1").accepted
    assert "cannot-attack" in rejected(s, Attack("p1", "p2"))


def test_escaped_jewels_are_not_taken_by_an_attack_nor_returned_by_the_rack():
    s = started(endgame="all-jewels")
    empty_hand(s, "p1")
    empty_hand(s, "p2")
    give(s, "p1", "pistols-2")
    put(s, "p1", "i0-05", accredited=True)
    put(s, "p2", "i0-10", accredited=True)
    s.escaped["p2"] = ["orb"]
    s.jewels["orb"] = "escaped"
    s.jewels["sword"] = "p2"
    s.changed()
    push(s, Attack("p1", "p2"))
    push(s, Arm("p1", ("pistols-2",)))
    push(s, Arm("p2", ()))
    assert s.jewels["sword"] == "p1" and s.jewels["orb"] == "escaped" and s.escaped["p2"] == ["orb"]
    s = started(endgame="all-jewels")
    s.escaped["p1"] = ["orb"]
    s.jewels["orb"] = "escaped"
    empty_hand(s, "p1")
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("rack"))
    push(s, Decline("p1"))
    assert s.jewels["orb"] == "escaped" and s.escaped["p1"] == ["orb"]


# ------------------------------------------------------------------ prisons

def to_beauchamp(s):
    put(s, "p1", "w60")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w62"))
    push(s, Decline("p1"))  # no Pardon on arrival
    assert s.held["p1"].place == "beauchamp"


def test_the_beauchamp_tower_three_turns_shown_then_released():
    s = started()
    empty_hand(s, "p1")
    to_beauchamp(s)
    for turn in (1, 2, 3):
        pass_turn(s)
        assert s.phase == "prison" and GAME.view(s)["pieces"]["p1"]["held"]["text"] == f"turn {turn} of 3"
        push(s, Roll("p1", (1, 2)))
    assert "p1" not in s.held and "released from the Beauchamp Tower" in log_text(s)


@pytest.mark.parametrize("prison", ["beauchamp", "bowyer"])
def test_a_double_frees_from_the_beauchamp_and_bowyer_towers_moving_at_once(prison):
    s = started()
    if prison == "beauchamp":
        to_beauchamp(s)
    else:
        put(s, "p1", "w45")
        push(s, Roll("p1", (1, 1)))
        push(s, MoveTo("p1", "w47"))
        push(s, Decline("p1"))
    pass_turn(s)
    push(s, Roll("p1", (2, 2)))
    assert "p1" not in s.held and s.phase == "move" and s.steps == 4 and s.mover == "p1"


def test_the_bloody_tower_yields_to_a_double_only_and_the_rack_not_to_a_royal_pardon():
    """RULINGS P-01 and P-03: no card opens the Bloody Tower; only the Pardon from the
    Rack (or a Rope or Ladder) saves from the Rack, not the ordinary Royal Pardon."""
    s = started()
    give(s, "p1", "pardon-1", "disguise-1", "rope-1")
    put(s, "p1", "bloody-tower", accredited=True)
    s.held["p1"] = Held("bloody")
    s.phase = "prison"
    s.changed()
    assert GAME.prompt(s).of("p1").private == ()
    for card in ("pardon-1", "disguise-1", "rope-1"):
        assert rejected(s, Play("p1", card)) == ("not-awaited", "card-not-playable")
        assert "the only hope of escape is by throwing a double" in messages(s, Play("p1", card))[1]
    s = started()
    give(s, "p1", "pardon-2")
    s.coins["p1"], s.mint = True, 1
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("rack"))
    assert s.phase == "offer" and GAME.prompt(s).of("p1").private == ()
    assert rejected(s, Play("p1", "pardon-2"))
    push(s, Decline("p1"))
    push(s, Choose("p1", "coin"))
    pass_turn(s)
    assert s.phase == "rack" and GAME.prompt(s).of("p1").private == ()
    assert rejected(s, Play("p1", "pardon-2"))


def test_the_rack_takes_the_cards_if_chosen_and_lasts_three_turns():
    s = started()
    s.coins["p1"], s.mint = True, 1
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "i0-07"))
    draw(s, "p1", "raven", raven("rack"))
    push(s, Decline("p1"))
    push(s, Choose("p1", "cards"))
    assert len(s.hands["p1"]) == 0 and s.coins["p1"] and s.held["p1"].place == "rack"
    for turn in (1, 2, 3):
        pass_turn(s)
        assert s.phase == "rack" and GAME.view(s)["pieces"]["p1"]["held"]["text"] == f"turn {turn} of 3"
        push(s, Choose("p1", "wait"))
    assert "p1" not in s.held and "released from the Rack" in log_text(s)
    assert s.accredited["p1"]


# ------------------------------------------------------------------ setup and the endgame

def test_seven_seats_are_too_many():
    with pytest.raises(InvalidSetup):
        GAME.new([(f"s{i}", f) for i, f in enumerate(("red", "blue", "green", "yellow", "white", "black", "red"))], {}, 1)


def test_the_last_jewel_out_ends_the_all_jewels_game_by_the_tie_breaks():
    s = started(endgame="all-jewels")
    s.escaped = {"p1": [], "p2": ["st-edwards-crown", "sword"]}
    for j in ("st-edwards-crown", "sword", "orb", "sceptre"):
        s.jewels[j] = "escaped"
    s.escaped["p1"] = ["orb", "sceptre"]
    s.jewels["prince-of-wales-crown"] = "p1"
    put(s, "p1", "cradle", accredited=True)
    s.coins["p1"], s.mint = True, 1
    s.changed()
    push(s, Escape("p1"))
    assert s.result is not None and "every Crown Jewel" in s.result.reason
    assert s.result.scores["p1"].total == 9 and s.result.scores["p2"].total == 6 and s.result.winner == "red"


@pytest.mark.parametrize("p1, p2, winner", [
    (["st-edwards-crown", "sword"], ["prince-of-wales-crown", "orb"], "red"),  # 6 and 6, two each: St Edward's
    (["sword", "prince-of-wales-crown"], ["orb", "sceptre"], None),  # 5 and 5, two each, no crown: shared
])
def test_the_third_tie_break_is_st_edwards_crown_else_a_shared_win(p1, p2, winner):
    s = started(endgame="all-jewels")
    s.escaped = {"p1": p1, "p2": p2}
    for j in p1 + p2:
        s.jewels[j] = "escaped"
    GAME._finish(s, "test")
    assert s.result.winner == winner
    if winner is None:
        assert set(s.result.winning_seats) == {"p1", "p2"} and "unbreakable tie" in s.result.reason


def test_a_confession_names_an_opponent_whom_another_player_may_move():
    """RULINGS P-02: not a player in Sanctuary, not a team-mate."""
    seats = [{"id": f"p{i}", "faction": f, "name": n} for i, (f, n) in
             enumerate((("red", "Ann"), ("blue", "Bob"), ("red", "Cat"), ("blue", "Dan")), 1)]
    s = GAME.new(seats, {"teams": True}, 3)
    while s.phase == "deal":
        push(s, GAME.sample(s))
    for i, seat in enumerate(("p1", "p2", "p3", "p4")):
        push(s, Roll(seat, (6, 6) if i == 0 else (1, 2)))
    give(s, "p1", "confession-1")
    put(s, "p1", "w45")
    put(s, "p2", "chapel-royal", accredited=True)
    s.sanctuary.append("p2")
    s.changed()
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    assert s.phase == "offer"
    assert rejected(s, Play("p1", "confession-1", "p2")) == ("bad-confession",)  # in Sanctuary
    assert rejected(s, Play("p1", "confession-1", "p3")) == ("bad-confession",)  # a team-mate
    assert "opponent" in messages(s, Play("p1", "confession-1", "p3"))[0]
    push(s, Play("p1", "confession-1", "p4"))
    assert s.pos["p4"] == "w47" and s.held["p4"].place == "bowyer"


@pytest.mark.parametrize("start, square", [("w74", "w77"), ("w44", "w47")])
def test_a_split_whose_first_part_ends_the_turn_moves_no_one_else(start, square):
    """RULINGS D-02: Queen's House on the first circuit, or a prison, ends the thrower's
    turn, and the other piece's part with it."""
    s = started()
    put(s, "p1", start)
    push(s, Roll("p1", (4, 3)))
    push(s, Split("p1", "p2", 3))
    push(s, MoveTo("p1", square))
    if s.phase == "offer":  # the Bowyer Tower asks for a Confession first
        push(s, Decline("p1"))
    assert s.pos["p2"] == "w00" and s.split == [] and s.order.current == "p2" and s.phase == "start"


def test_a_player_who_escapes_may_retire_for_good():
    """RULINGS E-02: retired, the player takes no more turns; when everyone has retired the
    game ends by the tie-breaks."""
    s = started(endgame="all-jewels")
    put(s, "p1", "cradle", accredited=True)
    s.coins["p1"], s.mint = True, 1
    s.jewels["orb"] = "p1"
    s.changed()
    push(s, Escape("p1"))
    push(s, Choose("p1", "retire"))
    assert s.retired == ["p1"] and s.order.current == "p2" and s.result is None
    assert GAME.view(s)["pieces"]["p1"]["retired"]
    pass_turn(s)
    assert s.order.current == "p2"  # Ann takes no more turns
    put(s, "p2", "cradle", accredited=True)
    s.coins["p2"], s.mint = True, s.mint - 1
    s.jewels["sword"] = "p2"
    s.changed()
    push(s, Escape("p2"))
    push(s, Choose("p2", "retire"))
    assert s.result is not None and "every player has retired" in s.result.reason and s.result.winner == "red"


def test_burglary_tools_are_laid_face_up_for_the_table():
    from rules.core import PUBLIC
    from rules.outrage import Burgle

    s = started()
    give(s, "p1", "file-3", "dynamite-2")
    put(s, "p1", "t05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "t08"))
    push(s, Burgle("p1", ("file-3", "dynamite-2")))
    seen = GAME.view(s, PUBLIC)["pieces"]["p1"]["burglary"]
    assert seen["tools"] == ["File", "Dynamite"] and seen["text"] == "needs 5+, attempt 1"
    assert GAME.public_action(s, Burgle("p1", ("file-3", "dynamite-2")), PUBLIC, s.ply - 1)["tools"] == ["file-3", "dynamite-2"]


def test_the_informer_obeys_the_square_taken_over_by_a_confession():
    """RULINGS P-02, "Players moved under any circumstances must always obey any
    instructions on the square to which they have been moved": on arrival (the Mint: a
    coin and a Tower card), and at a turn's start (a Raven card, then the throw)."""
    s = started()
    give(s, "p1", "confession-1")
    put(s, "p1", "w45")
    put(s, "p2", "w56")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    push(s, Play("p1", "confession-1", "p2"))
    assert s.pos["p1"] == "w56" and s.coins["p1"] and s.phase == "draw-tower" and s.actor == "p1"
    push(s, GAME.sample(s))
    assert s.order.current == "p2" and s.phase == "prison"  # Ann's turn ended in the Bowyer Tower
    s = started()
    put(s, "p1", "w45")
    push(s, Roll("p1", (1, 1)))
    push(s, MoveTo("p1", "w47"))
    push(s, Decline("p1"))
    give(s, "p1", "confession-2")
    put(s, "p2", "i0-05", accredited=True)
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "i0-08"))
    draw(s, "p2", "raven", raven("chief-warder"))
    push(s, GAME.sample(s))
    assert s.order.current == "p1" and s.phase == "prison"
    push(s, Play("p1", "confession-2", "p2"))
    assert s.pos["p1"] == "i0-08" and s.phase == "draw-raven" and s.actor == "p1"
    draw(s, "p1", "raven", raven("chief-warder"))
    push(s, GAME.sample(s))
    assert s.phase == "start" and s.actor == "p1" and s.order.current == "p1"
    push(s, Roll("p1", (1, 2)))
    assert s.phase == "move" and s.mover == "p1"
