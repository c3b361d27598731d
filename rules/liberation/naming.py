"""What players call Liberation's pieces, for the app's forms and messages (the kernel's
``Game.names`` and ``Game.choices`` hooks): the cities of the map the table plays, its own
map included.

>>> from rules.liberation import GAME
>>> cities = GAME.choices("cities", {}, [])
>>> len(cities) == len(GAME.names({})) and all(GAME.names({})[c] == n for c, n in cities)
True
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .mapdata import parse_map


class Naming:
    """Liberation's ``names`` and ``choices`` (mixed into the Game)."""

    def _cities(self, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        opts = self.resolve_options(dict(options))  # type: ignore[attr-defined]
        return [(c.id, c.name) for c in parse_map(opts["map"]).cities]

    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        return dict(self._cities(options))

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        if source == "cities":
            return list(self._cities(options))
        return super().choices(source, options, seats, position)  # type: ignore[misc]
