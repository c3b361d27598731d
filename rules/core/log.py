"""The game's own log of what happened, with per-entry visibility.

An entry with ``to=None`` is public; otherwise only the listed seats see it. Views filter
the log, so a secret written to a seat's entry never reaches the shared screen.
"""
from __future__ import annotations

from dataclasses import dataclass

from .serial import serializable


@serializable("core.LogEntry")
@dataclass(frozen=True, slots=True)
class LogEntry:
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
