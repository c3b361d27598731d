"""The catalogue of games. Engines are imported only when loaded."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from .core.errors import UnknownGame
from .core.game import Game

# id → "module:attribute" of the Game instance.
_ENGINES: dict[str, str] = {
    "tyranny": "rules.tyranny:GAME",
    "liberation": "rules.liberation:GAME",
}


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    min_seats: int
    max_seats: int
    factions: tuple[str, ...]


def register(game_id: str, target: str) -> None:
    """Add an engine to the catalogue: ``target`` is ``"module:attribute"`` of its Game."""
    if ":" not in target:
        raise ValueError("target must be 'module:attribute'")
    _ENGINES[game_id] = target


def catalog() -> list[GameInfo]:
    """Every game whose engine is installed, in id order."""
    out = []
    for game_id in sorted(_ENGINES):
        try:
            g = load(game_id)
        except UnknownGame:
            continue
        out.append(GameInfo(g.id, g.title, g.min_seats, g.max_seats, g.factions))
    return out


def load(game_id: str) -> Game[Any]:
    """The engine for ``game_id``; raises :class:`UnknownGame` if there is none."""
    target = _ENGINES.get(game_id)
    if target is None:
        raise UnknownGame(f"no game {game_id!r}; known: {', '.join(sorted(_ENGINES))}")
    module, attr = target.split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as e:
        if e.name and module.startswith(e.name):
            raise UnknownGame(f"the {game_id} engine is not installed") from None
        raise
