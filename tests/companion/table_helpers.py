"""Shared helpers for the Table tests: seats, a random player that drives a Table, the
secret-duel minigame registered as a game the Table can load."""
from __future__ import annotations

from typing import Any

import rules
from rules.core import Rng
from rules.core.playout import choose
from rules.core.jsondata import to_data
from rules import registry

from companion import Journal, Table, UndoRefused

# The kernel's small test games, loadable by the Table while a test module of this package
# runs (tests/companion/conftest.py adds and removes them: the catalogue the app lists
# must not show them to other tests).
MINI_GAMES = {
    "mini-duel": "tests.rules.core.minigames:DUEL",
    "mini-acts": "tests.rules.core.minigames:ACTS",
    "mini-doubles": "tests.rules.core.minigames:DOUBLES",
}


def register_mini_games() -> list[str]:
    added = [k for k in MINI_GAMES if k not in {g.id for g in registry.catalog()}]
    for k in added:
        registry.register(k, MINI_GAMES[k])
    return added


def unregister(game_ids: list[str]) -> None:
    for k in game_ids:
        registry.unregister(k)

GAMES = ("tyranny", "liberation")


def seats_for(game_id: str) -> list[dict[str, str]]:
    g = rules.load(game_id)
    return [{"id": s.id, "faction": s.faction, "name": f"Player {i}"} for i, s in enumerate(g.default_seats())]


def new_table(journal: Journal, game_id: str = "tyranny", seed: int = 1, **kw: Any) -> Table:
    return Table.create(journal, game_id=game_id, seats=seats_for(game_id), seed=seed, **kw)


def play(table: Table, rng: Rng, steps: int, *, undo_rate: int = 0) -> None:
    """Random legal actions; with ``undo_rate`` n, one step in n tries an undo (and
    sometimes a redo) instead."""
    for _ in range(steps):
        if table.outcome is not None:
            return
        if undo_rate and rng.randint(1, undo_rate) == 1:
            try:
                table.undo()
            except UndoRefused:
                pass
            if rng.randint(1, 2) == 1 and table.can_redo():
                table.redo()
            continue
        table.submit(choose(rng, list(table.legal_actions())))


def line(table: Table) -> list[Any]:
    return [e.action for e in table._line]


def clean_replay(table: Table) -> Any:
    return table.game.replay(table.seats, table.options, table.seed, line(table))


def same_state(a: Any, b: Any) -> bool:
    return to_data(a) == to_data(b)


def publicly_named(table: Any) -> set[str]:
    """Strings the line of play itself names in public: the fields of public actions that
    their class does not hide (a city named by an Attack, a card a Mission revealed). A
    leak check by strings must allow them even when the card now lies face down again."""
    import json as _json

    out: set[str] = set()
    for e in table._entries:
        if e.action.secret:
            continue
        for k, v in _json.loads(e.action_json).items():
            if k in e.action.hidden_fields:
                continue
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, str):
                    out.add(x)
    return out
