"""companion.ui.games.against_all_tyrants.cardfiles: a table's Against All Tyrants card sets and decks saved, listed,
imported and exported as files; broken files skipped or refused with the reason."""
from __future__ import annotations

import json

import pytest

from companion.ui.games.against_all_tyrants import cardfiles
from rules.against_all_tyrants import CardError, CardSet, example_decks, example_set, parse_card


def _my_set() -> CardSet:
    card = parse_card({"id": "my-gunner", "name": "Gunner", "faction": "Freedom Fighters", "subfaction": "",
                       "kind": "unit", "types": ["Trooper"], "theaters": ["planetside"], "attack": 2, "health": 3})
    return CardSet("Our Cards", {card.id: card})


def test_a_card_set_saved_is_listed_and_read_back_unchanged(tmp_path):
    path = cardfiles.save_card_set(_my_set(), tmp_path)
    assert path.parent.name == "aat-cards"
    (tmp_path / "aat-cards" / "broken.json").write_text("{", encoding="utf-8")
    sets = cardfiles.saved_card_sets(tmp_path)
    assert [s.name for s in sets] == ["Our Cards"]
    assert sets[0].cards == _my_set().cards


def test_the_library_merges_every_saved_set_into_the_games_cards_option(tmp_path):
    from rules.against_all_tyrants.state import cards_of

    assert cardfiles.library(tmp_path) == {}
    cardfiles.save_card_set(_my_set(), tmp_path)
    option = cardfiles.library(tmp_path)
    assert "my-gunner" in cards_of({"cards": option}).cards
    assert "ff-rebel-cell" in cards_of({"cards": option}).cards  # the example set stays


def test_export_then_import_carries_a_deck_to_another_table(tmp_path):
    deck = example_decks()["freedom-fighters"]
    out = cardfiles.export_deck(deck, tmp_path / "exports")
    assert out.name.endswith(".aat-deck.json")
    other = tmp_path / "other-table"
    assert cardfiles.import_deck(out, other) == deck
    assert [d.name for d in cardfiles.saved_decks(other)] == [deck.name]


def test_importing_a_broken_card_set_names_the_file_and_the_problem_and_saves_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    data = json.loads(cardfiles.export_card_set(_my_set(), tmp_path).read_text(encoding="utf-8"))
    data["cards"][0]["traits"] = ["Armor two"]
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardError) as e:
        cardfiles.import_card_set(bad, tmp_path / "table")
    assert "Armor" in str(e.value) and "bad.json" in str(e.value)
    assert cardfiles.saved_card_sets(tmp_path / "table") == []
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CardError):
        cardfiles.load_card_set_file(tmp_path / "binary.json")


def test_the_example_set_round_trips_through_a_file(tmp_path):
    path = cardfiles.export_card_set(example_set(), tmp_path)
    assert cardfiles.load_card_set_file(path).cards == example_set().cards
