"""What a table's clocks are: the mode, the times, the warning and the over-time policy.

Times are given in seconds (floats are fine) and kept internally in whole microseconds so
that adding, splitting and comparing time is exact.

>>> c = ClockConfig(ClockMode.FISCHER, main=300, increment=3)
>>> c.describe()
'Fischer 5:00 + 3s per move'
>>> ClockConfig.from_data(c.to_data()) == c
True
>>> ClockConfig(ClockMode.FISCHER, main=300)
Traceback (most recent call last):
...
companion.clocks.config.ClockConfigError: increment: Fischer needs an increment greater than 0 seconds
"""
from __future__ import annotations

import enum
import json
import math
import reprlib
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any, Mapping

from rules.datafile import at

from ..errors import CompanionError

US = 1_000_000  # microseconds per second
MAX_SECONDS = 366 * 24 * 3600
"""The longest time a clock setting may give: a year (longer is a typing slip, and keeps
every microsecond count far from float and loop limits)."""
MAX_COUNT = 10_000  # the most byo-yomi periods, moves per Canadian block
MAX_POINTS = 1_000_000  # the most penalty points per minute

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 40


def short(value: Any) -> str:
    """A bounded ``repr`` for messages: never deep, never long, never an error.

    >>> short("x" * 100), short([[[[[[[[1]]]]]]]])
    ("'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'", '[[[[[[[...]]]]]]]')
    """
    try:
        return _REPR.repr(value)
    except (ValueError, RecursionError):  # an int too long to print, a pathological object
        return f"a {type(value).__name__} too large to show"


def to_us(seconds: float) -> int:
    """Seconds → whole microseconds (the unit every clock computes in).

    >>> to_us(1.5), to_us(0.0000004)
    (1500000, 0)
    """
    return round(seconds * US)


def to_s(us: int) -> float:
    """Microseconds → seconds."""
    return us / US


def format_time(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``), with a minus sign when over time; rounds towards the
    next whole second so a clock never shows 0:00 while time remains.

    >>> format_time(125), format_time(0.2), format_time(-61), format_time(3725)
    ('2:05', '0:01', '-1:01', '1:02:05')
    """
    if math.isinf(seconds):
        return "∞"
    sign = "-" if seconds < 0 else ""
    total = math.ceil(abs(seconds)) if seconds > 0 else math.floor(abs(seconds))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{sign}{h}:{m:02d}:{s:02d}" if h else f"{sign}{m}:{s:02d}"


class ClockMode(str, enum.Enum):
    """How a seat's time is counted (REFERENCE §6, "Turn clocks")."""

    SUDDEN_DEATH = "sudden-death"  # one budget for the whole game
    FISCHER = "fischer"  # + increment after every completed move, move 1 included
    BRONSTEIN = "bronstein"  # after a move, refund the time it used, at most the delay
    SIMPLE_DELAY = "simple-delay"  # each turn the clock starts only after the delay (US delay)
    HOURGLASS = "hourglass"  # time you use flows to the other seats
    BYO_YOMI = "byo-yomi"  # main time, then N periods; a move inside a period keeps it
    CANADIAN = "canadian"  # main time, then blocks: ``period_moves`` moves within ``period``
    UNTIMED = "untimed"  # counts time used only (for a game that wants just the turn timer)


class OvertimePolicy(str, enum.Enum):
    """What running out of time means. The clocks only report it; the Table applies it."""

    NONE = "none"  # an "over time" alert only
    PENALTY = "penalty"  # points (influence…) per started minute over time
    LOSS = "loss"  # the seat loses


class ClockConfigError(CompanionError, ValueError):
    """A clock setting that makes no sense; ``field`` names it, ``code`` classifies it and
    ``source`` (when the settings were read from data) says where they came from."""

    def __init__(self, field: str, code: str, message: str, source: str = "") -> None:
        super().__init__(f"{source}: {field}: {message}" if source else f"{field}: {message}")
        self.field = field
        self.code = code
        self.message = message
        self.source = source


_LABELS = {
    ClockMode.SUDDEN_DEATH: "Sudden death",
    ClockMode.FISCHER: "Fischer",
    ClockMode.BRONSTEIN: "Bronstein",
    ClockMode.SIMPLE_DELAY: "Simple delay",
    ClockMode.HOURGLASS: "Hourglass",
    ClockMode.BYO_YOMI: "Byo-yomi",
    ClockMode.CANADIAN: "Canadian",
    ClockMode.UNTIMED: "Untimed",
}


