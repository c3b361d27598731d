"""Missions: costs paid first and enforced, and the referee's truthful, public answers."""
from __future__ import annotations

import copy

import pytest

from rules.core import PUBLIC
from rules.liberation import GAME, AskReferee, Attack, Mission, Pass, default_missions, parse_missions
from rules.liberation.missions import MissionsError, default_missions_data

from .helpers import D, L, c, hand, public_text, start
from .test_turns import pass_turn, rejected


def dynasty_step2(**kw):
    s = start(**kw)
    GAME.push(s, Pass(D))
    return s


def test_glossary_names_by_side():
    t = default_missions()
    assert [t.mission(k, "liberation").name for k in ("political-center", "weapons-factory", "shipyard", "research-station", "underworld")] == [
        "Public Support", "Armed Resistance", "Mobilize Base", "Design Flaw", "Recruit Spy"]
    assert [t.mission(k, "dynasty").name for k in ("political-center", "weapons-factory", "shipyard", "research-station", "underworld")] == [
        "Propaganda Campaign", "Deploy Superweapon", "Launch Fleet", "Deep-Space Probe", "Recruit Spy"]


def test_mission_from_hand_reveals_discards_and_asks_within_n_steps():
    s = dynasty_step2()         # Dynasty holds b d; base f; d is a Research Station (Deep-Space Probe)
    rejected(s, Mission(D, c("d"), pay_card=c("b")), "no-such-cost")
    GAME.push(s, Mission(D, c("d")))
    assert s.deck.discard[-1] == c("d") and hand(s, D) == [c("b")] and s.phase == "ask"
    assert GAME.view(s, PUBLIC)["asking"]["question"] == {"type": "base-within", "max_steps": 2}
    rejected(s, AskReferee(D, cities=(c("a"),)), "bad-question", "unknown-city", "bad-steps")
    rejected(s, AskReferee(D, city=c("b"), steps=3), "bad-steps")
    GAME.push(s, AskReferee(D, city=c("a"), steps=2))          # a to f is 3 lines
    e = GAME.view(s, PUBLIC)["events"][-1]
    assert (e["kind"], e["result"]) == ("answer", "no") and "within 2 steps of City A" in e["text"]
    assert c("f") not in public_text(s) and "City F" not in public_text(s)
    assert s.active == L


def test_within_answer_yes():
    s = dynasty_step2()
    GAME.push(s, Mission(D, c("d")))
    GAME.push(s, AskReferee(D, city=c("b"), steps=2))          # b–d–f
    assert s.events[-1].result == "yes"


def test_city_mission_exploits_and_pays_a_discard_then_asks_among():
    s = dynasty_step2()         # a (Political Center, Propaganda Campaign: discard 1 other card)
    rejected(s, Mission(D, c("a"), occupied=True), "cost-unpaid")
    rejected(s, Mission(D, c("a"), occupied=True, pay_card=c("k")), "cost-not-in-hand")
    rejected(s, Mission(D, c("a"), occupied=True, pay_city=c("a")), "no-such-cost", "cost-unpaid")
    GAME.push(s, Mission(D, c("a"), occupied=True, pay_card=c("b")))
    assert s.exploited == [c("a")] and hand(s, D) == [c("d")] and s.deck.discard[-1] == c("b")
    assert "City B" not in public_text(s)                 # the cost card goes face down
    rejected(s, AskReferee(D, cities=(c("e"), c("f"), c("g"), c("h"))), "bad-city-count")
    rejected(s, AskReferee(D, cities=(c("e"), c("e"))), "repeated-city")
    GAME.push(s, AskReferee(D, cities=(c("e"), c("f"), c("g"))))
    assert s.events[-1].result == "yes" and s.events[-1].cities == (c("e"), c("f"), c("g"))
    assert "The referee answers: YES" in GAME.view(s, PUBLIC)["events"][-1]["text"]


def test_discard_cost_must_be_another_card():
    s = start(dyn="bag", lib="efd", first="b", base="f")   # Dynasty holds a g (Political Centers)
    GAME.push(s, Pass(D))
    rejected(s, Mission(D, c("a"), pay_card=c("a")), "cost-not-other")
    GAME.push(s, Mission(D, c("a"), pay_card=c("g")))
    assert hand(s, D) == [] and s.deck.discard[-2:] == [c("g"), c("a")]
    GAME.push(s, AskReferee(D, cities=(c("d"),)))
    assert s.events[-1].result == "no"


def test_exploit_cost_is_another_unexploited_city():
    s = dynasty_step2()         # b: Weapons Factory, Deploy Superweapon: exploit 1 other City
    rejected(s, Mission(D, c("b")), "cost-unpaid")
    rejected(s, Mission(D, c("b"), pay_city=c("c")), "cost-not-occupied")
    GAME.push(s, Mission(D, c("b"), pay_city=c("a")))
    assert s.exploited == [c("a")] and s.events[-1].exploit == c("a")
    GAME.push(s, AskReferee(D, city=c("d"), steps=1))           # d–f
    assert s.events[-1].result == "yes"


