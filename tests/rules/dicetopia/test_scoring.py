"""End scoring, exactly (§6, §8): the book's example (24 + 22 + 22 = 68), domination with
shared ties rounded up, each of the 40 missions with a case that scores and one that does
not, Copycat and High Stakes Gambling, and the tie-breaks."""
from __future__ import annotations

import pytest

from rules.dicetopia import Domination, Played, mission_points, tables, tally
from rules.dicetopia.scoring import LETTERS, ranking

T = tables()
U = "-"


def book_city() -> dict[str, list[str]]:
    """The example's city at two players: red ('r') alone in the Agency and the Gugu
    Airforce (11 ★ each with a 6 left over), two purple dice left on the board."""
    return {
        "agency": ["@r", "@r", "p6", U, U],
        "gugu": ["@r", "@r", "t6", U, U],
        "waste": ["@r", "@b", "@b", U, U],
        "congress": ["@r", "@b", "@b", U, U],
        "bank": ["@b", "@b", "w1", U, U],
        "syndicate": ["p2", "t3", "w4", U, U],
    }


BOOK_BOARDS = {"r": ["p5", "p5", "t6", "t6", "w1", "t1"], "b": ["w3", "w3", "p1", "t2", "t4", "w5"]}


def test_the_books_scoring_example_24_22_22_is_68():
    played = {"r": [Played("vigilantes", "vigilantes"), Played("replica", "replica")], "b": []}
    lines, dom = tally(T, ["r", "b"], BOOK_BOARDS, book_city(), played, {}, "all")
    red = [(ln.what, ln.points) for ln in lines["r"]]
    assert red == [("loot", 24), ("domination", 11), ("domination", 11), ("mission", 8), ("mission", 14)]
    assert sum(p for _, p in red) == 68
    assert [ln.label for ln in lines["r"]] == [
        "Loot: 5 + 5 + 6 + 6 + 1 + 1", "Domination: The Agency", "Domination: The Gugu Airforce",
        "Mission: Vigilantes", "Mission: Replica"]
    assert dom.dominated("r") == 2 and dom.dominated("b") == 3


def test_domination_ties_share_rounded_up_with_leftover_dice():
    city = {h.id: [U] * 5 for h in T.hoods}
    city["agency"] = ["@a", "@b", "p4", "t2", U]     # 5 + 6 = 11, tied two ways: 6 each
    city["gugu"] = ["@a", "@b", "@c", "w1", "x"]     # 5 + 1 = 6, three ways: 2 each
    city["waste"] = ["@a", "@a", "@b", "w6", U]       # a alone: 11
    city["congress"] = ["p1", "p2", "p3", U, U]       # nobody: nothing
    dom = Domination.of(T, city, ["a", "b", "c"], {})
    assert (dom["agency"].points, dom["agency"].share, dom["agency"].winners) == (11, 6, ("a", "b"))
    assert (dom["gugu"].points, dom["gugu"].share) == (6, 2)
    assert (dom["waste"].share, dom["waste"].winners, dom["waste"].tied) == (11, ("a",), False)
    assert dom["congress"].winners == () and dom["congress"].share == 0
    rigged = Domination.of(T, city, ["a", "b", "c"], {"agency": "b"})
    assert (rigged["agency"].winners, rigged["agency"].share, rigged["agency"].tied) == (("b",), 11, True)


# Each mission: (boards for a and b, city) that score, the points, and a case that does not.
def ctx(a=None, b=None, city=None):
    return ({"a": a or ["p1", "t2", "w3", "p4", "t5", "w6"], "b": b or ["p2", "p2", "t3", "t3", "w4", "w4"]},
            city or book_city_ab())


def book_city_ab() -> dict[str, list[str]]:
    return {h: [c.replace("@r", "@a") for c in cells] for h, cells in book_city().items()}


A_ALL_SAME = ["p3", "t3", "w3", "p3", "t3", "w3"]
A_ODD = ["p1", "t3", "w5", "p5", "t3", "w1"]
A_EVEN = ["p2", "t4", "w6", "p6", "t4", "w2"]
A_LOW = ["p1", "p1", "p1", "p2", "t1", "t1"]
SPREAD_CITY = {"agency": ["@a", "@b", "p6", U, U], "gugu": ["@a", "@b", "@b", U, U], "waste": ["@a", "@b", "@b", U, U],
               "congress": ["@a", "@b", "w6", U, U], "bank": ["@a", "@b", "t1", U, U], "syndicate": ["@a", "t2", "p3", U, U]}
HILL_CITY = {"agency": ["@a", "@a", "@a", U, U], "gugu": ["@a", "@b", "@b", U, U], "waste": ["@a", "@a", "@b", U, U],
             "congress": ["@b", "@b", "w6", U, U], "bank": ["t1", "t1", "t1", U, U], "syndicate": ["@b", "t2", "p3", U, U]}

