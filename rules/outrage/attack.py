"""ATTACK: "Accredited players can rob their opponents of their Jewels and money if they
wish by attacking them. They announce their intention to attack at the beginning of a
turn and no dice are thrown." Attacker and defender lay weapons face down (Armour only in
defence; a Sanctuary card alone, in defence, ends it); the higher total wins (a tie goes
to the defender); the loser's jewels and coin go to the winner, the loser to the Hospital.
"""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, SecretRound, Violation

from .actions import Arm, Attack
from .cards import TOWER, attack_value, kind_of
from .places import BOARD, SHELTER
from .sections import R_ATTACK
from .state import OutrageState


def immunity(state: OutrageState, seat: str) -> str:
    """Why ``seat`` cannot be attacked now, a sentence about ``{who}`` ('' if it can): only
    players in the Tower, accredited, at large (not held nor missing a turn), outside the
    White Tower and the Inmost Ward ("immune from attack") and not in Sanctuary may be
    attacked. (A template, so that asking whether anyone may be attacked, at every turn's
    start, names nobody.)"""
    if not state.in_play(seat):
        return "{who} has left the Tower"
    if not state.accredited[seat]:
        return "{who} is not accredited"
    if seat in state.held or state.order.skips.get(seat):
        return "{who} is held and cannot be attacked"
    if state.pos[seat] in SHELTER:  # "Once in these areas ... they are immune from attack"
        return "{who} is in the White Tower or the Inmost Ward"
    if seat in state.sanctuary:
        return "{who} has claimed Sanctuary"
    return ""


def immune(state: OutrageState, seat: str) -> str:
    """Why ``seat`` cannot be attacked now, naming the player ('' if it can)."""
    why = immunity(state, seat)
    return why.format(who=state.seat_name(seat)) if why else ""


def targets(state: OutrageState, seat: str) -> list[str]:
    """The opponents ``seat`` may attack now (with teams, players of another colour)."""
    return [s for s in state.opponents(seat) if not immunity(state, s)]


def anyone_to_attack(state: OutrageState, seat: str) -> bool:
    """Whether ``seat`` has a target (asked at every turn's start: the first one answers)."""
    return any(not immunity(state, s) for s in state.opponents(seat))


def shown(cards: list[str]) -> str:
    """Cards laid in an attack, named for the log."""
    return ", ".join(TOWER[c].name for c in cards) or "nothing"


