"""Pure rule engines for the games Tabletop Companion referees.

The kernel's names (``rules.Roll``, ``rules.IllegalAction``…) are imported on first use
(PEP 562): listing the games (``rules.catalog()``) imports neither the kernel nor any engine.

The games are plug-ins found through entry points (:mod:`rules.registry`); what each says
about itself is its :class:`GamePlugin` (``rules.plugin(game_id)``).

>>> import rules
>>> first = rules.catalog()[0]
>>> rules.info(first.id) is rules.plugin(first.id), rules.load(first.id).title == first.title
(True, True)
>>> rules.Roll.__module__
'rules.core.actions'
>>> game = rules.load(game_id)                # doctest: +SKIP
>>> state = game.new(seats, options, seed=7)  # doctest: +SKIP
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from .plugins import GamePlugin
from .registry import GameInfo, catalog, info, load, plugin

_OWN = ["GameInfo", "GamePlugin", "catalog", "info", "load", "plugin"]


def _core() -> Any:
    return importlib.import_module(f"{__name__}.core")


def __getattr__(name: str) -> Any:
    if name == "__all__":  # ``from rules import *``
        return [*_core().__all__, *_OWN]
    if name.startswith("__"):
        raise AttributeError(name)
    if importlib.util.find_spec(f"{__name__}.{name}") is not None:  # rules.core, a game's package…
        return importlib.import_module(f"{__name__}.{name}")
    core = _core()
    if name not in core.__all__:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    value = getattr(core, name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_core().__all__})


if TYPE_CHECKING:  # what type checkers and IDEs see
    from .core import *  # noqa: F401,F403
