"""Outrage!'s game state.

Phases (``phase``; ``actor`` is the seat that must act):

* ``deal`` — each seat is dealt three Tower cards (draws, physical or the app's);
* ``first`` — every contender throws 2d6; the highest starts (ties throw again);
* ``start`` — a free player's turn: throw, attack, change cards, play Sanctuary, escape;
* ``again`` — a further throw after a double;
* ``move`` — choose where the piece being moved (``mover``) goes, or split a seven;
* ``accredit`` — at Queen's House after the first circuit: a Tower Pass or an odd throw;
* ``prison`` — held in the Bloody, Bowyer or Beauchamp Tower: throw for a double, or a card;
* ``rack`` — on the Rack: wait, or a Rope or Ladder;
* ``tea`` — at the Governor's tea: a Tower Pass, or stay a turn longer;
* ``burgle`` — a burglary under way: throw for the target, or abandon it;
* ``attack`` — attacker and defender lay weapons face down (a secret commit);
* ``draw-tower`` / ``draw-raven`` — a card drawn for ``actor``;
* ``choose`` — a public choice among ``choices`` (a card's options, a square, a post);
* ``offer`` — a card ``actor`` may play now (``offer`` names the moment) or decline;
* ``burgle-offer`` — on a square facing a jewel: declare a burglary, or not;
* ``change-offer`` — on a "change a card" square;
* ``surrender`` / ``challenge`` — surrendering weapons, and the challenge window;
* ``ferry`` — after an escape: go back in, or retire.

``tasks`` queues what a landing (or a card) still has to do, each a ``(kind, seat, arg)``
:data:`Task` (saved as a ``[kind, seat, arg]`` list); ``end_now`` says the turn ends once
they are done (no further throw).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core import Deck, Hand, SecretRound, State, TurnOrder, serializable

from .cards import TOWER

CASE = "case"
"""Where a jewel in its case is (``jewels[j]``); otherwise the seat carrying it, or
``ESCAPED``."""
ESCAPED = "escaped"

Task = tuple[str, str, str]
"""A queued task: its kind (``draw-tower``, ``go``, ``prison``…), the seat it is for and its
argument (a square, a count, a card; ``""`` for none). Tuples: made on every landing, never
changed."""


@serializable("outrage.Held")
@dataclass
class Held:
    """A player held somewhere: ``place`` (bloody, bowyer, beauchamp, rack), the turns
    served so far and the most it can last."""

    place: str
    served: int = 0
    limit: int = 3


@serializable("outrage.Burglary")
@dataclass
class Burglary:
    jewel: str
    tools: list[str]
    attempts: int = 0


@serializable("outrage.State")
@dataclass(kw_only=True)
class OutrageState(State):
    order: TurnOrder
    pos: dict[str, str]
    accredited: dict[str, bool]
    coins: dict[str, bool]
    mint: int
    jewels: dict[str, str]
    escaped: dict[str, list[str]]
    warders: dict[str, bool]
    hands: dict[str, Hand]
    decks: dict[str, Deck]
    held: dict[str, Held] = field(default_factory=dict)
    burglaries: dict[str, Burglary] = field(default_factory=dict)
    retired: list[str] = field(default_factory=list)
    sanctuary: list[str] = field(default_factory=list)
    tea: list[str] = field(default_factory=list)
    phase: str = "deal"
    actor: str = ""
    first_throws: dict[str, int] = field(default_factory=dict)
    contenders: list[str] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    doubles: int = 0
    visited: list[str] = field(default_factory=list)
    mover: str = ""
    steps: int = 0
    released: bool = False  # the piece moves out of a prison this move
    split: list[Any] = field(default_factory=list)  # [other seat, steps] still to move
    again: bool = False
    end_now: bool = False
    extra: bool = False
    tasks: list[Task] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    choice_for: str = ""  # what the ``choose`` step decides
    offer: str = ""  # the moment of an ``offer`` step
    raven: str = ""  # the Raven card being obeyed (shown to the table)
    combat: SecretRound | None = None
    laid: dict[str, list[str]] = field(default_factory=dict)  # attack: cards laid face down
    accused: str = ""
    challengers: list[str] = field(default_factory=list)
    # A swap under way: [the lander, the other, the card the lander has received, the card
    # the other has received] ("" until given; RULINGS R-10).
    swap: list[str] = field(default_factory=list)
    fresh: bool = False  # at the very start of a turn: the moment a position describes

    def __post_init__(self) -> None:
        super().__post_init__()
        self._faction = {s.id: s.faction for s in self.seats}
        # Each seat's opponents, in the turn order: every other seat, or with teams every
        # seat of another colour (fixed for the game; asked at every turn's start).
        teams = self.options.get("teams", False)
        self._opponents = {s: tuple(o for o in self.order.order if o != s and not (teams and self._faction[o] == self._faction[s]))
                           for s in self.order.order}

    def in_play(self, seat: str) -> bool:
        """Still in the game: not retired after an escape (THE ENDGAME)."""
        return seat not in self.retired

    def team(self, seat: str) -> str:
        """The side ``seat`` plays for: its colour when seats of one colour play as a team
        (RULINGS S-02), else the seat alone."""
        return self._faction[seat] if self.options["teams"] else seat

    def opponents(self, seat: str) -> tuple[str, ...]:
        """The other seats, in the turn order; with teams, the seats of another colour."""
        return self._opponents[seat]

    def carried(self, seat: str) -> list[str]:
        """The jewels ``seat`` has stolen and still carries inside the Tower."""
        return [j for j, w in self.jewels.items() if w == seat]

    def cards_of(self, seat: str, *kinds: str) -> list[str]:
        """The Tower cards of the given kinds in ``seat``'s hand."""
        return [c for c in self.hands[seat].cards if TOWER[c].kind in kinds]
