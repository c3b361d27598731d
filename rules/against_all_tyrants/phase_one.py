"""Phase One - Deployment (5.2.6.1): up to two cards a turn at or below the escalation
level, units into a theater on their card, leaders beside the base, one-time effects
resolved and discarded; a card entering play (Unique, immediate traits, X Expert)."""
from __future__ import annotations

from typing import Iterator

from rules.core import Decision, Prompt, Violation, step

from .actions import Play
from .cards import THEATER_NAMES, Card
from .resolution import pending_key
from .sections import PLAYS, R_DEPLOY, R_EFFECT, R_LEADER, R_PLAY, R_UNIQUE
from .state import HOME, AatState, Pending, Piece


class PhaseOne:
    """Phase one: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    @step("deploy", rule=R_PLAY, depends=lambda s: (pending_key(s) if s.pending else None, s.active, s.plays, not s.sides[s.active].hand, s.escalation.level))
    def ask_deploy(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        seat = state.active
        left, level = PLAYS - state.plays, state.escalation.level
        if left > 0 and len(state.sides[seat].hand):
            note = f"phase 1: play up to {left} more card{'s' if left != 1 else ''} at escalation {level}"
            return Prompt.single(seat, Decision(("play", "end_phase"), note))
        # Nothing left to play: the prompt offers the end alone and says why, never "up to 0".
        why = f"{PLAYS} cards played" if left <= 0 else "no card in hand to play"
        return Prompt.single(seat, Decision(("end_phase",), f"phase 1: {why}; end the phase (escalation {level})"))

    def _play_violations(self, state: AatState, a: Play) -> list[Violation]:
        found: list[Violation] = []
        if a.card not in state.sides[a.seat].hand:
            found.append(Violation("not-in-hand", R_PLAY, f"{state.name(a.seat)}, {a.card!r} is not a card in your hand."))
            return found
        if state.plays >= PLAYS:
            found.append(Violation("two-plays", R_PLAY, f"{state.name(a.seat)} has already played {PLAYS} cards this turn."))
        c = state.card(a.card)
        if c.kind not in ("unit", "leader", "effect"):
            found.append(Violation("not-playable", R_PLAY, f"{state.name(a.seat)}, {c.title} is not played from the hand."))
            return found
        found.extend(self._placement(state, a.seat, a.card, a.theater, R_DEPLOY))
        return found

    def _placement(self, state: AatState, seat: str, card_id: str, theater: str, rule: str, *, level: bool = True) -> Iterator[Violation]:
        """The checks every placement of a unit or leader shares: the theater, the
        escalation requirement."""
        c = state.card(card_id)
        if level and c.escalation > state.escalation.level:
            yield Violation("escalation-too-low", R_PLAY, f"{state.name(seat)}, {c.title} needs escalation {c.escalation}; it is {state.escalation.level}.")
        if c.kind == "leader" or c.kind == "effect":
            if theater:
                yield Violation("no-theater", R_LEADER if c.kind == "leader" else R_EFFECT,
                                f"{state.name(seat)}, {'a leader goes beside your base' if c.kind == 'leader' else 'a one-time effect is not placed in a theater'}: leave the theater empty.")
        elif theater not in c.theaters:
            yield Violation("wrong-theater", rule, f"{state.name(seat)}, {c.title} can only be deployed in {self._theaters(c)}, not {theater or 'no theater'!r}.")

    def _theaters(self, card: Card) -> str:
        return " or ".join(THEATER_NAMES[t] for t in card.theaters) or "no theater"

    def _play(self, state: AatState, a: Play) -> None:
        seat = a.seat
        c = state.card(a.card)
        state.plays += 1
        if c.kind == "effect":
            state.sides[seat].hand.remove(a.card)
            state.sides[seat].discard.append(a.card)
            state.note(f"{state.name(seat)} plays the one-time effect {c.title}: {c.effect} (5.2.6.2.1.1)", seat)
            expert = self._experts(state, seat, a.card)
            if expert:
                state.note(f"{c.title}: {expert}.", seat)
            frames = self._immediate(state, seat, a.card)
            if c.effect:
                frames.append(Pending("text", seat, a.card, text=c.effect, expert=expert))
            state.pending[0:0] = frames
            return
        self._place_piece(state, seat, a.card, a.theater, "deploys", self._experts(state, seat, a.card))

    def _experts(self, state: AatState, seat: str, card_id: str) -> str:
        """X Expert (5.2.8.2): "When you play an X card, count this unit twice instead of
        once." The book never says what is counted (RULINGS A-25), so the engine counts
        nothing itself: when a card is played, it names the seat's working X Expert units
        whose X is one of the card's types, in the log and in the prompt of the card's text,
        for the table to count them twice there."""
        types = state.card(card_id).types
        experts = [q for q in state.pieces.values() if q.owner == seat and q.id != card_id and self.works(state, q, "Expert")
                   and state.card(q.id).trait("Expert").x in types]  # type: ignore[union-attr]
        if not experts:
            return ""
        kinds = sorted({str(state.card(q.id).trait("Expert").x) for q in experts})  # type: ignore[union-attr]
        names = ", ".join(state.card(q.id).title for q in experts)
        return (f"{' and '.join(k + ' Expert' for k in kinds)}: wherever this {'/'.join(kinds)} card counts units, "
                f"count {names} twice (RULINGS A-25)")

    def _place_piece(self, state: AatState, seat: str, card_id: str, theater: str, verb: str, expert: str = "") -> None:
        """A unit, leader or objective unit enters play: Unique, then its immediate traits."""
        side = state.sides[seat]
        for zone in (side.hand.cards, side.special_forces, side.objectives):
            if card_id in zone:
                zone.remove(card_id)
        c = state.card(card_id)
        if c.unique:
            for other in list(state.pieces.values()):
                if other.owner == seat and state.card(other.id).name == c.name and state.card(other.id).unique:
                    del state.pieces[other.id]
                    side.discard.append(other.id)
                    state.note(f"{state.name(seat)} discards the {c.title} already in play: only one can be out at a time ({R_UNIQUE}).", seat)
        if c.kind == "leader":
            base = state.base(seat)
            theater = base.theater if base else HOME[state.role(seat)]
        piece = Piece(card_id, c.id, seat, theater)
        state.pieces[card_id] = piece
        where = f"in {THEATER_NAMES[theater]}" if c.kind != "leader" else "beside the base"
        state.note(f"{state.name(seat)} {verb} {c.title} {where}.", seat)
        if expert:
            state.note(f"{c.title}: {expert}.", seat)
        # A piece enters play with no token, so no Disruption: its traits all work.
        if c.has("Stealth"):
            piece.add("Stealth", 1)
        if c.has("Mark") and c.x("Mark"):
            piece.add("Mark", c.x("Mark"))
        if c.has("Funds") and c.x("Funds"):
            base = state.base(seat)
            if base is not None:
                base.add("Funds", c.x("Funds"))
                state.note(f"{state.name(seat)} gains {c.x('Funds')} Funds token(s) (Funds).", seat)
        frames = self._immediate(state, seat, card_id)
        if c.effect:
            frames.append(Pending("text", seat, card_id, text=c.effect, expert=expert))
        state.pending[0:0] = frames

    def _immediate(self, state: AatState, seat: str, card_id: str) -> list[Pending]:
        """The frames of a placed card's immediate traits that need a choice or a draw."""
        c = state.card(card_id)
        frames: list[Pending] = []
        if c.has("Supply") and c.x("Supply"):
            frames.append(Pending("supply", seat, card_id, c.x("Supply")))
        if c.has("Compute") and c.x("Compute") and any(
                self.works(state, p, "Mainframe") for p in state.pieces.values() if p.owner == seat):
            frames.append(Pending("compute", seat, card_id, c.x("Compute")))
        t = c.trait("Transport")
        if t is not None and isinstance(t.x, int) and t.x > 0:
            frames.append(Pending("transport", seat, card_id, t.x, kind_of=str(t.y)))
        return frames
