"""The card editor's and deck builder's model and the wizard's deck choice, without a
window: each field checked as it is typed by the rules, a card saved to the table's set,
5.2.4 rule by rule with its section after every tap, the examples labelled."""
from __future__ import annotations

from rules.against_all_tyrants import DeckList, example_decks

from companion.ui.games.against_all_tyrants import cardfiles
from companion.ui.games.against_all_tyrants.library import (
    CardDraft, DeckChoice, DeckDraft, deck_choices, deck_notes, default_choice, save_card,
)


def _gunner() -> CardDraft:
    d = CardDraft()
    d.texts.update(name="Gunner", faction="Free Worlds (example)", subfaction="Freedom Fighters", types="Trooper",
                   attack="2", health="3", traits="Armor 1")
    d.theaters = ("planetside",)
    return d


def test_each_field_is_checked_by_the_rules_as_it_is_typed():
    d = _gunner()
    assert d.all_problems() == []
    d.texts["traits"] = "Armor two"
    assert d.problems("traits") == ["Armor's X must be a whole number, not 'two' (5.2.8.2)"]
    d.texts["traits"] = "Armor 1"
    d.theaters = ()
    assert any("Theaters" in p and "5.2.2.1" in p for p in d.all_problems())
    d.kind = "effect"
    assert "theaters" not in d.fields() and "attack" not in d.fields() and "effect" in d.fields()


def test_a_saved_card_joins_the_tables_set_and_the_deck_builders_choices(tmp_path):
    save_card(_gunner(), tmp_path)
    assert [s.name for s in cardfiles.saved_card_sets(tmp_path)] == ["Our cards"]
    dd = DeckDraft.blank(tmp_path, faction="Free Worlds (example)", subfaction="Freedom Fighters")
    assert "gunner" in {c.id for c in dd.candidates("main")}
    assert all(c.kind == "base" for c in dd.candidates("bases"))


def test_the_deck_builder_counts_and_names_each_broken_rule_with_its_section(tmp_path):
    dd = DeckDraft.blank(tmp_path, faction="Free Worlds (example)", subfaction="Freedom Fighters")
    assert dd.counts() == ["Bases 0 / 2", "Special Forces 0 / 5", "Main deck 0 / 30", "Objectives 0 / 3"]
    assert all(v.startswith("✖ ") and "(5.2.4" in v for v in dd.violations())
    for _ in range(4):
        dd.tap("main", "ff-starhawk")
    assert dd.counts()[2] == "Main deck 4 / 30"
    assert any("5.2.4.3" in v and "Starhawk" in v for v in dd.violations())
    legal = DeckDraft.of(example_decks()["freedom-fighters"], tmp_path)
    assert legal.violations() == [] and all(c.endswith("✔") for c in legal.counts())


def test_the_wizard_offers_the_labelled_examples_then_the_tables_decks_with_their_objective(tmp_path):
    cardfiles.save_deck(example_decks()["freedom-fighters"].adding("main", "ff-starhawk", -1), tmp_path)
    choices = deck_choices(tmp_path)
    assert [c.example for c in choices] == [True, True, False]
    assert all("made for trying the rules, not the published cards" in c.label for c in choices[:2])
    assert default_choice(choices, "attacker").option == "first-leaders-navy"
    assert deck_notes(default_choice(choices, "defender"), "defender", {}) == ["Alternate objective: Base Evacuation."]
    notes = deck_notes(choices[2], "defender", {})
    assert any(n.startswith("✖ ") and "29" in n and "(5.2.4.1)" in n for n in notes)
    tbd = DeckChoice("Numina", {}, DeckList("Numina", "Aliens", "Church of Celestial Numina"), False)
    assert deck_notes(tbd, "attacker", {})[0].startswith("⚠ Church of Celestial Numina: the book marks its alternate objective “To Be Determined”")
    other = DeckChoice("Ours", {}, DeckList("Ours", "Ours", "Our own"), False)
    assert deck_notes(other, "attacker", {})[0] == "No alternate objective for this subfaction: the primary objective (destroy the enemy base)."


