"""Saving and loading a table's Against All Tyrants card sets and decks in a folder the
caller chooses (the app passes its user-data folder), like :mod:`companion.ui.games.liberation.mapfiles` does
for Liberation maps. The rules package stays free of I/O: it turns text into a card set or
a deck (``load_card_set`` / ``load_deck``) and back (``dump_card_set`` / ``dump_deck``);
reading and writing the files is the app's job, here. Export and import are the same files
copied to or from another folder (a USB stick, a shared folder).

>>> import tempfile, pathlib
>>> from rules.against_all_tyrants import example_decks
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = save_deck(example_decks()["freedom-fighters"], folder)
>>> path.parent.name, [d.name for d in saved_decks(folder)]
('aat-decks', ['Freedom Fighters (example)'])
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from companion.files import write_atomic
from rules.against_all_tyrants import CardError, CardSet, DeckList, dump_card_set, dump_deck, load_card_set, load_deck
from rules.against_all_tyrants.cards import FieldProblem, parse_card_set

CARDS_FOLDER = "aat-cards"
DECKS_FOLDER = "aat-decks"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _stem(name: str, fallback: str) -> str:
    return _SAFE.sub("-", name.strip().lower()).strip(".-") or fallback


def read_text(path: Path) -> str:
    """A card or deck file's text; :class:`CardError` when it is not text (OSError passes)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CardError([FieldProblem("", "(file)", "not a text file")], path.name) from None


# ------------------------------------------------------------------ card sets

def card_set_path(folder: str | os.PathLike[str], name: str) -> Path:
    return Path(folder) / CARDS_FOLDER / f"{_stem(name, 'cards')}.json"


def save_card_set(cards: CardSet, folder: str | os.PathLike[str]) -> Path:
    """Save ``cards`` in ``folder``'s card-set folder (by its name)."""
    return write_atomic(card_set_path(folder, cards.name), dump_card_set(cards))


def load_card_set_file(path: str | os.PathLike[str]) -> CardSet:
    """Read and validate a card-set file; :class:`CardError` names the file and every problem."""
    p = Path(path)
    return load_card_set(read_text(p), p.name)


def saved_card_sets(folder: str | os.PathLike[str]) -> list[CardSet]:
    """Every valid card set saved in ``folder``, by name; broken files are skipped."""
    root = Path(folder) / CARDS_FOLDER
    out = []
    for p in sorted(root.glob("*.json")) if root.is_dir() else ():
        try:
            out.append(load_card_set_file(p))
        except (CardError, OSError):
            continue
    return sorted(out, key=lambda c: c.name)


def library(folder: str | os.PathLike[str]) -> dict:
    """The table's own cards, every saved set merged, as card-set data for the game's
    ``cards`` option (``{}`` when the table has none: the example set alone).

    >>> import tempfile
    >>> library(tempfile.mkdtemp())
    {}
    """
    sets = saved_card_sets(folder)
    if not sets:
        return {}
    merged = sets[0]
    for s in sets[1:]:
        merged = merged.merged(s)
    import json

    return json.loads(dump_card_set(CardSet("The table's cards", merged.cards)))


def import_card_set(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> CardSet:
    """Copy a card-set file (checked first) into ``folder``'s card sets."""
    cards = load_card_set_file(path)
    save_card_set(cards, folder)
    return cards


def export_card_set(cards: CardSet, folder: str | os.PathLike[str]) -> Path:
    """Write ``cards`` as a file in ``folder`` (the app's exports folder), to share."""
    return write_atomic(Path(folder) / f"{_stem(cards.name, 'cards')}.aat-cards.json", dump_card_set(cards))


# ------------------------------------------------------------------ decks

def deck_path(folder: str | os.PathLike[str], name: str) -> Path:
    return Path(folder) / DECKS_FOLDER / f"{_stem(name, 'deck')}.json"


def save_deck(deck: DeckList, folder: str | os.PathLike[str]) -> Path:
    return write_atomic(deck_path(folder, deck.name), dump_deck(deck))


def load_deck_file(path: str | os.PathLike[str]) -> DeckList:
    p = Path(path)
    return load_deck(read_text(p), p.name)


def saved_decks(folder: str | os.PathLike[str]) -> list[DeckList]:
    """Every readable deck saved in ``folder``, by name (a deck that breaks 5.2.4 is still
    listed: the wizard and the builder say why it cannot be played)."""
    root = Path(folder) / DECKS_FOLDER
    out = []
    for p in sorted(root.glob("*.json")) if root.is_dir() else ():
        try:
            out.append(load_deck_file(p))
        except (CardError, OSError):  # load_deck says every parse problem as a CardError
            continue
    return sorted(out, key=lambda d: d.name)


def import_deck(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> DeckList:
    deck = load_deck_file(path)
    save_deck(deck, folder)
    return deck


def export_deck(deck: DeckList, folder: str | os.PathLike[str]) -> Path:
    return write_atomic(Path(folder) / f"{_stem(deck.name, 'deck')}.aat-deck.json", dump_deck(deck))


__all__ = [
    "CARDS_FOLDER", "DECKS_FOLDER", "card_set_path", "deck_path", "export_card_set", "export_deck", "import_card_set",
    "import_deck", "library", "load_card_set_file", "load_deck_file", "parse_card_set", "read_text", "save_card_set", "save_deck",
    "saved_card_sets", "saved_decks",
]
