"""The card format: field-by-field validation (as an editor types), whole cards, card sets
and their files, and the example set's labelling."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.against_all_tyrants.cards import (
    TRAITS, CardError, Trait, check_field, dump_card_set, example_set, load_card_set, parse_card,
    parse_card_set, parse_trait_text,
)

UNIT = {"id": "rebel", "name": "Rebel Cell", "faction": "Free", "subfaction": "Freedom Fighters", "kind": "unit",
        "types": ["Trooper"], "escalation": 0, "theaters": ["planetside"], "attack": 2, "health": 3,
        "traits": ["Armor 1"], "orders": ["Deal 1 damage."], "effect": ""}


def messages(field, value, card=UNIT):
    return [p.message for p in check_field(field, value, card)]


def test_a_good_unit_parses_and_round_trips():
    c = parse_card(UNIT)
    assert c.trait("Armor") == Trait("Armor", 1) and c.can_deploy("planetside") and not c.can_deploy("space")
    assert parse_card(c.to_data()) == c


@pytest.mark.parametrize("field,value,words", [
    ("traits", ["Armor two"], "Armor's X must be a whole number, not 'two'"),
    ("traits", [{"name": "Armor", "x": "2"}], "Armor's X must be a whole number, not '2'"),
    ("traits", [{"name": "Armor"}], "Armor needs its X"),
    ("traits", ["Fighter 2"], "Fighter takes no X"),
    ("traits", ["Command 2: Trooper"], "Command's X must be a card type"),
    ("traits", ["Transport 1: Spaceship"], "Transport's Y must be a card type"),
    ("traits", ["Flying"], "'Flying' is not a trait"),
    ("traits", ["Unique"], "unique marker"),
    ("traits", ["Armor 1", "Armor 2"], "Armor is listed twice"),
    ("traits", ["Attacker"], "cannot carry Attacker"),
    ("theaters", ["orbit"], "a theater is Space or Planetside, not 'orbit'"),
    ("theaters", [], "at least one theater"),
    ("theaters", "space", "must be a list of theaters"),
    ("escalation", 6, "from 0 to 5, not 6"),
    ("escalation", 1.5, "from 0 to 5, not 1.5"),
    ("health", 0, "at least 1"),
    ("attack", -1, "from 0 to 99"),
    ("kind", "spell", "a kind is one of"),
    ("types", ["Wizard"], "'Wizard' is not a card type"),
    ("types", [], "at least one type"),
    ("name", "Vex*", "without its asterisk"),
    ("unique", "yes", "must be true or false"),
    ("orders", [""], "an order is non-empty text"),
    ("colour", "red", "a card has no field 'colour'"),
])
def test_each_bad_field_is_named_as_you_type(field, value, words):
    got = check_field(field, value, UNIT)
    assert got and any(words in p.message for p in got), got
    assert all(p.card == "Rebel Cell" for p in got)
    assert all(p.field.startswith(field) for p in got)
    assert all(p.rule for p in got)


def test_good_fields_give_no_problem():
    for k, v in UNIT.items():
        assert check_field(k, v, UNIT) == (), k
    assert check_field("theaters", ["space", "planetside"], UNIT) == ()
    assert check_field("traits", ["Pierce", "Pierce 2"][:1], UNIT) == ()


def test_checks_depend_on_the_kind():
    base = dict(UNIT, kind="base")
    assert "exactly one theater" in messages("theaters", ["space", "planetside"], base)[0]
    leader = dict(UNIT, kind="leader")
    assert "no theater" in messages("theaters", ["space"], leader)[0]
    effect = dict(UNIT, kind="effect")
    assert "effect text, not orders" in messages("orders", ["x"], effect)[0]
    assert "needs its effect text" in messages("effect", " ", effect)[0]
    objective = dict(UNIT, kind="objective")
    assert messages("traits", ["Attacker", "Capital"], objective) == []
    assert "not both" in messages("traits", ["Attacker", "Defender (Objective)"], objective)[0]


@pytest.mark.parametrize("text,trait", [
    ("Armor 2", Trait("Armor", 2)), ("Pierce", Trait("Pierce")), ("Pierce 1", Trait("Pierce", 1)),
    ("Command Trooper: 2", Trait("Command", "Trooper", 2)), ("Transport 2: Vehicle", Trait("Transport", 2, "Vehicle")),
    ("Robot Expert", Trait("Expert", "Robot")), ("Point-Defense 3", Trait("Point-Defense", 3)),
    ("Defender (Objective)", Trait("Defender (Objective)")), ("Defender", Trait("Defender")),
])
def test_traits_as_players_write_them(text, trait):
    assert parse_trait_text(text) == trait
    assert str(trait) == text


def test_every_trait_of_the_table_is_known():
    book = {"Armor", "Attacker", "Backup", "Bomber", "Capital", "Command", "Compute", "Defended", "Defender",
            "Defender (Objective)", "Fighter", "Funds", "Infiltrate", "Mainframe", "Mark", "Mass", "Pierce",
            "Point-Defense", "Rallied", "Repeater", "Stealth", "Supply", "Sympathized", "Torpedo", "Transport", "Expert"}
    assert set(TRAITS) == book


def test_a_whole_card_names_every_problem():
    bad = dict(UNIT, theaters=["orbit"], traits=["Armor x"], escalation=9)
    del bad["health"]
    with pytest.raises(CardError) as e:
        parse_card(bad)
    fields = {p.field for p in e.value.found}
    assert {"theaters[0]", "traits[0]", "escalation", "health"} <= fields
    assert "Rebel Cell" in str(e.value)


def test_card_set_round_trips_through_its_file():
    s = example_set()
    text = dump_card_set(s)
    back = load_card_set(text)
    assert back == s and dump_card_set(back) == text


@pytest.mark.parametrize("text,words", [
    ("", "not JSON"), ("[]", "a card set is an object"), ('{"format": "x", "name": "n", "cards": []}', "format"),
    ('{"format": "against-all-tyrants/cards@1", "name": "n", "cards": {}}', "cards: must be a list"),
    ("[" * 100 + "]" * 100, "too deep"),
])
def test_bad_card_set_files(text, words):
    with pytest.raises(CardError, match=words):
        load_card_set(text, "mine.json")


def test_a_card_set_names_the_card_and_its_index():
    data = json.loads(dump_card_set(example_set()))
    data["cards"][3]["theaters"] = ["moon"]
    data["cards"][5]["id"] = data["cards"][4]["id"]
    with pytest.raises(CardError) as e:
        parse_card_set(data)
    texts = "; ".join(e.value.problems)
    assert "cards[3].theaters[0]" in texts and "used twice" in texts


def test_the_example_set_is_labelled_as_not_the_published_cards():
    s = example_set()
    assert s.example and "not the published cards" in s.name
    raw = json.loads(dump_card_set(s))
    assert raw["example"] is True


def test_the_example_set_exercises_every_trait():
    used = {t.name for c in example_set().cards.values() for t in c.traits}
    assert used == set(TRAITS)


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(list(UNIT) + ["x"]), st.one_of(st.none(), st.integers(), st.text(max_size=5),
                       st.lists(st.one_of(st.text(max_size=6), st.integers()), max_size=3), st.booleans())))
def test_any_json_gives_a_card_or_named_problems(data):
    try:
        parse_card(data)
    except CardError as e:
        assert e.found and all(p.field and p.message for p in e.found)


@settings(max_examples=60)
@given(st.sampled_from(list(UNIT) + ["kind"]), st.one_of(
    st.none(), st.integers(-5, 200), st.floats(allow_nan=False), st.text(max_size=8), st.booleans(),
    st.lists(st.one_of(st.text(max_size=8), st.integers(), st.dictionaries(st.sampled_from(["name", "x", "y", "z"]),
                                                                            st.one_of(st.text(max_size=6), st.integers()))), max_size=3)))
def test_every_field_answers_any_value_with_named_problems(field, value):
    for kind in ("unit", "leader", "effect", "base", "objective"):
        for p in check_field(field, value, dict(UNIT, kind=kind)):
            assert p.field.startswith(field) and p.message and p.rule


def test_fields_for_an_editor():
    from rules.against_all_tyrants.cards import fields_for
    assert "theaters" in fields_for("unit") and "theaters" not in fields_for("leader")
    assert "effect" in fields_for("effect") and "attack" not in fields_for("effect")
