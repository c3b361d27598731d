"""Phase Two - Combat (5.2.6.2): one action for each unit and base in play when the phase
began (an attack, an order, a change of theater, removing a Disruption token), the
instructions of Command and of texts (5.2.8.1), the traits that bend an attack (5.2.8.2),
damage, destruction and the base's delegation to a leader (5.2.6.2.1.1)."""
from __future__ import annotations

from rules.core import Decision, Prompt, Violation, step

from .actions import Attack, Clear, Move, Order
from .cards import THEATER_NAMES, THEATERS
from .combat import Hit, combat_preview, damage_preview
from .resolution import pending_key
from .sections import R_ACTIONS, R_ALT, R_ATTACK, R_COMBAT, R_LEADERS, R_MOVE, R_ORDERS, R_TOKENS, R_TRAITS, UNIT_KINDS
from .state import AatState, Pending, Piece


class PhaseTwo:
    """Phase two: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    @step("combat", rule=R_COMBAT, depends=lambda s: (pending_key(s) if s.pending else None, s.active))
    def ask_combat(self, state: AatState) -> Prompt:
        if state.pending:
            return self._ask_pending(state, state.pending[0])
        return Prompt.single(state.active, Decision(("attack", "order", "move", "clear", "end_phase"), "phase 2: actions"))

    def can_act(self, state: AatState, piece: Piece, attack: bool = False) -> str:
        """How ``piece`` may act now: ``"repeat"`` (an attack left by Repeater, when
        ``attack``), ``"own"`` (its action, or an instruction given by a card's text),
        ``"command"`` (an instruction from a Command unit), or ``""``."""
        if state.phase != "combat" or state.pending:
            return ""
        if attack and state.repeat and state.repeat[0] == piece.id:
            return "repeat"
        if piece.id in state.ready:
            return "own"
        if piece.id in state.instructed:
            return ""
        if state.command and state.command[2] != piece.id and state.command[0] in state.card(piece.id).types \
                and self.kind(state, piece.id) in UNIT_KINDS:
            return "command"
        return ""

    # ------------------------------------------------------------------ prompts

    # Something being resolved (state.pending) is asked for first, whatever the phase:
    # every step starts with it, and every step's key names it (_pending_key), so the
    # kernel can reuse each step's prompts across plies.

    def preview(self, state: AatState, attack: Attack) -> Hit:
        """The arithmetic of an attack, step by step, before it is confirmed (an attack on
        one's own base purges a Computation token: no damage, 5.1.2.3.3)."""
        a, t = state.pieces[attack.piece], state.pieces[attack.target]
        if t.owner == a.owner:
            return Hit(0, 0, False, 0, 0, False, ("purges 1 Computation token from your base; no damage (5.1.2.3.3)",))
        return combat_preview(self.side_of(state, a), self.side_of(state, t))

    def preview_text(self, state: AatState, attack: Attack) -> str:
        """What the screen shows before an attack is confirmed: the arithmetic, then
        Point-Defense's reply if it will come."""
        hit = self.preview(state, attack)
        a, t = state.pieces[attack.piece], state.pieces[attack.target]
        text = f"{state.card(a.id).title} → {state.card(t.id).title}: {hit.text}"
        if not hit.destroyed and t.owner != a.owner and self.works(state, t, "Point-Defense") and self.works(state, a, "Fighter"):
            back = damage_preview(self.side_of(state, a), state.card(t.id).x("Point-Defense"), "Point-Defense")
            text += f"; then {state.card(t.id).title}'s Point-Defense: {back.text}"
        return text

    def _actor(self, state: AatState, piece_id: str, seat: str, rule: str, found: list[Violation],
               attack: bool = False) -> Piece | None:
        """The piece that acts, if it may act now; else None, with the reason added to ``found``."""
        piece = state.pieces.get(piece_id)
        if piece is None or piece.owner != seat:
            found.append(Violation("not-yours", rule, f"{state.name(seat)}, {piece_id!r} is not a card of yours in play."))
            return None
        if not self.can_act(state, piece, attack):
            found.append(Violation("no-action", R_COMBAT, f"{state.name(seat)}, {state.card(piece.id).title} has no action left this turn (units placed during phase 2 do not act; 5.2.8.1: one instruction per unit per turn)."))
            return None
        return piece

    def _attack_violations(self, state: AatState, a: Attack) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, a.piece, a.seat, R_ATTACK, found, attack=True)
        if piece is None:
            return found
        me = state.card(piece.id)
        if me.kind not in UNIT_KINDS:
            found.append(Violation("base-cannot-attack", R_ACTIONS, f"{state.name(a.seat)}, bases can only perform orders listed on their card or their leader's card."))
            return found
        if piece.count("Disruption"):
            found.append(Violation("disrupted", R_TOKENS, f"{state.name(a.seat)}, {me.title} is Disrupted: its only action is removing 1 Disruption token."))
            return found
        target = state.pieces.get(a.target)
        if target is None:
            found.append(Violation("no-target", R_ATTACK, f"{state.name(a.seat)}, {a.target!r} is not a card in play."))
            return found
        them = state.card(target.id)
        if a.mark and not piece.count("Mark"):
            found.append(Violation("no-mark", R_TRAITS, f"{state.name(a.seat)}, {me.title} has no Mark token to spend."))
        if target.theater != piece.theater:
            found.append(Violation("other-theater", R_ATTACK, f"{state.name(a.seat)}, {me.title} can only attack in its own theater ({THEATER_NAMES[piece.theater]})."))
            return found
        if target.owner == a.seat:
            if not (them.kind == "base" and self._viral_against(state, a.seat)):
                found.append(Violation("own-card", R_ATTACK, f"{state.name(a.seat)}, attack an enemy card, not your own."))
            elif not target.count("Computation"):
                found.append(Violation("no-computation", R_ALT, f"{state.name(a.seat)}, your base has no Computation token to remove."))
            return found
        if them.kind == "leader":
            if not a.mark:
                found.append(Violation("leader-needs-mark", R_LEADERS, f"{state.name(a.seat)}, leaders can not be attacked unless the attacking unit spends a Mark token on itself."))
            return found
        # Mark (5.2.8.2): "spend 1 Mark token to ignore the Defended trait or target an enemy
        # leader directly" — for nothing else, so no other attack spends one.
        mark_for_nothing = Violation("mark-for-nothing", R_TRAITS, f"{state.name(a.seat)}, a Mark token is spent only to ignore the Defended trait or to attack a leader; {them.title} needs none.")
        if them.kind == "base":
            if a.mark:
                found.append(mark_for_nothing)
            if any(self.works(state, q, "Defender") for q in state.in_theater(target.theater, target.owner) if q.id != target.id):
                found.append(Violation("base-defended", R_TRAITS, f"{state.name(a.seat)}, {state.name(target.owner)}'s base is protected by a Defender unit in {THEATER_NAMES[target.theater]}."))
            if self.works(state, piece, "Capital") and any(self.works(state, q, "Capital") for q in state.in_theater(target.theater, target.owner)):
                found.append(Violation("capital-blocked", R_TRAITS, f"{state.name(a.seat)}, a Capital unit can not attack the enemy base while enemy Capital units are in the same theater."))
            if self.works(state, piece, "Fighter") and any(self.works(state, q, "Fighter") for q in state.in_theater(target.theater, target.owner)):
                found.append(Violation("fighter-blocked", R_TRAITS, f"{state.name(a.seat)}, a Fighter can not attack the enemy base while enemy Fighters are in the same theater."))
            return found
        if self.works(state, target, "Capital") and self.works(state, piece, "Fighter") and not (self.works(state, piece, "Bomber") or self.works(state, piece, "Torpedo")):
            found.append(Violation("fighter-vs-capital", R_TRAITS, f"{state.name(a.seat)}, a Fighter can not attack a Capital unit (only with Bomber or Torpedo)."))
        if self.works(state, target, "Fighter") and self.works(state, piece, "Capital") and not self.works(state, piece, "Point-Defense"):
            found.append(Violation("capital-vs-fighter", R_TRAITS, f"{state.name(a.seat)}, a Capital unit can attack a Fighter only through Point-Defense."))
        defended = self.works(state, target, "Defended") and any(
            self.works(state, q, "Defender") for q in state.in_theater(target.theater, target.owner) if q.id != target.id)
        if a.mark and not defended:
            found.append(mark_for_nothing)
        if defended and not a.mark:
            found.append(Violation("defended", R_TRAITS, f"{state.name(a.seat)}, {them.title} is Defended while an allied Defender unit is in its theater (spend a Mark token to ignore it)."))
        return found

    def _order_violations(self, state: AatState, a: Order) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, a.piece, a.seat, R_ORDERS, found)
        if piece is None:
            return found
        if piece.count("Disruption"):
            found.append(Violation("disrupted", R_TOKENS, f"{state.name(a.seat)}, {state.card(piece.id).title} is Disrupted: its only action is removing 1 Disruption token."))
            return found
        source = state.pieces.get(a.card)
        if source is None or source.owner != a.seat:
            found.append(Violation("not-yours", R_ORDERS, f"{state.name(a.seat)}, {a.card!r} is not a card of yours in play."))
            return found
        ok = source.id == piece.id or (self.kind(state, piece.id) == "base" and self.kind(state, source.id) == "leader")
        if not ok:
            found.append(Violation("not-its-order", R_ORDERS, f"{state.name(a.seat)}, a unit performs its own orders; a base its own or a leader's."))
        elif not 0 <= a.index < len(state.card(source.id).orders):
            found.append(Violation("no-such-order", R_ORDERS, f"{state.name(a.seat)}, {state.card(source.id).title} has no order number {a.index + 1}."))
        else:
            found.extend(self._required_violations(state, a.seat, source.id, state.card(source.id).orders[a.index]))  # type: ignore[attr-defined]
        return found

    def _move_violations(self, state: AatState, action: Move) -> list[Violation]:
        found: list[Violation] = []
        seat = action.seat
        piece = self._actor(state, action.piece, seat, R_MOVE, found)
        if piece is not None:
            if self.kind(state, piece.id) == "base" or set(state.card(piece.id).theaters) != set(THEATERS):
                found.append(Violation("one-theater", R_MOVE, f"{state.name(seat)}, {state.card(piece.id).title} can be deployed in only one theater, so it cannot change theaters."))
            elif piece.count("Disruption"):
                found.append(Violation("disrupted", R_TOKENS, f"{state.name(seat)}, {state.card(piece.id).title} is Disrupted: its only action is removing 1 Disruption token."))
        return found

    def _clear_violations(self, state: AatState, action: Clear) -> list[Violation]:
        found: list[Violation] = []
        piece = self._actor(state, action.piece, action.seat, R_TOKENS, found)
        if piece is not None and not piece.count("Disruption"):
            found.append(Violation("no-disruption", R_TOKENS, f"{state.name(action.seat)}, {state.card(piece.id).title} has no Disruption token to remove."))
        return found

    def _order(self, state: AatState, action: Order) -> None:
        seat = action.seat
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        text = state.card(action.card).orders[action.index]
        state.note(f"{state.name(seat)}: {state.card(piece.id).title} performs the order of {state.card(action.card).title}: »{text}« (5.2.6.2.2).", seat)
        leader = state.pieces[action.card]
        self._commanded(state, piece, extra=leader if leader.id != piece.id else None)
        state.pending.insert(0, Pending("text", seat, action.card, text=text))

    def _move_action(self, state: AatState, action: Move) -> None:
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        self._move(state, piece)
        self._commanded(state, piece)

    def _clear(self, state: AatState, action: Clear) -> None:
        piece = state.pieces[action.piece]
        self._spend(state, piece)
        piece.add("Disruption", -1)
        state.note(f"{state.name(action.seat)}: {state.card(piece.id).title} removes 1 Disruption token (5.2.8.4).", action.seat)

    def _move(self, state: AatState, piece: Piece) -> None:
        piece.theater = "space" if piece.theater == "planetside" else "planetside"
        state.note(f"{state.name(piece.owner)}: {state.card(piece.id).title} moves to {THEATER_NAMES[piece.theater]} (5.2.6.2.3).", piece.owner)

    def _spend(self, state: AatState, piece: Piece, attack: bool = False) -> None:
        """Use up the action ``piece`` acts with."""
        how = self.can_act(state, piece, attack)
        if how == "repeat":
            state.repeat[1] = str(int(state.repeat[1]) - 1)
            if state.repeat[1] == "0":
                state.repeat.clear()
            return
        state.repeat.clear()
        if how == "own":
            state.ready.remove(piece.id)
        elif how == "command":
            state.instructed.append(piece.id)
            left = int(state.command[1]) - 1
            state.note(f"{state.name(piece.owner)}: {state.card(piece.id).title} takes an instruction (Command).", piece.owner)
            if left:
                state.command[1] = str(left)
            else:
                state.command.clear()

    def _commanded(self, state: AatState, piece: Piece, extra: Piece | None = None) -> None:
        """Command X: Y — when this unit takes an action, Y other X units may take an
        additional action (a base performing a Command leader's order counts as the leader's)."""
        for src in (piece, extra):
            if src is None or not self.works(state, src, "Command"):
                continue
            t = state.card(src.id).trait("Command")
            if t is not None and isinstance(t.y, int) and t.y > 0:
                state.command[:] = [str(t.x), str(t.y), piece.id]
                state.note(f"{state.name(piece.owner)}: {state.card(src.id).title}'s Command gives {t.y} other {t.x} unit(s) an additional action.", piece.owner)

    def _attack(self, state: AatState, a: Attack) -> None:
        seat = a.seat
        piece, target = state.pieces[a.piece], state.pieces[a.target]
        repeat = self.can_act(state, piece, attack=True) == "repeat"
        self._spend(state, piece, attack=True)
        me, them = state.card(piece.id), state.card(target.id)
        if a.mark:
            piece.add("Mark", -1)
        if target.owner == seat:
            target.add("Computation", -1)
            state.note(f"{state.name(seat)}: {me.title} attacks its own base to purge the virus: 1 Computation token removed, no damage (5.1.2.3.3).", seat)
        else:
            hit = combat_preview(self.side_of(state, piece), self.side_of(state, target))
            state.note(f"{state.name(seat)}: {me.title} attacks {them.title}{' (spending a Mark token)' if a.mark else ''}: {hit.text} (5.2.6.2.1).", seat)
            self._land(state, target, hit)
            reply = state.pieces.get(target.id)
            if reply is not None and a.piece in state.pieces and self.works(state, reply, "Point-Defense") and self.works(state, piece, "Fighter"):
                x = state.card(reply.id).x("Point-Defense")
                back = damage_preview(self.side_of(state, piece), x, "Point-Defense")
                state.note(f"{state.card(reply.id).title}'s Point-Defense answers {me.title}: {back.text}.", reply.owner)
                self._land(state, piece, back)
        if state.result is not None:
            return
        if not repeat and a.piece in state.pieces and self.works(state, piece, "Repeater") and me.x("Repeater"):
            state.repeat[:] = [piece.id, str(me.x("Repeater"))]
        if not repeat and a.piece in state.pieces:
            self._commanded(state, piece)

    def _land(self, state: AatState, target: Piece, hit: Hit) -> None:
        """Apply a worked-out hit to ``target``: Stealth, Shields, Damage, destruction; a
        base's owner may first delegate damage to a leader."""
        if hit.stealth:
            target.add("Stealth", -1)
            return
        target.add("Shield", -hit.shields)
        if not hit.damage:
            return
        if self.kind(state, target.id) == "base" and self.leaders(state, target.owner):
            state.pending.insert(0, Pending("delegate", target.owner, target.id, hit.damage, target=target.id))
            return
        target.add("Damage", hit.damage)
        if target.count("Damage") >= state.card(target.id).health:
            self._destroy(state, target)

    def _hurt_directly(self, state: AatState, t: Piece, hit: Hit) -> None:
        if hit.stealth:
            t.add("Stealth", -1)
            return
        t.add("Shield", -hit.shields)
        t.add("Damage", hit.damage)
        if hit.damage and t.count("Damage") >= state.card(t.id).health:
            self._destroy(state, t)

    def _destroy(self, state: AatState, piece: Piece) -> None:
        c = state.card(piece.id)
        owner = piece.owner
        if c.kind == "base":
            del state.pieces[piece.id]
            state.sides[owner].discard.append(piece.id)
            winner = state.other(owner)
            by = ""
            if self.objective(state, winner).goal == "crack":
                by = f" ({self.objective(state, winner).name})" if any(
                    state.card(p.id).name == self.objective(state, winner).card for p in state.pieces.values() if p.owner == winner) else ""
            self._win(state, winner, f"{state.name(winner)} destroyed {state.name(owner)}'s base{by} (5.1.2.1)")
            return
        working = {t: self.works(state, piece, t) for t in ("Backup", "Sympathized")}
        del state.pieces[piece.id]
        state.sides[owner].discard.append(piece.id)
        for lst in (state.ready, state.instructed):
            if piece.id in lst:
                lst.remove(piece.id)
        if state.repeat and state.repeat[0] == piece.id:
            state.repeat.clear()
        state.note(f"{state.name(owner)}'s {c.title} is destroyed and discarded (5.2.6.2.1).", owner)
        self._incident(state, f"{c.title} destroyed")
        frames = []
        if working["Backup"] and c.x("Backup") and piece.count("Computation") and any(
                self.works(state, p, "Mainframe") for p in state.pieces.values() if p.owner == owner):
            frames.append(Pending("backup", owner, piece.id, min(c.x("Backup"), piece.count("Computation"))))
        if working["Sympathized"] and c.x("Sympathized"):
            frames.append(Pending("rally", owner, piece.id, c.x("Sympathized")))
        state.pending[0:0] = frames
