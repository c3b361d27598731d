"""Why an action is not on offer now (the engine's ``explain``), in the game's words and
from public facts only."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Draw, Prompt, Violation

from .actions import Attack, Clear, Move, Order, PlaceObjective, Play
from .sections import PLAYS, R_COMBAT, R_DRAW, R_OBJECTIVE, R_PLAY
from .state import AatState


class Refusals:
    """Why a kind is not on offer: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def explain(self, state: AatState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        """Why a kind is not on offer, in the game's words (only from public facts)."""
        seat = action.seat
        if seat not in prompt.actors or state.pending:
            return
        if state.phase == "draw" and not isinstance(action, Draw):
            yield Violation("must-draw", R_DRAW, f"{state.name(seat)} draws 1 card at the start of the turn before anything else.")
        elif state.phase == "deploy" and isinstance(action, Play):
            if state.plays >= PLAYS:
                yield Violation("two-plays", R_PLAY, f"{state.name(seat)} has already played {PLAYS} cards this turn.")
            else:
                yield Violation("empty-hand", R_PLAY, f"{state.name(seat)} has no card in hand to play.")
        elif isinstance(action, PlaceObjective) and state.phase == "end" and state.placed_objective:
            yield Violation("one-objective", R_OBJECTIVE, f"{state.name(seat)} may place one objective unit per turn.")
        elif isinstance(action, (Attack, Order, Move, Clear)) and state.phase != "combat":
            yield Violation("not-combat", R_COMBAT, f"{state.name(seat)}, units act in phase 2 (combat), not now.")
