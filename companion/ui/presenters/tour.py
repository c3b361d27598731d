"""The table tour: a few steps that show a new table what each part of the game screen is
for, one at a time, with Next and Skip. Its words are data: the game's own ``tour.json`` in
its UI package, else the tour of the parts every game screen shares (``data/tour.json``);
this model only walks them.

>>> t = TourModel.for_game("no-such-game")   # no tour of its own: the shared parts
>>> t.step.target, t.counter
('prompt', '1 / 4')
>>> t.next(); t.step.target
'dice'
>>> while not t.done: t.next()
>>> t.done, t.step
(True, None)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..gamefiles import game_file

DEFAULT = Path(__file__).resolve().parent.parent / "data" / "tour.json"


@dataclass(frozen=True)
class TourStep:
    """One stop of the tour: the screen's widget it points at (its id in the screen's
    ``.kv``), a title and what to know, in player words."""

    target: str
    title: str
    text: str


@lru_cache(maxsize=None)
def tour_steps(game_id: str) -> tuple[TourStep, ...]:
    """The game's tour: its UI package's ``tour.json``, else the shared default."""
    path = game_file(game_id, "tour.json") or DEFAULT
    raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return tuple(TourStep(s["target"], s["title"], s["text"]) for s in raw["steps"])


@dataclass
class TourModel:
    steps: tuple[TourStep, ...]
    index: int = 0

    @classmethod
    def for_game(cls, game_id: str) -> "TourModel":
        return cls(tour_steps(game_id))

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def step(self) -> TourStep | None:
        return None if self.done else self.steps[self.index]

    @property
    def counter(self) -> str:
        return f"{min(self.index + 1, len(self.steps))} / {len(self.steps)}"

    @property
    def is_last(self) -> bool:
        return self.index == len(self.steps) - 1

    def next(self) -> None:
        self.index = min(self.index + 1, len(self.steps))

    def skip(self) -> None:
        self.index = len(self.steps)
