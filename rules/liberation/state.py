"""Liberation's game state, its public events and the hidden history of the base.

Phases, in order: ``setup-discard`` (the top card(s) discarded face down: the balance
adjustment), ``deal`` (three cards each, Dynasty first), ``first-city`` (the Dynasty's first
occupied City), ``base`` (the Liberation's secret base), then turns: ``step1``, ``step2``,
``claim`` (after an Attack took a card), ``ask`` (after a mission with a referee question),
``step3`` (discard down to 3).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.core import Deck, Hand, State, serializable

from .mapdata import MapSpec, parse_map_cached
from .missions import MissionTable, parse_missions_cached

DECK = "city"
HAND_LIMIT = 3
SETUP_PHASES = ("setup-discard", "deal", "first-city", "base")
STEP_OF_PHASE = {"step1": 1, "step2": 2, "claim": 2, "ask": 2, "step3": 3}


@serializable("liberation.Event")
class Event(NamedTuple):
    """Something that happened in public, for the table screen and the log. A NamedTuple
    like the kernel's ``LogEntry``: most actions write one, and a frozen dataclass sets
    each of its eight fields through ``object.__setattr__``.

    ``kind`` and ``result``: ``attack`` → ``miss`` | ``taken`` | ``base-found``;
    ``claim`` → ``occupied`` | ``discarded``; ``sabotage`` → ``miss`` | ``discarded``;
    ``answer`` → ``yes`` | ``no``; ``mission``, ``occupy``, ``first-city``, ``unexploit`` → ``""``.
    ``city`` is the City named, revealed or occupied; ``exploit`` the City exploited for it;
    ``cities`` the Cities a referee question names.
    """

    ply: int
    turn: int
    kind: str
    seat: str
    city: str = ""
    exploit: str = ""
    result: str = ""
    cities: tuple[str, ...] = ()

    def public(self, text: str) -> dict[str, Any]:
        """The event as views show it; ``text`` is its log line (kept once, in the log)."""
        return {
            "ply": self.ply, "turn": self.turn, "kind": self.kind, "seat": self.seat, "city": self.city,
            "exploit": self.exploit, "result": self.result, "cities": list(self.cities), "text": text,
        }

    def named(self) -> set[str]:
        """The city ids this event shows."""
        out = set(self.cities)
        if self.city:
            out.add(self.city)
        if self.exploit:
            out.add(self.exploit)
        return out


@serializable("liberation.BaseMove")
@dataclass(frozen=True)
class BaseMove:
    """One entry of the hidden history: the base put down at ``to_city`` (``from_city`` is
    ``""`` for the setup placement). Shown to everyone only when the game is over."""

    ply: int
    turn: int
    act: int
    from_city: str
    to_city: str
    # True when no Evade moved it: a physical draw named the base's card (RULINGS L-14).
    redrawn: bool = False


@serializable("liberation.State")
@dataclass(kw_only=True)
class LiberationState(State):
    deck: Deck
    hands: dict[str, Hand]
    occupied: list[str] = field(default_factory=list)
    exploited: list[str] = field(default_factory=list)
    base: str = ""
    phase: str = "setup-discard"
    setup_left: int = 0
    # The setup's face-down discards nobody has seen (RULINGS L-14): the app's stand-ins
    # for the table's unseen cards, swapped for a deck card when a physical draw names one.
    unseen: list[str] = field(default_factory=list)
    # Cards shown face up and then discarded (a mission's card, a Claim's or a Sabotage's
    # discard), until the next reshuffle: publicly in the discard pile, so never drawn (L-14).
    shown: list[str] = field(default_factory=list)
    active: str = ""
    turn: int = 0
    taken: str = ""  # the card an Attack took, until the Dynasty claims it
    asking: str = ""  # the mission card whose referee question is awaited
    events: list[Event] = field(default_factory=list)  # the most recent public events
    moves: list[BaseMove] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        # Derived from the options and the seats, so neither fields, serialised nor
        # compared: plain attributes (read on nearly every action), never to be assigned.
        self.map: MapSpec = parse_map_cached(self.options["map"])
        self.missions: MissionTable = parse_missions_cached(self.options["missions"])
        self.dynasty: str = next(s.id for s in self.seats if s.faction == "dynasty")
        """The Dynasty's seat id."""
        self.liberation: str = next(s.id for s in self.seats if s.faction == "liberation")
        """The Liberation's seat id."""

    @property
    def act(self) -> int:
        """ACT I, II or III: one more than the reshuffles so far."""
        return self.deck.reshuffles + 1

    @property
    def step(self) -> int | None:
        return STEP_OF_PHASE.get(self.phase)

    def side(self, seat: str) -> str:
        return "dynasty" if seat == self.dynasty else "liberation"

    def other(self, seat: str) -> str:
        return self.liberation if seat == self.dynasty else self.dynasty

    def name(self, city: str) -> str:
        return self.map.name_of(city)
