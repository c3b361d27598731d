"""Sentences as structure (rules/core/text.py): English without a catalogue, plural forms,
terms and inner sentences, and the JSON round-trip that lets a journal store a log line
as structure while states saved with English strings still load."""
from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from rules.core import IllegalAction, LogEntry, Outcome, Term, Text, Violation, t, tn
from rules.core.jsondata import dumps, from_data, loads, to_data
from rules.core.log import visible_log
from rules.core.text import english


def _french() -> gettext.GNUTranslations:
    """A real compiled catalogue (Babel writes the .mo; gettext reads it), French plural rule."""
    cat = Catalog(locale="fr")
    cat.add("{seat} rolls {value} to move.", "{seat} fait {value} pour avancer.")
    # Babel's French has three forms (one, many: a million, other), as CLDR now counts them.
    assert cat.num_plurals == 3
    cat.add(("{holder} holds {n} card.", "{holder} holds {n} cards."),
            ("{holder} a {n} carte.", "{holder} a {n} de cartes.", "{holder} a {n} cartes."))
    cat.add("{tile} is neutral now.", "{tile} est neutre désormais.")
    cat.add("Night Market", "le Marché de nuit")
    cat.add("Game over: {reason}.", "Partie terminée : {reason}.")
    cat.add("the cops win", "les flics gagnent")
    cat.add("{seat} broke it {n} times.", "{seat} l'a cassé {n} fois {oops}.")
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def test_english_without_a_catalogue() -> None:
    line = t("{seat} rolls {value} to move.", seat="cop-1", value=4)
    assert str(line) == line.english() == "cop-1 rolls 4 to move."
    assert str(t("Influence {delta:+d} → {v}.", delta=-50, v=450)) == "Influence -50 → 450."
    assert str(t("No braces {{here}}.")) == "No braces {here}."


def test_plural_forms_follow_the_language() -> None:
    fr = _french()
    one = tn("{holder} holds {n} card.", "{holder} holds {n} cards.", "n", holder="Ann", n=1)
    none = tn("{holder} holds {n} card.", "{holder} holds {n} cards.", "n", holder="Ann", n=0)
    assert str(one) == "Ann holds 1 card." and str(none) == "Ann holds 0 cards."
    # French counts zero as singular (plural rule n > 1): English and French differ here.
    assert none.render(fr) == "Ann a 0 carte."
    assert tn("{holder} holds {n} card.", "{holder} holds {n} cards.", "n", holder="Ann", n=2).render(fr) == "Ann a 2 cartes."
    assert tn("{holder} holds {n} card.", "{holder} holds {n} cards.", "n", holder="Ann", n=2_000_000).render(fr) == "Ann a 2000000 de cartes."


def test_terms_and_inner_sentences_are_translated_by_the_same_catalogue() -> None:
    fr = _french()
    # A term that opens a sentence gets its capital after the article the catalogue gave it.
    assert t("{tile} is neutral now.", tile=Term("Night Market")).render(fr) == "Le Marché de nuit est neutre désormais."
    assert t("Game over: {reason}.", reason=t("the cops win")).render(fr) == "Partie terminée : les flics gagnent."
    # A player's name opening a sentence is left as the player wrote it.
    assert t("{seat} rolls {value} to move.", seat="ann", value=3).render(fr) == "ann fait 3 pour avancer."
    # A word the catalogue lacks (a table's own board) stays as written.
    assert t("{tile} is neutral now.", tile=Term("Ma Cave")).render(fr) == "Ma Cave est neutre désormais."


def test_a_broken_translation_falls_back_to_english() -> None:
    line = t("{seat} broke it {n} times.", seat="Ann", n=2)
    assert line.render(_french()) == "Ann broke it 2 times."


def test_numbers_take_the_locale_format_only_where_no_format_is_given() -> None:
    line = t("{n} points, {d:+d} now.", n=1200, d=50)
    assert line.render(_french(), number=lambda n: f"{n:,}".replace(",", "\u202f")) == "1\u202f200 points, +50 now."


def test_violation_keeps_its_english_message() -> None:
    v = Violation("not-your-turn", "Setup 4", t("It is {actor}'s turn, not {seat}'s.", actor="Ann", seat="Bob"))
    assert v.message == "It is Ann's turn, not Bob's." and str(v) == "It is Ann's turn, not Bob's. [Setup 4]"
    assert str(IllegalAction([v])) == "It is Ann's turn, not Bob's. [Setup 4]"
    assert Violation("x", "y", "plain").message == "plain"


@pytest.mark.parametrize("text", [
    t("{seat} moves to {tile}.", seat="cop-1", tile=Term("The Docks")),
    tn("{n} die", "{n} dice", "n", n=3),
    t("Game over: {reason}.", reason=t("the {faction} held {n} turns", faction=Term("criminals"), n=3)),
    t("No arguments."),
])
def test_log_entries_store_structure_not_english(text: Text) -> None:
    entry = LogEntry(4, text, "cop-1", ("cop-1",))
    data = to_data(entry)
    assert data["text"]["$"] == "core.Text" and data["text"]["msgid"] == text.msgid
    back = loads(dumps(entry))
    assert back == entry and type(back.text) is Text and str(back.text) == str(text)


def test_an_english_log_line_saved_before_still_loads() -> None:
    # What a state's log held before log lines were structure: the English string.
    old = {"$": "core.LogEntry", "ply": 2, "text": "cops-1 rolls 2 to move.", "seat": "cops-1", "to": None}
    entry = from_data(old)
    assert entry == LogEntry(2, "cops-1 rolls 2 to move.", "cops-1", None)
    assert english(entry.text) == "cops-1 rolls 2 to move."
    assert from_data({"$": "core.Outcome", "winner": "cops", "reason": "r", "scores": {}, "winning_seats": []}).words is None


def test_the_view_carries_the_words_beside_the_english_line() -> None:
    log = [LogEntry(0, "Old line."), LogEntry(1, t("{seat} passes.", seat="s1"), "s1"), LogEntry(2, t("Secret."), "s1", ("s1",))]
    public = visible_log(log, "public")
    assert public == [
        {"ply": 0, "seat": None, "text": "Old line."},
        {"ply": 1, "seat": "s1", "text": "s1 passes.", "words": to_data(t("{seat} passes.", seat="s1"))},
    ]
    assert from_data(public[1]["words"]) == t("{seat} passes.", seat="s1")
    assert len(visible_log(log, "s1")) == 3


def test_outcome_words_round_trip() -> None:
    o = Outcome("cops", "the cops win", words=t("the {faction} win", faction=Term("cops")))
    assert loads(dumps(o)) == o
