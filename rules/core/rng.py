"""A seeded, serialisable random generator that lives inside a game state.

SplitMix64: one 64-bit integer of state, so a state copies and serialises cheaply and the
same seed gives the same numbers on every platform.

>>> r = Rng(7)
>>> [r.randint(1, 6) for _ in range(5)]
[4, 1, 1, 4, 5]
>>> Rng(7).fork().randint(1, 6) == Rng(7).fork().randint(1, 6)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import MutableSequence, Sequence, TypeVar

from .jsondata import serializable

T = TypeVar("T")
_MASK = MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's increment: one step of the generator's state (see :meth:`Rng.advance`)."""

_LIMITED = 257
_LIMITS = tuple(_MASK - (_MASK + 1) % n if n else 0 for n in range(_LIMITED))
"""below(n)'s rejection limit for the n of a deck's shuffle, worked out once."""


@serializable("core.Rng")
@dataclass
class Rng:
    state: int = 0

    def next64(self) -> int:
        self.state = (self.state + GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        # below() and next64() written out in the loop: the same numbers, without two
        # Python calls per card (a deck's reshuffle was most of some games' chance cost).
        s = self.state
        mask, gamma, limits = _MASK, GAMMA, _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < _LIMITED else mask - (mask + 1) % n
            while True:
                s = (s + gamma) & mask
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & mask
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
                z ^= z >> 31
                if z <= limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = s

    def fork(self) -> "Rng":
        """An independent generator derived from this one, leaving this one unchanged."""
        return Rng(self.state ^ 0xD1B54A32D192ED03)

    def advance(self) -> None:
        """Step past one number, as :meth:`next64` does: the output mix of a skipped number
        is never seen, so only the state moves (a chance action advances the generator)."""
        self.state = (self.state + GAMMA) & _MASK
