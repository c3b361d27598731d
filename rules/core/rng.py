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

import struct
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
        """Fisher–Yates from the last item down, each swap partner ``below(i + 1)``.

        A deck's worth of numbers is worked out at once (:func:`_many`): the same numbers
        :meth:`below` would give one by one, in a few operations on one large integer
        instead of a dozen Python operations per card (a 57-card pack shuffled after every
        fight was a tenth of one game's time)."""
        n = len(items)
        if n < _PACKED:
            self._shuffle_one_by_one(items)
            return
        zs = _many(self.state, n - 1)
        if zs is None:  # a number below() would reject: the exact one-by-one path
            self._shuffle_one_by_one(items)
            return
        i = n - 1
        for z in zs:  # z is below()'s number for the swap at i: no rejection, so z % (i + 1)
            j = z % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = (self.state + (n - 1) * GAMMA) & _MASK

    def _shuffle_one_by_one(self, items: MutableSequence[T]) -> None:
        # below() and next64() written out in the loop: the same numbers, without two
        # Python calls per card.
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


_PACKED = 8
"""From this many items a shuffle works its numbers out packed (:func:`_many`)."""
_LANE = 128
_PACKS: dict[int, tuple[int, int, int, int, int, struct.Struct]] = {}


def _pack(count: int) -> tuple[int, int, int, int, int, struct.Struct]:
    """For ``count`` numbers, made once per count: one in each 128-bit lane; lane k holding
    (k+1)·GAMMA; every lane's low 64 bits set; 256 in every lane; every lane's bit 64; and
    the struct that reads the lanes' low halves back."""
    got = _PACKS.get(count)
    if got is None:
        ones = ramp = 0
        for k in range(count):
            ones |= 1 << (_LANE * k)
            ramp |= ((k + 1) * GAMMA) << (_LANE * k)
        got = _PACKS[count] = (ones, ramp, ones * _MASK, ones * 256, ones << 64, struct.Struct("<" + "Q8x" * count))
    return got


def _many(state: int, count: int) -> tuple[int, ...] | None:
    """The next ``count`` outputs of :meth:`Rng.next64` from ``state``, worked out at once,
    or ``None`` if one of them is 2**64 − 256 or more: a number ``below(n)`` might reject
    (its limit is at least that for n up to 257), about once in 10**15 shuffles of a
    57-card pack; the caller then goes one by one.

    Each number sits in its own 128-bit lane of one integer: lane k holds the generator's
    state after k + 1 steps, and SplitMix64's mix is applied to every lane at once. A lane
    holds less than 2**64 before each multiplication by a 64-bit constant, so no product
    reaches the next lane, and masking after each shift drops what came in from the lane
    above.

    >>> r = Rng(7); _many(7, 3) == tuple(r.next64() for _ in range(3))
    True
    """
    if count > 256:
        return None
    ones, ramp, low, near, carry, lanes = _pack(count)
    x = (state * ones + ramp) & low
    z = ((x ^ (x >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
    z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
    z = (z ^ (z >> 31)) & low
    if (z + near) & carry:  # some lane holds 2**64 - 256 or more
        return None
    return lanes.unpack(z.to_bytes(16 * count, "little"))
