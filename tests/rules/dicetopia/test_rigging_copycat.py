"""Bingmai's Rigging (§7, RULINGS.md D-11) and the Copycat mission (§8, D-25), each on its
own: a case where it applies, cases where it does not, and ties. Each game reaches its end
by play: the last round is two deploys in the Gugu Airforce, each die rerolled to the value
it showed, so the boards at the end are the ones written here."""
from __future__ import annotations

from typing import Any

from rules.core import Draw, Roll
from rules.dicetopia import GAME, Choose, CopyMission, Decline, Deploy, Reroll, Rig

from .helpers import U, codes, play_out_turns, rejected, set_board, set_city, set_hand, started

# No tie anywhere at the end: Ann dominates the Agency, the Gugu Airforce and the Nethal
# Syndicate; Bob Waste Management, Twilight Congress and Observatory Bank.
NO_TIE = dict(agency=["@p1", "@p1", "p3", U, U], waste=["@p2", "@p2", "w4", U, U], congress=["@p1", "@p2", "@p2", U, U],
              bank=["@p2", "t6", "p5", U, U], syndicate=["@p1", "t1", "w1", U, U])
# Twilight Congress (5 + 2 = 7) and the Nethal Syndicate (5 + 1 = 6) tied between Ann and Bob.
TIED = dict(agency=["@p1", "@p1", "p3", U, U], waste=["@p2", "@p2", "w4", U, U], congress=["@p1", "@p2", "t2", U, U],
            bank=["@p2", "t6", "p5", U, U], syndicate=["@p1", "@p2", "w1", U, U])
ANN = ["p6", "p6", "t3", "w2", "w5"]          # + the teal 2 from the Gugu Airforce
BOB = ["w2", "t5", "t4", "w3", "w6"]          # + the white 3 from the Gugu Airforce: no purple


def ended(factions: tuple[str, str], city: dict[str, list[str]], hands: dict[str, list[str]],
          boards: tuple[list[str], list[str]] = (ANN, BOB), options: dict[str, Any] | None = None):
    """Ann and Bob with one agent left each, Ann to play; both deploy in the Gugu Airforce
    (whose only agent is Ann's) and reroll the die they took to the same value."""
    s = started(*factions, options=options)
    set_city(s, gugu=["@p1", "t2", "w3", U, U], **city)
    for seat, cells in zip(("p1", "p2"), boards):
        set_board(s, seat, cells + ["@"])
    for seat, cards in hands.items():
        set_hand(s, seat, cards)
    for seat, space in (("p1", 1), ("p2", 2)):
        GAME.push(s, Deploy(seat, "gugu", space))
        die = s.boards[seat][5]
        GAME.push(s, Reroll(seat, seat, 5))
        GAME.push(s, Roll(seat, (int(die[1]),)))
    assert s.current == "" and all("@" not in b for b in s.boards.values())
    return s


def lines(s, seat: str) -> dict[str, int]:
    return GAME.outcome(s).scores[seat].breakdown


# ------------------------------------------------------------------ Bingmai's Rigging

def test_rigging_gives_the_whole_tied_domination_to_the_chosen_player():
    s = ended(("bingmai", "ewo"), TIED, {"p1": ["smuggler", "snitch"], "p2": ["pacifist", "snitch"]})
    assert s.phase == "rig" and GAME.prompt(s).of("p1").choices == ("rig", "decline")
    offered = sorted((a.hood, a.winner) for a in GAME.legal_actions(s).of_kind("rig"))
    assert offered == [("congress", "p1"), ("congress", "p2"), ("syndicate", "p1"), ("syndicate", "p2")]
    GAME.push(s, Rig("p1", "congress", "p2"))            # Bingmai may decide for another player
    assert s.flipped["p1"] and s.rigged == {"congress": "p2"}
    assert any("Ann uses Rigging: Bob wins the tied domination of Twilight Congress" in e.text for e in s.log)
    assert lines(s, "p2")["Domination: Twilight Congress (tie decided by Rigging)"] == 7     # 5 + 2, not shared
    assert not any("Twilight Congress" in k for k in lines(s, "p1"))
    # Once per game: the other tie is still shared, rounded up (5 + 1 = 6: 3 each).
    assert lines(s, "p1")["Domination: Nethal Syndicate (tied 2 ways, 6 shared, rounded up)"] == 3
    assert lines(s, "p2")["Domination: Nethal Syndicate (tied 2 ways, 6 shared, rounded up)"] == 3


def test_rigging_is_not_offered_without_a_tie():
    s = ended(("bingmai", "ewo"), NO_TIE, {"p1": ["smuggler", "snitch"], "p2": ["pacifist", "snitch"]})
    assert s.phase == "over" and not s.flipped["p1"] and s.rigged == {}
    assert "rig" not in s.done
    assert not any("Rigging" in k or "tied" in k for seat in ("p1", "p2") for k in lines(s, seat))


