"""The ten faction abilities (§7), each at its moment, once per game where the book says
so (the token flipped), out-of-turn ones on the kernel's reaction stack."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, Roll
from rules.dicetopia import (
    GAME, Adapt, Block, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize, Intervene, Reroll, Rig,
    SaveTurn, Swap, Transcend,
)

from .helpers import U, codes, last_round, play_out_turns, rejected, set_board, set_city, set_hand, started


def test_banxa_blocks_a_swap_from_an_action_once():
    s = started("centauri", "banxa")
    set_city(s, congress=["w1", "t4", "w5", U, U], agency=["p3", "t2", "p2", U, U])
    GAME.push(s, Deploy("p1", "congress", 0))
    GAME.push(s, Swap("p1", "agency", 0, "congress", 1))
    assert s.phase == "react" and GAME.prompt(s).of("p2").choices == ("block", "decline")
    assert s.city["agency"][0] == "p3"                       # announced, not yet done
    GAME.push(s, Block("p2"))
    assert s.city["agency"][0] == "p3" and s.flipped["p2"] and s.current == "p2"
    assert "Bob uses Block" in s.log[-1].text
    # Once per game: the next swap is not offered to Banxa.
    GAME.push(s, Deploy("p2", "agency", 1))
    GAME.push(s, next(a for a in GAME.legal_actions(s) if a.kind in ("draw",)))
    GAME.push(s, next(a for a in GAME.legal_actions(s)))
    set_city(s, congress=["@p1", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "congress", 1))
    GAME.push(s, Swap("p1", "agency", 0, "congress", 2))
    assert s.phase == "deploy" and s.city["agency"][0] == "w5"
    assert s.current == "p2" and codes(s, Block("p2")) == ("not-awaited", "ability-used")


def test_banxa_declines_and_the_reroll_happens_but_abilities_are_not_blocked():
    s = started("centauri", "banxa")
    set_city(s, gugu=["w1", "t4", "w5", U, U])
    GAME.push(s, Deploy("p1", "gugu", 0))
    GAME.push(s, Reroll("p1", "gugu", 1))
    GAME.push(s, Decline("p2"))
    GAME.push(s, Roll("p1", (6,)))
    assert s.city["gugu"][1] == "t6" and not s.flipped["p2"]
    t = started("tuulu", "banxa")
    GAME.push(t, Intervene("p1", "agency", 0, "gugu", 0))
    assert t.phase == "intervene"                              # no Block window: it is an ability


def test_hollows_adapt_after_another_players_action_swaps_their_die():
    s = started("centauri", "hollows")
    set_city(s, bank=["w1", "t4", "w5", U, U])
    set_board(s, "p2", ["p3", "t2", "@", "@", "@", "@"])
    GAME.push(s, Deploy("p1", "bank", 0))
    GAME.push(s, Swap("p1", "bank", 1, "p2", 0))
    assert s.phase == "react" and GAME.prompt(s).of("p2").choices == ("adapt", "decline")
    assert codes(s, Adapt("p2", 1, 2)) == ("bad-adaptation",)
    assert codes(s, Adapt("p2", 4, 1)) == ("no-die-there",)
    GAME.push(s, Adapt("p2", 1, -1))
    assert s.boards["p2"][:2] == ["t4", "t1"] and s.current == "p2" and not s.flipped["p2"]
    # Not once per game: again after the next swap; never after a reroll.
    GAME.push(s, Deploy("p2", "gugu", 0))
    GAME.push(s, next(a for a in GAME.legal_actions(s) if a.kind == "reroll"))
    GAME.push(s, Roll("p2", (3,)))
    set_city(s, congress=["w1", "t4", "@p2", U, U], waste=["p1", "p2", "p3", U, U])
    GAME.push(s, Deploy("p1", "waste", 0))
    GAME.push(s, Swap("p1", "congress", 2, "agency", 0))
    assert s.phase == "react" and GAME.prompt(s).of("p2").choices == ("adapt", "decline")
    GAME.push(s, Decline("p2"))
    assert s.current == "p2"


def test_roamers_save_a_turn_for_after_the_very_last_one():
    s = started("roamers", "centauri")
    last_round(s)
    GAME.push(s, SaveTurn("p1"))
    assert s.flipped["p1"] and s.current == "p2" and s.saved == "p1"
    GAME.push(s, Deploy("p2", "syndicate", 0))
    GAME.push(s, Swap("p2", "p1", 0, "p2", 0))
    assert s.current == "p1" and s.phase == "deploy"            # the saved turn, after the last one
    assert "save_turn" not in GAME.prompt(s).of("p1").accepted
    GAME.push(s, Deploy("p1", "syndicate", 1))
    GAME.push(s, Swap("p1", "p1", 0, "p2", 0))
    assert s.phase not in ("deploy",)


def test_shakra_exterminates_a_die_and_kills_its_space():
    s = started("shakra", "centauri")
    set_city(s, waste=["w1", "t4", "w5", U, U])
    GAME.push(s, Exterminate("p1", "waste", 1))
    assert s.city["waste"][1] == "x" and s.removed == ["t4"] and s.phase == "deploy" and s.flipped["p1"]
    assert codes(s, Deploy("p1", "waste", 1)) == ("no-die-there",)
    GAME.push(s, Deploy("p1", "waste", 0))
    GAME.push(s, next(a for a in GAME.legal_actions(s)))
    GAME.push(s, next(a for a in GAME.legal_actions(s) if a.seat == "p2"))
    while s.current != "p1":
        GAME.push(s, next(a for a in GAME.legal_actions(s)))
    assert codes(s, Exterminate("p1", "agency", 0)) == ("not-awaited", "ability-used")


def test_perceptioneers_choose_the_neighbourhood_of_another_players_turn():
    s = started("centauri", "perceptioneers")
    p = GAME.prompt(s)
    assert sorted(p.waits) == ["p1", "p2"] and p.of("p2").choices == ("hypnotize",)
    GAME.push(s, Hypnotize("p2", "gugu"))
    e = rejected(s, Deploy("p1", "agency", 0))
    assert e.codes == ("hypnotized",) and "Bob's Hypnosis sends Ann's agent to The Gugu Airforce" in str(e)
    assert list(GAME.prompt(s).waits) == ["p1"]
    GAME.push(s, Deploy("p1", "gugu", 0))
    assert s.phase == "act" and s.current == "p1"            # Ann performs the action, not Bob
    assert codes(s, Hypnotize("p2", "agency")) == ("not-your-turn", "not-awaited", "ability-used")


def test_tuulu_rerolls_one_die_twice_or_two_dice_once():
    s = started("tuulu", "centauri")
    set_city(s, agency=["w1", "t4", "w5", U, U])
    GAME.push(s, Intervene("p1", "agency", 1, "agency", 1))
    GAME.push(s, Roll("p1", (2,)))
    assert s.city["agency"][1] == "t2" and s.phase == "intervene"
    GAME.push(s, Roll("p1", (6,)))
    assert s.city["agency"][1] == "t6" and s.phase == "deploy" and s.turn_moves == 1
    assert "intervene" not in GAME.prompt(s).of("p1").accepted


def test_ewo_transcends_to_another_neighbourhoods_action_once():
    s = started("ewo", "centauri")
    set_city(s, agency=["w1", "t4", "w5", U, U], congress=["p1", "p2", "p3", U, U])
    GAME.push(s, Deploy("p1", "agency", 0))
    assert GAME.prompt(s).of("p1").also == ("transcend",)
    assert codes(s, Transcend("p1", "syndicate")) == ("not-possible",)
    GAME.push(s, Transcend("p1", "congress"))
    assert s.act_hood == "congress" and s.phase == "act"
    GAME.push(s, Swap("p1", "agency", 1, "congress", 0))
    assert s.city["agency"][1] == "p1" and s.flipped["p1"]


def test_end_scoring_cloning_rigging_opportunist_in_order():
    s = started("dangmer", "bingmai", "centauri")
    # Three players: put the third one's game into the last round by hand.
    from .helpers import set_city as sc
    sc(s, agency=["@p1", "@p1", "p3", "@p3", U], gugu=["@p1", "@p2", "t2", "@p3", U], waste=["@p2", "@p2", "w4", "@p3", U],
       congress=["@p1", "@p2", "p5", "@p3", U], bank=["@p1", "@p2", "t6", "@p3", U], syndicate=["p1", "t1", "w1", "t5", U])
    set_board(s, "p1", ["p6", "p6", "t3", "w2", "w5", "@"])
    set_board(s, "p2", ["p2", "t5", "t4", "w3", "w6", "@"])
    set_board(s, "p3", ["w4", "p4", "t4", "w3", "p6", "@"])
    set_hand(s, "p1", ["replica", "pacifist"])
    set_hand(s, "p2", ["the-big-heist", "spies"])
    set_hand(s, "p3", ["clones", "armory", "smuggler"])
    play_out_turns(s)
    assert s.phase == "clone" and GAME.prompt(s).of("p1").choices == ("clone", "decline")
    right = s.order[-1]
    assert right == "p3"                                        # the opponent to Ann's right
    assert codes(s, Clone("p1", 0, 1, "size")) == ("bad-clone",)
    mine, theirs = s.boards["p1"][2], s.boards["p3"][1]
    assert (mine, theirs) == ("t3", "p4")
    GAME.push(s, Clone("p1", 2, 1, "colour"))                   # Ann's teal 3 takes the colour of Cat's purple 4
    assert s.boards["p1"][2] == "p3" and s.cloned == ["p1", "colour", "t3", "p3"] and s.flipped["p1"]
    assert s.phase == "rig"
    tied = [h for h, cells in s.city.items() if cells.count("@p1") == cells.count("@p2") == cells.count("@p3") == 1]
    assert "not-tied" in codes(s, Rig("p2", "agency", "p1"))
    GAME.push(s, Rig("p2", tied[0], "p2"))
    assert s.phase == "choose" and s.revealed
    assert GAME.view(s, PUBLIC)["missions"]["p1"]["cards"] == ["replica", "pacifist"]
    GAME.push(s, Choose("p3", "clones"))
    out = GAME.outcome(s)
    assert out is not None
    for seat, score in out.scores.items():
        assert score.total == sum(score.breakdown.values())
        assert list(score.breakdown)[0].startswith("Loot")
    bob = out.scores["p2"].breakdown
    assert any("tie decided by Rigging" in k for k in bob)
    assert "Mission: Clones" not in out.scores["p3"].breakdown and "Mission: Armory" in out.scores["p3"].breakdown
    assert "§6 End of the game" in out.reason


def test_high_stakes_gambling_and_copycat_at_the_end():
    s = started("ewo", "hollows")
    last_round(s)
    set_hand(s, "p1", ["high-stakes-gambling", "copycat"])
    set_hand(s, "p2", ["replica", "pacifist"])
    play_out_turns(s)
    assert s.phase == "gamble" and GAME.prompt(s).of("p1").deck == "missions"
    GAME.push(s, Draw("p1", "missions", "smuggler"))
    assert s.phase == "copy"
    assert codes(s, CopyMission("p1", "copycat")) == ("cannot-copy",)
    assert codes(s, CopyMission("p1", "smuggler")) == ("cannot-copy",)      # your own mission
    GAME.push(s, CopyMission("p1", "pacifist"))
    out = GAME.outcome(s)
    ann = out.scores["p1"].breakdown
    purple = sum(1 for c in s.boards["p1"] if c[0] == "p")
    assert ann["Mission: High Stakes Gambling as Smuggler ×2"] == 2 * 3 * purple
    assert ann["Mission: Copycat as Pacifist"] == (9 if purple == 0 else 0)


def test_an_ability_never_cancels_another():
    s = started("roamers", "perceptioneers")
    assert "save_turn" in GAME.prompt(s).of("p1").accepted
    GAME.push(s, Hypnotize("p2", "waste"))
    GAME.push(s, Decline("p1"))                         # Ann, first in Player Order, lets the Hypnosis stand
    assert s.hypnosis == "waste" and "Ann lets Bob's Hypnosis go first" in s.log[-2].text
    e = rejected(s, SaveTurn("p1"))
    assert "ability-cancels-ability" in e.codes and "Ann cannot skip" in str(e) and "§7" in str(e)
    assert "D-32" not in str(e)                         # players read rules, not ruling codes
    t = started("perceptioneers", "shakra")
    to_bobs_turn(t)
    set_city(t, waste=["w1", "@p1", "@p1", U, U])
    GAME.push(t, Hypnotize("p1", "waste"))              # Ann is first in Player Order: no question asked
    assert t.phase == "deploy" and t.hypnosis == "waste"
    assert codes(t, Exterminate("p2", "waste", 0)) == ("last-hypnosis-die",)


def to_bobs_turn(s) -> None:
    """Ann (p1) swaps in a neighbourhood whose action is then not possible or done: Bob's turn."""
    GAME.push(s, next(a for a in GAME.legal_actions(s) if isinstance(a, Deploy)))
    while s.current == "p1":
        GAME.push(s, next(iter(GAME.legal_actions(s))))
    assert s.phase == "deploy" and s.current == "p2"


