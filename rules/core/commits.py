"""Simultaneous secret choices: every seat commits, then all are revealed together.

>>> r = SecretRound("attack", seats=["a", "b"])
>>> r.commit("a", "rock"); r.is_complete
False
>>> r.public()
{'purpose': 'attack', 'waiting_for': ['b'], 'committed': ['a'], 'revealed': None}
>>> r.commit("b", "paper"); r.reveal()
{'a': 'rock', 'b': 'paper'}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsondata import serializable


@serializable("core.SecretRound")
@dataclass
class SecretRound:
    purpose: str
    seats: list[str]
    commits: dict[str, Any] = field(default_factory=dict)
    revealed: bool = False

    @property
    def waiting_for(self) -> list[str]:
        return [s for s in self.seats if s not in self.commits]

    @property
    def is_complete(self) -> bool:
        return len(self.commits) == len(self.seats)

    def commit(self, seat: str, choice: Any) -> None:
        self.commits[seat] = choice

    def reveal(self) -> dict[str, Any]:
        self.revealed = True
        return {s: self.commits[s] for s in self.seats}

    def public(self) -> dict[str, Any]:
        """What everyone may see: who has chosen, and the choices once revealed."""
        return {
            "purpose": self.purpose,
            "waiting_for": self.waiting_for,
            "committed": [s for s in self.seats if s in self.commits],
            "revealed": {s: self.commits[s] for s in self.seats} if self.revealed else None,
        }

    def private(self, seat: str) -> dict[str, Any]:
        view = self.public()
        if seat in self.commits:
            view["mine"] = self.commits[seat]
        return view
