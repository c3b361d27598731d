"""The turn structure (5.2.6): phase 1's draw (5.2.6.1.1), phase 3 with its objective unit
(5.2.6.3), ending a phase and passing the turn. Phase 1's plays are in ``phase_one``,
phase 2 in ``phase_two``."""
from __future__ import annotations

from typing import Iterable

from rules.core import Decision, Draw, DrawRequest, Prompt, Violation, step

from .actions import EndPhase, PlaceObjective
from .cards import THEATER_NAMES
from .resolution import pending_key
from .sections import HAND_START, R_DRAW, R_END, R_OBJECTIVE, R_PLAY, R_TRAITS
from .state import HOME, AatState


class Turn:
    """The turn and its phases: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    @step("draw", rule=R_DRAW, depends=lambda s: (pending_key(s) if s.pending else None, s.active, not s.sides[s.active].deck.cards))
    def ask_draw(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        if state.sides[seat].deck.cards:
            return Prompt.single(seat, DrawRequest(f"deck-{seat}", "phase 1: draw 1 card"))
        return Prompt.single(seat, Decision(("end_phase",), "phase 1: the main deck is empty, nothing to draw (RULINGS A-06)"))

    @step("end", rule=R_END, depends=lambda s: (pending_key(s) if s.pending else None, s.active, not s.sides[s.active].objectives, s.placed_objective))
    def ask_end(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        kinds = ("place_objective", "end_phase") if state.sides[seat].objectives and not state.placed_objective else ("end_phase",)
        return Prompt.single(seat, Decision(kinds, "phase 3: place an objective unit, or end the turn"))

    def _end_phase_violations(self, state: AatState, action: EndPhase) -> Iterable[Violation]:
        if state.phase == "draw" and state.sides[action.seat].deck.cards:
            return (Violation("must-draw", R_DRAW, f"{state.name(action.seat)} draws 1 card at the start of the turn before anything else."),)
        return ()

    def _objective_violations(self, state: AatState, a: PlaceObjective) -> list[Violation]:
        found: list[Violation] = []
        if state.placed_objective:
            found.append(Violation("one-objective", R_OBJECTIVE, f"{state.name(a.seat)} may place one objective unit per turn."))
        if a.card not in state.sides[a.seat].objectives:
            found.append(Violation("not-objective", R_OBJECTIVE, f"{state.name(a.seat)}, {a.card!r} is not one of your objective cards set aside."))
            return found
        c = state.card(a.card)
        role = state.role(a.seat)
        if c.has("Attacker") and role != "attacker" or c.has("Defender (Objective)") and role != "defender":
            found.append(Violation("wrong-role", R_TRAITS, f"{state.name(a.seat)}, {c.title} can only be put into play by the {'Attacker' if c.has('Attacker') else 'Defender'}."))
        base = state.base(a.seat)
        home = base.theater if base else HOME[role]
        if a.theater != home:
            found.append(Violation("not-base-theater", R_OBJECTIVE, f"{state.name(a.seat)}, an objective unit goes in the same theater as your base ({THEATER_NAMES[home]})."))
        elif home not in c.theaters:
            found.append(Violation("wrong-theater", R_OBJECTIVE, f"{state.name(a.seat)}, {c.title} can not be placed in {THEATER_NAMES[home]}, your base's theater."))
        if c.escalation > state.escalation.level:
            found.append(Violation("escalation-too-low", R_PLAY, f"{state.name(a.seat)}, {c.title} needs escalation {c.escalation}; it is {state.escalation.level}."))
        return found

    def _draw(self, state: AatState, action: Draw) -> None:
        seat = action.seat
        side = state.sides[seat]
        side.deck.take(action.card)
        side.hand.add(action.card)
        state.note(f"{state.name(seat)} draws a card.", seat)
        state.note(f"You draw {state.card(action.card).title}.", seat, to=(seat,))
        if state.phase == "deal":
            if len(side.hand) == HAND_START:
                if seat == state.seat_of("defender"):
                    state.active = state.seat_of("attacker")
                else:
                    state.active = state.seat_of("defender")
                    state.phase = "mulligan"
        elif state.phase == "redraw":
            state.redraw -= 1
            if not state.redraw:
                self._after_mulligan(state)
        elif state.phase == "draw":
            state.phase = "deploy"

    def _start_turn(self, state: AatState, seat: str) -> None:
        state.active = seat
        state.turn += 1
        state.phase = "draw"
        state.plays = 0
        state.ready.clear()
        state.instructed.clear()
        state.command.clear()
        state.repeat.clear()
        state.placed_objective = False
        state.note(f"Turn {state.turn}: {state.name(seat)} ({state.role(seat).title()}).", seat)

    def _end_phase(self, state: AatState) -> None:
        seat = state.active
        if state.phase == "draw":
            state.note(f"{state.name(seat)}'s main deck is empty: no card is drawn (RULINGS A-06).", seat)
            state.phase = "deploy"
        elif state.phase == "deploy":
            state.phase = "combat"
            cards = state.cards.cards
            state.ready = [p.id for p in state.pieces.values()
                           if p.owner == seat and cards[p.card].kind in ("unit", "objective", "base")]
            state.note(f"{state.name(seat)} begins phase 2: {len(state.ready)} card(s) may act.", seat)
        elif state.phase == "combat":
            state.ready.clear()
            state.command.clear()
            state.repeat.clear()
            state.phase = "end"
        elif state.phase == "end":
            o = self.objective(state, seat)
            if o.goal == "viral":
                enemy = state.base(state.other(seat))
                if enemy is not None and enemy.count("Computation") >= o.target:
                    self._win(state, seat, f"{state.name(seat)} completed {o.name}: {enemy.count('Computation')} Computation tokens on the enemy base ({o.rule})")
                    return
            self._start_turn(state, state.other(seat))

    def _end_phase_action(self, state: AatState, action: EndPhase) -> None:
        self._end_phase(state)

    def _place_objective(self, state: AatState, action: PlaceObjective) -> None:
        seat = action.seat
        state.sides[seat].objectives.remove(action.card)
        state.placed_objective = True
        self._place_piece(state, seat, action.card, action.theater, "places the objective unit")
