"""Tyranny's game state.

Phases (``phase``; ``actor`` is the seat that must act):

* ``start`` — a free piece's turn: roll to move, or capture, play a card, open/collapse a tunnel;
* ``custody`` — a captured piece's turn: roll a 6 (or the numbers a card set), pay, or play a card;
* ``capture`` — a capture turn's roll(s);
* ``move`` — choose the destination tile (``routes``: destination → tiles passed);
* ``passing`` — the mover passed ``queue[0]``: choose a three-number range, or decline;
* ``capture-roll`` — ``target`` rolls; inside ``numbers`` it goes free, otherwise it is captured;
* ``arrest`` — landed on an enemy: arrest it, or decline;
* ``react`` — a window upon an arrest (Gamble 3): the top of ``reactions`` may play a card or decline;
* ``draw`` — on a Gamble/Gains tile: draw from ``draw_deck``, or decline;
* ``cross`` — on the faction's home base: cross to the other tier, or decline;
* ``card-roll`` — Gamble 8's roll;
* ``pick`` — choose a card from an opponent's face-down hand (Gains 5, Gains 10).

``stage`` says where a move's landing has got to: ``passing`` → ``landing`` → ``tile`` → ``done``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import Deck, Hand, ReactionStack, State, Streak, Track, TurnOrder, serializable

from .board import Board, default_board


STREAK = 3
"""Consecutive turns a faction must hold its winning condition (Winning)."""


@serializable("tyranny.State")
@dataclass(kw_only=True)
class TyrannyState(State):
    order: TurnOrder
    pos: dict[str, str]
    custody: dict[str, list[int]]  # captured seat → the numbers that free it on an escape roll
    owner: dict[str, str]  # property tile → owning faction (absent: unowned)
    open_tunnels: list[str]
    influence: Track
    criminal_streak: Streak
    cop_streak: Streak
    decks: dict[str, Deck]
    hands: dict[str, Hand]
    board: Board = field(default_factory=default_board)  # stored as its data: {} = the default
    phase: str = "start"
    actor: str = ""
    stage: str = "done"
    routes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    queue: list[str] = field(default_factory=list)
    target: str = ""
    numbers: list[int] = field(default_factory=list)
    reactions: ReactionStack = field(default_factory=ReactionStack)  # window data: (captive, tile)
    draw_deck: str = ""
    pick: str = ""  # "discard" | "steal"
    pick_then: str = ""  # the phase after the pick: "start" or "" (the turn ends)
    extra_rolls: int = 0
    capture_range: list[int] = field(default_factory=list)
    tunnel_done: bool = False
    declined: list[str] = field(default_factory=list)  # enemies not arrested on the landing tile

    def __post_init__(self) -> None:
        super().__post_init__()
        self._faction = {s.id: s.faction for s in self.seats}
