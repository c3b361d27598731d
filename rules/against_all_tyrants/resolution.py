"""What is being resolved comes first, whatever the phase (``state.pending``): a card's
text, step by step with the primitives (RULINGS A-12), and the traits that ask for a
choice or a draw (5.2.8.2: Supply, Compute, Backup, Transport, Sympathized), and a hit on
the base that its owner may delegate to a leader (5.2.6.2.1.1)."""
from __future__ import annotations

from typing import Any, Iterable

from rules.core import Action, Decision, Draw, DrawRequest, Prompt, Violation

from .actions import Damage, Delegate, Discard, Done, Heal, Instruct, MoveTheater, Incident, Place, Score, Skip, Token
from .cards import MAINFRAME_LIMIT, THEATER_NAMES, TOKENS
from .combat import damage_preview
from .sections import (
    MAX_AMOUNT, PRIMITIVES, R_BASES, R_DEPLOY, R_INSTRUCTION, R_LEADERS, R_MOVE, R_TEXT, R_TOKENS, R_TRAITS, UNIT_KINDS,
)
from .state import AatState, Pending, Piece


def pending_key(s: AatState) -> tuple[Any, ...] | None:
    """Everything the prompt of the first thing being resolved reads (None: nothing is).
    Something being resolved is asked for first, whatever the phase: every step starts
    with it, and every step's key names it, so the kernel can reuse each step's prompts
    across plies."""
    if not s.pending:
        return None
    p = s.pending[0]
    board: tuple[Any, ...] = ()
    if p.kind == "text" and p.card and s.card(p.card).steps_of(p.text):
        # A step's prompt says whether any card the text names can take it: the board decides.
        board = (tuple((q.id, q.owner, q.theater, tuple(sorted(q.tokens.items()))) for q in s.pieces.values()),
                 tuple(s.ready), tuple(s.instructed), s.phase)
    return (p.kind, p.seat, p.card, p.left, p.kind_of, p.text, p.expert, p.step, board, not s.sides[p.seat].deck.cards)