def test_a_saved_card_reopens_filled_in_and_saving_replaces_it_in_its_set(tmp_path):
    from companion.ui.games.against_all_tyrants.library import table_cards

    save_card(_gunner(), tmp_path)
    (lc,) = table_cards(tmp_path)
    d = CardDraft.of(lc.card, lc.set_name)
    assert d.texts["name"] == "Gunner" and d.texts["traits"] == "Armor 1" and d.theaters == ("planetside",)
    assert d.all_problems() == [] and d.card() == lc.card  # reopened exactly as saved
    d.texts["traits"] = "Armor 1, Pierce x"
    assert d.problems("traits") == ["Pierce's X must be a whole number, not 'x' (5.2.8.2)"]
    d.texts.update(traits="Armor 2", name="Heavy Gunner")  # a new name keeps the id: decks still hold it
    save_card(d, tmp_path)
    (lc,) = table_cards(tmp_path)
    assert (lc.card.id, lc.card.name, lc.card.x("Armor")) == ("gunner", "Heavy Gunner", 2)


def test_a_new_card_may_not_silently_replace_one_the_table_has(tmp_path):
    import pytest

    from companion.ui.games.against_all_tyrants.library import new_draft

    save_card(_gunner(), tmp_path)
    d = new_draft(tmp_path)
    d.texts.update(_gunner().texts)
    d.theaters = ("planetside",)
    assert d.all_problems() and "already has a card with this name" in d.all_problems()[0]
    with pytest.raises(ValueError):
        save_card(d, tmp_path)
    d.texts["name"] = "Gunner Two"
    assert d.all_problems() == []


def test_an_edit_keeps_the_decks_that_hold_the_card_and_says_which_now_break_5_2_4(tmp_path):
    from companion.ui.games.against_all_tyrants.library import decks_using, edit_report, table_cards

    save_card(_gunner(), tmp_path)
    deck = example_decks()["freedom-fighters"].adding("main", "ff-starhawk", -2).adding("main", "gunner", 2)
    cardfiles.save_deck(deck, tmp_path)
    (use,) = decks_using("gunner", tmp_path)
    assert use.copies == 2 and use.problems == ()
    d = CardDraft.of(table_cards(tmp_path)[0].card)
    d.unique = True  # two copies of a Unique card: the deck breaks 5.2.4.3
    save_card(d, tmp_path)
    (use,) = decks_using("gunner", tmp_path)
    assert use.copies == 2 and any("5.2.4.3" in p for p in use.problems)
    report = edit_report(d.card(), [use])
    assert report.startswith("✔ Gunner* saved") and "✖ " in report and "5.2.4.3" in report


def test_deleting_a_card_is_refused_naming_the_decks_that_hold_it_then_done_once_they_do_not(tmp_path):
    import pytest

    from companion.ui.games.against_all_tyrants.library import delete_card, table_cards

    save_card(_gunner(), tmp_path)
    deck = example_decks()["freedom-fighters"].adding("main", "ff-starhawk", -2).adding("main", "gunner", 2)
    cardfiles.save_deck(deck, tmp_path)
    with pytest.raises(ValueError) as e:
        delete_card("gunner", "Our cards", tmp_path)
    assert f"{deck.name} (2 copies)" in str(e.value) and "nothing was deleted" in str(e.value)
    assert [lc.card.id for lc in table_cards(tmp_path)] == ["gunner"]
    cardfiles.save_deck(deck.adding("main", "gunner", -2).adding("main", "ff-starhawk", 2), tmp_path)
    assert delete_card("gunner", "Our cards", tmp_path) == "✔ Gunner deleted from “Our cards”."
    assert table_cards(tmp_path) == []
    with pytest.raises(LookupError):
        delete_card("gunner", "Our cards", tmp_path)


def test_a_card_keeps_its_texts_steps_while_the_text_reads_the_same(tmp_path):
    """Issue 32, item 4: a card file's steps survive the editor while a text is unchanged; a
    text changed in the editor loses them, and the editor says the table resolves it."""
    from companion.ui.games.against_all_tyrants.library import CardDraft
    from rules.against_all_tyrants import example_set

    card = example_set()["nv-battle-net"]
    d = CardDraft.of(card, "Our cards")
    assert d.card().steps == card.steps
    assert d.text_notes("orders") == ["» Remove 1 Computation token here: place 1 Disruption token on an enemy unit in Space. — "
                                      "The app carries this text out as written: remove 1 Computation token from this card; "
                                      "then place 1 Disruption token on an enemy unit in Space."]
    d.texts["orders"] = "Remove 1 Computation token here: place 2 Disruption tokens on an enemy unit in Space."
    assert d.card().steps == () and d.text_notes("orders")[0].endswith("The table resolves this text; the app does not check it.")
