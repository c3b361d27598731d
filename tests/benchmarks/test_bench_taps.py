"""``bench taps`` runs for every game of the catalogue and prints its lines (no timing is
asserted: the figures are the benchmark's, run by hand)."""
from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys

import pytest

from benchmarks import bench_taps
from rules.registry import catalog


def test_doctests():
    assert doctest.testmod(bench_taps).failed == 0


def test_an_unknown_game_is_refused_by_name(capsys, monkeypatch):
    monkeypatch.setenv("DISPLAY", os.environ.get("DISPLAY", ":0"))
    assert bench_taps.main(["--game=no-such-game"]) == 2
    out = capsys.readouterr().out
    assert "no-such-game" in out and all(g.id in out for g in catalog())


def test_the_child_gets_one_llvmpipe_thread():
    env = bench_taps.child_env()
    assert env["LP_NUM_THREADS"] == "1" and env["LIBGL_ALWAYS_SOFTWARE"] == "1"


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (run under xvfb-run)")
def test_three_taps_for_every_game(tmp_path):
    """Every game's real screen answers three real touches (each measured only when the
    screen changed after it), and the report has each game's lines and the last line."""
    games = [g.id for g in catalog()]
    out = subprocess.run([sys.executable, "-m", "benchmarks", "taps", "--taps=3"], cwd=bench_taps.ROOT,
                         capture_output=True, text=True, timeout=150 * len(games))
    text = out.stdout
    assert out.returncode == 0, text[-3000:] + out.stderr[-3000:]
    for game in games:
        m = re.search(rf"^{game}: taps n=(\d+)  p50 [\d.]+  p95 [\d.]+  p99 [\d.]+  max [\d.]+ ms", text, re.M)
        assert m is not None and int(m.group(1)) == 3, text[-3000:]
        assert re.search(rf"^{game}: target p99 <= 33 ms: (met|NOT met)$", text, re.M), text[-3000:]
        split = re.search(rf"^{game}: taps.*\n  median split ms: engine [\d.]+  Table\+journal [\d.]+  presenter "
                          r"[\d.]+  widget tree [\d.]+  drawing [\d.]+$", text, re.M)
        assert split is not None, text[-3000:]
    last = text.strip().splitlines()[-1]
    m = re.fullmatch(r"taps: worst p99 [\d.]+ ms \((\S+)\)", last)
    assert m is not None and m.group(1) in games, last
