"""Why a kind of action is not on offer now, in the game's terms (the kernel's
``explain``): said to the seat that tried it, from what the table sees and that seat's own
cards, never another seat's.
"""
from __future__ import annotations

from typing import Iterable

from rules.core import Action, Prompt, Violation

from .actions import Attack, Escape, Split
from .attack import why_not_attack
from .movement import unmovable
from .sections import R_ATTACK, R_MONEY, R_SPLIT
from .state import OutrageState


class Refusals:
    """``explain`` (the rules' part of :class:`~rules.outrage.game.Outrage`)."""

    def explain(self, state: OutrageState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        seat = action.seat
        if isinstance(action, Split) and state.phase == "move" and seat == state.actor:
            if state.steps != 7 or state.mover != seat:
                yield Violation("not-seven", R_SPLIT, "Only a throw totalling seven may be split, however it was made up.")
            elif action.other in state.pos:
                yield Violation("cannot-move-other", R_SPLIT, unmovable(state, seat, action.other))
        if isinstance(action, Attack) and seat == state.actor and state.phase == "start" and seat in state.accredited:
            if not state.accredited[seat]:
                yield Violation("not-accredited", R_ATTACK, f"Only accredited players attack; {state.seat_name(seat)} is not accredited yet.")
            elif action.target in state.pos and action.target != seat:
                yield Violation("cannot-attack", R_ATTACK, f"{state.seat_name(seat)} cannot attack: {why_not_attack(state, seat, action.target)}.")
        if isinstance(action, Escape) and seat in state.pos and seat == state.actor and state.phase == "start":
            if not state.coins[seat]:
                yield Violation("no-coin", R_MONEY, f"No-one can leave without a coin to pay the ferryman; {state.seat_name(seat)} has none.")
