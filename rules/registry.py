"""The catalogue of games, found through entry points (group ``tabletop_companion.games``).

A game is a plug-in: a distribution declares an entry point whose value is its engine
(``tyranny = "rules.tyranny:GAME"``; the five built-in games are declared so in the
project's ``pyproject.toml``), and the engine's package folder holds the game's card,
``plugin.json`` (:mod:`rules.plugins`). Listing the games reads the entry points and the
cards only: the engine's module is located (``importlib.util.find_spec``), never run, so the
home screen's history and the setup wizard import no engine.

>>> [g.title for g in catalog()][:1] and info(catalog()[0].id).module == catalog()[0].engine.split(":")[0]
True
>>> load("no such game")
Traceback (most recent call last):
...
rules.core.errors.UnknownGame: no game 'no such game' is installed
"""
from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .plugins import GamePlugin, read_card

if TYPE_CHECKING:
    from .core.game import Game

GROUP = "tabletop_companion.games"

# The older name of a catalogue entry: every GamePlugin is one.
GameInfo = GamePlugin

# Engines added by hand (tests, a script): id → "module:attribute". Their facts are the
# engine's own; a card beside the engine, if there is one, adds the rest.
_REGISTERED: dict[str, str] = {}


def register(game_id: str, target: str) -> None:
    """Add an engine to the catalogue without an entry point: ``target`` is
    ``"module:attribute"`` of its Game."""
    if ":" not in target:
        raise ValueError("target must be 'module:attribute'")
    _REGISTERED[game_id] = target
    _catalogue.cache_clear()


def unregister(game_id: str) -> None:
    """Take back what :func:`register` added (a test's clean-up)."""
    _REGISTERED.pop(game_id, None)
    _catalogue.cache_clear()


def refresh() -> None:
    """Read the entry points again (a distribution installed or put on ``sys.path`` since)."""
    _catalogue.cache_clear()


def _folder(module: str) -> Path | None:
    """The folder of ``module``'s package (or of the module), found without running it;
    None when it is not installed."""
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # its parent package is missing
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def _entry_points() -> dict[str, str]:
    """id → engine target, from every installed distribution. One game id declared twice
    (a stale install beside a fresh one) keeps the first found on ``sys.path``."""
    out: dict[str, str] = {}
    for ep in importlib.metadata.entry_points(group=GROUP):
        out.setdefault(ep.name, ep.value)
    for game_id, target in _declared_by_own_sources().items():
        out.setdefault(game_id, target)
    return out


PROJECT = "tabletop-companion"
"""This project's distribution: the one whose ``pyproject.toml`` declares the built-in games."""


def _declared_by_own_sources() -> dict[str, str]:
    """The entry points this project's ``pyproject.toml`` declares, when the project runs
    from its sources without being installed: the tablet build ships the source tree and
    its ``pyproject.toml``, not a wheel's metadata (docs/android.md). Installed (pip, the
    Pi's installer, ``./dev``), the metadata pip wrote from that same table is read
    instead, and this reads nothing."""
    try:
        importlib.metadata.distribution(PROJECT)
        return {}
    except importlib.metadata.PackageNotFoundError:
        pass
    path = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if not path.is_file():
        return {}
    import tomllib

    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    if project.get("name") != PROJECT:  # someone else's pyproject.toml above this folder
        return {}
    return {str(k): str(v) for k, v in project.get("entry-points", {}).get(GROUP, {}).items()}


@functools.lru_cache(maxsize=1)
def _catalogue() -> tuple[dict[str, GamePlugin], dict[str, Exception]]:
    """(the games, the installed games whose card cannot be read: id → the error). One
    broken game never hides the others: it is left out of the listing and named by
    :func:`broken`, and asking for it by id raises its error."""
    found: dict[str, GamePlugin] = {}
    broken: dict[str, Exception] = {}
    for game_id, target in sorted({**_entry_points(), **_REGISTERED}.items()):
        folder = _folder(target.split(":", 1)[0])
        if folder is None:
            continue  # declared but not installed
        if (folder / "plugin.json").is_file() or game_id not in _REGISTERED:
            try:
                found[game_id] = read_card(game_id, target, folder)
            except ValueError as e:  # BadPluginCard (a RulesError), whose import would load the kernel
                broken[game_id] = e
        else:
            found[game_id] = _from_engine(game_id, target, folder)
    return found, broken


def broken() -> dict[str, str]:
    """The installed games left out of the catalogue because their card cannot be read:
    id → what is wrong (the file and every problem)."""
    return {game_id: str(e) for game_id, e in _catalogue()[1].items()}


def _from_engine(game_id: str, target: str, folder: Path) -> GamePlugin:
    """A registered engine without a card: its facts are the engine's own."""
    g = _import(game_id, target)
    return GamePlugin(g.id, g.title, g.min_seats, g.max_seats, tuple(g.factions), engine=target, folder=folder)


def catalog() -> list[GamePlugin]:
    """Every installed game whose card can be read, in id order (see :func:`broken`)."""
    return list(_catalogue()[0].values())


def plugin(game_id: str) -> GamePlugin:
    """Everything ``game_id`` says about itself (without importing its engine); raises
    :class:`~rules.core.errors.UnknownGame` if no installed game has that id."""
    games, unreadable = _catalogue()
    if game_id in unreadable:
        raise unreadable[game_id]
    found = games.get(game_id)
    if found is None:
        from .core.errors import UnknownGame

        raise UnknownGame(f"no game {game_id!r} is installed")
    return found


# What a game list shows of a game is its plugin.
info = plugin


def engine_module(game_id: str) -> str:
    """The module holding ``game_id``'s engine, without importing it."""
    return plugin(game_id).module


def _import(game_id: str, target: str) -> "Game[Any]":
    from .core.errors import UnknownGame

    module, attr = target.split(":", 1)
    try:
        return getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as e:
        if e.name and module.startswith(e.name):
            raise UnknownGame(f"the {game_id} engine is not installed") from None
        raise


def load(game_id: str) -> "Game[Any]":
    """The engine for ``game_id``; raises :class:`UnknownGame` if there is none."""
    return _import(game_id, plugin(game_id).engine)


def demo_game() -> GamePlugin:
    """The game the demo plays: the first in the catalogue whose card offers a demo
    (``"demo": {"seats": [...]}``), else the first game."""
    games = catalog()
    if not games:
        from .core.errors import UnknownGame

        raise UnknownGame("no game is installed")
    return next((g for g in games if g.demo), games[0])
