"""Text sizes that fit a box by whole words: a name on a board tile or a map city wraps
between its words, never inside one ("Courthous / e", "Underwo")."""
from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp

from ..theme import FONT

_WORD_WIDTHS: dict[tuple[str, float], float] = {}


def fit_words(text: str, font_size: float, width: float) -> float | None:
    """``font_size``, made smaller until the longest word of ``text`` fits ``width``;
    ``None`` when even 8 dp is too big (the caller then cuts the text)."""
    word = max(text.split() or [""], key=len)
    if not word:
        return font_size
    key = (word, font_size)
    wide = _WORD_WIDTHS.get(key)
    if wide is None:
        if len(_WORD_WIDTHS) >= 4096:
            _WORD_WIDTHS.clear()
        wide = _WORD_WIDTHS[key] = CoreLabel(text=word, font_name=FONT, font_size=font_size).get_extents(word)[0]
    if wide <= width:
        return font_size
    smaller = font_size * width * 0.9 / wide  # hinting makes small text a little wider than in proportion
    return smaller if smaller >= dp(8) else None
