"""Sharing cards and decks as files (``sharing``): every picked file checked before any is
saved, each problem named by file, card and field; export into the folder chosen."""
from __future__ import annotations

import json

import pytest

from companion.ui.games.against_all_tyrants import cardfiles
from companion.ui.games.against_all_tyrants.library import CardDraft, save_card
from companion.ui.games.against_all_tyrants.sharing import ImportRefused, apply_import, export_files, plan_import
from rules.against_all_tyrants import example_decks


def _table_with_a_gunner(folder):
    d = CardDraft()
    d.texts.update(name="Gunner", faction="Free Worlds (example)", subfaction="Freedom Fighters", types="Trooper",
                   attack="2", health="3", traits="Armor 1")
    d.theaters = ("planetside",)
    save_card(d, folder)
    deck = example_decks()["freedom-fighters"].adding("main", "ff-starhawk", -1).adding("main", "gunner", 1)
    cardfiles.save_deck(deck, folder)
    return deck


def test_export_writes_the_deck_and_the_tables_cards_into_the_chosen_folder_and_another_table_imports_them(tmp_path):
    deck = _table_with_a_gunner(tmp_path / "ours")
    paths = export_files(deck, tmp_path / "ours", tmp_path / "stick")
    assert len(paths) == 2 and {p.parent for p in paths} == {tmp_path / "stick"}
    plan = plan_import(paths, tmp_path / "theirs")
    assert plan.ok and plan.problems == []
    done = apply_import(plan, tmp_path / "theirs")
    assert len(done) == 2
    assert [d.section("main").get("gunner") for d in cardfiles.saved_decks(tmp_path / "theirs")] == [1]


def test_a_deck_without_its_cards_is_refused_naming_the_card_and_nothing_is_saved(tmp_path):
    deck = _table_with_a_gunner(tmp_path / "ours")
    (deck_file,) = [p for p in export_files(deck, tmp_path / "ours", tmp_path / "stick") if "deck" in p.name]
    plan = plan_import([deck_file], tmp_path / "theirs")
    assert plan.problems == [f"{deck_file.name}, deck “{deck.name}”, Main deck: the card 'gunner' is in neither the "
                             "table's cards, the example set nor the picked files; pick its card-set file too"]
    with pytest.raises(ImportRefused):
        apply_import(plan, tmp_path / "theirs")
    assert cardfiles.saved_decks(tmp_path / "theirs") == []


def test_one_bad_file_among_several_imports_none_and_each_problem_names_file_card_and_field(tmp_path):
    deck = _table_with_a_gunner(tmp_path / "ours")
    paths = export_files(deck, tmp_path / "ours", tmp_path / "stick")
    cards_file = next(p for p in paths if p.name.endswith(".aat-cards.json"))
    data = json.loads(cards_file.read_text(encoding="utf-8"))
    data["name"] = "Broken"
    data["cards"][0]["theaters"] = ["orbit"]
    data["cards"].append({"id": "x", "name": "Ghost", "faction": "F", "kind": "unit", "health": 1, "theaters": ["space"],
                          "attack": "two"})
    bad = tmp_path / "stick" / "broken.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    deck_bad = tmp_path / "stick" / "deck.json"
    deck_bad.write_text(json.dumps(dict(deck.to_data(), main={"gunner": 0})), encoding="utf-8")
    (tmp_path / "stick" / "notes.json").write_text("{not json", encoding="utf-8")
    plan = plan_import([*paths, bad, deck_bad, tmp_path / "stick" / "notes.json"], tmp_path / "theirs")
    assert "broken.json, card 1 “Gunner”, Theaters (the 1st): a theater is Space or Planetside, not 'orbit' (5.2.2.1)" in plan.problems
    assert any(p.startswith("broken.json, card 2 “Ghost”, Attack: ") for p in plan.problems)
    assert any(p.startswith("deck.json, Main deck, card 'gunner': copies must be a whole number") for p in plan.problems)
    assert any(p.startswith("notes.json: not a card-set or deck file") for p in plan.problems)
    with pytest.raises(ImportRefused):
        apply_import(plan, tmp_path / "theirs")
    assert cardfiles.saved_card_sets(tmp_path / "theirs") == [] and cardfiles.saved_decks(tmp_path / "theirs") == []
