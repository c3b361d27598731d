"""The undo policy (the table's): what may be taken back, and why not.

At a physical table the fair line is the next player's first action: until then a player
may take back what they just did, even when the turn has already passed (a piece moved to
the wrong space, a tap on the wrong destination), back to the throw that allowed it. What
everyone has seen cannot be unseen, so a throw, a card drawn or a secret revealed stays.

Undo takes back the last action of the line of play, and only when

* there is one, and the game is not over (``nothing-to-undo``, ``game-over``);
* it is the asking seat's own action (``other-seat``): undo never takes back another
  seat's action;
* no other seat has acted since, not even with an action that was then taken back
  (``next-seat-acted``): the next player's first action closes the window, and what that
  action showed of their plans cannot be used to rethink one's own move;
* the engine did not mark it as a barrier when it was accepted: a throw whose result was
  shown (``chance-shown``: the throw stays, a roll seen is never re-rolled), a card drawn
  (``chance-shown`` too), a secret choice or a revealed secret (``secret-revealed``), or
  any other reveal the game names (``revealed``).

Whose turn it is follows the line of play: undoing a move that passed the turn gives the
turn back to the seat that made it (and its clock, see :mod:`companion.clocks`).

A refusal is an :class:`UndoRefused` (a ValueError) with a stable ``code`` and a ``reason``
in players' words (names, never seat ids) that the UI shows as is.

>>> e = UndoRefused("other-seat", "the last action was Ann's, and only Ann may take it back")
>>> e.code, str(e)
('other-seat', "Undo refused: the last action was Ann's, and only Ann may take it back.")
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
    name = table.seat_name(last.seat)
    who = last.seat if seat is None else seat
    if last.seat != who:
        return UndoRefused("other-seat", f"the last action was {name}'s, and only {name} may take it back")
    if last.barrier:
        if last.chance:
            code = "chance-shown"
        elif last.action.secret:
            code = "secret-revealed"
        else:
            code = "revealed"
        return UndoRefused(code, f"{name}'s last action stays: {last.barrier}")
    # Journal order (seq), undone actions included: another seat's action, even one taken
    # back since, closed the window on everything before it.
    # The entries are in order of arrival: only those after ``last`` are read.
    for e in reversed(table._entries):
        if e.seq <= last.seq:
            break
        if e.seat != last.seat:
            other = table.seat_name(e.seat)
            return UndoRefused("next-seat-acted", f"{other} has acted since {name}'s last action, so it stands")
    return None
