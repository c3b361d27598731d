"""What one seat's clock face says (no Kivy): the seat's time, and the turn timer while
the seat is acting, with a warning before the turn time is over.

An untimed game with a turn timer showed "∞" on every face, then "the turn time is
over" without warning; the face now counts the turn down and turns to a warning ("⚠")
when little of it is left.

>>> from types import SimpleNamespace as NS
>>> untimed = NS(remaining=float("inf"), turn_remaining=75.2, warned=False, penalty_points=0)
>>> face_for(untimed, turn_limit=120.0, wide=True)
FaceText(time='turn 1:16 left', state='running', turn_warning=False)
>>> face_for(NS(remaining=float("inf"), turn_remaining=9.5, warned=False, penalty_points=0), 120.0, wide=False)
FaceText(time='⚠ turn 0:10', state='warn', turn_warning=True)
>>> face_for(NS(remaining=float("inf"), turn_remaining=None, warned=False, penalty_points=0), 120.0, wide=True)
FaceText(time='2:00 a turn', state='idle', turn_warning=False)
>>> face_for(NS(remaining=272.0, turn_remaining=None, warned=False, penalty_points=0), None, wide=True)
FaceText(time='4:32', state='idle', turn_warning=False)
>>> face_for(NS(remaining=272.0, turn_remaining=40.0, warned=False, penalty_points=0), 120.0, wide=True).time
'4:32 · turn 0:40'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

# The turn timer warns when this share of the turn is left (at least WARN_MIN_S seconds).
WARN_SHARE = 0.25
WARN_MIN_S = 10.0


def turn_warning_at(turn_limit: float) -> float:
    """Seconds left in a turn at which its face warns.

    >>> turn_warning_at(120), turn_warning_at(20)
    (30.0, 10.0)
    """
    return max(WARN_MIN_S, min(turn_limit * WARN_SHARE, turn_limit))


@dataclass(frozen=True)
class FaceText:
    time: str  # the face's second line
    state: str  # colour role: idle, running, warn, bad
    turn_warning: bool


def face_for(status: Any, turn_limit: float | None, wide: bool) -> FaceText:
    """The face for a ``companion.clocks`` SeatClock (``status``); ``turn_limit`` from the
    clocks' config; ``wide``: room for the seat's time and the turn's side by side."""
    from companion.clocks import format_time

    left, turn = status.remaining, status.turn_remaining
    timed = not math.isinf(left)
    main = format_time(left) if timed else "∞"
    pts = f" · penalty {status.penalty_points}" if status.penalty_points else ""
    if turn is None and turn_limit is not None and not timed:  # waiting for its turn
        return FaceText(f"{format_time(turn_limit)} a turn", "idle", False)
    if turn is None or turn_limit is None:
        state = "bad" if left <= 0 else ("warn" if status.warned else "idle")
        return FaceText(main + pts, state, False)
    warning = turn <= turn_warning_at(turn_limit)
    turn_text = format_time(max(turn, 0.0))
    if warning:
        text = f"⚠ turn {turn_text}" + (f" · {main}" if timed and wide else "")
    elif not timed:
        text = f"turn {turn_text}" + (" left" if wide else "")
    else:
        text = f"{main} · turn {turn_text}" if wide else main
    state = "bad" if (timed and left <= 0) or turn <= 0 else ("warn" if warning or status.warned else "running")
    return FaceText(text + pts, state, warning)
