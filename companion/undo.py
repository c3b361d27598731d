"""The undo policy (Board Game Arena's): what may be taken back, and why not.

Undo takes back the last action of the line of play, and only when

* there is one, and the game is not over (``nothing-to-undo``, ``game-over``);
* it is the asking seat's own action (``other-seat``): undo never crosses another seat's
  action;
* that seat is still the one to act (``turn-passed``): undo never changes whose turn it is;
* the engine did not mark it as a barrier when it was accepted: a chance result that was
  shown (``chance-shown``), a secret choice or a revealed secret (``secret-revealed``), or
  any other reveal the game names (``revealed``).

A refusal is an :class:`UndoRefused` (a ValueError) with a stable ``code`` and a ``reason``
the UI shows as is.

>>> e = UndoRefused("other-seat", "the last action was crim-1's, not cop-1's")
>>> e.code, str(e)
('other-seat', "Undo refused: the last action was crim-1's, not cop-1's.")
"""
from __future__ import annotations

from typing import Any

from .errors import CompanionError


class UndoRefused(CompanionError, ValueError):
    """Undo (or redo) is not allowed now: ``code`` for programs, ``reason`` for people."""

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"Undo refused: {reason}.")


def undo_refusal(table: Any, seat: str | None = None) -> UndoRefused | None:
    """Why ``seat`` (default: the seat that made the last action) may not undo the last
    action at ``table`` now, or None when it may."""
    line = table._line
    if not line:
        return UndoRefused("nothing-to-undo", "there is nothing to undo")
    if table.outcome is not None:
        return UndoRefused("game-over", "the game is over and its result was shown")
    last = line[-1]
    who = last.seat if seat is None else seat
    if last.seat != who:
        return UndoRefused("other-seat", f"the last action was {last.seat}'s, and undo never takes back another seat's action")
    if last.barrier:
        if last.chance:
            code = "chance-shown"
        elif last.action.secret:
            code = "secret-revealed"
        else:
            code = "revealed"
        return UndoRefused(code, f"{last.seat}'s {last.kind} cannot be taken back: {last.barrier}")
    actors = table.prompt.actors
    if who not in actors:
        now = " or ".join(sorted(actors)) or "nobody"
        return UndoRefused("turn-passed", f"it is now {now}'s turn, and undo never changes whose turn it is")
    return None
