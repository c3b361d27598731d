"""What a game says about itself: its card, ``plugin.json``, read into a :class:`GamePlugin`.

A game is found through its entry point (group ``tabletop_companion.games``, see
:mod:`rules.registry`); the entry point names its engine, ``"rules.tyranny:GAME"``, and the
engine's package folder holds the card. The card is read without importing the engine, so
listing the games (the home screen, the setup wizard) costs a file read per game.

A card holds the facts a game list shows (title, seats, factions; a test checks they are
the engine's own), where the app finds the game's screen and its UI data, and what an export
needs (BG Stats)::

    {"title": "Tyranny", "min_seats": 2, "max_seats": 4, "factions": ["cops", "criminals"],
     "screen": "companion.ui.games.tyranny.screen:TyrannyScreen",   # optional: no table screen
     "ui": "companion.ui.games.tyranny",                             # optional: the UI data files' package
     "setup": "companion.ui.games.liberation.setup_map:add_map_choice",  # optional wizard widgets
     "bgstats": {"bggId": null, "highestWins": true, "noPoints": true},  # optional
     "demo": {"seats": [...]}}                                       # optional: a demo game's seats

>>> card = {"title": "Mini", "min_seats": 2, "max_seats": 2, "factions": ["a", "b"]}
>>> p = plugin_from_card("mini", "tests.mini:GAME", card, "tests/mini/plugin.json")
>>> p.title, p.factions, p.screen, p.bgstats
('Mini', ('a', 'b'), '', {'bggId': None, 'highestWins': True, 'noPoints': False})
>>> plugin_from_card("mini", "tests.mini:GAME", {"title": 3}, "plugin.json")
Traceback (most recent call last):
...
rules.core.errors.BadPluginCard: plugin.json: title must be a text; min_seats must be a whole number; max_seats must be a whole number; factions must be a list of texts
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from .core.errors import BadPluginCard

# BG Stats' facts for a game whose card says nothing of them: matched by its name (no
# BoardGameGeek id), the highest score wins, scores are points.
DEFAULT_BGSTATS: Mapping[str, Any] = {"bggId": None, "highestWins": True, "noPoints": False}
_TEXT_KEYS = ("screen", "ui", "setup")


def _refuse(message: str) -> BadPluginCard:
    # Imported here: a good card never loads the kernel (listing the games imports none of it).
    from .core.errors import BadPluginCard

    return BadPluginCard(message)


@dataclass(frozen=True)
class GamePlugin:
    """One installed game: its entry point, its card's facts and where its parts live.

    ``engine`` is the entry point's value ("module:attribute" of the Game instance);
    ``folder`` the engine package's folder (its ``data/`` files: factions, mappings)."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    factions: tuple[str, ...]
    engine: str = ""
    folder: Path | None = field(default=None, compare=False)
    screen: str = ""
    ui: str = ""
    setup: str = ""
    bgstats: Mapping[str, Any] = field(default_factory=lambda: dict(DEFAULT_BGSTATS), compare=False, hash=False)
    demo: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)

    @property
    def module(self) -> str:
        """The module holding the engine ("rules.tyranny")."""
        return self.engine.split(":", 1)[0]

    def data_file(self, name: str) -> Path | None:
        """The engine package's ``data/<name>`` if the game ships one."""
        if self.folder is None:
            return None
        path = self.folder / "data" / name
        return path if path.is_file() else None


def plugin_from_card(game_id: str, engine: str, card: Any, source: str, folder: Path | None = None) -> GamePlugin:
    """A :class:`GamePlugin` from a card's parsed JSON; every problem in one :class:`~rules.core.errors.BadPluginCard`."""
    problems = []
    card = card if isinstance(card, dict) else {}
    if not isinstance(card.get("title"), str):
        problems.append("title must be a text")
    for key in ("min_seats", "max_seats"):
        if not isinstance(card.get(key), int) or isinstance(card.get(key), bool):
            problems.append(f"{key} must be a whole number")
    factions = card.get("factions")
    if not isinstance(factions, list) or not all(isinstance(f, str) for f in factions):
        problems.append("factions must be a list of texts")
    problems += [f"{k} must be a text" for k in _TEXT_KEYS if not isinstance(card.get(k, ""), str)]
    for key in ("bgstats", "demo"):
        if key in card and not isinstance(card[key], dict):
            problems.append(f"{key} must be an object")
    if problems:
        raise _refuse(f"{source}: " + "; ".join(problems))
    return GamePlugin(
        id=game_id, title=card["title"], min_seats=card["min_seats"], max_seats=card["max_seats"],
        factions=tuple(factions), engine=engine, folder=folder,
        screen=card.get("screen", ""), ui=card.get("ui", ""), setup=card.get("setup", ""),
        bgstats={**DEFAULT_BGSTATS, **card.get("bgstats", {})}, demo=card.get("demo"),
    )


def read_card(game_id: str, engine: str, folder: Path) -> GamePlugin:
    """The card in ``folder/plugin.json``."""
    path = folder / "plugin.json"
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _refuse(f"{path}: the game {game_id!r} has no plugin.json beside its engine") from None
    except ValueError as e:
        raise _refuse(f"{path}: not valid JSON ({e})") from None
    return plugin_from_card(game_id, engine, card, str(path), folder)
