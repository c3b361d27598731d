"""Setup per the book (§3): first player, factions chosen or dealt, agents, the city rolled
as one chance input of pool dice (the table's roll entered, or the app's), missions dealt
three, kept two in secret, the Centauri Bureau keeping all three."""
from __future__ import annotations

import pytest

from rules.core import POOL, PUBLIC, Draw, DrawRequest, InvalidSetup, Roll
from rules.dicetopia import GAME, Keep, tables

from .helpers import codes, seats, started

T = tables()


def test_first_player_option_and_clockwise_order():
    s = GAME.new(seats("banxa", "ewo", "roamers"), {"first": "p2"}, 1)
    assert s.order == ["p2", "p3", "p1"]
    drawn = {tuple(GAME.new(seats("banxa", "ewo", "roamers"), {}, seed).order) for seed in range(30)}
    assert len(drawn) == 3   # the app draws a first player when the table did not
    with pytest.raises(InvalidSetup, match="first player must be one of the seats"):
        GAME.new(seats("banxa", "ewo"), {"first": "p9"}, 1)
    with pytest.raises(InvalidSetup, match="Ewo Following is chosen twice"):
        GAME.new(seats("ewo", "ewo"), {}, 1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_city_roll_is_one_chance_input_of_pool_dice(n):
    s = GAME.new(seats(*list(T.factions)[:n]), {"first": "p1"}, 5)
    req = GAME.prompt(s).of("p1")
    assert req.count == 6 * (n + 1) and all(d.owner == POOL and d.sides == 6 for d in req.dice)
    assert all(b == ["@"] * 6 for b in s.boards.values())          # six agents on each faction board
    per = T.dice_per_colour(n)
    colours = ("purple",) * per + ("teal",) * per + ("white",) * per
    values = tuple((i % 6) + 1 for i in range(3 * per))
    assert "colours-missing" in codes(s, Roll("p1", values))
    wrong = ("purple",) * (per + 1) + ("teal",) * (per - 1) + ("white",) * per
    e = codes(s, Roll("p1", values, wrong))
    assert e == ("wrong-colour-count", "wrong-colour-count")
    GAME.push(s, Roll("p1", values, colours))                     # the table's own roll, entered
    k = 0
    for h in T.hoods:
        for i, low in enumerate(h.spaces):
            if low <= n:
                assert s.city[h.id][i] == T.letter(colours[k]) + str(values[k])
                k += 1
            else:
                assert s.city[h.id][i] == "-"                     # not used at this player count
    assert list(GAME.problems(s)) == []


def test_the_app_rolls_the_city_too():
    s = GAME.new(seats("banxa", "ewo", "roamers", "tuulu"), {"first": "p1"}, 9)
    roll = GAME.sample(s)
    assert roll.source == "app" and len(roll.values) == 30 and sorted(set(roll.ids)) == ["purple", "teal", "white"]
    GAME.push(s, roll)
    assert s.phase == "deal" and list(GAME.problems(s)) == []


def test_missions_dealt_three_keep_two_secretly_centauri_keeps_three():
    s = GAME.new(seats("centauri", "hollows", "ewo"), {"first": "p1"}, 2)
    GAME.push(s, GAME.sample(s))
    while s.phase == "deal":
        GAME.push(s, GAME.sample(s))
    assert [len(s.hands[x]) for x in s.order] == [3, 3, 3]
    assert sorted(GAME.prompt(s).waits) == ["p2", "p3"]          # not the Centauri Bureau
    mine = s.hands["p2"].cards[1]
    assert "not-your-mission" in codes(s, Keep("p2", s.hands["p3"].cards[0]))
    GAME.push(s, Keep("p2", mine))
    public = GAME.view(s, PUBLIC)
    assert public["kept"] == ["p2"] and "cards" not in public["missions"]["p2"] and "my_discard" not in public
    assert GAME.view(s, "p2")["my_discard"] == mine and "my_discard" not in GAME.view(s, "p3")
    assert GAME.public_action(s, Keep("p2", mine), "p3", s.ply - 1) == {"$": "dicetopia.keep", "seat": "p2", "sealed": True}
    GAME.push(s, Keep("p3", s.hands["p3"].cards[0]))
    assert s.phase == "deploy" and s.current == "p1"
    assert [len(s.hands[x]) for x in s.order] == [3, 2, 2] and len(s.deck) == 33 and mine in s.deck.cards


def test_factions_dealt_as_an_option():
    s = GAME.new(seats("banxa", "banxa"), {"first": "p1", "deal_factions": True}, 4)
    assert s.phase == "deal-factions"
    assert [x.faction for x in s.seats] == ["", ""]                # the seats' own factions are not played
    d = GAME.sample(s)
    assert isinstance(d, Draw) and d.deck == "factions"
    GAME.push(s, Draw("p1", "factions", "shakra"))                 # the physical card, entered
    assert GAME.public_action(s, Draw("p1", "factions", "shakra"), PUBLIC)["card"] == "shakra"
    assert "card-not-in-deck" in codes(s, Draw("p2", "factions", "shakra"))
    GAME.push(s, GAME.sample(s))
    assert s.phase == "roll" and s.faction["p1"] == "shakra" and s.faction["p2"] not in ("", "shakra")
    assert GAME.view(s, PUBLIC)["factions"]["p1"]["faction"] == "shakra"
    # The dealt faction is the seat's own, as a chosen one is: the view's seats and the outcome name it.
    assert [x.faction for x in s.seats] == [s.faction["p1"], s.faction["p2"]] and s.seats[0].name == "Ann"
    assert [x["faction"] for x in GAME.view(s, PUBLIC)["seats"]] == [s.faction["p1"], s.faction["p2"]]
    assert GAME.replay(seats("banxa", "banxa"), {"first": "p1", "deal_factions": True}, 4,
                       [Draw("p1", "factions", "shakra"), Draw("p2", "factions", s.faction["p2"])]).seats == s.seats


def test_mission_draws_are_secret_to_others():
    s = GAME.new(seats("banxa", "ewo"), {"first": "p1"}, 3)
    GAME.push(s, GAME.sample(s))
    d = GAME.sample(s)
    GAME.push(s, d)
    assert "card" not in GAME.public_action(s, d, PUBLIC) and "card" not in GAME.public_action(s, d, "p2")
    assert GAME.public_action(s, d, "p1")["card"] == d.card
    assert d.card not in str(GAME.view(s, PUBLIC)) and d.card in str(GAME.view(s, "p1"))
    assert T.mission(d.card).name not in str(GAME.view(s, "p2")["log"])


def test_no_scenario_cards_the_book_gives_none():
    s = started("banxa", "ewo")
    assert "No Scenario card" in s.log[0].text and "D-04" in s.log[0].text
    assert "scenario" not in {o.name for o in GAME.options}


def _dealt(s, seat):
    """The app's deck deals ``seat`` its three missions (the seat asked to draw now)."""
    for _ in range(3):
        assert isinstance(GAME.prompt(s).of(seat), DrawRequest)
        GAME.push(s, GAME.sample(s, seat))


def test_each_player_keeps_two_and_discards_one_as_soon_as_its_own_three_are_dealt():
    # §3 step 3: "deal 3 to each Player. They each get to keep two and discard one, without
    # revealing any information to other Players. Shuffle all leftover Mission Cards with the
    # rest of the deck". A player keeps right after its own deal (the same pass behind the
    # gate), before the next player is dealt; the Centauri Bureau keeps all three (D-12).
    s = GAME.new(seats("centauri", "hollows", "ewo"), {"first": "p1"}, 2)
    GAME.push(s, GAME.sample(s))
    _dealt(s, "p1")
    assert sorted(GAME.prompt(s).waits) == ["p2"]                  # Opportunist: nothing to discard
    _dealt(s, "p2")
    waits = GAME.prompt(s).waits
    assert sorted(waits) == ["p2", "p3"] and waits["p2"].accepted == ("keep",)  # Bob keeps now, Cat is dealt
    assert {a for a in GAME.legal_actions(s) if isinstance(a, Keep)} == {Keep("p2", c) for c in s.hands["p2"].cards}
    discard = s.hands["p2"].cards[0]
    GAME.push(s, Keep("p2", discard))
    assert s.phase == "deal" and GAME.view(s, PUBLIC)["kept"] == ["p2"] and discard not in str(GAME.view(s, "p3"))
    for _ in range(3):
        # The leftover mission waits for the end of the keeping: never dealt to a later player.
        assert discard not in s.deck.cards and discard in s.hands["p2"].cards
        GAME.push(s, GAME.sample(s, "p3"))
    assert sorted(GAME.prompt(s).waits) == ["p3"] and s.phase == "keep"
    GAME.push(s, Keep("p3", s.hands["p3"].cards[2]))
    assert s.phase == "deploy" and s.current == "p1" and discard in s.deck.cards
    assert [len(s.hands[x]) for x in s.order] == [3, 2, 2] and len(s.deck) == 33
    assert not list(GAME.problems(s))


def test_a_journal_whose_keeping_follows_every_deal_still_replays_to_the_same_game():
    # Games saved before the keeping moved next to each deal: three draws each, then the keeps.
    n = seats("banxa", "hollows", "ewo")
    s = GAME.new(n, {"first": "p1"}, 7)
    roll = GAME.sample(s)
    GAME.push(s, roll)
    draws = []
    while s.phase == "deal":
        d = GAME.sample(s)
        draws.append(d)
        GAME.push(s, d)
    assert s.phase == "keep" and sorted(GAME.prompt(s).waits) == ["p1", "p2", "p3"]
    keeps = [Keep(x, s.hands[x].cards[i]) for i, x in enumerate(("p3", "p1", "p2"))]
    old = GAME.replay(n, {"first": "p1"}, 7, [roll] + draws + keeps)
    # The new shape: each player keeps right after its own three.
    new = GAME.replay(n, {"first": "p1"}, 7, [roll] + draws[0:3] + [keeps[1]] + draws[3:6] + [keeps[2]] + draws[6:9] + [keeps[0]])
    for g in (old, new):
        assert g.phase == "deploy" and not list(GAME.problems(g))
    assert {x: old.hands[x].cards for x in old.order} == {x: new.hands[x].cards for x in new.order}
    assert sorted(old.deck.cards) == sorted(new.deck.cards)  # shuffled: the same missions