def test_rigging_declined_leaves_the_ties_shared_and_the_token_unused():
    s = ended(("bingmai", "ewo"), TIED, {"p1": ["smuggler", "snitch"], "p2": ["pacifist", "snitch"]})
    GAME.push(s, Decline("p1"))
    assert s.phase == "over" and not s.flipped["p1"] and s.rigged == {}
    for seat in ("p1", "p2"):                            # 7 shared two ways, rounded up: 4 each
        assert lines(s, seat)["Domination: Twilight Congress (tied 2 ways, 7 shared, rounded up)"] == 4


def test_rigging_is_refused_off_a_tie_to_an_untied_player_and_to_other_factions():
    s = ended(("bingmai", "ewo"), TIED, {"p1": ["smuggler", "snitch"], "p2": ["pacifist", "snitch"]})
    assert codes(s, Rig("p1", "agency", "p1")) == ("not-tied",)              # Ann dominates it alone
    assert codes(s, Rig("p1", "gugu", "p2")) == ("not-tied",)
    assert "not-your-ability" in codes(s, Rig("p2", "congress", "p2"))
    t = ended(("ewo", "bingmai"), TIED, {"p1": ["smuggler", "snitch"], "p2": ["pacifist", "snitch"]})
    assert t.phase == "rig" and GAME.prompt(t).seats() == ["p2"]          # Bingmai's seat, whoever plays it
    assert "not-your-ability" in codes(t, Rig("p1", "congress", "p1"))


def test_a_rigged_domination_counts_for_spies_and_tie_breaks_but_never_for_infiltration():
    s = ended(("bingmai", "ewo"), TIED, {"p1": ["infiltration", "snitch"], "p2": ["spies", "snitch"]})
    GAME.push(s, Rig("p1", "congress", "p1"))
    ann, bob = lines(s, "p1"), lines(s, "p2")
    assert ann["Domination: Twilight Congress (tie decided by Rigging)"] == 7
    # Infiltration: the Agency and the Gugu Airforce, dominated alone; a rigged tie is still a tie (D-27).
    assert ann["Mission: Infiltration"] == 8
    # Spies: Bob has agents in the Gugu Airforce and the lost Twilight Congress without
    # domination; the shared Nethal Syndicate is domination (D-24).
    assert bob["Mission: Spies"] == 8


def test_rigging_a_tie_among_other_players_three_seats():
    """Cat (Bingmai) decides the Ann-Bob tie of Observatory Bank; three-way ties elsewhere."""
    s = started("ewo", "shakra", "bingmai")
    set_city(s, agency=["@p1", "@p1", "p3", "@p3", U], gugu=["@p1", "@p2", "t2", "@p3", U],
             waste=["@p2", "@p2", "w4", "@p3", U], congress=["@p1", "@p2", "p5", "@p3", U],
             bank=["@p1", "@p2", "t6", "w2", U], syndicate=["@p3", "t1", "w1", "t5", U])
    set_board(s, "p1", ["p6", "p6", "t3", "w2", "w5", "@"])
    set_board(s, "p2", ["p2", "t5", "t4", "w3", "w6", "@"])
    set_board(s, "p3", ["w4", "p4", "t4", "w3", "p6", "@"])
    play_out_turns(s)
    assert s.phase == "rig" and GAME.prompt(s).seats() == ["p3"]
    assert codes(s, Rig("p3", "bank", "p3")) == ("not-tied-player",)        # Cat is not in that tie
    winners = {(a.hood, a.winner) for a in GAME.legal_actions(s).of_kind("rig")}
    assert ("bank", "p3") not in winners and {("gugu", "p3"), ("bank", "p2")} <= winners
    GAME.push(s, Rig("p3", "bank", "p2"))
    ann, bob, cat = lines(s, "p1"), lines(s, "p2"), lines(s, "p3")
    assert bob["Domination: Observatory Bank (tie decided by Rigging)"] == 13            # 5 + 6 + 2
    assert not any("Observatory Bank" in k for k in ann) and not any("Observatory Bank" in k for k in cat)
    for who in (ann, bob, cat):                          # 5 + 2 three ways, rounded up
        assert who["Domination: The Gugu Airforce (tied 3 ways, 7 shared, rounded up)"] == 3


# ------------------------------------------------------------------------- Copycat