def test_player_order_the_perceptioneers_first_answer_before_a_later_players_ability():
    """§7 "Should any timing conflict occur, always resolve in Player Order" (D-32): Ann
    (the Perceptioneers) plays before Bob, so Bob's Exterminate waits for her answer."""
    s = started("perceptioneers", "shakra")
    to_bobs_turn(s)
    set_city(s, waste=["w1", "@p1", "@p1", U, U], gugu=["t3", "p4", "@p1", U, U])
    GAME.push(s, Exterminate("p2", "waste", 0))
    p = GAME.prompt(s)
    assert s.phase == "first" and p.seats() == ["p1"] and p.of("p1").accepted == ("hypnotize", "decline")
    assert s.city["waste"][0] == "w1" and not s.flipped["p2"]          # announced, not yet done
    assert "Bob announces Exterminate. Ann comes first in Player Order" in s.log[-1].text
    assert codes(s, Deploy("p2", "gugu", 0)) == ("not-your-turn", "not-awaited")
    # Ann's Hypnosis goes first; the Exterminate would take that neighbourhood's last die: it lapses.
    GAME.push(s, Hypnotize("p1", "waste"))
    assert s.phase == "deploy" and s.hypnosis == "waste" and s.flipped["p1"]
    assert s.city["waste"][0] == "w1" and not s.flipped["p2"] and s.held is None
    assert "Bob's Exterminate lapses" in s.log[-1].text and "Bob may use it later" in s.log[-1].text
    assert "exterminate" in GAME.prompt(s).of("p2").accepted            # its token is still up
    GAME.push(s, Exterminate("p2", "gugu", 0))
    assert s.city["gugu"][0] == "x" and s.flipped["p2"]


