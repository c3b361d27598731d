"""Fitting short texts into a known width without measuring them (no Kivy here)."""
from __future__ import annotations


def cut(text: str, width: float, font_size: float) -> str:
    """``text`` cut to about ``width`` pixels with an ellipsis. An estimate from the font
    size (a glyph is about 0.62 em wide in DejaVu Sans): good enough for a seat's name on
    a clock face, and cheap at the clocks' 4 refreshes a second.

    >>> cut("▲ Ann", 200, 16)
    '▲ Ann'
    >>> cut("▲ Alexandra-Marie", 60, 16)
    '▲ Ale…'
    """
    fits = max(3, int(width / (font_size * 0.62)))
    return text if len(text) <= fits else text[:fits - 1] + "…"
