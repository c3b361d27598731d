"""How a game ended.

>>> o = Outcome(winner="criminals", reason="1000+ influence held for 3 turns",
...             scores={"criminals": Score(1200, {"influence": 1200})})
>>> o.winner, o.scores["criminals"].total
('criminals', 1200)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .jsondata import OPTIONAL, serializable
from .text import Text


@serializable("core.Score")
@dataclass(frozen=True)
class Score:
    total: int
    breakdown: dict[str, int] = field(default_factory=dict)


@serializable("core.Outcome")
@dataclass(frozen=True)
class Outcome:
    """``winner`` is a faction, team or seat id (``None`` for a draw); ``winning_seats``
    names the seats that share the win. ``reason`` is the English reason; ``words``, when
    the game gives it, is the same reason as a :class:`~rules.core.text.Text`, for a screen
    to word in its own language (``None`` from games not yet converted and in older saves)."""

    winner: str | None
    reason: str
    scores: dict[str, Score] = field(default_factory=dict)
    winning_seats: tuple[str, ...] = ()
    words: Text | None = field(default=None, metadata=OPTIONAL)