def test_player_order_the_first_player_lets_the_ability_go_first():
    s = started("perceptioneers", "tuulu")
    to_bobs_turn(s)
    set_city(s, gugu=["t3", "p4", "@p1", U, U])
    GAME.push(s, Intervene("p2", "gugu", 0, "gugu", 1))
    assert s.phase == "first"
    GAME.push(s, Decline("p1"))
    assert s.phase == "intervene" and s.flipped["p2"] and not s.flipped["p1"]
    GAME.push(s, Roll("p2", (6,)))
    GAME.push(s, Roll("p2", (1,)))
    assert s.city["gugu"][:2] == ["t6", "p1"] and s.phase == "deploy"
    assert "hypnotize" in GAME.prompt(s).of("p1").accepted              # Ann may still choose, before Bob swaps


def test_player_order_hypnosis_waits_for_the_current_player_first_in_order():
    # Ann (the Roamers) plays first: Bob's Hypnosis on her turn waits for her answer.
    s = started("roamers", "perceptioneers")
    GAME.push(s, Hypnotize("p2", "waste"))
    p = GAME.prompt(s)
    assert s.phase == "first" and p.of("p1").accepted == ("save_turn", "decline") and not s.hypnosis
    GAME.push(s, SaveTurn("p1"))
    # Last Resort goes first: the turn Hypnosis was for is gone, and Bob's token stays up.
    assert s.saved == "p1" and s.current == "p2" and not s.flipped["p2"] and s.held is None
    assert "Bob's Hypnosis lapses: the turn it was for is over" in s.log[-1].text
    # Shakra first in order takes the last die of the neighbourhood Hypnosis named: it lapses too.
    t = started("shakra", "perceptioneers")
    set_city(t, waste=["w1", "@p2", "@p2", U, U])
    GAME.push(t, Hypnotize("p2", "waste"))
    assert GAME.prompt(t).of("p1").accepted == ("exterminate", "decline")
    GAME.push(t, Exterminate("p1", "waste", 0))
    assert t.city["waste"][0] == "x" and not t.hypnosis and not t.flipped["p2"] and t.phase == "deploy"
    assert "Bob's Hypnosis lapses: Waste Management has no die left" in t.log[-1].text