def _seconds(name: str, value: Any, *, allow_zero: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ClockConfigError(name, "not-a-number", f"must be a number of seconds, not {short(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ClockConfigError(name, "not-finite", "must be a finite number of seconds")
    if value < 0 or (value == 0 and not allow_zero) or value > MAX_SECONDS:
        bound = "0" if allow_zero else "more than 0"
        raise ClockConfigError(name, "out-of-range", f"must be from {bound} to {MAX_SECONDS} seconds (a year), not {short(value)}")
    return float(value)


def _count(name: str, value: Any, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ClockConfigError(name, "out-of-range", f"must be a whole number from 0 to {high}, not {short(value)}")


@dataclass(frozen=True)
class ClockConfig:
    """Every setting of a table's clocks, validated on construction.

    ``main``: each seat's starting time. ``increment``: Fischer's bonus per move.
    ``delay``: Bronstein's refund cap or the simple delay. ``periods`` × ``period``:
    byo-yomi after the main time; ``period_moves`` moves in each ``period``: Canadian
    overtime after the main time. ``warning``: the low-time alert threshold (``None``: off).
    ``overtime`` and ``penalty_per_minute``: what flag fall costs. ``turn_limit``: the
    optional turn timer ("turn over in 2:00"), independent of the mode.
    """

    mode: ClockMode
    main: float = 0.0
    increment: float = 0.0
    delay: float = 0.0
    periods: int = 0
    period: float = 0.0
    period_moves: int = 0
    warning: float | None = None
    overtime: OvertimePolicy = OvertimePolicy.LOSS
    penalty_per_minute: int = 0
    turn_limit: float | None = None

    def __post_init__(self) -> None:
        try:
            if not isinstance(self.mode, str):  # before Enum's own message reprs it, however deep
                raise ValueError(self.mode)
            mode = ClockMode(self.mode)
        except ValueError:
            known = ", ".join(m.value for m in ClockMode)
            raise ClockConfigError("mode", "unknown-mode", f"unknown mode {short(self.mode)}; known: {known}") from None
        try:
            if not isinstance(self.overtime, str):
                raise ValueError(self.overtime)
            policy = OvertimePolicy(self.overtime)
        except ValueError:
            known = ", ".join(p.value for p in OvertimePolicy)
            raise ClockConfigError(
                "overtime", "unknown-policy", f"unknown over-time policy {short(self.overtime)}; known: {known}"
            ) from None
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "overtime", policy)
        label = _LABELS[mode]
        for name in ("main", "increment", "delay", "period"):
            object.__setattr__(self, name, _seconds(name, getattr(self, name)))
        _count("periods", self.periods, MAX_COUNT)
        _count("period_moves", self.period_moves, MAX_COUNT)

        def forbid(name: str) -> None:
            if getattr(self, name):
                raise ClockConfigError(name, "not-used", f"{label} has no {name}; leave it at 0")

        def need(name: str, what: str) -> None:
            if not getattr(self, name):
                raise ClockConfigError(name, "missing", f"{label} needs {what} greater than 0 seconds")

        if mode is ClockMode.UNTIMED:
            for name in ("main", "increment", "delay", "periods", "period", "period_moves"):
                forbid(name)
        elif mode is ClockMode.BYO_YOMI:
            forbid("increment")
            forbid("delay")
            forbid("period_moves")
            if self.periods < 1:
                raise ClockConfigError("periods", "missing", "Byo-yomi needs at least 1 period")
            need("period", "a period")
        elif mode is ClockMode.CANADIAN:
            forbid("increment")
            forbid("delay")
            forbid("periods")
            need("period", "a block time (period)")
            if self.period_moves < 1:
                raise ClockConfigError("period_moves", "missing", "Canadian needs at least 1 move per period")
        else:
            need("main", "a main time")
            forbid("periods")
            forbid("period")
            forbid("period_moves")
            if mode is ClockMode.FISCHER:
                need("increment", "an increment")
            else:
                forbid("increment")
            if mode in (ClockMode.BRONSTEIN, ClockMode.SIMPLE_DELAY):
                need("delay", "a delay")
            else:
                forbid("delay")
        if self.warning is not None:
            object.__setattr__(self, "warning", _seconds("warning", self.warning, allow_zero=False))
            if mode is ClockMode.UNTIMED:
                raise ClockConfigError("warning", "not-used", "Untimed clocks never run low; leave warning unset")
        if self.turn_limit is not None:
            object.__setattr__(self, "turn_limit", _seconds("turn_limit", self.turn_limit, allow_zero=False))
        if isinstance(self.penalty_per_minute, bool) or not isinstance(self.penalty_per_minute, int):
            raise ClockConfigError("penalty_per_minute", "not-a-number", "must be a whole number of points")
        if abs(self.penalty_per_minute) > MAX_POINTS:
            raise ClockConfigError("penalty_per_minute", "out-of-range", f"must be at most {MAX_POINTS} points")
        if policy is OvertimePolicy.PENALTY:
            if self.penalty_per_minute <= 0:
                raise ClockConfigError(
                    "penalty_per_minute", "missing", "the penalty policy needs points per minute greater than 0"
                )
        elif self.penalty_per_minute:
            raise ClockConfigError(
                "penalty_per_minute", "not-used", f"only the penalty policy charges points, not {policy.value!r}"
            )
        if mode is ClockMode.UNTIMED and policy is not OvertimePolicy.NONE:
            raise ClockConfigError("overtime", "not-used", "Untimed clocks never run out; use overtime='none'")

    # --- microsecond views (what the ClockSet computes with) -----------------------------
    @property
    def main_us(self) -> int:
        return to_us(self.main)

    @property
    def increment_us(self) -> int:
        return to_us(self.increment)

    @property
    def delay_us(self) -> int:
        return to_us(self.delay)

    @property
    def period_us(self) -> int:
        return to_us(self.period)

    @property
    def warning_us(self) -> int | None:
        return None if self.warning is None else to_us(self.warning)

    @property
    def turn_limit_us(self) -> int | None:
        return None if self.turn_limit is None else to_us(self.turn_limit)

    def describe(self) -> str:
        """A short human label, e.g. ``'Byo-yomi 10:00 + 5 × 0:30'``."""
        label = _LABELS[self.mode]
        m = self.mode
        if m is ClockMode.UNTIMED:
            text = label
        elif m is ClockMode.FISCHER:
            text = f"{label} {format_time(self.main)} + {self.increment:g}s per move"
        elif m in (ClockMode.BRONSTEIN, ClockMode.SIMPLE_DELAY):
            text = f"{label} {format_time(self.main)}, {self.delay:g}s delay"
        elif m is ClockMode.BYO_YOMI:
            text = f"{label} {format_time(self.main)} + {self.periods} × {format_time(self.period)}"
        elif m is ClockMode.CANADIAN:
            text = f"{label} {format_time(self.main)} + {self.period_moves} moves in {format_time(self.period)}"
        else:
            text = f"{label} {format_time(self.main)}"
        if self.turn_limit is not None:
            text += f", turn timer {format_time(self.turn_limit)}"
        return text

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data (enums as their string values)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any], source: str = "clock settings") -> ClockConfig:
        """Inverse of :meth:`to_data`; unknown or missing keys and bad values are a
        :class:`ClockConfigError` naming ``source`` and the field.

        >>> ClockConfig.from_data({"mode": "fischer", "main": 300, "increment": "3"}, "presets.json")
        Traceback (most recent call last):
        ...
        companion.clocks.config.ClockConfigError: presets.json: increment: must be a number of seconds, not '3'
        """
        if not isinstance(data, Mapping):
            raise ClockConfigError("(top)", "not-a-mapping", f"clock settings must be a mapping, not {short(data)}", source)
        names = {f.name for f in fields(cls)}
        unknown = [k for k in data if k not in names]
        if unknown:
            raise ClockConfigError(
                at("", str(unknown[0])), "unknown-field", f"there is no clock setting {short(unknown[0])}", source
            )
        if "mode" not in data:
            raise ClockConfigError("mode", "missing", "clock settings need a mode", source)
        try:
            return cls(**dict(data))
        except ClockConfigError as e:
            raise ClockConfigError(e.field, e.code, e.message, source) from None


def presets() -> dict[str, ClockConfig]:
    """The ready-made clock settings shipped in ``presets.json``, by name, in file order.

    >>> p = presets()
    >>> p["Blitz 5+3"].describe()
    'Fischer 5:00 + 3s per move'
    """
    text = resources.files(__package__).joinpath("presets.json").read_text(encoding="utf-8")
    return {name: ClockConfig.from_data(data, f"presets.json, {name}") for name, data in json.loads(text).items()}
