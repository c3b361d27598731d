"""How Dicetopia's pieces look on screen, without Kivy: the dice's own colours (the
components' purple, teal and white, the same in every palette: they match the dice on
the table) with ink that reads on them, and how many cells a panel's row holds.

>>> ink("white"), ink("purple")
((0.08, 0.08, 0.08, 1.0), (1.0, 1.0, 1.0, 1.0))
>>> columns(300, 48, 4)
5
"""
from __future__ import annotations

# The physical dice's colours; the glyph and value on each cell carry the same facts.
DIE_RGBA: dict[str, tuple[float, float, float, float]] = {
    "purple": (0.49, 0.30, 0.70, 1.0),
    "teal": (0.16, 0.62, 0.62, 1.0),
    "white": (0.93, 0.93, 0.90, 1.0),
}
_DARK = (0.08, 0.08, 0.08, 1.0)
_LIGHT = (1.0, 1.0, 1.0, 1.0)


def ink(colour: str | tuple[float, ...]) -> tuple[float, float, float, float]:
    """The text colour on a die of ``colour`` (or on an RGBA fill): dark on light, white on dark."""
    r, g, b = (DIE_RGBA.get(colour, (0.3, 0.3, 0.3, 1.0)) if isinstance(colour, str) else colour)[:3]
    return _DARK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else _LIGHT


def columns(width: float, cell: float, gap: float) -> int:
    """How many cells of ``cell`` px with ``gap`` between fit in ``width`` (at least 1)."""
    return max(1, int((width + gap) // (cell + gap)))
