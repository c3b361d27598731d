"""The game's own log of what happened, with per-entry visibility.

An entry with ``to=None`` is public; otherwise only the listed seats see it. Views filter
the log, so a secret written to a seat's entry never reaches the shared screen.
"""
from __future__ import annotations

from typing import NamedTuple

from .jsondata import serializable, to_data
from .text import Text


@serializable("core.LogEntry")
class LogEntry(NamedTuple):
    """One line of the log. A NamedTuple, not a frozen dataclass: an entry is written on
    nearly every action, and a frozen dataclass sets each field through
    ``object.__setattr__`` (measured: 3–6 % of the checked push's throughput)."""

    ply: int
    # A Text (worded at display time); a plain English string in states saved before
    # log lines were structure, and from games not yet converted.
    text: Text | str
    seat: str | None = None
    to: tuple[str, ...] | None = None

    def visible_to(self, viewer: str) -> bool:
        return self.to is None or viewer in self.to


def visible_log(log: list[LogEntry], viewer: str) -> list[dict[str, object]]:
    """The entries ``viewer`` may read, as JSON data: ``text`` is the English line, and an
    entry written as a :class:`~rules.core.text.Text` also carries it as ``words`` (its
    :func:`~rules.core.jsondata.to_data` form), which a screen words in its own language."""
    out: list[dict[str, object]] = []
    for e in log:
        if e.to is None or viewer in e.to:
            text = e.text
            if type(text) is str:
                out.append({"ply": e.ply, "seat": e.seat, "text": text})
            else:
                out.append({"ply": e.ply, "seat": e.seat, "text": str(text), "words": to_data(text)})
    return out
