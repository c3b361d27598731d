"""What the table screen says when a clock has news: a low-time warning, a flag fall, a
penalty minute, a byo-yomi period used, the turn timer running out, time restored after a
restart. Pure (no Kivy): the game screen shows the alert in its banner and plays its cue.

>>> from companion.clocks import ClockEvent, EventKind, OvertimePolicy
>>> a = alert_for(ClockEvent(EventKind.WARNING, "cop-1", remaining=29.5), {"cop-1": "Ann"})
>>> a.message, a.kind, a.cue
('Ann: low time, 0:30 left.', 'warn', 'clock')
>>> alert_for(ClockEvent(EventKind.OVER_TIME, "cop-1", 0.0, OvertimePolicy.LOSS), {"cop-1": "Ann"}).message
'Ann is out of time and loses on time.'
>>> alert_for(ClockEvent(EventKind.PENALTY, "cop-1", -61.0, minute=2, points=5), {}).message
'cop-1: minute 2 over time: 10 penalty points so far.'
>>> alert_for(ClockEvent(EventKind.ADJUSTED, "cop-1", 90.0, delta=30.0), {}) is None  # the admin did it
True
>>> gives_time_back([ClockEvent(EventKind.ADJUSTED, "cop-1", 90.0, delta=30.0)], a)  # the warning is over
True

After a restart the seats that were running are charged for the downtime; an untimed
game charges nothing a player could miss, so it says nothing:

>>> alert_for(ClockEvent(EventKind.RESTORED, "cop-1", 254.0, delta=-46.0), {"cop-1": "Ann"}).message
'Ann: 0:46 charged for the time the app was closed (hold a clock to give it back).'
>>> alert_for(ClockEvent(EventKind.RESTORED, "cop-1", float("inf"), delta=-46.0), {"cop-1": "Ann"}) is None
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

RULE = "Clocks (set up for this game)"


@dataclass(frozen=True)
class ClockAlert:
    message: str
    code: str  # the event kind: "warning", "over-time", …
    kind: str  # banner colour: "warn" or "bad"
    cue: str  # sound cue name
    seat: str = ""  # whose clock it is about


def alert_for(event: Any, names: Mapping[str, str]) -> ClockAlert | None:
    """The alert for one clock event, or None for events the screen need not announce
    (an adjustment the admin just made)."""
    said = _said(event, names.get(event.seat, event.seat))
    if said is None:
        return None
    message, kind = said
    return ClockAlert(message, event.kind.value, kind, "clock", event.seat)


def _said(event: Any, who: str) -> tuple[str, str] | None:
    """What the banner says for ``event`` and its colour ("warn" or "bad")."""
    from companion.clocks import EventKind, OvertimePolicy, format_time

    k = event.kind
    if k is EventKind.WARNING:
        return f"{who}: low time, {format_time(event.remaining)} left.", "warn"
    if k is EventKind.OVER_TIME:
        tail = {
            OvertimePolicy.LOSS: " and loses on time",
            OvertimePolicy.PENALTY: ": penalty points for every started minute over",
        }.get(event.consequence, ": play on")
        return f"{who} is out of time{tail}.", "bad"
    if k is EventKind.PENALTY:
        total = event.minute * event.points
        return f"{who}: minute {event.minute} over time: {total} penalty point{'s' if total != 1 else ''} so far.", "bad"
    if k is EventKind.PERIOD_USED:
        return f"{who}: a byo-yomi period is used, {event.periods_left or 0} left.", "warn"
    if k is EventKind.TURN_OVER:
        return f"{who}: the turn time is over.", "warn"
    if k is EventKind.RESTORED:
        if math.isinf(event.remaining):  # untimed: no time to lose, nothing to say
            return None
        return (f"{who}: {format_time(-event.delta)} charged for the time the app was closed "
                "(hold a clock to give it back)."), "warn"
    return None


def gives_time_back(events: Iterable[Any], alert: ClockAlert) -> bool:
    """Whether an admin gave time back to the seat ``alert`` is about: its banner (low
    time, out of time) no longer holds and comes down."""
    from companion.clocks import EventKind

    return any(e.kind is EventKind.ADJUSTED and e.seat == alert.seat and (e.delta or 0) > 0 for e in events)


def alerts_for(events: Iterable[Any], names: Mapping[str, str]) -> list[ClockAlert]:
    return [a for a in (alert_for(e, names) for e in events) if a is not None]
