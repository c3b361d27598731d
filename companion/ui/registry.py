"""Which games have a table screen: each game's plugin card says so (``"screen":
"package.module:ClassName"``, plus its optional wizard widgets, ``"setup"``, and the package of
its UI data files, ``"ui"``; see rules/README.md "Writing a game").

Nothing here imports Kivy or an engine: the screen's module is imported when the screen is
first shown.

>>> first = next(iter(game_screens().values()))
>>> first.screen_name == f"game:{first.game_id}"
True
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import rules

from ..errors import CompanionError


class NoScreenForGame(CompanionError, LookupError):
    """No installed game's plugin declares a screen for this game id."""


@dataclass(frozen=True)
class GameScreenInfo:
    game_id: str
    target: str  # "package.module:ClassName"
    package: str  # the game's UI package (its data files: position form, palette, tour)
    setup: str = ""  # optional "package.module:function" adding game-specific setup widgets

    @property
    def screen_name(self) -> str:
        return f"game:{self.game_id}"

    def load_class(self) -> Any:
        """Import the screen module (this is where Kivy gets imported) and return the class."""
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)


def game_screens() -> dict[str, GameScreenInfo]:
    """Every installed game with a screen, by id (read from the catalogue each time: a
    game installed or registered since is found)."""
    return {g.id: GameScreenInfo(g.id, g.screen, g.ui or g.screen.partition(":")[0].rpartition(".")[0], g.setup)
            for g in rules.catalog() if g.screen}


def screen_for(game_id: str) -> GameScreenInfo:
    try:
        return game_screens()[game_id]
    except KeyError:
        raise NoScreenForGame(f"no table screen for game {game_id!r}: its plugin.json names no \"screen\"") from None
