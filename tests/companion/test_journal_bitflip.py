"""Issue 31: one flipped bit anywhere in the journal's main file or its WAL is either
harmless or reported in the journal's own words, never a silent difference and never a raw
exception (see :mod:`tests.companion.bitflip`). 200 flips by default; ``TC_FLIPS=2000``
for a longer run."""
from __future__ import annotations

import pytest

from .bitflip import flips_wanted, trial


@pytest.mark.slow  # 200 flips: some 20-40 s on a loaded 2-core box (most flips set the file aside and salvage it)
def test_one_flipped_bit_is_harmless_or_reported_never_silent_nor_raw(tmp_path):
    flips = flips_wanted()
    counts, bad = trial(tmp_path, flips)
    print(f"\n{flips} flips: {dict(counts)}")
    assert sum(counts.values()) == flips
    assert counts["silent"] == 0 and counts["raw"] == 0, (dict(counts), bad[:12])
