"""The actions that may be legal now, listed for the kernel (which keeps those its check
accepts): the listing behind ``legal_actions``."""
from __future__ import annotations

import itertools
from typing import Iterator

from rules.core import Action, Prompt

from .actions import (
    Attack, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Infiltrate, Instruct, Move, MoveTheater, Incident,
    Mulligan, Order, Place, PlaceObjective, Play, Score, Skip, Token,
)
from .cards import TOKENS
from .sections import UNIT_KINDS
from .state import HOME, AatState, Pending


class Candidates:
    """The legal-action listing: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def candidates(self, state: AatState, prompt: Prompt) -> Iterator[Action]:
        seat = prompt.seats()[0] if prompt.waits else ""
        if not seat:
            return
        side = state.sides[seat]
        if state.pending:
            yield from self._pending_candidates(state, seat, state.pending[0])
            return
        phase = state.phase
        if phase == "mulligan":
            hand = side.hand.cards
            for k in range(len(hand) + 1):
                for combo in itertools.combinations(hand, k):
                    yield Mulligan(seat, combo)
        elif phase == "infiltrate":
            for c in self._infiltrators(state, seat):
                for t in state.card(c).theaters:
                    yield Infiltrate(seat, c, t)
        elif phase in ("draw", "deploy", "end"):
            yield EndPhase(seat)
            if phase == "deploy":
                for c in side.hand.cards:
                    card = state.card(c)
                    for t in (card.theaters if card.kind == "unit" else ("",)):
                        yield Play(seat, c, t)
            if phase == "end":
                base = state.base(seat)
                for c in side.objectives:
                    yield PlaceObjective(seat, c, base.theater if base else HOME[state.role(seat)])
        elif phase == "combat":
            yield EndPhase(seat)
            for piece in list(state.pieces.values()):
                if piece.owner != seat or not self.can_act(state, piece, attack=True):
                    continue
                yield Move(seat, piece.id)
                yield Clear(seat, piece.id)
                for q in state.pieces.values():
                    if q.theater == piece.theater:
                        yield Attack(seat, piece.id, q.id)
                        if piece.count("Mark"):
                            yield Attack(seat, piece.id, q.id, True)
                for src in [piece] + (self.leaders(state, seat) if self.kind(state, piece.id) == "base" else []):
                    for i in range(len(state.card(src.id).orders)):
                        yield Order(seat, piece.id, src.id, i)

    def _pending_candidates(self, state: AatState, seat: str, p: Pending) -> Iterator[Action]:
        side = state.sides[seat]
        if p.kind == "supply":
            yield Skip(seat)
        elif p.kind == "delegate":
            for n in range(p.left + 1):
                for l in self.leaders(state, seat) if n else [None]:
                    yield Delegate(seat, l.id if l else "", n)
        elif p.kind in ("compute", "backup"):
            yield Skip(seat)
            for q in state.pieces.values():
                yield Token(seat, q.id, "Computation", 1)
        elif p.kind in ("transport", "rally"):
            yield Skip(seat)
            for c in side.hand.cards + side.special_forces:
                for t in state.card(c).theaters:
                    yield Place(seat, c, t)
        elif p.kind == "text" and self.script(state, p):  # type: ignore[attr-defined]
            # A text carried out as written: its current step, on the cards the text names.
            step = self.script(state, p)[p.step]  # type: ignore[attr-defined]
            acts = [] if step.do == "draw" else list(self.step_actions(state, p, step))  # type: ignore[attr-defined]
            if not acts and not (step.do == "draw" and side.deck.cards):
                yield Skip(seat)
            yield from acts
        elif p.kind == "text":
            yield Done(seat)
            yield Incident(seat)
            goal = self.objective(state, seat).goal
            for q in state.pieces.values():
                kind = self.kind(state, q.id)
                yield Damage(seat, q.id, 1)
                if q.count("Damage"):
                    yield Heal(seat, q.id, 1)
                if kind in UNIT_KINDS and len(state.card(q.id).theaters) == 2:
                    yield MoveTheater(seat, q.id)
                if q.owner == seat and state.phase == "combat" and kind in UNIT_KINDS:
                    yield Instruct(seat, q.id)
                if q.owner == seat and goal == "score" and kind == "objective":
                    yield Score(seat, q.id)
                if q.owner == seat and goal == "escape" and q.theater == "space":
                    yield Score(seat, q.id, True)
                host = "base" if kind == "base" else ("leader" if kind == "leader" else "unit")
                for tok in ("Shield", "Charge", "Computation", "Disruption", "Funds", "Stealth", "Mark"):
                    if host in TOKENS[tok].on:
                        yield Token(seat, q.id, tok, 1)
                    if q.count(tok):
                        yield Token(seat, q.id, tok, -1)
            for c in side.hand.cards:
                yield Discard(seat, c)
            for c in side.hand.cards + side.special_forces:
                card = state.card(c)
                for t in (card.theaters if card.kind == "unit" else ("",)):
                    yield Place(seat, c, t)
