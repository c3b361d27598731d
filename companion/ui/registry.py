"""Which games have a table screen: one package per game under ``companion/ui/games/``.

A game folder's ``__init__.py`` declares, without importing Kivy::

    GAME_ID = "tyranny"                                   # the rules engine id
    SCREEN = "companion.ui.games.tyranny.screen:TyrannyScreen"

The registry finds them by walking the folder, so adding a game is adding a folder.

>>> "tyranny" in game_screens()
True
>>> game_screens()["tyranny"].screen_name
'game:tyranny'
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import CompanionError


class NoScreenForGame(CompanionError, LookupError):
    """No folder under ``companion/ui/games/`` declares a screen for this game id."""


@dataclass(frozen=True)
class GameScreenInfo:
    game_id: str
    target: str  # "package.module:ClassName"
    package: str
    setup: str = ""  # optional "package.module:function" adding game-specific setup widgets

    @property
    def screen_name(self) -> str:
        return f"game:{self.game_id}"

    def load_class(self) -> Any:
        """Import the screen module (this is where Kivy gets imported) and return the class."""
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)


@lru_cache(maxsize=1)
def game_screens() -> dict[str, GameScreenInfo]:
    from . import games

    found: dict[str, GameScreenInfo] = {}
    for m in pkgutil.iter_modules(games.__path__, games.__name__ + "."):
        if not m.ispkg:
            continue
        pkg = importlib.import_module(m.name)
        gid, target = getattr(pkg, "GAME_ID", None), getattr(pkg, "SCREEN", None)
        if gid and target:
            found[gid] = GameScreenInfo(gid, target, m.name, getattr(pkg, "SETUP", "") or "")
    return found


def screen_for(game_id: str) -> GameScreenInfo:
    try:
        return game_screens()[game_id]
    except KeyError:
        raise NoScreenForGame(f"no table screen for game {game_id!r}: add companion/ui/games/{game_id}/") from None
