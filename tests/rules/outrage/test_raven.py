"""Every Raven card, and the Wall Walk's instruction squares."""
from __future__ import annotations

import pytest

from rules.core import Roll
from rules import PUBLIC
from rules.outrage import GAME, Change, Choose, Decline, Give, MoveTo, Play
from rules.outrage.cards import RAVEN, RAVEN_CARDS, TOWER, TOWER_CARDS
from rules.outrage.state import Held

from .helpers import draw, empty_hand, give, log_text, push, put, rejected, started


def raven(kind: str, **kw) -> str:
    return next(c.id for c in RAVEN.values() if c.kind == kind and all(getattr(c, k) == v for k, v in kw.items()))


def drawn(kind: str, n: int = 2, **kw):
    """Ann (accredited) lands on an unmarked Inner Ward square and draws a Raven card."""
    s = started(n, **kw.pop("options", {}))
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    assert s.phase == "draw-raven"
    draw(s, "p1", "raven", raven(kind, **kw))
    return s


def test_the_packs_counts():
    assert len(RAVEN_CARDS) == 59 and len(TOWER_CARDS) == 57
    kinds = [c.kind for c in RAVEN.values()]
    assert kinds.count("go") == 14 and kinds.count("warder-out") == 10 and kinds.count("warder-back") == 10
    assert kinds.count("jewel") == 5 and len(set(kinds)) == 22


def test_go_to_compulsory_obeys_the_square_there():
    s = drawn("go", to="w14")  # the Wakefield Tower gives a Tower card
    assert s.pos["p1"] == "w14" and s.phase == "draw-tower"


def test_warder_called_out_of_the_drawers_choice():
    s = drawn("warder-out", post="", options={})
    s.warders["waterloo"] = False
    s.changed()
    push(s, Choose("p1", "waterloo"))
    assert s.warders["waterloo"]


def test_warder_sent_back_and_ignored_when_none_is_posted():
    s = drawn("warder-back")
    assert s.phase == "choose" and sorted(s.choices) == ["chapel", "lanthorn", "scaffold", "waterloo"]
    push(s, Choose("p1", "lanthorn"))
    assert not s.warders["lanthorn"] and GAME.view(s)["barracks"] == 1


def test_warder_sent_back_with_none_at_post_is_ignored():
    s = started()
    for k in s.warders:
        s.warders[k] = False
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    draw(s, "p1", "raven", raven("warder-back"))
    assert "ignored" in log_text(s) and s.order.current == "p2"


def test_attempt_a_named_jewel():
    s = drawn("jewel", jewel="orb")
    push(s, Choose("p1", "go"))
    assert s.pos["p1"] == "t14" and s.phase == "burgle-offer"


def test_photograph_next_to_a_warder_then_another_raven_card():
    s = drawn("photograph")
    assert "i2-04" in s.choices and "i2-05" not in s.choices  # next to the Scaffold, not on it
    push(s, Choose("p1", "i2-07"))
    assert s.pos["p1"] == "i2-07" and s.phase == "draw-raven"


@pytest.mark.parametrize("kind, square", [("pecked", "hospital"), ("film", "shop")])
def test_one_turn_in_hospital_or_the_shop(kind, square):
    s = drawn(kind)
    assert s.pos["p1"] == square and s.order.current == "p2"
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.order.current == "p2" and "Ann misses a turn." in log_text(s)


def test_bench_one_turn_then_leave_by_the_square_opposite():
    s = drawn("bench")
    push(s, Choose("p1", "bench-west"))
    assert s.pos["p1"] == "bench-west" and s.order.skips == {"p1": 1}
    assert all(route[1] == "i7-06" for route, _ in GAME.moves(s, "p1", 3).values())


def test_ghost_ends_the_turn_in_the_chapel_royal():
    s = drawn("ghost")
    assert s.pos["p1"] == "chapel-royal" and s.order.current == "p2"


