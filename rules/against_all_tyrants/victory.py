"""Winning (5.2.3): the primary objective (the enemy base destroyed, 5.1.2.1) and each
subfaction's alternate objective (5.1.2.3: Objective tokens scored, Transports escaped,
Computation on the enemy base), and the incidents that raise escalation (5.2.7)."""
from __future__ import annotations

from rules.core import Outcome, Score as KScore, Violation

from .actions import Score
from .objectives import Objective, objective_of
from .sections import R_ALT
from .state import ROLES, AatState, Piece


class Victory:
    """Objectives and escalation: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def objective(self, state: AatState, seat: str) -> Objective:
        return objective_of(state.subfaction(seat), state.role(seat))

    def _viral_against(self, state: AatState, seat: str) -> bool:
        """Whether ``seat``'s opponent plays Viral Computer Takeover (5.1.2.3.3)."""
        return self.objective(state, state.other(seat)).goal == "viral"

    def _score_violations(self, state: AatState, a: Score, t: Piece) -> list[Violation]:
        found: list[Violation] = []
        o = self.objective(state, a.seat)
        title = state.card(t.id).title
        if t.owner != a.seat:
            found.append(Violation("not-yours", R_ALT, f"{state.name(a.seat)}, score with your own cards."))
            return found
        if a.escape:
            if o.goal != "escape":
                found.append(Violation("no-escape", R_ALT, f"{state.name(a.seat)}, {o.name or 'your subfaction'} does not score by escaping (it is not Base Evacuation)."))
            elif "Transport" not in state.card(t.id).types or t.theater != "space":
                found.append(Violation("not-escaping", o.rule, f"{state.name(a.seat)}, only a Transport in Space can escape the system; {title} is not one."))
        else:
            if o.goal != "score":
                found.append(Violation("no-objective-tokens", R_ALT, f"{state.name(a.seat)}, {o.name or 'your subfaction'} does not score Objective tokens."))
            elif self.kind(state, t.id) != "objective":
                found.append(Violation("not-objective", o.rule, f"{state.name(a.seat)}, Objective tokens are scored with your objective units; {title} is not one."))
        return found

    def _score(self, state: AatState, a: Score, title: str) -> None:
        seat = a.seat
        side = state.sides[seat]
        o = self.objective(state, seat)
        t = state.pieces[a.target]
        if a.escape:
            del state.pieces[t.id]
            side.escaped.append(t.id)
            n = len(side.escaped)
            state.note(f"{state.name(seat)}: {state.card(t.id).title} escapes the system ({n} of {o.target}, {o.name}; {o.rule}).", seat)
        else:
            side.scored += 1
            t.add("Objective", 1)
            n = side.scored
            state.note(f"{state.name(seat)} scores an Objective token with {state.card(t.id).title} ({n} of {o.target}, {o.name}; {o.rule}).", seat)
        self._incident(state, f"{o.name} step")
        if n >= o.target:
            state.pending.clear()
            self._win(state, seat, f"{state.name(seat)} completed {o.name} ({o.rule})")

    def _incident(self, state: AatState, why: str) -> None:
        before = state.escalation.level
        state.escalation.add_incidents(1)
        if state.escalation.level > before:
            state.note(f"Incident ({why}): escalation rises to {state.escalation.level} (5.2.7).")
        else:
            state.note(f"Incident ({why}): {state.escalation.incidents} of 4 toward the next level (5.2.7).")

    def _win(self, state: AatState, seat: str, reason: str) -> None:
        facts = {"turns": state.turn, "escalation": state.escalation.level}
        role = state.role(seat)
        self.finish(state, Outcome(role, reason, {r: KScore(1 if r == role else 0, dict(facts)) for r in ROLES}, (seat,)))