class Resolution:
    """Resolving texts and traits: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def _ask_pending(self, state: AatState, p: Pending) -> Prompt:
        seat = p.seat
        if p.kind == "text":
            steps = self.script(state, p)  # type: ignore[attr-defined]
            if steps:
                return self._ask_step(state, p, steps)  # type: ignore[attr-defined,no-any-return]
            note = f"resolve {state.card(p.card).title}: {p.text}" + (f" — {p.expert}" if p.expert else "")
            if state.sides[seat].deck.cards:
                return Prompt.single(seat, DrawRequest(f"deck-{seat}", note, also=PRIMITIVES))
            return Prompt.single(seat, Decision(PRIMITIVES, note))
        if p.kind == "supply":
            if state.sides[seat].deck.cards:
                return Prompt.single(seat, DrawRequest(f"deck-{seat}", f"Supply: draw {p.left} card{'s' if p.left != 1 else ''}"))
            return Prompt.single(seat, Decision(("skip",), "Supply: the main deck is empty (RULINGS A-06)"))
        if p.kind == "delegate":
            return Prompt.single(seat, Decision(("delegate",), f"{p.left} damage to your base: delegate some to a leader?"))
        if p.kind in ("compute", "backup"):
            return Prompt.single(seat, Decision(("token", "skip"), f"{'Compute' if p.kind == 'compute' else 'Backup'}: place {p.left} Computation token(s) on Mainframe units"))
        what = f"{p.kind_of} units" if p.kind == "transport" else "Rallied units"
        return Prompt.single(seat, Decision(("place", "skip"), f"{'Transport' if p.kind == 'transport' else 'Sympathized'}: place up to {p.left} {what}"))

    def _primitive_violations(self, state: AatState, a: Action, p: Pending | None, scripted: bool = True) -> list[Violation]:
        """The rules' checks of a primitive; while a text with steps is resolved (and
        ``scripted``), first that it is the text's current step on a card the text names."""
        found: list[Violation] = []
        if p is None:
            return found
        if scripted and p.kind == "text":
            steps = self.script(state, p)  # type: ignore[attr-defined]
            if steps:
                return self._script_violations(state, a, p, steps)  # type: ignore[attr-defined,no-any-return]
        if p.kind in ("compute", "backup"):
            if not isinstance(a, Token):
                return found
            t = state.pieces.get(a.target)
            if a.token != "Computation" or a.delta != 1:
                found.append(Violation("bad-token", R_TRAITS, f"{state.name(a.seat)}, {'Compute' if p.kind == 'compute' else 'Backup'} places Computation tokens one at a time (token 'Computation', delta 1)."))
            if t is None or t.owner != a.seat or not self.works(state, t, "Mainframe") or t.id == p.card:
                found.append(Violation("not-mainframe", R_TRAITS, f"{state.name(a.seat)}, Computation tokens go on your {'other ' if p.kind == 'backup' else ''}units with the Mainframe trait."))
            elif t.count("Computation") >= MAINFRAME_LIMIT:
                found.append(Violation("mainframe-full", R_TRAITS, f"{state.name(a.seat)}, {state.card(t.id).title} already hosts {MAINFRAME_LIMIT} Computation tokens (Mainframe)."))
            return found
        if p.kind in ("transport", "rally"):
            if isinstance(a, Place):
                found.extend(self._place_violations(state, a, p))
            return found
        if p.kind != "text":
            return found
        cls = type(a)
        if cls in _TARGETED:
            t = state.pieces.get(a.target)  # type: ignore[attr-defined]
            if t is None:
                found.append(Violation("no-target", R_TEXT, f"{state.name(a.seat)}, {getattr(a, 'target')!r} is not a card in play."))
                return found
            # One branch per class; a card's title is looked up only for a message.
            if cls is Damage or cls is Heal:
                if not 1 <= a.amount <= MAX_AMOUNT:  # type: ignore[attr-defined]
                    found.append(Violation("bad-amount", R_TEXT, f"{state.name(a.seat)}, the amount is from 1 to {MAX_AMOUNT}."))
                if cls is Damage:
                    if state.card(t.id).kind == "leader":
                        found.append(Violation("leader-needs-mark", R_LEADERS, f"{state.name(a.seat)}, leaders can not be directly damaged unless an attacking unit spends a Mark token (RULINGS A-07)."))
                elif "Damage" not in t.tokens:
                    found.append(Violation("no-damage", R_TOKENS, f"{state.name(a.seat)}, {state.card(t.id).title} has no Damage token to remove."))
            elif cls is Token:
                found.extend(self._token_violations(state, a, t))  # type: ignore[arg-type]
            elif cls is MoveTheater:
                c = state.card(t.id)
                if c.kind not in UNIT_KINDS or len(c.theaters) != 2:
                    found.append(Violation("one-theater", R_MOVE, f"{state.name(a.seat)}, {c.title} can be deployed in only one theater, so it cannot change theaters."))
            elif cls is Instruct:
                if t.owner != a.seat or state.card(t.id).kind not in UNIT_KINDS:
                    found.append(Violation("not-yours", R_INSTRUCTION, f"{state.name(a.seat)}, only your own units receive instructions."))
                elif state.phase != "combat":
                    found.append(Violation("not-combat", R_INSTRUCTION, f"{state.name(a.seat)}, an instruction is an additional action in phase 2."))
                elif t.id in state.instructed or t.id in state.ready:
                    found.append(Violation("one-instruction", R_INSTRUCTION, f"{state.name(a.seat)}, {state.card(t.id).title} {'still has its own action' if t.id in state.ready else 'has already received an instruction this turn'}."))
            else:
                found.extend(self._score_violations(state, a, t))  # type: ignore[arg-type]
        elif isinstance(a, Discard):
            if a.card not in state.sides[a.seat].hand:
                found.append(Violation("not-in-hand", R_TEXT, f"{state.name(a.seat)}, {a.card!r} is not a card in your hand."))
        elif isinstance(a, Place):
            found.extend(self._place_violations(state, a, p))
        return found

    def _token_violations(self, state: AatState, a: Token, t: Piece) -> list[Violation]:
        found: list[Violation] = []
        spec = TOKENS.get(a.token)
        if spec is None or a.token == "Damage" or "scale" in spec.on:
            found.append(Violation("bad-token", R_TOKENS, f"{state.name(a.seat)}, {a.token!r} is not a token placed on cards this way (use damage or heal for Damage tokens)."))
            return found
        if a.delta == 0 or abs(a.delta) > MAX_AMOUNT:
            found.append(Violation("bad-amount", R_TOKENS, f"{state.name(a.seat)}, add or remove from 1 to {MAX_AMOUNT} tokens."))
            return found
        if a.delta < 0:
            if t.count(a.token) < -a.delta:
                found.append(Violation("too-few-tokens", R_TOKENS, f"{state.name(a.seat)}, {state.card(t.id).title} holds {t.count(a.token)} {a.token} token(s), not {-a.delta}."))
            return found
        k = state.card(t.id).kind
        where = k if k == "base" or k == "leader" else "unit"
        if where not in spec.on:
            found.append(Violation("wrong-host", R_TOKENS, f"{state.name(a.seat)}, {a.token} tokens are not placed on a {where} ({', '.join(spec.on)} only)."))
            return found
        if a.token == "Computation":
            viral = where == "base" and t.owner != a.seat and self.objective(state, a.seat).goal == "viral"
            if not viral and not self.works(state, t, "Mainframe"):
                found.append(Violation("not-mainframe", R_TOKENS, f"{state.name(a.seat)}, Computation tokens go only on units with the Mainframe trait."))
            elif not viral and t.count("Computation") + a.delta > MAINFRAME_LIMIT:
                found.append(Violation("mainframe-full", R_TRAITS, f"{state.name(a.seat)}, {state.card(t.id).title} can host up to {MAINFRAME_LIMIT} Computation tokens (Mainframe)."))
        return found

    def _place_violations(self, state: AatState, a: Place, p: Pending) -> list[Violation]:
        found: list[Violation] = []
        side = state.sides[a.seat]
        if a.card not in side.hand and a.card not in side.special_forces:
            found.append(Violation("not-available", R_TEXT, f"{state.name(a.seat)}, {a.card!r} is not in your hand or Special Forces Deck."))
            return found
        c = state.card(a.card)
        if c.kind not in ("unit", "leader") or (p.kind != "text" and c.kind != "unit"):
            found.append(Violation("not-a-unit", R_TRAITS, f"{state.name(a.seat)}, only units (and, by a card's text, leaders) are placed: {c.title} is not one."))
            return found
        if p.kind == "transport" and p.kind_of not in c.types:
            found.append(Violation("wrong-type", R_TRAITS, f"{state.name(a.seat)}, this Transport places {p.kind_of} units; {c.title} is not one."))
        if p.kind == "rally" and not c.has("Rallied"):
            found.append(Violation("not-rallied", R_TRAITS, f"{state.name(a.seat)}, Sympathized places units with the Rallied trait; {c.title} has none."))
        found.extend(self._placement(state, a.seat, a.card, a.theater, R_DEPLOY))

        return found

    def _delegate_violations(self, state: AatState, action: Delegate) -> list[Violation]:
        found: list[Violation] = []
        seat = action.seat
        p = state.pending[0] if state.pending else None
        if action.amount < 0 or p is None or action.amount > p.left:
            found.append(Violation("bad-amount", R_BASES, f"{state.name(seat)}, delegate from 0 to {p.left if p else 0} damage."))
        if action.amount and not any(l.id == action.leader for l in self.leaders(state, seat)):
            found.append(Violation("not-a-leader", R_BASES, f"{state.name(seat)}, {action.leader!r} is not one of your leaders in play."))
        return found

    def _skip_violations(self, state: AatState, action: Skip) -> Iterable[Violation]:
        p = state.pending[0] if state.pending else None
        if p is not None and p.kind == "supply" and state.sides[action.seat].deck.cards:
            return (Violation("must-draw", R_TRAITS, f"{state.name(action.seat)}, Supply draws {p.left} card(s): draw them."),)
        return ()

    def _resolve(self, state: AatState, a: Action, p: Pending) -> None:
        cls = type(a)
        title = state.card(p.card).title if p.card else ""
        steps = self.script(state, p) if p.kind == "text" else ()  # type: ignore[attr-defined]
        if p.kind == "text":
            # The common case first: a primitive applying a card's text, found in one look-up.
            effect = _PRIMITIVES.get(cls)
            if effect is not None:
                effect(self, state, a, f"applying {title}", title)
                if steps:
                    self._after_step(state, p, steps)  # type: ignore[attr-defined]
                return
        seat = a.seat
        if cls is Skip and steps:
            state.note(f"{state.name(seat)}: nothing to {steps[p.step].words()} ({title}).", seat)
            self._after_step(state, p, steps)  # type: ignore[attr-defined]
            return
        if cls is Skip:
            state.pending.pop(0)
            state.note(f"{state.name(seat)} {'stops' if p.kind != 'supply' else 'cannot draw more'} ({title}).", seat)
            return
        if cls is Delegate:
            state.pending.pop(0)
            base = state.pieces[p.target]
            if a.amount:
                leader = state.pieces[a.leader]
                hit = damage_preview(self.side_of(state, leader), a.amount, "delegated")
                state.note(f"{state.name(seat)} delegates {a.amount} of the base's damage to {state.card(leader.id).title}: {hit.text} (5.2.6.2.1.1).", seat)
                self._hurt_directly(state, leader, hit)
            rest = p.left - a.amount
            if rest and state.result is None:
                base.add("Damage", rest)
                state.note(f"{state.name(seat)}'s base takes {rest} damage ({base.count('Damage')} of {state.card(base.id).health}).", seat)
                if base.count("Damage") >= state.card(base.id).health:
                    self._destroy(state, base)
            return
        if cls is Draw:
            side = state.sides[seat]
            side.deck.take(a.card)
            side.hand.add(a.card)
            state.note(f"{state.name(seat)} draws a card ({title}).", seat)
            state.note(f"You draw {state.card(a.card).title}.", seat, to=(seat,))
            if p.kind == "supply":
                p.left -= 1
                if not p.left:
                    state.pending.pop(0)
            elif steps:
                self._after_step(state, p, steps, drew=True)  # type: ignore[attr-defined]
            return
        if cls is Token and p.kind in ("compute", "backup"):
            t = state.pieces[a.target]
            t.add("Computation", 1)
            state.note(f"{state.name(seat)} places 1 Computation token on {state.card(t.id).title} ({title}'s {'Compute' if p.kind == 'compute' else 'Backup'}).", seat)
            p.left -= 1
            if not p.left or not self._mainframe_room(state, seat, p.card):
                state.pending.pop(0)
            return
        if cls is Place:
            c = state.card(a.card)
            if p.kind in ("transport", "rally"):
                p.left -= 1
                if not p.left:
                    state.pending.pop(0)
            self._place_piece(state, seat, a.card, a.theater if c.kind != "leader" else "", f"places ({title})")
            return
        if cls is Done:
            state.pending.pop(0)
            state.note(f"{state.name(seat)} finishes resolving {title}.", seat)
            return
        self._primitive(state, a, title)

    def _mainframe_room(self, state: AatState, seat: str, source: str) -> bool:
        return any(self.works(state, q, "Mainframe") and q.count("Computation") < MAINFRAME_LIMIT and q.id != source
                   for q in state.pieces.values() if q.owner == seat)

    def _primitive(self, state: AatState, a: Action, title: str) -> None:
        # The primitive's class finds its effect in one look-up (no isinstance chain).
        effect = _PRIMITIVES.get(type(a))
        if effect is not None:
            effect(self, state, a, f"applying {title}", title)

    def _p_damage(self, state: AatState, a: Damage, src: str, title: str) -> None:
        t = state.pieces[a.target]
        hit = damage_preview(self.side_of(state, t), a.amount)
        state.note(f"{state.name(a.seat)}, {src}: {a.amount} damage to {state.card(t.id).title}: {hit.text}.", a.seat)
        self._land(state, t, hit)

    def _p_heal(self, state: AatState, a: Heal, src: str, title: str) -> None:
        t = state.pieces[a.target]
        n = min(a.amount, t.count("Damage"))
        t.add("Damage", -n)
        state.note(f"{state.name(a.seat)}, {src}: {state.card(t.id).title} heals {n} damage.", a.seat)

    def _p_token(self, state: AatState, a: Token, src: str, title: str) -> None:
        t = state.pieces[a.target]
        t.add(a.token, a.delta)
        state.note(f"{state.name(a.seat)}, {src}: {'+' if a.delta > 0 else ''}{a.delta} {a.token} token(s) on {state.card(t.id).title}.", a.seat)

    def _p_incident(self, state: AatState, a: Incident, src: str, title: str) -> None:
        self._incident(state, f"{state.name(a.seat)}, {src}")

    def _p_discard(self, state: AatState, a: Discard, src: str, title: str) -> None:
        state.sides[a.seat].hand.remove(a.card)
        state.sides[a.seat].discard.append(a.card)
        state.note(f"{state.name(a.seat)}, {src}: discards {state.card(a.card).title} from hand.", a.seat)

    def _p_move_theater(self, state: AatState, a: MoveTheater, src: str, title: str) -> None:
        # Not _move: the log names the card whose text moved it, not a unit's action.
        piece = state.pieces[a.target]
        piece.theater = "space" if piece.theater == "planetside" else "planetside"
        state.note(f"{state.name(a.seat)}, {src}: {state.card(piece.id).title} moves to {THEATER_NAMES[piece.theater]}.", a.seat)

    def _p_instruct(self, state: AatState, a: Instruct, src: str, title: str) -> None:
        t = state.pieces[a.target]
        state.instructed.append(t.id)
        state.ready.append(t.id)
        state.note(f"{state.name(a.seat)}, {src}: {state.card(t.id).title} receives an instruction: one additional action (5.2.8.1).", a.seat)

    def _p_score(self, state: AatState, a: Score, src: str, title: str) -> None:
        self._score(state, a, title)


# The primitives aimed at a card in play (their ``target``).
_TARGETED = frozenset((Damage, Heal, Token, MoveTheater, Instruct, Score))

# Each primitive's effect on a card's text, found by the action's class.
_PRIMITIVES = {
    Damage: Resolution._p_damage, Heal: Resolution._p_heal, Token: Resolution._p_token,
    Discard: Resolution._p_discard, MoveTheater: Resolution._p_move_theater,
    Instruct: Resolution._p_instruct, Score: Resolution._p_score, Incident: Resolution._p_incident,
}
