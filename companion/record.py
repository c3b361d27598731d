"""The plain record of one game that exports are computed from.

The Table builds a :class:`GameRecord` from the journal **with public data only** (action
data with hidden values redacted while the game is in progress, public tracked values);
:mod:`companion.export` reads nothing else. Both types are small frozen values of JSON-ready
fields so an export never needs the engine or the journal.

>>> a = ActionRecord(ply=0, seat="fox-1", kind="roll", data={"values": [4]}, source="die:hub1/0",
...                  time=1_790_000_000.0, undone=False)
>>> r = GameRecord(game_id="stepping_stones", key="g1", seats=[{"id": "fox-1", "faction": "fox", "name": "Ann"}],
...                options={}, seed=7, started=1_790_000_000.0, finished=None, actions=[a],
...                outcome=None, tracked=[])
>>> r.is_finished, r.actions[0].kind
(False, 'roll')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ActionRecord:
    """One journaled action: its ply (0-based index among the actions in force when it was
    accepted), the seat that acted, its kind, its public data, where it came from
    (``"touch"``, ``"die:hub1/0"``, ``"slot:A3"``, ``"gpio:end-turn"``, ``"app"``, ``"keypad"``),
    wall-clock time (epoch seconds) and whether it was later undone."""

    ply: int
    seat: str | None
    kind: str
    data: dict[str, Any]
    source: str
    time: float
    undone: bool = False


@dataclass(frozen=True)
class GameRecord:
    """A game as exports see it. ``seats``: ``[{"id", "faction", "name"}]`` in seat order;
    ``started``/``finished``: epoch seconds (``finished`` None while in progress);
    ``outcome``: the engine's outcome as plain data (``winner``, ``reason``, ``scores``,
    ``winning_seats``) or None; ``tracked``: ``[{"ply", "turn", "values"}]``;
    ``position``: for a game joined in progress, the **public** position it started from
    (never its private part), else None."""

    game_id: str
    key: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    started: float
    finished: float | None
    actions: list[ActionRecord] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    tracked: list[dict[str, Any]] = field(default_factory=list)
    position: dict[str, Any] | None = None

    @property
    def is_finished(self) -> bool:
        return self.finished is not None and self.outcome is not None

    @property
    def duration_s(self) -> float | None:
        """Seconds from start to finish (None while in progress)."""
        return None if self.finished is None else max(0.0, self.finished - self.started)
