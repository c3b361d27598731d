"""Record the golden games (run by hand: ``python -m tests.rules.dicetopia.record_golden``):
a random playout at 2, 3 and 4 players in which every once-per-game ability of the table is
used, saved with its action list and its final public tally. test_golden.py replays them
and re-derives loot and domination from the final board by its own arithmetic."""
from __future__ import annotations

import json
from pathlib import Path

from rules.core import Seat, to_data
from rules.core.playout import random_playout
from rules.dicetopia import GAME

TABLES = {
    "two_players": (("banxa", "hollows"), {"first": "p2"}),
    "three_players": (("roamers", "perceptioneers", "tuulu"), {"first": "p1"}),
    "four_players": (("centauri", "shakra", "ewo", "bingmai"), {"first": "p3", "advanced": True}),
}
NAMES = ("Ann", "Bob", "Cat", "Dan")


def record(name: str) -> dict:
    factions, options = TABLES[name]
    seats = [Seat(f"p{i + 1}", f, NAMES[i]) for i, f in enumerate(factions)]
    once = [s.id for s in seats if GAME.factions and s.faction not in ("hollows", "centauri")]
    for seed in range(1, 5000):
        p = random_playout(GAME, seed, max_plies=600, seats=seats, options=options)
        s = p.state
        if s.result is not None and all(s.flipped[x] for x in once) and (name != "four_players" or s.rigged):
            view = GAME.view(s)
            return {"seats": [to_data(x) for x in seats], "options": options, "seed": seed,
                    "actions": [to_data(a) for a in p.actions],
                    "final": {"city": view["city"], "boards": view["boards"], "tally": view["tally"],
                              "winning_seats": list(s.result.winning_seats), "reason": s.result.reason}}
    raise RuntimeError(name)


if __name__ == "__main__":
    for name in TABLES:
        path = Path(__file__).parent / "golden" / f"{name}.json"
        path.write_text(json.dumps(record(name), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(path)
