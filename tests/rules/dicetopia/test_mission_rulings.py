"""The mission readings RULINGS.md settles (D-20, D-22…D-24, D-26…D-29), each held by a case
that follows the ruling and one that a different reading would score otherwise."""
from __future__ import annotations

from rules.dicetopia import GAME, Domination, Played, mission_points, tables, tally
from rules.dicetopia.actions import Decline

from .helpers import U, last_round, play_out_turns, set_hand, started

T = tables()
PLAIN = {"a": ["p1", "t2", "w3", "p4", "t5", "w6"], "b": ["p2", "p2", "t3", "t3", "w4", "w4"]}


def _points(mission: str, boards, city, rigged=None) -> int:
    dom = Domination.of(T, city, ["a", "b"], rigged or {})
    return mission_points(T, T.mission(mission), "a", boards, city, dom, "all")


def _city(**hoods: list[str]) -> dict[str, list[str]]:
    city = {h.id: ["p1", "p1", "p1", U, U] for h in T.hoods}
    city.update(hoods)
    return city


def test_d20_your_dice_are_the_board_dice_not_the_dice_where_you_dominate():
    # Ann dominates a neighbourhood full of white dice, but holds fewer white dice than Bob.
    city = _city(agency=["@a", "w6", "w6", "w6", U])
    boards = {"a": ["w1", "p1", "p1", "p1", "p1", "p1"], "b": ["w1", "w2", "t1", "t1", "t1", "t1"]}
    assert Domination.of(T, city, ["a", "b"], {}).dominated("a") == 1
    assert _points("cash-is-king", boards, city) == 0
    boards["a"][1] = "w2"
    assert _points("cash-is-king", boards, city) == 12


def test_d22_four_of_a_value_are_two_pairs_for_forgery_and_replica():
    city = _city()
    assert _points("forgery", {"a": ["p5", "t5", "w5", "p5", "t1", "w2"], "b": PLAIN["b"]}, city) == 8
    assert _points("forgery", {"a": ["p5", "t5", "w5", "p4", "t1", "w2"], "b": PLAIN["b"]}, city) == 4   # three: one pair
    assert _points("replica", {"a": ["p5", "p5", "p5", "p5", "t1", "w2"], "b": PLAIN["b"]}, city) == 14
    assert _points("replica", {"a": ["p5", "t5", "w5", "p4", "t1", "w2"], "b": PLAIN["b"]}, city) == 0   # same value, not colour


def test_d23_threes_a_charm_scores_once_for_two_triples():
    city = _city()
    assert _points("threes-a-charm", {"a": ["p3", "t3", "w3", "p6", "t6", "w6"], "b": PLAIN["b"]}, city) == 8
    assert _points("threes-a-charm", {"a": ["p3", "t3", "w3", "p3", "t6", "w6"], "b": PLAIN["b"]}, city) == 8


def test_d24_spies_a_shared_domination_is_domination_a_lost_rigging_is_not():
    city = _city(agency=["@a", "@b", "p1", U, U], gugu=["@a", "@b", "@b", U, U])
    # Agency: shared (not eligible); Gugu: Bob dominates (eligible).
    assert _points("spies", PLAIN, city) == 4
    # Bingmai's Rigging gives the shared Agency to Bob: Ann now has an agent there and no domination.
    assert _points("spies", PLAIN, city, rigged={"agency": "b"}) == 8
    assert _points("spies", PLAIN, city, rigged={"agency": "a"}) == 4


def test_d26_high_stakes_gambling_with_an_empty_deck_scores_nothing():
    s = started("banxa", "hollows")
    last_round(s)
    set_hand(s, "p1", ["high-stakes-gambling", "spies"])
    set_hand(s, "p2", ["replica", "armory"])
    s.deck.cards.clear()
    s.changed()
    play_out_turns(s)
    while s.phase == "react":
        GAME.push(s, Decline(GAME.prompt(s).seats()[0]))
    out = GAME.outcome(s)
    assert out is not None and s.phase == "over"             # no draw asked of an empty deck
    ann = out.scores["p1"].breakdown
    assert [(k, v) for k, v in ann.items() if "High Stakes" in k] == [("Mission: High Stakes Gambling (nothing to score)", 0)]
    assert any("finds the deck empty" in e.text for e in s.log)


def test_d27_infiltration_counts_sole_dominations_only():
    city = _city(agency=["@a", "p1", "p1", U, U], gugu=["@a", "@b", "p1", U, U])
    assert _points("infiltration", PLAIN, city) == 4
    assert _points("infiltration", PLAIN, city, rigged={"gugu": "a"}) == 4     # rigged: still a tie


def test_d28_special_agents_need_all_six_and_the_hill_counts_each_neighbourhood():
    hills = _city(agency=["@a", "@a", "@a", U, U], gugu=["@a", "@a", "@a", "@b", U])
    assert _points("king-of-the-hill", PLAIN, hills) == 20
    assert _points("king-of-the-hill", PLAIN, _city(agency=["@a", "@a", "p1", U, U])) == 0
    five = {h.id: ["@a", "p1", "p1", U, U] for h in T.hoods}
    assert _points("special-agents", PLAIN, five) == 10
    five["syndicate"] = ["@b", "p1", "p1", U, U]
    assert _points("special-agents", PLAIN, five) == 0


def test_d29_an_exterminated_die_is_not_left_on_the_city_board():
    city = _city(agency=["w3", "x", "p1", U, U], gugu=["t1", "t1", "t1", U, U])
    city = {h: [("t1" if c == "p1" else c) for c in cells] for h, cells in city.items()}
    assert _points("drop-off", PLAIN, city) == 4                 # one white die left; the dead space holds none
    city["agency"][0] = "x"
    assert _points("drop-off", PLAIN, city) == 0


def test_d30_the_tally_lists_loot_then_each_domination_then_each_mission():
    city = _city(agency=["@a", "p6", U, U, U], gugu=["@a", "@b", "t1", U, U])
    played = {"a": [Played("oddballs", "oddballs")], "b": []}
    lines, _ = tally(T, ["a", "b"], PLAIN, city, played, {}, "all")
    assert [ln.what for ln in lines["a"]] == ["loot", "domination", "domination", "mission"]
    assert [(ln.label, ln.points) for ln in lines["a"]][1:] == [
        ("Domination: The Agency", 11), ("Domination: The Gugu Airforce (tied 2 ways, 6 shared, rounded up)", 3),
        ("Mission: Oddballs", 0)]