def test_city_mission_with_exploit_cost_cannot_pay_with_itself():
    s = dynasty_step2(dyn="bad", lib="efg", first="b")   # b occupied (Deploy Superweapon)
    rejected(s, Mission(D, c("b"), occupied=True, pay_city=c("b")), "cost-not-other")


def test_already_exploited_city_cannot_pay():
    s = start(dyn="abd", lib="efg")
    GAME.push(s, Pass(D))
    GAME.push(s, Attack(D, c("a"), c("c")))
    pass_turn(s)
    GAME.push(s, Pass(D))
    rejected(s, Mission(D, c("b"), pay_city=c("a")), "cost-already-exploited")


def test_liberation_missions_from_hand_only_and_hand_question():
    s = start()                 # Liberation holds e (Underworld: Recruit Spy, discard) and g
    pass_turn(s)
    GAME.push(s, Pass(L))
    rejected(s, Mission(L, c("e"), occupied=True, pay_card=c("g")), "cannot-exploit")
    GAME.push(s, Mission(L, c("e"), pay_card=c("g")))
    assert hand(s, L) == [] and s.phase == "ask"
    GAME.push(s, AskReferee(L, cities=(c("b"), c("c"))))         # the Dynasty holds b
    assert s.events[-1].result == "yes" and "Does the Dynasty hold any of City B (Weapons Factory) or City C (Shipyard)?" in GAME.view(s)["events"][-1]["text"]


def test_liberation_mission_without_question_ends_the_action():
    s = start()
    pass_turn(s)
    GAME.push(s, Pass(L))
    GAME.push(s, Mission(L, c("g")))                     # Public Support: no cost, no question
    assert s.events[-1].result == "Public Support" and s.active == D


def test_costs_come_from_the_missions_option():
    data = default_missions_data()
    data["categories"]["shipyard"]["dynasty"]["cost"] = "discard"
    s = start(dyn="cbd", lib="efg", first="c", options={"missions": data})
    GAME.push(s, Pass(D))
    rejected(s, Mission(D, c("c"), occupied=True), "cost-unpaid")
    GAME.push(s, Mission(D, c("c"), occupied=True, pay_card=c("b")))
    assert s.active == L


def test_missions_table_validation():
    data = default_missions_data()
    bad = copy.deepcopy(data)
    bad["categories"]["shipyard"]["liberation"]["cost"] = "exploit"
    bad["categories"]["underworld"]["liberation"]["question"] = {"type": "base-among", "max_cities": 2}
    bad["categories"]["research-station"]["dynasty"]["cost"] = "gold"
    del bad["categories"]["political-center"]
    with pytest.raises(MissionsError) as e:
        parse_missions(bad)
    text = " ".join(e.value.problems)
    assert "cannot cost 'exploit'" in text and "own base" in text and "'gold'" in text and "Political Center" in text
    assert parse_missions(default_missions().to_data()) == default_missions()


def test_referee_answers_are_undo_barriers():
    s = dynasty_step2()
    GAME.push(s, Mission(D, c("d")))
    assert "referee" in GAME.undo_barrier(s, AskReferee(D, city=c("a"), steps=1))
    assert GAME.undo_barrier(s, Pass(D)) is None


def test_larger_questions_are_legal_though_not_listed():
    s = dynasty_step2()
    GAME.push(s, Mission(D, c("a"), occupied=True, pay_card=c("b")))
    three = AskReferee(D, cities=(c("e"), c("f"), c("g")))
    listed = list(GAME.legal_actions(s))
    assert three not in listed and three in GAME.legal_actions(s)
    assert AskReferee(D, cities=(c("e"), c("f"))) in listed and len(listed) == 14 + 91


def test_a_mission_may_carry_its_text_as_the_table_entered_it_from_its_card():
    # The rulebook names the missions but prints no text (RULINGS L-10): a table that
    # types its card's words in gets them back, whitespace tidied; the default has none.
    data = default_missions_data()
    assert default_missions().mission("shipyard", "liberation").text == ""
    data["categories"]["shipyard"]["liberation"]["text"] = "Move your  base\nto an adjacent City."
    table = parse_missions(data, "ours.json")
    assert table.mission("shipyard", "liberation").text == "Move your base to an adjacent City."
    assert parse_missions(table.to_data(), "again.json") == table
    data["categories"]["shipyard"]["liberation"]["text"] = 7
    with pytest.raises(MissionsError) as e:
        parse_missions(data, "ours.json")
    assert list(e.value.problems) == ["categories.shipyard.liberation.text: Shipyard, liberation: a mission's text is words "
                                "of at most 400 characters, not 7."]
