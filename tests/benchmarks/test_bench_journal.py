"""The journal benchmark's machinery runs (a quick 1,000-action game) and its long game
really is long and legal."""
from __future__ import annotations

import rules
from rules.core.jsondata import to_data

from benchmarks import bench_journal


def test_long_game_does_not_end_and_replays():
    game = rules.load("tyranny")
    seats = [{"id": s.id, "faction": s.faction, "name": ""} for s in game.default_seats()]
    actions = bench_journal.long_game(game, seats, seed=3, n=600)
    assert len(actions) == 600
    state = game.replay(seats, {}, 3, actions)
    assert state.result is None and state.ply == 600


def test_quick_run(capsys):
    assert bench_journal.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "resume with snapshots" in out and "acknowledged actions/s" in out
