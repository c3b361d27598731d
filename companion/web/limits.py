"""Rate limits: a token bucket per key (a seat's token, or a client's address).

The clock is a parameter, so a test can freeze it and know exactly which request is the
first refused one (no timing in tests).

>>> now = [0.0]
>>> b = Buckets(capacity=2, per_second=1, clock=lambda: now[0])
>>> [b.take("a"), b.take("a"), b.take("a"), b.take("b")]
[True, True, False, True]
>>> now[0] = 1.0; b.take("a")
True
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Hashable

MAX_KEYS = 4096  # forget the oldest keys beyond this: a flood of addresses cannot grow memory


class Buckets:
    def __init__(self, capacity: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(capacity)
        self.per_second = float(per_second)
        self.clock = clock
        self._level: dict[Hashable, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> bool:
        """Spend one request of ``key``'s allowance; False when it has none left now."""
        now = self.clock()
        with self._lock:
            level, then = self._level.pop(key, (self.capacity, now))
            level = min(self.capacity, level + max(0.0, now - then) * self.per_second)
            ok = level >= 1.0
            self._level[key] = (level - 1.0 if ok else level, now)
            while len(self._level) > MAX_KEYS:
                self._level.pop(next(iter(self._level)))
            return ok