def test_curfew_tower_pass_or_the_bell_tower():
    s = drawn("curfew")
    assert s.phase == "offer"
    push(s, Decline("p1"))
    assert s.pos["p1"] == "w71" and s.order.skips == {"p1": 1} and len(s.hands["p1"]) == 3
    s = started()
    give(s, "p1", "tower-pass-2")
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    draw(s, "p1", "raven", raven("curfew"))
    push(s, Play("p1", "tower-pass-2"))
    assert s.pos["p1"] == "i0-08" and not s.order.skips


def test_governors_tea_a_tower_pass_next_turn_or_one_turn_longer():
    s = drawn("governor-tea")
    assert s.pos["p1"] == "w77" and s.order.current == "p2"
    push(s, Roll("p2", (1, 2)))
    push(s, MoveTo("p2", "w03"))
    assert s.phase == "tea"
    push(s, Choose("p1", "stay"))
    assert s.order.current == "p2" and "p1" not in s.tea


def test_yeoman_clerks_tea_gives_another_turn():
    s = drawn("clerk-tea")
    assert s.order.current == "p1" and s.phase == "start"


def test_place_of_interest_not_the_white_tower():
    s = drawn("place-of-interest")
    assert "w56" in s.choices and not any(c.startswith("t") for c in s.choices)
    push(s, Choose("p1", "w56"))
    assert s.coins["p1"] and s.phase == "draw-tower"


def test_yeoman_warders_tour_ends_in_the_mint():
    s = drawn("tour")
    assert s.pos["p1"] == "w56" and s.coins["p1"]


@pytest.mark.parametrize("kind, place", [("bowyer", "bowyer"), ("beauchamp", "beauchamp"), ("bloody", "bloody")])
def test_imprisoned_by_a_card(kind, place):
    s = drawn(kind)
    assert s.held["p1"].place == place


def test_stopped_and_searched():
    s = started()
    s.jewels["orb"] = "p1"
    empty_hand(s, "p1")
    give(s, "p1", "mace-1")
    put(s, "p1", "i0-05", accredited=True)
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "i0-08"))
    draw(s, "p1", "raven", raven("searched"))
    assert s.jewels["orb"] == "case" and s.phase == "surrender"
    from rules.outrage import Surrender
    push(s, Surrender("p1", ("mace-1",)))
    assert s.held["p1"].place == "bloody"
    # Without jewels the default lets the player go; the option flings everyone in.
    s = drawn("searched")
    assert "let go" in log_text(s) and "p1" not in s.held
    s = drawn("searched", options={"searched": "always"})
    assert s.phase == "surrender"


# ------------------------------------------------------------------ squares

def test_extra_turn_square():
    s = started()
    put(s, "p1", "w46")
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "w49"))
    assert s.order.current == "p1" and "extra turn" in log_text(s)


def test_change_a_card_square():
    s = started()
    put(s, "p1", "w38")
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "w41"))
    assert s.phase == "change-offer"
    card = s.hands["p1"].cards[0]
    assert rejected(s, Change("p1", tuple(s.hands["p1"].cards[:2]))) == ("change-one",)
    push(s, Change("p1", (card,)))
    push(s, GAME.sample(s))
    assert len(s.hands["p1"]) == 3 and card not in s.hands["p1"]


def _swap_started(seed: int = 1):
    s = started(seed=seed)
    put(s, "p1", "w72")
    push(s, Roll("p1", (1, 2)))
    push(s, MoveTo("p1", "w75"))
    push(s, Choose("p1", "p2"))
    return s


