"""The kernel's invariant harness over thousands of random Tyranny games.

Budget: 2,000 games must stay within ~120 s on the project's 2-core machine, and the
checks that cost most are the state's JSON round-trips and the "rejected actions change
nothing" comparisons (both serialise the whole state). So the long run checks every
75th ply's round-trip (and the final one), mixes illegal actions in at 2% of steps
(~5 probing rounds a game, ~10,000 over the run) and stops a game at 350 plies, where
about two games in three have been won (random play wanders; see the finish-rate
assertion). A short dense run beside it checks every ply with illegal actions at half
the steps.
"""
from __future__ import annotations

from rules.core.harness import run_harness
from rules.tyranny import GAME


def test_harness_random_games(soak_factor):
    # 100 games in the suite (×20 with --long): both factions win, half finish by 350 plies.
    report = run_harness(GAME, games=100 * soak_factor, seed=0, max_plies=350, roundtrip_every=75, illegal_per_step=0.02,
                         differential_rate=0.002)
    print(report)
    assert report.games == 100 * soak_factor
    assert report.finished >= report.games // 2, report
    assert set(report.winners) == {"cops", "criminals"}
    assert report.rejected > 1000


def test_harness_dense_checks(soak_factor):
    report = run_harness(GAME, games=8 * soak_factor, seed=100_000, max_plies=300, roundtrip_every=1, illegal_per_step=0.5)
    print(report)
    assert report.rejected > 1000
    # Rejections exercised the game's own rules, not only the kernel's turn checks.
    assert {"unreachable", "wrong-target", "bad-range"} <= set(report.codes)


def test_differential_secret_check(soak_factor):
    """Two states that differ only in a hidden card look the same to everyone who may not
    see it: views, prompts, logs, and the verdicts on their own actions."""
    report = run_harness(GAME, games=5 * soak_factor, seed=7, max_plies=300, illegal_per_step=0.0, differential_rate=0.5)
    assert report.variants > 200, report
