"""Which seats have a phone attached (``--phones on``, ``companion/web``), in the table
screen's words: a badge beside each such seat — the ☎ glyph, which the shipped font has
(its mobile-phone emoji is not there), and the words "phone attached" for whoever cannot tell the glyph.
Kivy-free; ``GameScreen`` shows it under the prompt line (who must act) and on the seat
clocks of every game."""
from __future__ import annotations

from typing import Iterable

PHONE = "☎"


def phones_line(seats: Iterable[tuple[str, str]], attached: Iterable[str]) -> str:
    """The prompt panel's badge: the seats (``(id, name)`` in turn order) whose phone is
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


def with_phones(prompt: str, line: str) -> str:
    r"""The game's own prompt line (who must act, and what the game waits for) with the
    phones' badge on a line of its own after it: the prompt's panel grows to hold it, where
    the top bar's turn line has no room at large text.

    >>> with_phones("Ann (▲ Cops): roll to move", "☎ Ann's phone attached")
    "Ann (▲ Cops): roll to move\n☎ Ann's phone attached"
    >>> with_phones("Ann (▲ Cops): roll to move", ""), with_phones("", "☎ Ann's phone attached")
    ('Ann (▲ Cops): roll to move', "☎ Ann's phone attached")
    """
    if not line:
        return prompt
    return f"{prompt}\n{line}" if prompt else line


def badge(name: str, has_phone: bool) -> str:
    """A seat's name on its clock face, with the phone badge when its phone is attached
    (the prompt panel says the words).

    >>> badge("▲ Ann", True), badge("● Bob", False)
    ('☎ ▲ Ann', '● Bob')
    """
    return f"{PHONE} {name}" if has_phone else name
