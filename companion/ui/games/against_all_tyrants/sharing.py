"""Sharing the table's cards and decks as files, without Kivy: the files a player picked
are all read and checked first (:func:`plan_import`), and saved only when every one is
good (:func:`apply_import`), so a bad file never leaves a set or a deck half-imported.
Every problem is said in the players' words: the file, the card (its number and name)
and the field, then what is wrong with the rulebook's section.

>>> import json, tempfile, pathlib
>>> from companion.ui.games.against_all_tyrants import cardfiles
>>> from rules.against_all_tyrants import example_decks
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> deck = cardfiles.export_deck(example_decks()["freedom-fighters"], tmp / "stick")
>>> bad = tmp / "stick" / "ours.aat-cards.json"
>>> _ = bad.write_text(json.dumps({"format": "against-all-tyrants/cards@1", "name": "Ours", "cards": [
...     {"id": "gunner", "name": "Gunner", "faction": "Free Worlds", "kind": "unit", "types": ["Trooper"],
...      "theaters": ["planetside"], "health": 3, "traits": ["Armor two"]}]}))
>>> plan = plan_import([deck, bad], tmp / "table")
>>> plan.problems
["ours.aat-cards.json, card 1 “Gunner”, Traits (the 1st): Armor's X must be a whole number, not 'two' (5.2.8.2)"]
>>> apply_import(plan, tmp / "table")
Traceback (most recent call last):
...
companion.ui.games.against_all_tyrants.sharing.ImportRefused: 1 problem: nothing was imported
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from rules.against_all_tyrants import CardError, CardSet, DeckList, check_deck, parse_card_set, parse_deck
from rules.against_all_tyrants.cards import DECK_FORMAT, FieldProblem
from rules.against_all_tyrants.decks import SECTIONS
from rules.against_all_tyrants.state import cards_of

from ....errors import CompanionError
from ....files import NotJson, parse_json
from . import cardfiles

FIELD_WORDS = {
    "id": "Id", "name": "Name", "unique": "Unique", "faction": "Faction", "subfaction": "Subfaction", "kind": "Kind",
    "types": "Types", "escalation": "Escalation", "theaters": "Theaters", "attack": "Attack", "health": "Health",
    "traits": "Traits", "orders": "Orders", "effect": "Effect text", "format": "the file's format",
    "example": "the example marker", "note": "the note", "cards": "the card list", "(file)": "the file",
    "(top)": "the file", "(card)": "the card",
}
SECTION_WORDS = {"bases": "Bases", "special_forces": "Special Forces", "main": "Main deck", "objectives": "Objectives"}
_CARD = re.compile(r"^cards\[(\d+)\]\.?(.*)$")
_INDEX = re.compile(r"^(\w+)\[(\d+)\]")


class ImportRefused(CompanionError, ValueError):
    """Importing files of which one at least has a problem: nothing is saved."""


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _field_words(path: str) -> str:
    """``traits[1]`` → "Traits (the 2nd)"; ``main.gunner`` → "Main deck, card 'gunner'"."""
    m = _INDEX.match(path)
    if m:
        return f"{FIELD_WORDS.get(m.group(1), m.group(1))} (the {_ordinal(int(m.group(2)) + 1)})"
    head, _, rest = path.partition(".")
    if head in SECTION_WORDS:
        return SECTION_WORDS[head] + (f", card {rest!r}" if rest else "")
    return FIELD_WORDS.get(path, path)


def problem_words(file: str, p: FieldProblem, data: Any = None) -> str:
    """One problem of a file as a player reads it: which file, which card, which field."""
    where = [file]
    m = _CARD.match(p.field)
    if m:
        i = int(m.group(1))
        name = p.card
        if not name and isinstance(data, dict) and isinstance(data.get("cards"), list) and i < len(data["cards"]):
            row = data["cards"][i]
            name = row.get("name", "") if isinstance(row, dict) and isinstance(row.get("name"), str) else ""
        where.append(f"card {i + 1}" + (f" “{name}”" if name else ""))
        if m.group(2):
            where.append(_field_words(m.group(2)))
    elif p.field:
        where.append(_field_words(p.field))
    return ", ".join(where) + f": {p.message}" + (f" ({p.rule})" if p.rule else "")


@dataclass
class ImportPlan:
    """What the picked files hold, every one checked: the card sets and decks to save
    (with the file each came from), and every problem in players' words."""

    sets: list[tuple[str, CardSet]] = field(default_factory=list)
    decks: list[tuple[str, DeckList]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.sets or self.decks)


