"""Game clocks for a table: per-seat clocks in seven modes (and untimed), pause, admin
time, warnings, over-time consequences, an optional turn timer, and journal-ready
snapshots.

>>> from companion.clocks import ClockConfig, ClockMode, ClockSet
>>> t = [0.0]
>>> cs = ClockSet(ClockConfig(ClockMode.HOURGLASS, main=60), ["a", "b"], clock=lambda: t[0])
>>> cs.switch_to("a"); t[0] = 20.0
>>> cs.remaining("a"), cs.remaining("b")
(40.0, 80.0)
"""
from .clockset import (
    ClockAdjustError,
    ClockDataError,
    ClockError,
    ClockSet,
    SeatClock,
    UnknownSeatError,
)
from .config import ClockConfig, ClockConfigError, ClockMode, OvertimePolicy, format_time, presets
from .events import ClockEvent, ClockLogEntry, EventKind

__all__ = [
    "ClockAdjustError",
    "ClockConfig",
    "ClockConfigError",
    "ClockDataError",
    "ClockError",
    "ClockEvent",
    "ClockLogEntry",
    "ClockMode",
    "ClockSet",
    "EventKind",
    "OvertimePolicy",
    "SeatClock",
    "UnknownSeatError",
    "format_time",
    "presets",
]
