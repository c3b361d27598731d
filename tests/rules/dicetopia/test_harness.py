"""Random Dicetopia games through the kernel's invariant harness: dice and agents
conserved, the spaces used per player count, missions (the only secret) never public, and
the differential secret check swapping hidden missions."""
from __future__ import annotations

from rules.core import PUBLIC, Rng
from rules.core.harness import InvariantBroken, run_harness
from rules.core.playout import random_playout
from rules.dicetopia import GAME, Dicetopia

import pytest


def test_harness_random_games(soak_factor):
    games = 30 * soak_factor
    report = run_harness(GAME, games=games, seed=2026, roundtrip_every=25, illegal_per_step=0.1, differential_rate=0.05)
    print(f"\nDicetopia harness: {report}")
    assert report.games == games and report.finished == games
    assert report.variants > games                       # hidden missions swapped and compared
    assert len(report.winners) >= 5                      # many factions win
    for code in ("bad-swap", "no-die-there", "not-your-turn", "not-your-mission", "bad-action"):
        assert report.codes.get(code, 0) > 0, code


def test_harness_full_strength(soak_factor):
    report = run_harness(GAME, games=3 * soak_factor, seed=7)
    assert report.games == 3 * soak_factor and report.rejected > 100


def test_random_games_use_every_ability_and_end_right(soak_factor):
    used: dict[str, int] = {}
    for seed in range(40 * soak_factor):
        seats, options = GAME.random_setup(Rng(seed))
        p = random_playout(GAME, seed, max_plies=400, seats=seats, options=options)
        s = p.state
        assert s.result is not None
        assert all("@" not in b for b in s.boards.values())
        for seat, flipped in s.flipped.items():
            if flipped:
                used[s.faction[seat]] = used.get(s.faction[seat], 0) + 1
        for seat, score in s.result.scores.items():
            assert score.total == sum(score.breakdown.values())
        assert not GAME.secrets(s, PUBLIC)
    assert len(used) >= 6, used


class LeakyMissions(Dicetopia):
    """A broken engine that shows every hand in the public view."""

    def render(self, state, viewer):
        view = super().render(state, viewer)
        view["missions"] = {s: {"count": len(h), "cards": list(h.cards)} for s, h in state.hands.items()}
        return view


def test_the_secret_checks_can_fail():
    with pytest.raises(InvariantBroken, match="shows secrets|depends on what it may not see"):
        run_harness(LeakyMissions(), games=2, seed=1, differential_rate=1.0)
