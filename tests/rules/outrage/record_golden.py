"""Record a golden playthrough of a guided game (``guided.py``):
``python -m tests.rules.outrage.record_golden SEED SEATS ENDGAME NAME [teams]``.

A golden file holds the setup, the action list, checkpoints every 50 plies (phase, actor,
squares, jewels, coins, hand counts, the tracked values) and the outcome. Re-record only
after a reviewed rules change, and read the diff: it is the change in behaviour.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from rules.core import Seat, to_data
from rules.outrage import GAME

from .guided import guided_game

HERE = Path(__file__).parent / "golden"
EVERY = 50
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def checkpoint(state) -> dict:
    return {
        "ply": state.ply, "phase": state.phase, "actor": state.actor, "pos": dict(state.pos),
        "jewels": dict(state.jewels), "coins": dict(state.coins), "accredited": dict(state.accredited),
        "held": {s: [h.place, h.served] for s, h in state.held.items()}, "warders": dict(state.warders),
        "hands": {s: len(h) for s, h in state.hands.items()}, **GAME.tracked(state),
    }


def seats_for(n: int, teams: bool) -> list[Seat]:
    return [Seat(f"p{i + 1}", COLOURS[i % 2 if teams else i], NAMES[i]) for i in range(n)]


def record(seed: int, n: int, endgame: str, name: str, teams: bool = False) -> Path:
    seats = seats_for(n, teams)
    options = {"endgame": endgame, "teams": teams, "own_pieces": n > 4}  # RULINGS S-04
    final, actions = guided_game(seed, seats, options, max_plies=6000)
    state = GAME.new(seats, options, seed)
    checkpoints = [checkpoint(state)]
    for a in actions:
        GAME.push(state, a)
        if state.ply % EVERY == 0:
            checkpoints.append(checkpoint(state))
    checkpoints.append(checkpoint(state))
    data = {"seats": [to_data(s) for s in seats], "options": options, "seed": seed,
            "actions": [to_data(a) for a in actions], "checkpoints": checkpoints, "outcome": to_data(state.result)}
    HERE.mkdir(exist_ok=True)
    path = HERE / f"{name}.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    return path


if __name__ == "__main__":
    print(record(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], len(sys.argv) > 5))
