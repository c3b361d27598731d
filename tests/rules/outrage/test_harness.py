"""The kernel's invariant harness over random Outrage! games (2–6 seats, teams, both
endgames, both movement modes): rejected actions change nothing, listed actions are
accepted, JSON and replay round-trips, Tower cards conserved across hands, pack, tools
and attacks, at most one coin each and coins conserved, jewels conserved, no secret in a
public view or message, and the differential secret check (Tower cards in hands are
hidden).

Random play seldom gets a jewel out of the Tower: the scenario tests (test_play.py,
test_audit.py) and the guided whole games (test_golden.py) cover burglary, attack and
escape; this covers the long random middle of the game.
"""
from __future__ import annotations

from rules.core.harness import run_harness
from rules.outrage import GAME


def test_harness_random_games(soak_factor):
    report = run_harness(GAME, games=5 * soak_factor, seed=0, max_plies=250, roundtrip_every=40,
                         illegal_per_step=0.05, differential_rate=0.01)
    assert report.games == 5 * soak_factor
    assert report.rejected > 100 * soak_factor
    assert {"unreachable", "not-a-choice"} <= set(report.codes), report


def test_harness_dense_checks(soak_factor):
    report = run_harness(GAME, games=2 * soak_factor, seed=5_000, max_plies=90, roundtrip_every=1, illegal_per_step=0.5)
    assert report.rejected > 60 * soak_factor, report


def test_differential_secret_check(soak_factor):
    """Tower cards in hands are hidden: two states differing only in a card the viewer
    cannot see look the same to it (views, prompts, logs, verdicts on its own actions)."""
    report = run_harness(GAME, games=2 * soak_factor, seed=77, max_plies=100, illegal_per_step=0.0, differential_rate=0.3)
    assert report.variants > 50 * soak_factor, report