def test_copycat_scores_another_players_mission_on_the_copiers_own_dice():
    s = ended(("ewo", "dangmer"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["money-laundry", "pacifist"]})
    if s.phase == "clone":
        GAME.push(s, Decline("p2"))
    assert s.phase == "copy" and GAME.prompt(s).of("p1").choices == ("copy",)
    assert sorted(a.card for a in GAME.legal_actions(s).of_kind("copy")) == ["money-laundry", "pacifist"]
    GAME.push(s, CopyMission("p1", "money-laundry"))
    assert s.copied == {"p1": "money-laundry"}
    assert lines(s, "p1")["Mission: Copycat as Money laundry"] == 3 * 2      # Ann's two white dice
    assert lines(s, "p2")["Mission: Money laundry"] == 3 * 4                 # Bob's own four


def test_copycat_scores_nothing_when_the_copied_card_is_not_met_by_the_copier():
    s = ended(("ewo", "dangmer"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["money-laundry", "pacifist"]})
    if s.phase == "clone":
        GAME.push(s, Decline("p2"))
    GAME.push(s, CopyMission("p1", "pacifist"))
    assert lines(s, "p1")["Mission: Copycat as Pacifist"] == 0               # Ann holds purple dice
    assert lines(s, "p2")["Mission: Pacifist"] == 9                          # Bob holds none


def test_copycat_may_not_copy_itself_its_holders_cards_or_a_card_nobody_scores():
    s = ended(("ewo", "centauri"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["money-laundry", "pacifist", "clones"]})
    assert s.phase == "choose"
    GAME.push(s, Choose("p2", "clones"))                  # Opportunist sets Clones aside
    assert s.phase == "copy"
    for card in ("copycat", "smuggler", "clones", "armory"):
        assert codes(s, CopyMission("p1", card)) == ("cannot-copy",), card
    assert "Ann, copy a mission another player scores" in str(rejected(s, CopyMission("p1", "clones")))
    assert sorted(a.card for a in GAME.legal_actions(s).of_kind("copy")) == ["money-laundry", "pacifist"]


def test_copycat_with_nothing_to_copy_scores_zero_without_asking():
    # A state edited by hand: Bob holds no mission at all, so nothing is scored that could be copied.
    s = ended(("ewo", "shakra"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": []})
    assert s.phase == "over" and s.copied == {"p1": ""}
    assert lines(s, "p1")["Mission: Copycat (nothing to score)"] == 0
    assert any("Ann's Copycat has no mission to copy" in e.text for e in s.log)


def test_copycat_copies_high_stakes_gambling_as_the_card_it_drew_not_doubled():
    s = ended(("ewo", "shakra"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["high-stakes-gambling", "pacifist"]})
    assert s.phase == "gamble"
    GAME.push(s, Draw("p2", "missions", "snitch"))
    assert s.phase == "copy"
    assert codes(s, CopyMission("p1", "high-stakes-gambling")) == ("cannot-copy",)
    GAME.push(s, CopyMission("p1", "snitch"))
    assert lines(s, "p1")["Mission: Copycat as Snitch"] == 3 * 2             # Ann's two teal dice, once
    assert lines(s, "p2")["Mission: High Stakes Gambling as Snitch ×2"] == 2 * 3 * 2


def test_high_stakes_gambling_that_draws_copycat_copies_doubled():
    s = ended(("ewo", "shakra"), NO_TIE, {"p1": ["high-stakes-gambling", "smuggler"], "p2": ["money-laundry", "pacifist"]})
    GAME.push(s, Draw("p1", "missions", "copycat"))
    assert s.phase == "copy" and GAME.prompt(s).seats() == ["p1"]
    GAME.push(s, CopyMission("p1", "money-laundry"))
    assert lines(s, "p1")["Mission: High Stakes Gambling as Money laundry ×2"] == 2 * 3 * 2


def test_copycat_of_a_relative_mission_compares_with_every_player_and_follows_the_tie_option():
    # Ann and Bob both hold two purple dice: a tie for "the most purple Dice" (Armory).
    bob = ["p2", "p1", "t4", "w3", "w6"]
    for ties, points in (("all", 12), ("none", 0)):
        s = ended(("ewo", "shakra"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["armory", "pacifist"]},
                  boards=(ANN, bob), options={"relative_ties": ties})
        GAME.push(s, CopyMission("p1", "armory"))
        assert lines(s, "p1")["Mission: Copycat as Armory"] == points, ties
        assert lines(s, "p2")["Mission: Armory"] == points, ties
    # Extra stash (the highest total): the copier beats the card's holder, who then scores nothing.
    s = ended(("ewo", "shakra"), NO_TIE, {"p1": ["copycat", "smuggler"], "p2": ["extra-stash", "pacifist"]})
    GAME.push(s, CopyMission("p1", "extra-stash"))
    assert sum(int(c[1]) for c in s.boards["p1"]) > sum(int(c[1]) for c in s.boards["p2"])
    assert lines(s, "p1")["Mission: Copycat as Extra stash"] == 10
    assert lines(s, "p2")["Mission: Extra stash"] == 0
