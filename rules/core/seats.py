"""Seats, factions and turn order.

A seat is one place at the table that acts in turn (in Tyranny, one piece). Several seats
may belong to one faction (a team) and one person may play several seats.

>>> order = TurnOrder(["cop-1", "crim-1", "cop-2", "crim-2"])
>>> order.skip("crim-1")
>>> order.advance()           # crim-1 misses this turn
['crim-1']
>>> order.current
'cop-2'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .text import t
from .errors import InvalidSetup, Violation
from .jsondata import serializable

PUBLIC = "public"
"""The viewer id of the shared screen: a view for it strips every secret."""


@serializable("core.Seat")
@dataclass(frozen=True, slots=True)
class Seat:
    id: str
    faction: str
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or self.id


def parse_seats(seats: Iterable[Seat | dict[str, Any] | tuple[str, str]]) -> list[Seat]:
    """Accept seats as :class:`Seat`, ``{"id","faction","name"}`` dicts or ``(id, faction)``."""
    out: list[Seat] = []
    for s in seats:
        if isinstance(s, Seat):
            out.append(s)
        elif isinstance(s, dict):
            out.append(Seat(str(s["id"]), str(s["faction"]), str(s.get("name", ""))))
        else:
            sid, faction = s
            out.append(Seat(str(sid), str(faction)))
    ids = [s.id for s in out]
    problems = []
    if len(set(ids)) != len(ids):
        problems.append(Violation("duplicate-seat", "Setup", t("Every seat needs its own id.")))
    if PUBLIC in ids:
        problems.append(Violation("reserved-seat-id", "Setup", t("{seat} is reserved for the shared screen.", seat=repr(PUBLIC))))
    if problems:
        raise InvalidSetup(problems)
    return out


@serializable("core.TurnOrder")
@dataclass
class TurnOrder:
    """Whose turn it is, with missed turns. ``turn`` counts turns taken (from 1);
    ``round`` counts passes through the whole order."""

    order: list[str]
    index: int = 0
    skips: dict[str, int] = field(default_factory=dict)
    turn: int = 1
    round: int = 1

    @property
    def current(self) -> str:
        return self.order[self.index]

    def skip(self, seat: str, turns: int = 1) -> None:
        """``seat`` misses its next ``turns`` turns."""
        self.skips[seat] = self.skips.get(seat, 0) + turns

    def advance(self) -> list[str]:
        """Pass the turn on; return the seats whose turn was missed on the way."""
        missed: list[str] = []
        n = len(self.order)
        while True:
            self.index += 1
            if self.index == n:
                self.index = 0
                self.round += 1
            seat = self.order[self.index]
            left = self.skips.get(seat, 0)
            if left <= 0:
                break
            if left == 1:
                del self.skips[seat]
            else:
                self.skips[seat] = left - 1
            missed.append(seat)
        self.turn += 1
        return missed