def test_player_order_window_survives_a_save_and_reload():
    s = started("perceptioneers", "shakra")
    to_bobs_turn(s)
    GAME.push(s, next(a for a in GAME.legal_actions(s) if isinstance(a, Exterminate)))
    assert s.phase == "first"
    back = GAME.state_from_data(GAME.state_to_data(s))
    assert back.held == s.held and GAME.prompt(back) == GAME.prompt(s)


def test_an_ability_belongs_to_its_faction():
    s = started("centauri", "dangmer")
    e = rejected(s, SaveTurn("p1"))
    assert "not-your-ability" in e.codes and "Ann does not play Roamers" in str(e) and "Last Resort" in str(e)
    assert "not-your-ability" in codes(s, Hypnotize("p2", "gugu"))


def test_ewo_may_transcend_when_the_own_action_is_impossible():
    s = started("ewo", "centauri")
    set_city(s, syndicate=["p6", "t1", "w5", U, U])
    GAME.push(s, Deploy("p1", "syndicate", 0))          # no second board holds a die
    p = GAME.prompt(s).of("p1")
    assert p.choices == ("transcend",) and p.also == ("decline",)
    GAME.push(s, Decline("p1"))
    assert s.current == "p2" and not s.flipped["p1"]


def test_high_stakes_gambling_scores_nothing_when_the_new_card_is_not_met():
    s = started("banxa", "hollows")
    last_round(s)
    set_hand(s, "p1", ["high-stakes-gambling", "spies"])
    set_hand(s, "p2", ["replica", "armory"])
    play_out_turns(s)
    while s.phase == "react":
        GAME.push(s, Decline(GAME.prompt(s).seats()[0]))
    assert s.phase == "gamble"
    purple = [c for c in s.boards["p1"] if c[0] == "p"]
    assert purple                                        # Ann holds purple dice: Pacifist fails
    GAME.push(s, Draw("p1", "missions", "pacifist"))
    out = GAME.outcome(s)
    assert out.scores["p1"].breakdown["Mission: High Stakes Gambling as Pacifist ×2"] == 0


def test_banxa_may_block_the_action_ewo_performs_by_transcendence():
    """D-10: the action Transcendence performs is still an action (the ability only chose it)."""
    s = started("ewo", "banxa")
    set_city(s, agency=["w1", "t4", "w5", U, U], congress=["p1", "p2", "p3", U, U])
    GAME.push(s, Deploy("p1", "agency", 0))
    GAME.push(s, Transcend("p1", "congress"))
    GAME.push(s, Swap("p1", "agency", 1, "congress", 0))
    assert s.phase == "react" and GAME.prompt(s).of("p2").choices == ("block", "decline")
    GAME.push(s, Block("p2"))
    assert s.city["agency"][1] == "t4" and s.city["congress"][0] == "p1"
    assert s.flipped["p1"] and s.flipped["p2"] and s.current == "p2"
