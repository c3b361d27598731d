"""The clocks' admin panel without Kivy: the steps it offers and the sentences it asks
and says.

>>> confirm_text(Adjustment("cops-1", 60.0), {"cops-1": "▲ Ann"})
'Give ▲ Ann 1:00 back?'
>>> confirm_text(Adjustment("cops-1", -10.0), {"cops-1": "▲ Ann"}, done=True)
'took 0:10 from ▲ Ann.'
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


def confirm_text(a: Adjustment, names: Mapping[str, str], done: bool = False) -> str:
    from companion.clocks import format_time

    who, amount = names.get(a.seat, a.seat), format_time(abs(a.delta))
    if done:
        return f"gave {who} {amount} back." if a.delta > 0 else f"took {amount} from {who}."
    return f"Give {who} {amount} back?" if a.delta > 0 else f"Take {amount} from {who}?"
