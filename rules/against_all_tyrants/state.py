"""Against All Tyrants' game state.

Phases: ``deal`` (five cards each, Defender first), ``mulligan`` and ``redraw`` (5.2.5.2),
``infiltrate`` (Infiltrate units that could go to either theater), then each turn ``draw``,
``deploy`` (phase 1), ``combat`` (phase 2), ``end`` (phase 3). While ``pending`` is not
empty its first entry is being resolved, whatever the phase: a card's text, a base's
damage to delegate, or a trait's offer (Supply, Compute, Transport, Sympathized, Backup).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.core import Deck, Escalation, Hand, State, serializable

from .cards import Card, CardSet, example_set, parse_card_set
from .decks import DeckList, example_decks, parse_deck

ROLES = ("attacker", "defender")
HOME = {"attacker": "space", "defender": "planetside"}


@serializable("aat.Piece")
@dataclass
class Piece:
    """A card in play: its instance ``id``, its ``card`` id, its ``owner`` seat, its
    ``theater`` (a leader: its base's) and its tokens (Damage included)."""

    id: str
    card: str
    owner: str
    theater: str
    tokens: dict[str, int] = field(default_factory=dict)

    def count(self, token: str) -> int:
        return self.tokens.get(token, 0)

    def add(self, token: str, n: int) -> None:
        v = self.tokens.get(token, 0) + n
        if v > 0:
            self.tokens[token] = v
        else:
            self.tokens.pop(token, None)


@serializable("aat.Pending")
@dataclass
class Pending:
    """Something being resolved: ``kind`` is ``text`` (a card's order or effect text),
    ``delegate``, ``supply``, ``compute``, ``transport``, ``rally`` or ``backup``; ``seat``
    resolves it; ``card`` is the instance whose text or trait it is; ``left`` how many
    draws, tokens or units remain; ``kind_of``: the unit type Transport places."""

    kind: str
    seat: str
    card: str = ""
    left: int = 0
    kind_of: str = ""
    text: str = ""
    target: str = ""  # delegate: the base hit
    expert: str = ""  # text: the X Expert units that count twice for this X card (RULINGS A-25), said in the prompt
    step: int = 0  # text with steps (steps.py): the step being carried out; ``left`` then counts its draws made


@serializable("aat.Side")
@dataclass
class SideState:
    """One player's cards: the main deck, the hand, the Special Forces Deck, objective cards
    set aside, the cards set aside during the mulligan, the discard pile, the Funds and the
    objective progress."""

    deck: Deck
    hand: Hand
    special_forces: list[str] = field(default_factory=list)
    objectives: list[str] = field(default_factory=list)
    aside: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    unused_base: str = ""
    scored: int = 0
    escaped: list[str] = field(default_factory=list)


@serializable("aat.State")
@dataclass(kw_only=True)
class AatState(State):
    sides: dict[str, SideState]
    pieces: dict[str, Piece] = field(default_factory=dict)
    escalation: Escalation = field(default_factory=Escalation)
    phase: str = "deal"
    turn: int = 0
    active: str = ""
    plays: int = 0
    redraw: int = 0
    ready: list[str] = field(default_factory=list)
    instructed: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)  # [type, left, by] while a Command's instructions are open
    repeat: list[str] = field(default_factory=list)  # [piece, attacks left] after a Repeater's attack
    pending: list[Pending] = field(default_factory=list)
    placed_objective: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        self._cards: CardSet = cards_of(self.options)
        self._role = {s.id: s.faction for s in self.seats}
        self._by_role = {s.faction: s.id for s in self.seats}
        self._others = {s.id: o.id for s in self.seats for o in self.seats if o.id != s.id}
        self._subfactions = {s.id: deck_of(self.options, s.faction).subfaction for s in self.seats}

    @property
    def cards(self) -> CardSet:
        return self._cards

    def role(self, seat: str) -> str:
        return self._role[seat]

    def seat_of(self, role: str) -> str:
        return self._by_role[role]

    def other(self, seat: str) -> str:
        return self._others[seat]

    def subfaction(self, seat: str) -> str:
        return self._subfactions[seat]

    def card(self, instance: str) -> Card:
        """The library card of an instance id (``"D:ff-rebel-cell#2"`` → Rebel Cell)."""
        return self._cards.of_instance(instance)

    def base(self, seat: str) -> Piece | None:
        for p in self.pieces.values():
            if p.owner == seat and self._cards[p.card].kind == "base":
                return p
        return None

    def in_theater(self, theater: str, owner: str | None = None) -> list[Piece]:
        return [p for p in self.pieces.values() if p.theater == theater and (owner is None or p.owner == owner)]

    def name(self, seat: str) -> str:
        """The player's name, for messages and the log."""
        return self.seat_name(seat)


def card_id(instance: str) -> str:
    """``"D:ff-rebel-cell#2"`` → ``"ff-rebel-cell"``."""
    return instance.partition(":")[2].rpartition("#")[0]


@lru_cache(maxsize=16)
def _cards_cached(text: str) -> CardSet:
    data = json.loads(text)
    return example_set() if not data else example_set().merged(parse_card_set(data))


def cards_of(options: dict[str, Any]) -> CardSet:
    """The card library of a game: the example set, plus the table's own cards (option ``cards``)."""
    return _cards_cached(json.dumps(options.get("cards", {}), sort_keys=True))


@lru_cache(maxsize=16)
def _deck_cached(text: str, default: str) -> DeckList:
    data = json.loads(text)
    if isinstance(data, str):
        decks = example_decks()
        if (data or default) not in decks:
            raise KeyError(f"no example deck {data!r} (the example decks: {', '.join(sorted(decks))})")
        return decks[data or default]
    return parse_deck(data)


def deck_of(options: dict[str, Any], role: str) -> DeckList:
    """The deck a role plays: an example deck's key, or a deck file's data."""
    default = "first-leaders-navy" if role == "attacker" else "freedom-fighters"
    return _deck_cached(json.dumps(options.get(f"{role}_deck", ""), sort_keys=True), default)


def instances(deck: Any, role: str) -> dict[str, list[str]]:
    """The card instance ids of a deck, per section: ``"D:ff-rebel-cell#2"``. Copies are
    numbered across the whole deck in section order (bases, Special Forces, main,
    objectives), so an id says which section the copy came from."""
    prefix = "A" if role == "attacker" else "D"
    seen: dict[str, int] = {}
    out: dict[str, list[str]] = {}
    for sec in ("bases", "special_forces", "main", "objectives"):
        ids = []
        for cid in deck.instances(sec):
            seen[cid] = seen.get(cid, 0) + 1
            ids.append(f"{prefix}:{cid}#{seen[cid]}")
        out[sec] = ids
    return out
