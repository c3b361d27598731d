"""The table tour: a few steps that show a new table what each part of the game screen is
for, one at a time, with Next and Skip. Its words are data (``data/tours.json``, one list
per game); this model only walks them.

>>> t = TourModel.for_game("tyranny")
>>> t.step.target, t.counter
('board', '1 / 6')
>>> t.next(); t.step.target
'influence'
>>> while not t.done: t.next()
>>> t.done, t.step
(True, None)
>>> TourModel.for_game("no-such-game").done
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "tours.json"


@dataclass(frozen=True)
class TourStep:
    """One stop of the tour: the screen's widget it points at (its id in the screen's
    ``.kv``), a title and what to know, in player words."""

    target: str
    title: str
    text: str


@lru_cache(maxsize=None)
def _tours() -> dict[str, tuple[TourStep, ...]]:
    raw: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return {game: tuple(TourStep(s["target"], s["title"], s["text"]) for s in steps)
            for game, steps in raw.items() if not game.startswith("_")}


@dataclass
class TourModel:
    steps: tuple[TourStep, ...]
    index: int = 0

    @classmethod
    def for_game(cls, game_id: str) -> "TourModel":
        return cls(_tours().get(game_id, ()))

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
