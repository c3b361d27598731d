"""The interrupt/reaction stack: windows opened by an event in which a seat may react
(play a card, or decline) before the game goes on. The newest window is answered first.

>>> stack = ReactionStack()
>>> stack.push(Reaction("crim-1", "immediate_escape", ("crim-1", "o-docks")))
>>> stack.push(Reaction("cop-1", "inescapable_arrest", ("crim-1", "o-docks")))
>>> stack.peek().seat, len(stack)
('cop-1', 2)
>>> stack.pop().window, stack.peek().window
('inescapable_arrest', 'immediate_escape')
>>> stack.drop(lambda r: r.data[0] == "crim-1"); bool(stack)
False
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .jsondata import serializable


@serializable("core.Reaction")
@dataclass(frozen=True, slots=True)
class Reaction:
    """A window in which ``seat`` may react: its name (``window``, the game's word for
    what may be played) and what it is about (``data``: ids the game reads back)."""

    seat: str
    window: str
    data: tuple[str, ...] = ()


@serializable("core.ReactionStack")
@dataclass
class ReactionStack:
    """Pending reaction windows, the one to answer first on top."""

    pending: list[Reaction] = field(default_factory=list)

    def push(self, reaction: Reaction) -> None:
        self.pending.append(reaction)

    def peek(self) -> Reaction:
        if not self.pending:
            raise IndexError("no reaction is pending")
        return self.pending[-1]

    def pop(self) -> Reaction:
        if not self.pending:
            raise IndexError("no reaction is pending")
        return self.pending.pop()

    def drop(self, which: Callable[[Reaction], bool]) -> None:
        """Close every pending window ``which`` selects (their cause is gone)."""
        self.pending = [r for r in self.pending if not which(r)]

    def __len__(self) -> int:
        return len(self.pending)

    def __bool__(self) -> bool:
        return bool(self.pending)
