"""The clocks' admin panel without Kivy: the steps it offers and the sentences it asks
and says.

>>> confirm_text(Adjustment("cops-1", 60.0), {"cops-1": "▲ Ann"})
'Give ▲ Ann 1:00 back?'
>>> confirm_text(Adjustment("cops-1", -10.0), {"cops-1": "▲ Ann"}, done=True)
'took 0:10 from ▲ Ann.'

Steps tapped before the confirmation add up: a second "− 0:10" for the same seat asks
for 0:20 (it silently replaced the first, so the table confirmed less than it meant):

>>> a, note = add_step(None, "cops-1", -10.0, {"cops-1": "▲ Ann"})
>>> a, note = add_step(a, "cops-1", -10.0, {"cops-1": "▲ Ann"})
>>> confirm_text(a, {"cops-1": "▲ Ann"}), note
('Take 0:20 from ▲ Ann?', '')

A step for another seat starts a new change, and says what it replaces:

>>> b, note = add_step(a, "crim-2", 60.0, {"cops-1": "▲ Ann", "crim-2": "◆ Bob"})
>>> confirm_text(b, {}), note
('Give crim-2 1:00 back?', 'Replaced, not done: take 0:20 from ▲ Ann.')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

# (seconds, button text): time taken first, then time given.
STEPS: tuple[tuple[float, str], ...] = ((-60.0, "− 1:00"), (-10.0, "− 0:10"), (10.0, "+ 0:10"), (60.0, "+ 1:00"))


@dataclass(frozen=True)
class Adjustment:
    seat: str
    delta: float  # seconds: > 0 gives time back, < 0 takes it


def add_step(asked: Adjustment | None, seat: str, delta: float, names: Mapping[str, str]) -> tuple[Adjustment | None, str]:
    """The change to confirm after one more step tapped: the steps for one seat add up
    (None when they cancel out); a step for another seat replaces the change not yet
    confirmed, and the note says which (or "" when nothing is replaced)."""
    if asked is None or asked.seat != seat:
        note = "" if asked is None else "Replaced, not done: " + confirm_text(asked, names, done=True, plain=True)
        return Adjustment(seat, delta), note
    total = asked.delta + delta
    return (Adjustment(seat, total) if total else None), ""


def confirm_text(a: Adjustment, names: Mapping[str, str], done: bool = False, plain: bool = False) -> str:
    """The question before a change, or (``done``) what was changed; ``plain``: the
    change itself, "take 0:20 from ▲ Ann." (what a replaced change would have done)."""
    from companion.clocks import format_time

    who, amount = names.get(a.seat, a.seat), format_time(abs(a.delta))
    if plain:
        return f"give {who} {amount} back." if a.delta > 0 else f"take {amount} from {who}."
    if done:
        return f"gave {who} {amount} back." if a.delta > 0 else f"took {amount} from {who}."
    return f"Give {who} {amount} back?" if a.delta > 0 else f"Take {amount} from {who}?"


def done_text(a: Adjustment, names: Mapping[str, str], left: str) -> str:
    """What the panel says once a change is made, with the seat's time now: the table
    sees the result, not only the step.

    >>> done_text(Adjustment("cops-1", -20.0), {"cops-1": "▲ Ann"}, "4:40")
    'Done: took 0:20 from ▲ Ann. ▲ Ann now has 4:40.'
    """
    return f"Done: {confirm_text(a, names, done=True)} {names.get(a.seat, a.seat)} now has {left}."
