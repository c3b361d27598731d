"""The turn (§4, §5): the leftmost agent swaps with a die, then the neighbourhood's action
if possible; the end when every board holds six dice. Rejections carry a code, the
player's name and the rulebook section, and change nothing."""
from __future__ import annotations

import random

from rules.core import PUBLIC, Draw, Roll
from rules.dicetopia import GAME, Bottom, Decline, Deploy, Reroll, Swap

from .helpers import U, codes, last_round, play_out_turns, rejected, set_board, set_city, started

PLAIN = ("centauri", "dangmer")   # no ability interrupts a turn


def test_leftmost_agent_swaps_with_a_die():
    s = started(*PLAIN)
    set_city(s, agency=["p3", "t4", "w5", U, U])
    e = rejected(s, Deploy("p2", "agency", 0))
    assert e.codes == ("not-your-turn",) and "Ann" in str(e) and "Bob" in str(e)
    set_city(s, waste=["@p2", "t1", "w1", U, U])
    e = rejected(s, Deploy("p1", "waste", 0))
    assert e.violations[0].code == "no-die-there" and e.violations[0].rule == "§4 Game round" and "Ann" in e.violations[0].message
    assert codes(s, Deploy("p1", "agency", 3)) == ("space-not-used",)          # a space not used at 2 players
    assert codes(s, Deploy("p1", "market", 0)) == ("no-such-space",)
    GAME.push(s, Deploy("p1", "agency", 1))
    assert s.boards["p1"] == ["t4", "@", "@", "@", "@", "@"] and s.city["agency"][1] == "@p1"


def test_the_agency_draws_then_bottoms_a_mission():
    s = started(*PLAIN)
    set_city(s, agency=["p3", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "agency", 0))
    assert s.phase == "agency-draw"
    top = s.deck.cards[5]
    GAME.push(s, Draw("p1", "missions", top))           # the physical card the player drew
    assert s.phase == "agency-bottom" and len(s.hands["p1"]) == 4
    assert "not-your-mission" in codes(s, Bottom("p1", s.hands["p2"].cards[0]))
    GAME.push(s, Bottom("p1", top))
    assert s.deck.cards[-1] == top and len(s.hands["p1"]) == 3 and s.current == "p2"
    assert all(top not in e["text"] for e in GAME.view(s, PUBLIC)["log"])


def test_gugu_airforce_reroll_is_a_chance_input():
    s = started(*PLAIN)
    set_city(s, gugu=["w6", "t4", "w5", U, U], syndicate=["p1", "p2", "p3", U, U])
    GAME.push(s, Deploy("p1", "gugu", 0))
    assert codes(s, Reroll("p1", "waste", 7)) == ("no-die-there",)
    GAME.push(s, Reroll("p1", "syndicate", 2))
    req = GAME.prompt(s).of("p1")
    assert req.count == 1 and req.dice[0].owner == "pool"
    GAME.push(s, Roll("p1", (2,)))
    assert s.city["syndicate"][2] == "p2" and s.current == "p2"
    # A die on a faction board: the roll request names its owner.
    GAME.push(s, Deploy("p2", "gugu", 1))
    GAME.push(s, Reroll("p2", "p1", 0))
    assert GAME.prompt(s).of("p2").dice[0].owner == "p1"
    GAME.push(s, GAME.sample(s))
    assert s.boards["p1"][0][0] == "w" and s.current == "p1"


def test_waste_management_swaps_an_agent_with_a_die_elsewhere():
    s = started(*PLAIN)
    set_city(s, waste=["w1", "t4", "w5", U, U], agency=["@p2", "t2", "p2", U, U], gugu=["t6", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "waste", 0))
    e = rejected(s, Swap("p1", "agency", 0, "agency", 1))
    assert e.codes == ("bad-swap",) and "different neighbourhoods" in str(e) and "§5" in e.violations[0].rule
    assert codes(s, Swap("p1", "agency", 1, "gugu", 0)) == ("bad-swap",)      # two dice: not this action
    GAME.push(s, Swap("p1", "agency", 0, "gugu", 0))
    assert s.city["agency"][0] == "t6" and s.city["gugu"][0] == "@p2"


def test_twilight_congress_and_the_bank_and_the_syndicate():
    s = started(*PLAIN)
    set_city(s, congress=["w1", "t4", "w5", U, U], agency=["p3", "t2", "p2", U, U])
    GAME.push(s, Deploy("p1", "congress", 0))
    assert codes(s, Swap("p1", "agency", 0, "agency", 1)) == ("bad-swap",)
    GAME.push(s, Swap("p1", "agency", 0, "congress", 1))
    assert s.city["agency"][0] == "t4" and s.city["congress"][1] == "p3"
    set_city(s, bank=["w6", "t1", "w5", U, U])
    GAME.push(s, Deploy("p2", "bank", 0))
    assert codes(s, Swap("p2", "p1", 0, "p2", 0)) == ("bad-swap",)           # two board dice: not the Bank
    GAME.push(s, Swap("p2", "bank", 1, "p1", 0))
    assert s.boards["p1"][0] == "t1" and s.city["bank"][1] == "w1"
    set_city(s, syndicate=["p6", "t1", "w5", U, U])
    GAME.push(s, Deploy("p1", "syndicate", 0))
    assert codes(s, Swap("p1", "p1", 0, "p1", 1)) == ("bad-swap",)           # two different boards
    GAME.push(s, Swap("p1", "p1", 1, "p2", 0))
    assert s.boards["p1"][1] == "w6" and s.boards["p2"][0] == "p6"


