"""The catalogue of games. Engines are imported only when loaded: the games and the facts a
game list shows (title, seats, factions) come from ``catalog.json``, so listing them (the
home screen's history, the setup wizard) imports no engine.

>>> [g.id for g in catalog()]
['against_all_tyrants', 'dicetopia', 'liberation', 'outrage', 'tyranny']
>>> info("tyranny").title
'Tyranny'
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.game import Game

CATALOG_FILE = Path(__file__).with_name("catalog.json")


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    min_seats: int
    max_seats: int
    factions: tuple[str, ...]


def _read_catalog() -> tuple[dict[str, str], dict[str, GameInfo]]:
    games = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))["games"]
    engines = {gid: g["engine"] for gid, g in games.items()}
    infos = {gid: GameInfo(gid, g["title"], g["min_seats"], g["max_seats"], tuple(g["factions"]))
             for gid, g in games.items()}
    return engines, infos


# id → "module:attribute" of the Game instance; id → what catalog.json says of it.
_ENGINES, _INFO = _read_catalog()


def register(game_id: str, target: str) -> None:
    """Add an engine to the catalogue: ``target`` is ``"module:attribute"`` of its Game
    (its facts are read from the engine when the catalogue is listed)."""
    if ":" not in target:
        raise ValueError("target must be 'module:attribute'")
    _ENGINES[game_id] = target


def info(game_id: str) -> GameInfo:
    """What the catalogue says of ``game_id`` (without importing its engine when
    catalog.json lists it); raises :class:`~rules.core.errors.UnknownGame` if there is none."""
    listed = _listed(game_id)
    if listed is not None:
        return listed
    g = load(game_id)  # a registered engine, or one not installed (UnknownGame)
    return GameInfo(g.id, g.title, g.min_seats, g.max_seats, tuple(g.factions))


def _listed(game_id: str) -> GameInfo | None:
    """catalog.json's facts of ``game_id`` if its engine is installed, else None."""
    found = _INFO.get(game_id)
    target = _ENGINES.get(game_id)
    if found is None or target is None or not _module_exists(target.split(":")[0]):
        return None
    return found


@functools.lru_cache(maxsize=None)
def _module_exists(module: str) -> bool:
    # Finds the module without running it (once: a listing runs for every row of a history).
    return importlib.util.find_spec(module) is not None


def catalog() -> list[GameInfo]:
    """Every game whose engine is installed, in id order."""
    out = []
    for game_id in sorted(_ENGINES):
        listed = _listed(game_id)
        if listed is not None:
            out.append(listed)
        elif game_id not in _INFO:  # a registered engine: its facts are its own
            from .core.errors import UnknownGame

            try:
                out.append(info(game_id))
            except UnknownGame:
                pass
    return out


def engine_module(game_id: str) -> str:
    """The module holding ``game_id``'s engine ("rules.tyranny"), without importing it;
    raises :class:`UnknownGame` if there is none.

    >>> engine_module("tyranny")
    'rules.tyranny'
    """
    target = _ENGINES.get(game_id)
    if target is None:
        from .core.errors import UnknownGame

        raise UnknownGame(f"no game {game_id!r} is installed")
    return target.split(":", 1)[0]


def load(game_id: str) -> "Game[Any]":
    """The engine for ``game_id``; raises :class:`UnknownGame` if there is none."""
    from .core.errors import UnknownGame

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
