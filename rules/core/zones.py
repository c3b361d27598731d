"""Decks and hidden zones.

Card ids name physical card instances ("gamble-03b"), so conservation can be checked by
counting ids across every zone.

>>> from rules.core.rng import Rng
>>> d = Deck("city", cards=["a", "b"], discard=["c"])
>>> d.draw(Rng(1)), d.draw(Rng(1))
('a', 'b')
>>> d.needs_reshuffle, d.reshuffles
(True, 0)
>>> d.draw(Rng(1)), d.reshuffles
('c', 1)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .rng import Rng
from .errors import RulesError
from .jsondata import serializable


class EmptyDeck(RulesError, LookupError):
    """Nothing left to draw, even after reshuffling the discards."""


@serializable("core.Deck")
@dataclass
class Deck:
    """A draw pile (``cards[0]`` is the top) and its discard pile.

    ``reshuffles`` counts how often the discards became a new draw pile: Liberation's
    ACTs end on reshuffles. ``auto_reshuffle`` makes :meth:`draw` reshuffle by itself.
    """

    name: str
    cards: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    reshuffles: int = 0
    auto_reshuffle: bool = True

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def needs_reshuffle(self) -> bool:
        return not self.cards

    @property
    def top(self) -> str | None:
        return self.cards[0] if self.cards else None

    def shuffle(self, rng: Rng) -> None:
        rng.shuffle(self.cards)

    def reshuffle(self, rng: Rng) -> None:
        """Turn the discard pile into a new, shuffled draw pile."""
        self.cards.extend(self.discard)
        self.discard.clear()
        rng.shuffle(self.cards)
        self.reshuffles += 1

    def draw(self, rng: Rng) -> str:
        """Take the top card, reshuffling the discards first when the pile is empty."""
        if not self.cards:
            if not self.auto_reshuffle or not self.discard:
                raise EmptyDeck(self.name)
            self.reshuffle(rng)
        return self.cards.pop(0)

    def take(self, card: str) -> None:
        """Remove a named card from the draw pile: the physical card a player drew."""
        self.cards.remove(card)

    def take_drawn(self, card: str, rng: Rng) -> None:
        """Remove the named drawn card, reshuffling the discards first if the pile is empty."""
        if not self.cards and self.auto_reshuffle:
            self.reshuffle(rng)
        self.cards.remove(card)

    def can_draw(self, card: str) -> bool:
        """Whether ``card`` could be the next card drawn (from the pile, or the reshuffled discards)."""
        if self.cards:
            return card in self.cards
        return self.auto_reshuffle and card in self.discard

    def put_bottom(self, card: str) -> None:
        self.cards.append(card)

    def put_discard(self, card: str) -> None:
        self.discard.append(card)


def next_pile(deck: Deck) -> list[str]:
    """The cards the next draw from ``deck`` comes from: its draw pile, or its discards
    when drawing would reshuffle them, or nothing.

    >>> next_pile(Deck("city", cards=[], discard=["c"]))
    ['c']
    """
    if deck.cards:
        return deck.cards
    return deck.discard if deck.auto_reshuffle else []


def swap_into(pile: list[str], zones: list[list[str]], card: str) -> str | None:
    """Swap ``card``, found in one of ``zones``, with the top of ``pile``; returns the card
    that took its place (``None`` when ``card`` is in no zone or ``pile`` is empty).

    >>> deck, hand = ["a", "b"], ["x", "y"]
    >>> swap_into(deck, [hand], "y"), deck, hand
    ('a', ['y', 'b'], ['x', 'a'])
    """
    if not pile:
        return None
    for zone in zones:
        if card in zone and zone is not pile:
            i = zone.index(card)
            zone[i], pile[0] = pile[0], card
            return zone[i]
    return None


@serializable("core.Hand")
@dataclass
class Hand:
    """Face-down cards. Only the owner's view shows them; others see the count."""

    owner: str
    cards: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def add(self, card: str) -> None:
        self.cards.append(card)

    def remove(self, card: str) -> None:
        self.cards.remove(card)

    def view(self, viewer: str) -> dict[str, object]:
        if viewer == self.owner:
            return {"count": len(self.cards), "cards": list(self.cards)}
        return {"count": len(self.cards)}
