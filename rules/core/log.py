"""The game's own log of what happened, with per-entry visibility.

An entry with ``to=None`` is public; otherwise only the listed seats see it. Views filter
the log, so a secret written to a seat's entry never reaches the shared screen.
"""
from __future__ import annotations

from dataclasses import dataclass

from .jsondata import serializable


@serializable("core.LogEntry")
@dataclass(frozen=True, slots=True, init=False)
class LogEntry:
    ply: int
    text: str
    seat: str | None = None
    to: tuple[str, ...] | None = None

    # Frozen dataclasses set each field through object.__setattr__ by name; an entry is
    # written on nearly every action, so the fields are set through their slots instead
    # (half the cost). The entry stays frozen: assignment still raises.
    def __init__(self, ply: int, text: str, seat: str | None = None, to: tuple[str, ...] | None = None) -> None:
        _set_ply(self, ply)
        _set_text(self, text)
        _set_seat(self, seat)
        _set_to(self, to)

    def visible_to(self, viewer: str) -> bool:
        return self.to is None or viewer in self.to


_set_ply = LogEntry.ply.__set__  # type: ignore[attr-defined]
_set_text = LogEntry.text.__set__  # type: ignore[attr-defined]
_set_seat = LogEntry.seat.__set__  # type: ignore[attr-defined]
_set_to = LogEntry.to.__set__  # type: ignore[attr-defined]


def visible_log(log: list[LogEntry], viewer: str) -> list[dict[str, object]]:
    return [
        {"ply": e.ply, "seat": e.seat, "text": e.text}
        for e in log
        if e.to is None or viewer in e.to
    ]
