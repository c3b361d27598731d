"""What the clocks report: events for the Table to act on, and the admin log.

>>> e = ClockEvent(EventKind.WARNING, "cop-1", remaining=29.5)
>>> e.message()
'cop-1: low time, 0:30 left'
>>> ClockEvent.from_data(e.to_data()) == e
True
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping

from .config import OvertimePolicy, format_time


class EventKind(str, enum.Enum):
    WARNING = "warning"  # remaining time fell to the warning threshold (once per crossing)
    OVER_TIME = "over-time"  # remaining time reached 0 (once per crossing); see ``consequence``
    PENALTY = "penalty"  # one more started minute over time, costing ``points`` (Table.time_penalties)
    PERIOD_USED = "period-used"  # a byo-yomi period ran out; ``periods_left`` remain
    TURN_OVER = "turn-over"  # the turn timer ran out for this seat's current turn
    ADJUSTED = "adjusted"  # an admin added (``delta`` > 0) or removed time
    RESTORED = "restored"  # after a restart, ``-delta`` seconds of downtime were charged


@dataclass(frozen=True)
class ClockEvent:
    """One thing that happened to a seat's clock. ``remaining`` is the seat's remaining
    time (the turn timer's for ``TURN_OVER``) when the event was detected, in seconds."""

    kind: EventKind
    seat: str
    remaining: float
    consequence: OvertimePolicy | None = None
    minute: int = 0
    points: int = 0
    periods_left: int | None = None
    delta: float = 0.0

    def message(self) -> str:
        """A sentence for the log or a toast (names the seat id; the UI may swap in names)."""
        k, who, left = self.kind, self.seat, format_time(self.remaining)
        if k is EventKind.WARNING:
            return f"{who}: low time, {left} left"
        if k is EventKind.OVER_TIME:
            tail = {
                OvertimePolicy.LOSS: "the seat loses on time",
                OvertimePolicy.PENALTY: "penalty points per started minute over",
                OvertimePolicy.NONE: "play on",
                None: "play on",
            }[self.consequence]
            return f"{who}: out of time ({tail})"
        if k is EventKind.PENALTY:
            return f"{who}: minute {self.minute} over time, {self.points} penalty point(s)"
        if k is EventKind.PERIOD_USED:
            return f"{who}: byo-yomi period used, {self.periods_left} left"
        if k is EventKind.TURN_OVER:
            return f"{who}: turn time is over"
        if k is EventKind.ADJUSTED:
            verb = "added" if self.delta > 0 else "removed"
            return f"{who}: {format_time(abs(self.delta))} {verb} by the admin, {left} left"
        return f"{who}: {format_time(-self.delta)} charged for the time the app was closed"

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "seat": self.seat,
            "remaining": self.remaining,
            "consequence": None if self.consequence is None else self.consequence.value,
            "minute": self.minute,
            "points": self.points,
            "periods_left": self.periods_left,
            "delta": self.delta,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClockEvent:
        c = data.get("consequence")
        return cls(
            kind=EventKind(data["kind"]),
            seat=data["seat"],
            remaining=float(data["remaining"]),
            consequence=None if c is None else OvertimePolicy(c),
            minute=int(data.get("minute", 0)),
            points=int(data.get("points", 0)),
            periods_left=data.get("periods_left"),
            delta=float(data.get("delta", 0.0)),
        )


@dataclass(frozen=True)
class ClockLogEntry:
    """An admin-visible change of a seat's time that did not come from playing:
    ``kind`` is ``"adjusted"`` (admin) or ``"restored"`` (downtime charged after a restart);
    ``delta`` in seconds (negative: time taken), ``wall`` the epoch time it happened."""

    kind: str
    seat: str
    delta: float
    wall: float
    reason: str = ""

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "delta": self.delta, "wall": self.wall, "reason": self.reason}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClockLogEntry:
        return cls(str(data["kind"]), str(data["seat"]), float(data["delta"]), float(data["wall"]), str(data.get("reason", "")))
