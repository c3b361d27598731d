"""Record a golden playthrough: ``python -m tests.rules.tyranny.record_golden SEED NAME``.

A golden file holds the setup, the action list and checkpoints (the public tracked values,
phase, actor and pieces every 20 plies, and the outcome). Re-record only after a reviewed
rules change, and read the diff: it is the change in behaviour.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from rules.core import to_data
from rules.core.playout import random_playout
from rules.tyranny import GAME

HERE = Path(__file__).parent / "golden"
EVERY = 20


def checkpoint(state) -> dict:
    return {
        "ply": state.ply, "phase": state.phase, "actor": state.actor, "pos": dict(state.pos),
        "custody": sorted(state.custody), "owner": dict(sorted(state.owner.items())),
        "open_tunnels": list(state.open_tunnels), "hands": {s: len(h) for s, h in state.hands.items()},
        **GAME.tracked(state),
    }


def record(seed: int, name: str) -> Path:
    play = random_playout(GAME, seed, max_plies=2000)
    state = GAME.new(play.seats, play.options, seed)
    checkpoints = [checkpoint(state)]
    for a in play.actions:
        GAME.push(state, a)
        if state.ply % EVERY == 0:
            checkpoints.append(checkpoint(state))
    checkpoints.append(checkpoint(state))
    data = {
        "seats": [to_data(s) for s in play.seats], "options": play.options, "seed": seed,
        "actions": [to_data(a) for a in play.actions], "checkpoints": checkpoints,
        "outcome": to_data(state.result),
    }
    path = HERE / f"{name}.json"
    path.write_text(json.dumps(data, indent=0) + "\n")
    return path


if __name__ == "__main__":
    print(record(int(sys.argv[1]), sys.argv[2]))
