"""Rng.shuffle gives exactly the numbers below() gives one by one: recorded games and
goldens depend on them, whichever way the shuffle works them out."""
from __future__ import annotations

from rules.core.rng import GAMMA, MASK64, Rng, _many


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    """Fisher–Yates as the rules read it: the swap partner of i is below(i + 1)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _inverse_mix(z: int) -> int:
    """The generator state whose next64() output (after one step) is ``z``."""
    def unxorshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x & MASK64
    z = unxorshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK64
    z = unxorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK64
    z = unxorshift(z, 30)
    return (z - GAMMA) & MASK64


def test_shuffle_matches_below_one_by_one() -> None:
    seeds = Rng(99)
    for n in list(range(0, 70)) + [100, 256, 257, 258, 300]:
        for _ in range(4):
            seed = seeds.next64()
            a, b = list(range(n)), list(range(n))
            x, y = Rng(seed), Rng(seed)
            x.shuffle(a)
            reference_shuffle(y, b)
            assert a == b and x.state == y.state, (seed, n)


def test_a_rejected_number_is_skipped_as_below_skips_it() -> None:
    # The 5th number of the shuffle is 2**64 - 1, which below(n) rejects for any n that
    # is not a power of two: the packed path must notice and give the same deal.
    for top, at in ((MASK64, 4), (MASK64 - 100, 0), (MASK64 - 255, 30)):
        state = (_inverse_mix(top) - at * GAMMA) & MASK64
        probe = Rng(state)
        assert [probe.next64() for _ in range(at + 1)][-1] == top
        assert _many(state, 56) is None
        a, b = list(range(57)), list(range(57))
        x, y = Rng(state), Rng(state)
        x.shuffle(a)
        reference_shuffle(y, b)
        assert a == b and x.state == y.state


def test_many_is_next64_in_a_row() -> None:
    r = Rng(7)
    got = _many(7, 40)
    assert got == tuple(r.next64() for _ in range(40))


def test_a_known_deal() -> None:
    deck = list(range(12))
    Rng(7).shuffle(deck)
    assert deck == KNOWN_DEAL


KNOWN_DEAL = [10, 11, 5, 1, 7, 4, 8, 2, 9, 6, 0, 3]  # what Rng(7) dealt before the packed shuffle
