"""Which seats have a phone attached (``--phones on``, ``companion/web``), in the table
screen's words: a badge beside each such seat — the ☎ glyph, which the shipped font has
(its 📱 is not there), and the words "phone attached" for whoever cannot tell the glyph.
Kivy-free; ``GameScreen`` shows it on the turn line and the seat clocks of every game."""
from __future__ import annotations

from typing import Iterable

PHONE = "☎"


def phones_line(seats: Iterable[tuple[str, str]], attached: Iterable[str]) -> str:
    """The turn line's badge: the seats (``(id, name)`` in turn order) whose phone is
    attached, by name, or "" when none is.

    >>> seats = [("cops-1", "Ann"), ("criminals-1", "Bob"), ("cops-2", "Cy")]
    >>> phones_line(seats, {"cops-1"})
    "☎ Ann's phone attached"
    >>> phones_line(seats, {"cops-2", "cops-1"})
    '☎ phones attached: Ann, Cy'
    >>> phones_line(seats, set()), phones_line(seats, {"nobody"})
    ('', '')
    """
    on = set(attached)
    names = [name for sid, name in seats if sid in on]
    if not names:
        return ""
    if len(names) == 1:
        return f"{PHONE} {names[0]}'s phone attached"
    return f"{PHONE} phones attached: {', '.join(names)}"


def with_phones(turn: str, line: str) -> str:
    """The game's own turn line with the phones' badge after it (the game's words first).

    >>> with_phones("Round 1 · turn 1", "☎ Ann's phone attached")
    "Round 1 · turn 1  ·  ☎ Ann's phone attached"
    >>> with_phones("Round 1 · turn 1", ""), with_phones("", "☎ Ann's phone attached")
    ('Round 1 · turn 1', "☎ Ann's phone attached")
    """
    if not line:
        return turn
    return f"{turn}  ·  {line}" if turn else line


def badge(name: str, has_phone: bool) -> str:
    """A seat's name on its clock face, with the phone badge when its phone is attached
    (the turn line says the words).

    >>> badge("▲ Ann", True), badge("● Bob", False)
    ('☎ ▲ Ann', '● Bob')
    """
    return f"{PHONE} {name}" if has_phone else name
