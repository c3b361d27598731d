"""Pure rule engines for the games Tabletop Companion referees.

>>> import rules
>>> game = rules.load("tyranny")              # doctest: +SKIP
>>> state = game.new(seats, options, seed=7)  # doctest: +SKIP
"""
from .core import *  # noqa: F401,F403
from .core import __all__ as _core_all
from .registry import GameInfo, catalog, load

__all__ = [*_core_all, "GameInfo", "catalog", "load"]