def test_swap_a_card_square_each_gives_the_card_the_other_took():
    """RULINGS R-10: each takes a card face down from the other's hand; each says, behind
    their own gate, which card left their own hand (the taker's word would be judged by
    a hand the taker may not see)."""
    s = _swap_started()
    mine, theirs = list(s.hands["p1"].cards), list(s.hands["p2"].cards)
    assert s.phase == "swap" and GAME.prompt(s).actors == {"p1", "p2"}
    assert GAME.view(s, PUBLIC)["swap"] == {"seats": ["p1", "p2"], "waiting": ["p1", "p2"]}
    taken_from_bob = theirs[-1]
    push(s, Give("p2", taken_from_bob))
    assert taken_from_bob in s.hands["p1"] and GAME.prompt(s).actors == {"p1"}
    # The card just received cannot be the one Bob took back: it was not in Ann's hand.
    assert rejected(s, Give("p1", taken_from_bob)) == ("not-in-hand",)
    assert rejected(s, Give("p1", theirs[0])) == ("not-in-hand",)  # still Bob's
    push(s, Give("p1", mine[0]))
    assert sorted(s.hands["p1"].cards) == sorted(mine[1:] + [taken_from_bob])
    assert sorted(s.hands["p2"].cards) == sorted(theirs[:-1] + [mine[0]])
    assert s.swap == [] and s.phase != "swap"
    # Which cards moved is for the two players only.
    public = [GAME.public_action(s, Give("p1", mine[0]), PUBLIC), GAME.public_action(s, Give("p2", taken_from_bob), "p1")]
    assert all("card" not in a for a in public)
    seen = {v: " ".join(x["text"] for x in GAME.view(s, v)["log"]) for v in (PUBLIC, "p1", "p2")}
    assert f"took your {TOWER[mine[0]].name}" in seen["p1"] and f"You took Ann's {TOWER[mine[0]].name}" in seen["p2"]
    assert "has taken a Tower card from Ann's hand" in seen[PUBLIC] and "took your" not in seen[PUBLIC]


def test_swap_a_card_the_apps_blind_pick_is_the_fallback():
    s = _swap_started()
    mine, theirs = set(s.hands["p1"].cards), set(s.hands["p2"].cards)
    push(s, Give("p1"))
    push(s, Give("p2"))
    got, gave = set(s.hands["p1"].cards) - mine, mine - set(s.hands["p1"].cards)
    assert len(got) == len(gave) == 1 and got <= theirs and gave <= set(s.hands["p2"].cards)
    assert "the app's blind pick" in " ".join(x["text"] for x in GAME.view(s, PUBLIC)["log"])


def test_go_back_the_number_thrown():
    s = started()
    put(s, "p1", "w61")
    push(s, Roll("p1", (1, 3)))
    push(s, MoveTo("p1", "w65"))
    assert s.pos["p1"] == "w61"


def test_sanctuary_in_lieu_of_a_throw():
    s = started()
    give(s, "p1", "sanctuary-2")
    assert GAME.prompt(s).public().of("p1").private == ()
    push(s, Play("p1", "sanctuary-2"))
    assert s.pos["p1"] == "chapel-royal" and s.order.current == "p2" and "p1" in s.sanctuary


def test_unaccredited_release_from_the_bloody_tower_stops_at_queens_house():
    s = started()
    put(s, "p1", "bloody-tower")
    s.held["p1"] = Held("bloody")
    s.phase = "prison"
    s.changed()
    push(s, Roll("p1", (3, 3)))
    reach = GAME.moves(s, "p1", 6)
    assert "w77" in reach and all(r[-1] == "w77" or "w77" not in r for r, _ in reach.values())


def test_a_swap_is_judged_only_by_what_each_seat_may_see():
    """The harness's differential secret check at every step of a swap: each side's
    word is judged by its own hand, never by the other's."""
    from rules.core import Rng
    from rules.core.harness import HarnessReport, _check_differential

    s = _swap_started(seed=4)
    report = HarnessReport()
    while s.phase == "swap":
        legal = list(GAME.legal_actions(s))
        for i in range(8):
            _check_differential(GAME, s, Rng(i), legal, "swap", report)
        push(s, next(a for a in legal if isinstance(a, Give) and a.card))
    assert report.variants >= 16
