"""Views (hands hidden but for their owner), the secrets and the twin states of the
harness's secret checks, the values charted per turn, the invariants (cards conserved,
tokens within limits) and what can never be undone."""
from __future__ import annotations

from typing import Any, Iterator

from rules.core import Action, Rng, swap_hidden

from .actions import Discard, Infiltrate, Mulligan, Place, Play
from .cards import MAINFRAME_LIMIT, TOKENS
from .sections import HAND_START, PLAYS
from .state import AatState, deck_of, instances


class Views:
    """Views and invariants: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def render(self, state: AatState, viewer: str) -> dict[str, Any]:
        over = state.result is not None
        pieces = []
        for p in state.pieces.values():
            c = state.card(p.id)
            pieces.append({"id": p.id, "card": c.id, "name": c.title, "kind": c.kind, "owner": p.owner, "theater": p.theater,
                           "attack": c.attack, "health": c.health, "tokens": dict(sorted(p.tokens.items())),
                           "traits": [str(t) for t in c.traits], "orders": list(c.orders),
                           "acts": bool(self.can_act(state, p, attack=True)) if p.owner == state.active else False})
        sides = {}
        for s, side in state.sides.items():
            mine = viewer == s or over
            o = self.objective(state, s)
            sides[s] = {
                "role": state.role(s),
                "subfaction": state.subfaction(s),
                "deck": len(side.deck.cards),
                "hand": side.hand.view(viewer if not over else s),
                "special_forces": {"count": len(side.special_forces), **({"cards": list(side.special_forces)} if mine else {})},
                "aside": len(side.aside),
                "objectives": list(side.objectives),
                "discard": list(side.discard),
                "unused_base": side.unused_base,
                "objective": {"name": o.name, "goal": o.goal, "rule": o.rule, "target": o.target,
                              "to_be_determined": o.goal == "tbd", "scored": side.scored, "escaped": list(side.escaped)},
            }
        pending = None
        if state.pending:
            p = state.pending[0]
            pending = {"kind": p.kind, "seat": p.seat, "card": p.card, "left": p.left, "type": p.kind_of, "text": p.text, "expert": p.expert}
            steps = self.script(state, p)  # type: ignore[attr-defined]
            if p.kind == "text":
                # Whether the app carries the text out as written, and the step it is at.
                pending.update(checked=bool(steps), step=steps[p.step].words() if steps else "", at=p.step,
                               steps=[x.words() for x in steps],
                               to_draw=steps[p.step].amount - p.left if steps and steps[p.step].do == "draw" else 0)
        return {
            "phase": state.phase, "turn": state.turn, "active": state.active, "plays_left": PLAYS - state.plays if state.phase == "deploy" else 0,
            "escalation": {"level": state.escalation.level, "incidents": state.escalation.incidents, "max": state.escalation.max_level},
            "pieces": pieces, "sides": sides, "pending": pending,
            "command": list(state.command), "repeat": list(state.repeat),
        }

    def secrets(self, state: AatState, viewer: str) -> set[str]:
        if state.result is not None:
            return set()
        hidden: set[str] = set()
        for s, side in state.sides.items():
            hidden.update(side.deck.cards)
            if s != viewer:
                hidden.update(side.hand.cards)
                hidden.update(side.special_forces)
                hidden.update(side.aside)
        return hidden

    def hidden_variant(self, state: AatState, viewer: str, rng: Rng) -> AatState | None:
        """Swap two cards among one side's piles ``viewer`` cannot see (its deck, and for
        the other side's viewer or the public, its hand and cards set aside); Special
        Forces stay in their own deck (5.2.4.2)."""
        if state.result is not None:
            return None
        twin = self.copy(state)
        twin.changed()
        order = sorted(twin.sides)
        rng.shuffle(order)  # either side's hidden cards, so both hands get swapped over a run
        for s in order:
            side = twin.sides[s]
            piles = [side.deck.cards] + ([side.hand.cards, side.aside] if s != viewer else [])
            if swap_hidden(piles, rng):
                return twin
        return None

    def tracked(self, state: AatState) -> dict[str, int]:
        out = {"turn": state.turn, "escalation": state.escalation.level, "incidents": state.escalation.incidents}
        for s in state.sides:
            base = state.base(s)
            out[f"{state.role(s)}_base_damage"] = base.count("Damage") if base else 0
        return out

    def problems(self, state: AatState) -> Iterator[str]:
        for s, side in state.sides.items():
            deck = deck_of(state.options, state.role(s))
            want = sorted(c for sec in instances(deck, state.role(s)).values() for c in sec)
            zones = side.deck.cards + side.hand.cards + side.special_forces + side.objectives + side.aside + side.discard + \
                [side.unused_base] + side.escaped + [p.id for p in state.pieces.values() if p.owner == s]
            if sorted(zones) != want:
                yield f"{s}'s cards are not conserved: {len(zones)} in zones, {len(want)} in the deck"
            if len(side.hand) > 0 and state.phase == "deal" and len(side.hand) > HAND_START:
                yield f"{s} holds {len(side.hand)} cards during the deal"
        for p in state.pieces.values():
            for tok, n in p.tokens.items():
                if n <= 0:
                    yield f"{p.id} holds {n} {tok} tokens"
                spec = TOKENS.get(tok)
                if spec is None or "scale" in spec.on:
                    yield f"{p.id} holds a {tok} token"
            if p.count("Computation") > MAINFRAME_LIMIT and self.kind(state, p.id) != "base":
                yield f"{p.id} holds {p.count('Computation')} Computation tokens"
            if self.kind(state, p.id) != "base" and p.count("Damage") >= state.card(p.id).health:
                yield f"{p.id} should have been destroyed"
        if not 0 <= state.escalation.level <= 5:
            yield f"escalation {state.escalation.level} out of 0–5"

    def undo_barrier(self, state: AatState, action: Action) -> str | None:
        if isinstance(action, Mulligan):
            return "the discarded cards are shuffled back"
        if isinstance(action, (Play, Discard)) or isinstance(action, Place) and action.card in state.sides[action.seat].hand:
            return "a card from a hidden hand was shown"
        if isinstance(action, Infiltrate) or isinstance(action, Place) and action.card in state.sides[action.seat].special_forces:
            # The other side cannot see a Special Forces Deck: a unit deployed from it is shown.
            return "a card from the Special Forces Deck was shown"
        return super().undo_barrier(state, action)
