"""The deck builder's check of 5.2.4, rule by rule with its section, and deck files."""
from __future__ import annotations

import dataclasses

import pytest

from rules.against_all_tyrants.cards import CardError, CardSet, example_set, parse_card
from rules.against_all_tyrants.decks import check_deck, dump_deck, example_decks, load_deck

SET = example_set()
FF = example_decks()["freedom-fighters"]
NV = example_decks()["first-leaders-navy"]


def codes(deck, cards=SET):
    return [(v.code, v.rule) for v in check_deck(deck, cards)]


def test_the_example_decks_are_legal():
    assert check_deck(FF, SET) == () and check_deck(NV, SET) == ()
    assert sum(FF.copies().values()) == 40


def test_exactly_30_main_deck_cards():
    short = dataclasses.replace(FF, main={**FF.main, "ff-rebel-cell": 5})
    assert codes(short) == [("main-count", "5.2.4.1")]
    v = check_deck(short, SET)[0]
    assert "exactly 30 main-deck cards, not 29" in v.message and FF.name in v.message


def test_exactly_5_special_forces_2_bases_3_objectives():
    d = dataclasses.replace(FF, special_forces={**FF.special_forces, "ff-veteran-squad": 3},
                            objectives={"ff-evac-shuttle": 2})
    assert ("special-forces-count", "5.2.4.1") in codes(d) and ("objectives-count", "5.2.4.1") in codes(d)
    d = dataclasses.replace(FF, bases={"ff-hidden-citadel": 1})
    assert ("bases-count", "5.2.4.1") in codes(d)


def test_one_base_per_theater():
    d = dataclasses.replace(FF, bases={"ff-hidden-citadel": 2})
    assert ("base-theaters", "5.2.4.1") in codes(d)


def test_cards_in_the_wrong_section():
    d = dataclasses.replace(FF, main={**{k: v for k, v in FF.main.items() if k != "ff-ambush"}, "ff-evac-shuttle": 1, "ff-hidden-citadel": 1})
    assert codes(d).count(("wrong-section", "5.2.4.1")) == 2


def test_a_single_subfaction_or_its_faction():
    mixed = dataclasses.replace(FF, main={**{k: v for k, v in FF.main.items() if k != "ff-ambush"}, "nv-orbital-strike": 2})
    assert ("wrong-subfaction", "5.2.4.3") in codes(mixed)
    wide = parse_card({"id": "free-volunteers", "name": "Volunteers", "faction": FF.faction, "kind": "unit",
                       "types": ["Civilian"], "theaters": ["planetside"], "attack": 1, "health": 1})
    other = parse_card({"id": "alien-ally", "name": "Alien Ally", "faction": "Aliens", "kind": "unit",
                        "types": ["Civilian"], "theaters": ["planetside"], "attack": 1, "health": 1})
    cards = SET.merged(CardSet("extra", {wide.id: wide, other.id: other}))
    faction_card = dataclasses.replace(FF, main={**{k: v for k, v in FF.main.items() if k != "ff-ambush"}, wide.id: 2})
    assert check_deck(faction_card, cards) == ()        # a card of the faction itself is allowed
    foreign = dataclasses.replace(FF, main={**{k: v for k, v in FF.main.items() if k != "ff-ambush"}, other.id: 2})
    assert ("wrong-faction", "5.2.4.3") in codes(foreign, cards)


def test_at_most_three_copies_unless_mass():
    d = dataclasses.replace(FF, main={**FF.main, "ff-starhawk": 4, "ff-gunship": 2})
    assert codes(d) == [("too-many-copies", "5.2.4.3")]
    assert FF.copies()["ff-rebel-cell"] == 6           # Mass: no limit
    # The limit counts the whole 40 cards, not one section.
    assert FF.copies()["ff-veteran-squad"] == 2


def test_one_copy_of_a_unique_card():
    d = dataclasses.replace(NV, main={**{k: v for k, v in NV.main.items() if k != "nv-destroyer"}, "nv-destroyer": 2, "nv-dreadnought": 2})
    assert codes(d) == [("unique-copies", "5.2.4.3")]
    assert "Dreadnought*" in check_deck(d, SET)[0].message


def test_unknown_cards_are_named():
    d = dataclasses.replace(FF, main={**FF.main, "no-such-card": 1, "ff-rebel-cell": 5})
    assert ("unknown-card", "5.2.4") in codes(d)


def test_deck_files_round_trip():
    text = dump_deck(FF)
    assert load_deck(text) == FF and dump_deck(load_deck(text)) == text


@pytest.mark.parametrize("text,words", [
    ("{", "not JSON"), ('{"format": "against-all-tyrants/deck@1"}', "name"),
    ('{"format": "against-all-tyrants/deck@1", "name": "a", "faction": "b", "subfaction": "c", "bases": {}, '
     '"special_forces": {}, "main": {"x": 1.5}, "objectives": {}}', "main.x: copies"),
])
def test_bad_deck_files(text, words):
    with pytest.raises(CardError, match=words):
        load_deck(text, "deck.json")


def test_the_builder_adds_and_removes_cards_and_counts():
    d = FF.adding("main", "ff-rebel-cell", -1)
    assert d.counts()["main"] == 29 and codes(d) == [("main-count", "5.2.4.1")]
    assert d.adding("main", "ff-rebel-cell", 1) == FF
    assert FF.adding("main", "ff-ambush", -2).main.get("ff-ambush") is None
