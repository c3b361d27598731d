"""Reconnect delays: double from ``first`` up to ``limit`` (REFERENCE §1: 0.5 s → 8 s),
back to ``first`` once a connection has worked.

>>> b = Backoff()
>>> [b.next_delay() for _ in range(7)]
[0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
>>> b.reset(); b.next_delay()
0.5
>>> Backoff(first=0.0, limit=1.0)
Traceback (most recent call last):
...
ValueError: back-off needs 0 < first <= limit and factor >= 1, got first=0.0 limit=1.0 factor=2.0
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Backoff"]


@dataclass
class Backoff:
    """Exponential back-off. Tests inject short values (e.g. ``Backoff(0.01, 0.05)``) so
    that a hundred unplug cycles do not wait half a second each."""

    first: float = 0.5
    limit: float = 8.0
    factor: float = 2.0
    _next: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (0 < self.first <= self.limit) or self.factor < 1:
            raise ValueError("back-off needs 0 < first <= limit and factor >= 1, got "
                             "first=%r limit=%r factor=%r" % (self.first, self.limit, self.factor))
        self._next = self.first

    def next_delay(self) -> float:
        """The wait before the next attempt; each call lengthens the one after."""
        d = self._next
        self._next = min(self.limit, d * self.factor)
        return d

    def reset(self) -> None:
        """A connection worked: the next failure starts from ``first`` again."""
        self._next = self.first
