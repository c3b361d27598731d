"""The two Tyranny decks, read from ``data/cards.json``: ten cards of each deck, two
copies of each, two halves per card (criminals' and cops'), each half an effect key that
:mod:`rules.tyranny.effects` implements.

>>> c = CARDS["gains-06b"]
>>> c.deck, c.number, c.half("cops").effect, c.keep
('gains', 6, 'escape_number', True)
>>> len(CARDS), len(DECKS["gamble"]), DECKS["gamble"][:3]
(40, 20, ('gamble-01a', 'gamble-01b', 'gamble-02a'))
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.core.text import Term, Text, t

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Half:
    """One faction's half of a card: the printed text and what it does. ``term``: the text
    as a word the game's catalogue translates (the log quotes it)."""

    text: str
    effect: str
    args: dict[str, Any] = field(default_factory=dict)
    term: Term = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "term", Term(self.text))


@dataclass(frozen=True)
class Card:
    """One physical card (an instance: ``gamble-03a`` and ``gamble-03b`` are two copies of
    Gamble card 3). ``keep``: it goes face down into the drawer's hand, to be played later."""

    id: str
    deck: str
    number: int
    keep: bool
    criminals: Half
    cops: Half

    def half(self, faction: str) -> Half:
        return self.criminals if faction == "criminals" else self.cops


def load_cards(path: Path = DATA / "cards.json") -> tuple[dict[str, Card], dict[str, tuple[str, ...]]]:
    """Every card instance by id, and each deck's instance ids in printed order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for deck, rows in data["decks"].items():
        ids = []
        for row in rows:
            for copy in "ab"[: row.get("copies", 2)]:
                cid = f"{row['id']}{copy}"
                cards[cid] = Card(
                    cid, deck, int(row["number"]), bool(row["keep"]),
                    Half(**row["criminals"]), Half(**row["cops"]),
                )
                ids.append(cid)
        decks[deck] = tuple(ids)
    return cards, decks


CARDS, DECKS = load_cards()
ALL_CARDS: frozenset[str] = frozenset(CARDS)

# The decks as printed (the publisher's names), and as running text names them ("a gamble
# card"): words the game's catalogue translates.
DECK_NAMES: dict[str, Term] = {"gamble": Term("Gamble"), "gains": Term("Gains")}
DECK_WORDS: dict[str, Term] = {"gamble": Term("gamble"), "gains": Term("gains")}


def card_words(card: Card) -> Text:
    """A card as players name it, "Gamble 3", as a sentence a catalogue words.

    >>> str(card_words(CARDS["gains-05a"]))
    'Gains 5'
    """
    return _CARD_WORDS[card.id]


# Made once per card: a log line names one on every draw.
_CARD_WORDS: dict[str, Text] = {cid: t("{deck} {number}", deck=DECK_NAMES[c.deck], number=c.number) for cid, c in CARDS.items()}