ALONE_CITY = {"agency": ["@a", "@a", "@a", U, U], "gugu": ["@a", "@a", "@a", U, U], "waste": ["@b", "@b", "@b", U, U],
              "congress": ["@b", "@b", "@b", U, U], "bank": ["p1", "p1", "p1", U, U], "syndicate": ["p1", "p1", "p1", U, U]}
TIED_CITY = {h.id: ["@a", "@b", "p1", U, U] for h in T.hoods}

CASES = {
    "cash-is-king": (ctx(a=["w1", "w2", "w3", "p1", "p1", "p1"]), 12, ctx(a=["w1", "p1", "p1", "p1", "t1", "t1"])),
    "insider": (ctx(a=["t1", "t2", "t3", "p1", "p1", "p1"]), 12, ctx(a=["t1", "p1", "p1", "p1", "w1", "w1"])),
    "armory": (ctx(a=["p1", "p2", "p3", "t1", "t1", "t1"]), 12, ctx(a=["p1", "t1", "t1", "t1", "w1", "w1"])),
    "pacifist": (ctx(a=["t1", "t2", "w3", "w4", "t5", "w6"]), 9, ctx()),
    "marked-bills": (ctx(a=["t1", "t2", "p3", "p4", "t5", "p6"]), 9, ctx()),
    "fake-news": (ctx(a=["p1", "w2", "p3", "w4", "p5", "w6"]), 9, ctx()),
    "smuggler": (ctx(), 6, ctx(a=["t1", "t2", "w3", "w4", "t5", "w6"])),
    "money-laundry": (ctx(), 6, ctx(a=["t1", "t2", "p3", "p4", "t5", "p6"])),
    "snitch": (ctx(), 6, ctx(a=["p1", "w2", "p3", "w4", "p5", "w6"])),
    "drop-off": (ctx(), 8, ctx(city={h: [c.replace("w", "t") for c in cells] for h, cells in book_city_ab().items()})),
    "vigilantes": (ctx(), 8, ctx(city={h: [c.replace("p", "t") for c in cells] for h, cells in book_city_ab().items()})),
    "undercover": (ctx(), 8, ctx(city={h: [c.replace("t", "w") for c in cells] for h, cells in book_city_ab().items()})),
    "less-is-more": (ctx(a=A_LOW), 40, ctx(a=A_EVEN)),
    "slow-and-steady": (ctx(a=A_EVEN), 14, ctx(a=A_ODD)),
    "middle-of-the-road": (ctx(a=A_ODD), 12, ctx(a=A_EVEN)),
    "four-leaf-clover": (ctx(a=A_EVEN), 10, ctx(a=A_ODD)),
    "big-league": (ctx(a=A_ODD), 8, ctx(a=A_EVEN)),
    "more-is-more": (ctx(a=A_EVEN), 8, ctx(a=A_ODD)),
    "no-loose-change": (ctx(a=A_EVEN), 9, ctx(a=A_ODD)),
    "contaminated-goods": (ctx(a=A_ODD), 8, ctx(a=A_EVEN)),
    "all-or-none": (ctx(a=A_EVEN), 8, ctx(a=A_ODD)),
    "low-profile": (ctx(a=A_ODD), 9, ctx(a=A_EVEN)),
    "risk-management": (ctx(a=A_EVEN), 11, ctx(a=A_ODD)),
    "staying-off-the-radar": (ctx(a=A_ODD), 12, ctx(a=A_EVEN)),
    "forgery": (ctx(a=["p1", "t1", "w1", "p1", "t2", "w2"]), 12, ctx()),   # four 1s: two pairs; two 2s: one
    "threes-a-charm": (ctx(a=["p3", "t3", "w3", "p1", "t2", "w4"]), 8, ctx()),
    "oddballs": (ctx(a=A_ODD), 10, ctx()),
    "even-stevens": (ctx(a=A_EVEN), 10, ctx()),
    "clones": (ctx(a=A_ALL_SAME), 18, ctx(a=A_ODD)),
    "the-big-heist": (ctx(), 25, ctx(a=A_ODD)),
    "extra-stash": (ctx(a=["p6", "t6", "w6", "p5", "t5", "w5"]), 10, ctx(a=A_LOW)),
    "discretion": (ctx(a=A_LOW), 14, ctx(a=A_EVEN)),
    "replica": (ctx(a=["p1", "p1", "t2", "t2", "t2", "w6"]), 14, ctx()),
    "finger-in-every-pie": (ctx(), 8, ctx(a=["p1", "w2", "p3", "w4", "p5", "w6"])),
    "spies": (ctx(city=SPREAD_CITY), 8, ctx(city=ALONE_CITY)),  # gugu, waste: agents but no domination
    "special-agents": (ctx(city=SPREAD_CITY), 10, ctx()),
    "infiltration": (ctx(), 8, ctx(city=TIED_CITY)),   # two sole dominations; then only shared ones
    "king-of-the-hill": (ctx(city=HILL_CITY), 10, ctx(city=SPREAD_CITY)),
}


