"""The game's own log of what happened, with per-entry visibility.

An entry with ``to=None`` is public; otherwise only the listed seats see it. Views filter
the log, so a secret written to a seat's entry never reaches the shared screen.
"""
from __future__ import annotations

from typing import NamedTuple

from .jsondata import serializable


@serializable("core.LogEntry")
class LogEntry(NamedTuple):
    """One line of the log. A NamedTuple, not a frozen dataclass: an entry is written on
    nearly every action, and a frozen dataclass sets each field through
    ``object.__setattr__`` (measured: 3–6 % of the checked push's throughput)."""

    ply: int
    text: str
    seat: str | None = None
    to: tuple[str, ...] | None = None

    def visible_to(self, viewer: str) -> bool:
        return self.to is None or viewer in self.to


def visible_log(log: list[LogEntry], viewer: str) -> list[dict[str, object]]:
    return [
        {"ply": e.ply, "seat": e.seat, "text": e.text}
        for e in log
        if e.to is None or viewer in e.to
    ]
