"""Colour helpers for kv rules (a module of its own: a kv file imports it while the
widget module that loads the kv file is still being imported)."""
from __future__ import annotations

from typing import Sequence

PRESS_TINT = 0.18  # how far a pressed button's fill moves towards white


def pressed(rgba: Sequence[float], down: bool) -> list[float]:
    """A button's fill, lightened while it is held down.

    >>> pressed([0.0, 0.5, 1.0, 1.0], True)
    [0.18, 0.59, 1.0, 1.0]
    >>> pressed([0.2, 0.2, 0.2, 1.0], False)
    [0.2, 0.2, 0.2, 1.0]
    """
    r, g, b, a = rgba
    if not down:
        return [r, g, b, a]
    return [round(c + (1 - c) * PRESS_TINT, 6) for c in (r, g, b)] + [a]