class Attacks:
    """Announcing an attack, laying weapons and the fight (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def targets(self, state: OutrageState, seat: str) -> list[str]:
        return targets(state, seat)

    def _v_attack(self, state: OutrageState, action: Attack) -> Iterator[Violation]:
        if action.target not in targets(state, action.seat):
            yield Violation("cannot-attack", R_ATTACK, f"{state.seat_name(action.seat)} cannot attack: {why_not_attack(state, action.seat, action.target)}.")

    def _arm_violations(self, state: OutrageState, action: Arm) -> Iterator[Violation]:
        assert state.combat is not None
        seat = action.seat
        hand = state.hands[seat].cards
        who = state.seat_name(seat)
        if len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_ATTACK, f"{who} lays cards from their own hand, each once.")
            return
        kinds = [kind_of(c) for c in action.cards]
        defender = seat == state.combat.seats[1]
        if "sanctuary" in kinds:
            if not defender or len(kinds) > 1:
                yield Violation("sanctuary", R_ATTACK, f"{who} plays a Sanctuary card alone, in defence.")
            return
        if any(TOWER[c].group != "weapon" for c in action.cards):
            yield Violation("not-a-weapon", R_ATTACK, f"{who} lays only weapons in an attack.")
        if len(set(kinds)) != len(kinds):
            yield Violation("two-of-a-kind", R_ATTACK, f"{who} may lay any combination of weapons, but not more than one of the same kind.")
        if "armour" in kinds and not defender:
            yield Violation("armour-defence", R_ATTACK, f"{who} attacks: Armour can only be used in defence.")

    def _attack(self, state: OutrageState, action: Attack) -> None:
        seat = action.seat
        state.combat = SecretRound("attack", [seat, action.target])
        state.laid = {}
        state.phase = "attack"
        state.note(f"{state.seat_name(seat)} attacks {state.seat_name(action.target)}! Attacker, then defender, lay weapons face down. [{R_ATTACK}]")

    def _arm(self, state: OutrageState, action: Arm) -> None:
        seat = action.seat
        assert state.combat is not None
        state.combat.commit(seat, list(action.cards))
        for c in action.cards:
            state.hands[seat].remove(c)
        state.laid[seat] = list(action.cards)
        state.note(f"{state.seat_name(seat)} has laid their cards face down.")
        if state.combat.is_complete:
            self._fight(state)

    def _fight(self, state: OutrageState) -> None:
        assert state.combat is not None
        laid = state.combat.reveal()
        self.reveal(state)
        attacker, defender = state.combat.seats
        a_cards, d_cards = laid[attacker], laid[defender]
        an, dn = state.seat_name(attacker), state.seat_name(defender)
        state.note(f"The cards are revealed: {an} laid {shown(a_cards)}; {dn} laid {shown(d_cards)}. [{R_ATTACK}]")
        state.combat = None
        state.laid = {}
        if d_cards and kind_of(d_cards[0]) == "sanctuary":
            self._to_pack(state, a_cards + d_cards)
            self.place(state, defender, BOARD.places["chapel_royal"], f", retreating into Sanctuary [{R_ATTACK}]")
            if defender not in state.sanctuary:
                state.sanctuary.append(defender)
            self.end_turn(state)
            return
        av, dv = attack_value(a_cards), attack_value(d_cards)
        winner, loser = (attacker, defender) if av > dv else (defender, attacker)
        wn, ln = state.seat_name(winner), state.seat_name(loser)
        state.note(f"{an} {av} against {dn} {dv}{' (a tie goes to the defender)' if av == dv else ''}: {wn} wins. [{R_ATTACK}]")
        for j in state.carried(loser):
            state.jewels[j] = winner
            state.note(f"{wn} takes the {BOARD.jewel_name[j]}.")
        if state.coins[loser]:
            state.coins[loser] = False
            # "Players may hold only one coin at any time" (MONEY).
            if state.coins[winner]:
                state.mint += 1
                state.note(f"{wn} already has a coin: {ln}'s coin goes back to the Mint. [{R_ATTACK}]")
            else:
                state.coins[winner] = True
                state.note(f"{wn} takes {ln}'s coin.")
        lost = len(laid[winner])
        loser_square = state.pos[loser]
        self._to_pack(state, a_cards + d_cards)
        self._shuffle_pack(state)
        self.place(state, loser, BOARD.places["hospital"], f" to recover from their wounds [{R_ATTACK}]")
        state.order.skip(loser, 1)
        self.drop_burglary(state, loser)
        state.end_now = True
        # The winner takes as many Tower cards as the weapons laid.
        state.tasks[:0] = [("draw-tower", winner, "")] * lost
        if winner == attacker:
            self.place(state, attacker, loser_square, f", taking {ln}'s place")
            self._queue_landing(state, attacker, loser_square, 0)
        self.proceed(state)

    def _arm_candidates(self, state: OutrageState, seat: str) -> Iterator[Action]:
        assert state.combat is not None
        defender = seat == state.combat.seats[1]
        by_kind: dict[str, str] = {}
        for c in state.hands[seat].cards:
            k = kind_of(c)
            if TOWER[c].group == "weapon" and (defender or k != "armour"):
                by_kind.setdefault(k, c)
        weapons = list(by_kind.values())
        yield Arm(seat, ())
        if weapons:
            yield Arm(seat, tuple(weapons))
            for c in weapons:
                yield Arm(seat, (c,))
        if defender:
            for c in state.cards_of(seat, "sanctuary")[:1]:
                yield Arm(seat, (c,))


def why_not_attack(state: OutrageState, seat: str, target: str) -> str:
    """Why ``seat`` may not attack ``target`` now, in the rules' words."""
    if target not in state.pos:
        return f"there is no player {target!r}"
    if target == seat:
        return "a player does not attack themselves"
    if state.team(target) == state.team(seat):
        return f"{state.seat_name(target)} is on {state.seat_name(seat)}'s own team"
    return immune(state, target) or "not a player to attack"
