"""A game's UI data files, found through its plugin: the package its card names as
``"ui"`` (``companion/ui/games/<game>/`` for the built-in games) holds what the app shows of
the game beyond its screen: ``position_form.json`` (the join-in-progress form),
``palette.json`` (its factions' colours per palette), ``tour.json`` (its first-game tour).
Each is optional; the code reading it says what a game without one gets.

Nothing here imports the game's package or its engine: the folder is located, not run.

>>> game_file("no such game", "tour.json") is None
True
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import rules
from rules.core.errors import UnknownGame


@lru_cache(maxsize=None)
def ui_folder(game_id: str) -> Path | None:
    """The folder of ``game_id``'s UI package, or None (not installed, or no UI package)."""
    try:
        package = rules.plugin(game_id).ui
    except UnknownGame:
        return None
    if not package:
        return None
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def game_file(game_id: str, name: str) -> Path | None:
    """``name`` in ``game_id``'s UI package, if the game ships it."""
    folder = ui_folder(game_id)
    path = folder / name if folder is not None else None
    return path if path is not None and path.is_file() else None
