"""Prompts: who must act now, and what the engine waits for.

>>> p = Prompt(frozenset({"cop-1"}), RollRequest(dice=1, sides=6, purpose="move"))
>>> p.accepts("roll"), p.accepts("move")
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass

from .serial import serializable


@serializable("core.Decision")
@dataclass(frozen=True, slots=True)
class Decision:
    """A choice between action kinds (``kinds``), e.g. move or capture."""

    kinds: tuple[str, ...]
    note: str = ""

    @property
    def accepted(self) -> tuple[str, ...]:
        return self.kinds


@serializable("core.RollRequest")
@dataclass(frozen=True, slots=True)
class RollRequest:
    """A roll of ``dice`` dice with ``sides`` sides, for ``purpose``. ``also`` lists other
    kinds allowed before the roll (cards that change it, for instance)."""

    dice: int
    sides: int
    purpose: str
    also: tuple[str, ...] = ()

    @property
    def accepted(self) -> tuple[str, ...]:
        return ("roll",) + self.also


@serializable("core.DrawRequest")
@dataclass(frozen=True, slots=True)
class DrawRequest:
    """A card drawn from ``deck`` (the app's top card or the physical card's identity)."""

    deck: str
    purpose: str
    also: tuple[str, ...] = ()

    @property
    def accepted(self) -> tuple[str, ...]:
        return ("draw",) + self.also


@serializable("core.SecretRequest")
@dataclass(frozen=True, slots=True)
class SecretRequest:
    """A secret choice from every seat in ``seats``; ``committed`` have already chosen.
    Choices stay hidden until all have committed, then are revealed together."""

    seats: frozenset[str]
    purpose: str
    committed: frozenset[str] = frozenset()

    @property
    def accepted(self) -> tuple[str, ...]:
        return ("commit",)


@serializable("core.GameOver")
@dataclass(frozen=True, slots=True)
class GameOver:
    @property
    def accepted(self) -> tuple[str, ...]:
        return ()


Awaiting = Decision | RollRequest | DrawRequest | SecretRequest | GameOver


@serializable("core.Prompt")
@dataclass(frozen=True, slots=True)
class Prompt:
    actors: frozenset[str]
    awaiting: Awaiting

    def accepts(self, kind: str) -> bool:
        return kind in self.awaiting.accepted

    def __str__(self) -> str:
        who = ", ".join(sorted(self.actors)) or "nobody"
        a = self.awaiting
        if isinstance(a, RollRequest):
            what = f"roll {a.dice}d{a.sides} to {a.purpose}"
        elif isinstance(a, DrawRequest):
            what = f"draw from {a.deck} ({a.purpose})"
        elif isinstance(a, SecretRequest):
            what = f"choose secretly: {a.purpose}"
        elif isinstance(a, Decision):
            what = "choose: " + " / ".join(a.kinds) + (f" ({a.note})" if a.note else "")
        else:
            return "game over"
        return f"{who}: {what}"