def plan_import(paths: Iterable[str | os.PathLike[str]], folder: str | os.PathLike[str]) -> ImportPlan:
    """Read and check every picked file; nothing is saved (see :func:`apply_import`).
    A file is a deck or a card set by its ``format``; a deck must name only cards the
    table has, the example set has, or a picked card set brings."""
    plan = ImportPlan()
    for path in paths:
        p = Path(path)
        try:
            text = cardfiles.read_text(p)
        except CardError as e:
            plan.problems += [problem_words(p.name, f) for f in e.found]
            continue
        except OSError as e:
            plan.problems.append(f"{p.name}: cannot be read ({e.strerror or e})")
            continue
        try:
            data = parse_json(text)
        except NotJson as e:
            plan.problems.append(f"{p.name}: not a card-set or deck file (not JSON: {str(e)[:60]})")
            continue
        is_deck = isinstance(data, dict) and data.get("format") == DECK_FORMAT
        try:
            if is_deck:
                plan.decks.append((p.name, parse_deck(data, p.name)))
            else:
                plan.sets.append((p.name, parse_card_set(data, p.name)))
        except CardError as e:
            plan.problems += [problem_words(p.name, f, data) for f in e.found]
    names = [s.name for _, s in plan.sets]
    for n in sorted({n for n in names if names.count(n) > 1}):
        plan.problems.append(f"Two of the picked files are both the card set “{n}”: pick one of them")
    lib = cards_of({"cards": cardfiles.library(folder)})
    for _, s in plan.sets:
        lib = lib.merged(s)
    for file, deck in plan.decks:
        for s in SECTIONS:
            for cid in deck.section(s):
                if cid not in lib:
                    plan.problems.append(
                        f"{file}, deck “{deck.name}”, {SECTION_WORDS[s]}: the card {cid!r} is in neither the table's "
                        "cards, the example set nor the picked files; pick its card-set file too")
    return plan


def apply_import(plan: ImportPlan, folder: str | os.PathLike[str]) -> list[str]:
    """Save every set and deck of a good plan in ``folder``; returns what was imported.
    Raises :class:`ImportRefused` (saving nothing) when any picked file had a problem."""
    if plan.problems:
        n = len(plan.problems)
        raise ImportRefused(f"{n} problem{'s' if n != 1 else ''}: nothing was imported")
    done = []
    for _, s in plan.sets:
        cardfiles.save_card_set(s, folder)
        done.append(f"the cards “{s.name}” ({len(s)})")
    for _, d in plan.decks:
        cardfiles.save_deck(d, folder)
        done.append(f"the deck “{d.name}”")
    return done


def deck_notes_after_import(plan: ImportPlan, folder: str | os.PathLike[str]) -> list[str]:
    """Imported decks that break 5.2.4 (kept, like the table's own: the wizard says why)."""
    lib = cards_of({"cards": cardfiles.library(folder)})
    out = []
    for _, d in plan.decks:
        v = check_deck(d, lib)
        if v:
            out.append(f"⚠ {d.name} cannot be played yet: {v[0].message} ({v[0].rule})")
    return out


def export_files(deck: DeckList | None, folder: str | os.PathLike[str], out: str | os.PathLike[str]) -> list[Path]:
    """Write the deck (when given) and every card set the table keeps into ``out``, the
    folder the player chose (a USB stick, a shared folder)."""
    paths = [cardfiles.export_deck(deck, out)] if deck is not None else []
    for s in cardfiles.saved_card_sets(folder):
        paths.append(cardfiles.export_card_set(s, out))
    return paths
