"""Bounded tracks with history, an escalation scale fed by incidents, and streaks.

>>> t = Track("influence", 500, lo=0)
>>> t.add(-700)               # the floor holds
-500
>>> t.value
0
>>> e = Escalation()
>>> e.add_incidents(5)        # four incidents to a level
1
>>> (e.level, e.incidents)
(1, 1)
>>> s = Streak(target=3)
>>> [s.update(True) for _ in range(3)], s.met
([1, 2, 3], True)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .jsondata import serializable


@serializable("core.Track")
@dataclass
class Track:
    """A counter kept within ``[lo, hi]`` (``None`` = unbounded). ``history`` holds
    ``[turn, value]`` marks taken with :meth:`mark`, for charts and exports."""

    name: str
    value: int
    lo: int | None = 0
    hi: int | None = None
    history: list[tuple[int, int]] = field(default_factory=list)

    def clamp(self, value: int) -> int:
        if self.lo is not None and value < self.lo:
            return self.lo
        if self.hi is not None and value > self.hi:
            return self.hi
        return value

    def set(self, value: int) -> int:
        """Set the value (clamped); return the change actually made."""
        new = self.clamp(value)
        delta = new - self.value
        self.value = new
        return delta

    def add(self, delta: int) -> int:
        return self.set(self.value + delta)

    def mark(self, turn: int) -> None:
        """Record the value at the end of ``turn`` (one mark per turn, the last wins)."""
        if self.history and self.history[-1][0] == turn:
            self.history[-1] = (turn, self.value)
        else:
            self.history.append((turn, self.value))

    def in_bounds(self) -> bool:
        return self.clamp(self.value) == self.value


@serializable("core.Escalation")
@dataclass
class Escalation:
    """A scale from 0 to ``max_level``, rising one level per ``per_level`` incidents, or
    per the game's own ``thresholds`` (the incidents each next level takes: a game whose
    track speeds up as it climbs declares ``(5, 4, 3, 2)``; ``max_level`` is then their
    count).

    >>> e = Escalation(thresholds=(3, 2))
    >>> e.add_incidents(4), e.level, e.incidents, e.max_level
    (1, 1, 1, 2)
    >>> e.add_incidents(5), e.level, e.incidents
    (1, 2, 2)
    """

    level: int = 0
    incidents: int = 0
    per_level: int = 4
    max_level: int = 5
    thresholds: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.thresholds:
            self.max_level = len(self.thresholds)

    def needed(self, level: int | None = None) -> int:
        """Incidents that take the scale from ``level`` (default: the current one) up."""
        lv = self.level if level is None else level
        if self.thresholds:
            return self.thresholds[min(lv, len(self.thresholds) - 1)]
        return self.per_level

    def add_incidents(self, n: int = 1) -> int:
        """Add incidents; return the number of levels gained."""
        before = self.level
        self.incidents += n
        while self.level < self.max_level and self.incidents >= self.needed():
            self.incidents -= self.needed()
            self.level += 1
        if self.level == self.max_level:
            self.incidents = min(self.incidents, self.needed(self.max_level - 1))
        return self.level - before

    def raise_level(self, n: int = 1) -> int:
        before = self.level
        self.level = min(self.max_level, max(0, self.level + n))
        return self.level - before

    def in_bounds(self) -> bool:
        cap = self.needed(min(self.level, self.max_level - 1)) if self.max_level else 0
        return 0 <= self.level <= self.max_level and 0 <= self.incidents <= cap


@serializable("core.Streak")
@dataclass
class Streak:
    """Consecutive checks for which a condition held ("held for 3 consecutive turns")."""

    target: int
    count: int = 0

    def update(self, holds: bool) -> int:
        self.count = self.count + 1 if holds else 0
        return self.count

    @property
    def met(self) -> bool:
        return self.count >= self.target

    @property
    def remaining(self) -> int:
        return max(0, self.target - self.count)