def score(mission: str, c) -> int:
    boards, city = c
    dom = Domination.of(T, city, ["a", "b"], {})
    return mission_points(T, T.mission(mission), "a", boards, city, dom, "all")


@pytest.mark.parametrize("mission", sorted(CASES))
def test_each_mission_scores_and_does_not(mission):
    scoring, points, not_scoring = CASES[mission]
    assert score(mission, scoring) == points
    assert score(mission, not_scoring) == 0


def test_every_mission_is_covered():
    assert set(CASES) | {"copycat", "high-stakes-gambling"} == set(T.missions)


def test_relative_missions_on_a_tie_follow_the_option():
    boards = {"a": ["w1", "w2", "p1", "p1", "p1", "p1"], "b": ["w1", "w2", "t1", "t1", "t1", "t1"]}
    city = book_city_ab()
    dom = Domination.of(T, city, ["a", "b"], {})
    cash = T.mission("cash-is-king")
    assert mission_points(T, cash, "a", boards, city, dom, "all") == 12
    assert mission_points(T, cash, "a", boards, city, dom, "none") == 0
    # Nobody with a white die has "the most" white dice (D-21).
    assert mission_points(T, T.mission("insider"), "a", {"a": ["p1"] * 6, "b": ["p2"] * 6}, city, dom, "all") == 0
    low = T.mission("discretion")
    assert mission_points(T, low, "a", {"a": ["p1"] * 6, "b": ["t1"] * 6}, city, dom, "all") == 14
    assert mission_points(T, low, "a", {"a": ["p1"] * 6, "b": ["t1"] * 6}, city, dom, "none") == 0


def test_copycat_and_high_stakes_score_through_their_card():
    boards = {"a": ["p1", "p1", "t2", "t2", "t2", "w6"], "b": ["p2", "p2", "t3", "t3", "w4", "w4"]}
    played = {"a": [Played("copycat", "replica"), Played("high-stakes-gambling", "smuggler", 2)],
              "b": [Played("replica", "replica")]}
    lines, _ = tally(T, ["a", "b"], boards, book_city_ab(), played, {}, "all")
    missions = [(ln.label, ln.points) for ln in lines["a"] if ln.what == "mission"]
    assert missions == [("Mission: Copycat as Replica", 14), ("Mission: High Stakes Gambling as Smuggler ×2", 12)]
    nothing, _ = tally(T, ["a", "b"], boards, book_city_ab(), {"a": [Played("copycat", "")]}, {}, "all")
    assert [(ln.label, ln.points) for ln in nothing["a"] if ln.what == "mission"] == [("Mission: Copycat (nothing to score)", 0)]


def test_tie_breaks_most_neighbourhoods_then_highest_dice():
    from rules.dicetopia import Line
    even = {"a": [Line("loot", "Loot", 50)], "b": [Line("loot", "Loot", 50)]}
    boards = {"a": ["p1"] * 6, "b": ["p6"] * 6}
    # Equal stars: a dominates two neighbourhoods (a shared one counts), b one.
    city = {h.id: [U] * 5 for h in T.hoods}
    city["agency"], city["gugu"], city["waste"] = ["@a", "@a", U, U, U], ["@a", "@b", U, U, U], ["@b", "@b", U, U, U]
    dom = Domination.of(T, city, ["a", "b"], {})
    assert (dom.dominated("a"), dom.dominated("b")) == (2, 2)
    city["waste"] = ["@b", U, U, U, U]
    city["congress"] = ["@a", U, U, U, U]
    dom = Domination.of(T, city, ["a", "b"], {})
    assert ranking(["a", "b"], even, dom, boards) == [("a", (50, 3, 6)), ("b", (50, 2, 36))]
    # Equal stars and neighbourhoods: the highest total dice value wins.
    city["congress"] = [U] * 5
    dom = Domination.of(T, city, ["a", "b"], {})
    assert dom.dominated("a") == dom.dominated("b") == 2
    assert [s for s, _ in ranking(["a", "b"], even, dom, boards)] == ["b", "a"]
    # More stars beat everything.
    assert ranking(["a", "b"], {"a": [Line("loot", "Loot", 51)], "b": even["b"]}, dom, boards)[0][0] == "a"


def test_the_dice_letters_are_the_colours_letters() -> None:
    # scoring.LETTERS counts the missions' colours: it must name the data's colours, in order.
    assert "".join(c.letter for c in tables().colours) == LETTERS