def test_an_impossible_action_is_skipped():
    s = started(*PLAIN)
    set_city(s, syndicate=["p6", "t1", "w5", U, U])
    GAME.push(s, Deploy("p1", "syndicate", 0))     # only Ann has a die: no two boards to swap between
    assert s.current == "p2" and s.phase == "deploy"
    assert "not possible" in s.log[-1].text


def test_advanced_variant_replaces_the_bank_with_a_matching_swap():
    s = started(*PLAIN, options={"advanced": True})
    set_city(s, bank=["w6", "p6", "p5", U, U])
    set_board(s, "p2", ["t6", "@", "@", "@", "@", "@"])
    GAME.push(s, Deploy("p1", "bank", 0))         # Ann's board: a white 6
    e = rejected(s, Swap("p1", "bank", 2, "p2", 0))   # purple 5 and teal 6: neither colour nor number
    assert e.codes == ("bad-swap",) and "Advanced Variant" in e.violations[0].rule
    GAME.push(s, Swap("p1", "bank", 1, "p2", 0))  # purple 6 and teal 6: the number matches
    assert s.boards["p2"][0] == "p6" and s.city["bank"][1] == "t6"
    plain = started(*PLAIN)
    set_city(plain, bank=["w6", "p6", "p5", U, U])
    set_board(plain, "p2", ["t6", "@", "@", "@", "@", "@"])
    GAME.push(plain, Deploy("p1", "bank", 0))
    GAME.push(plain, Swap("p1", "bank", 2, "p2", 0))    # without the variant any two dice swap


def test_the_game_ends_when_every_board_holds_six_dice():
    s = started(*PLAIN)
    last_round(s)
    play_out_turns(s)
    assert s.phase in ("clone", "choose", "over")
    assert all("@" not in b for b in s.boards.values())
    assert "the game ends (§6)" in " ".join(e.text for e in s.log)


def test_decline_is_only_for_an_impossible_action():
    s = started(*PLAIN)
    set_city(s, congress=["w1", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "congress", 0))
    assert codes(s, Decline("p1")) == ("not-awaited", "not-now")  # the moment a Decline answers is not open


def test_live_public_score_is_loot_and_domination():
    s = started(*PLAIN)
    set_city(s, agency=["p3", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "agency", 0))
    assert GAME.view(s, PUBLIC)["public_score"] == {"p1": 3 + 5 + 4 + 5, "p2": 0}
    assert GAME.tracked(s)["score:p1"] == 17


def test_tie_on_stars_and_neighbourhoods_is_decided_by_dice_and_explained():
    from .helpers import set_hand
    s = started("ewo", "tuulu")
    last_round(s)
    s.boards["p2"][3] = "w4"                             # Bob: 22 in dice, Ann: 23
    set_hand(s, "p1", ["fake-news", "clones"])          # neither scores
    set_hand(s, "p2", ["pacifist", "marked-bills"])
    play_out_turns(s)
    out = GAME.outcome(s)
    assert out.scores["p1"].total == out.scores["p2"].total == 49
    assert out.winning_seats == ("p1",) and out.winner == "ewo"
    assert out.reason == "Ann wins the tie on 49 ★ and 5 neighbourhoods with the highest total dice value (23) (§6 End of the game)"
    assert out.scores["p2"].breakdown == {
        "Loot: 2 + 5 + 4 + 4 + 6 + 1": 22, "Domination: The Gugu Airforce (tied 2 ways, 7 shared, rounded up)": 4,
        "Domination: Waste Management": 9, "Domination: Twilight Congress (tied 2 ways, 10 shared, rounded up)": 5,
        "Domination: Observatory Bank (tied 2 ways, 11 shared, rounded up)": 6,
        "Domination: Nethal Syndicate (tied 2 ways, 6 shared, rounded up)": 3,
        "Mission: Pacifist": 0, "Mission: Marked bills": 0}


def test_the_swaps_listed_are_every_swap_the_rules_allow_and_make_an_action_possible():
    """The listing looks only among the places each action swaps (agents and dice on the
    city, dice on the boards); on seeded random cities and boards, Advanced or not, it
    finds every pair of places the swap rules allow (§5) and no other, and a swapping
    action is possible (§4: "if possible") exactly when it finds one."""
    rng = random.Random(11)
    cells = ["p1", "t3", "w6", "p4", "@", "-", "x", "@p1", "@p2", "@p3"]
    kinds = {"waste": "agent-die", "congress": "die-die", "bank": "city-board", "syndicate": "board-board"}
    for advanced in (False, True):
        s = started("ewo", "banxa", "hollows", options={"advanced": advanced})
        places = [(h, i) for h, c in s.city.items() for i in range(len(c))] + [(p, i) for p in s.order for i in range(6)]
        for _ in range(40):
            for place in [*s.city.values(), *s.boards.values()]:
                place[:] = [rng.choice(cells) if rng.random() < 0.6 else c for c in place]
            for hood, kind in kinds.items():
                allowed = {frozenset((p, q)) for x, p in enumerate(places) for q in places[x + 1:]
                           if GAME._swap_ok(s, kind, *p, *q) is None}
                listed = [frozenset(((a, ai), (b, bi))) for a, ai, b, bi in GAME._swaps(s, kind)]
                assert len(listed) == len(set(listed)) and set(listed) == allowed, (kind, s.city, s.boards)
                assert GAME._possible(s, hood) == bool(allowed), (hood, s.city, s.boards)
