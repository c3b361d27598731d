"""Relaunch after a crash (issue 32, item 9): two processes on one demo journal. The first
plays a few actions of a game that is not the demo's and waits to be killed (kill -9, by
tests/ui/test_relaunch.py); the second, a plain relaunch in demo mode, must show that game,
not the demo's, and home must say where the other games in progress are."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from rules.core import Rng
from rules.core.playout import choose

from .scenarios import _wait_for, settle

GAME = "dicetopia"  # not the demo's game (rules/tyranny/plugin.json offers the demo)
ACTIONS = 4


def running_marker(d: Any) -> Path:
    """Where the first process says it is ready to be killed (beside its journal)."""
    return Path(d.journal).with_suffix(".playing.json")


def play_then_wait(d: Any) -> Iterator[float]:
    """First process: the demo opened its own game; the table starts Dicetopia instead and
    plays a few actions (each journalled as it is accepted), then waits for the kill."""
    import rules

    yield from settle(d)
    d.check(d.app.table is not None and d.app.table.game_id != GAME, "the demo opened its own game first")
    game = rules.load(GAME)
    seats = [{"id": s.id, "faction": s.faction, "name": name}
             for s, name in zip(game.default_seats(), ("Ann", "Bob", "Cem", "Dee"))]
    d.app.new_game(GAME, seats, {}, seed=11)
    yield from settle(d)
    rng = Rng(3)
    for _ in range(ACTIONS):
        d.app.table.submit(choose(rng, list(d.app.table.legal_actions())))
        yield from settle(d)
    d.shot("relaunch-before-kill")
    table = d.app.table
    running_marker(d).write_text(json.dumps({"pid": os.getpid(), "key": str(table.key), "ply": table.ply,
                                             "game": table.game_id}), encoding="utf-8")
    while True:  # until kill -9: no closing, no clean shutdown
        yield 0.2


def relaunched(d: Any) -> Iterator[float]:
    """Second process: a plain relaunch in demo mode. The game last in play is on screen
    as it was; home says the app reopens it and where the others are."""
    yield from _wait_for(lambda: d.app.table is not None and d.app.sm.current.startswith("game:"), 10)
    yield from settle(d)
    d.shot("relaunch-after-kill")
    table = d.app.table
    d.note(json.dumps({"screen": d.app.sm.current, "key": str(table.key) if table else None,
                       "ply": table.ply if table else None}))
    d.app.go("home")
    yield from settle(d)
    d.shot("relaunch-home")
    home = d.app.sm.get_screen("home")
    hint = home.ids.resume_hint
    d.check(d.is_visible(hint), "home's hint about the other games is on screen")
    d.note(json.dumps({"hint": hint.text, "resume": [r.title for r in home.resume_rows], "more": home.more_below}))
