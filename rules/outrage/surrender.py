"""SURRENDERING WEAPONS: "Players required to surrender their weapons must show all cards
being surrendered to the other players before replacing them on the bottom of the pack. A
player may challenge another if it is suspected that not all weapons have been
surrendered." The accused's cards are revealed; whoever was wrong loses every Tower card.
"""
from __future__ import annotations

from typing import Iterator

from rules.core import Violation

from .actions import Surrender
from .cards import TOWER
from .sections import R_SURRENDER
from .state import OutrageState


class Surrendering:
    """Surrendering weapons and the challenge that may follow (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def _v_surrender(self, state: OutrageState, action: Surrender) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        hand = state.hands[seat].cards
        if len(set(action.cards)) != len(action.cards) or any(c not in hand for c in action.cards):
            yield Violation("not-in-hand", R_SURRENDER, f"{who} can only surrender cards from their own hand, each once.")
        elif any(TOWER[c].group != "weapon" for c in action.cards):
            yield Violation("not-a-weapon", R_SURRENDER, f"{who} surrenders weapons only.")

    def _surrender(self, state: OutrageState, action: Surrender) -> None:
        seat = action.seat
        for c in action.cards:
            state.hands[seat].remove(c)
        self._to_pack(state, list(action.cards))
        shown = ", ".join(TOWER[c].name for c in action.cards) or "no weapons"
        state.note(f"{state.seat_name(seat)} shows and surrenders {shown}. [{R_SURRENDER}]")
        # Each other player in turn may challenge, if the surrenderer still holds cards.
        order = state.order.order
        i = order.index(seat)
        state.challengers = [s for s in order[i + 1:] + order[:i] if state.in_play(s)]
        if state.challengers and state.hands[seat].cards:
            state.phase = "challenge"
            state.actor = state.challengers[0]
            return
        state.challengers = []
        self.proceed(state)

    def _challenge(self, state: OutrageState, accuser: str) -> None:
        accused = state.accused
        an, cn = state.seat_name(accuser), state.seat_name(accused)
        hand = state.hands[accused].cards
        shown = ", ".join(TOWER[c].name for c in hand)
        state.note(f"{an} challenges {cn}, whose Tower cards are revealed: {shown}. [{R_SURRENDER}]")
        state.challengers = []
        if any(TOWER[c].group == "weapon" for c in hand):
            # "If the accuser is correct and weapons remain, the accused must surrender all
            # Tower Cards held."
            n = len(hand)
            self._to_pack(state, hand)
            hand.clear()
            state.note(f"Weapons remained: {cn} surrenders all {n} Tower cards. [{R_SURRENDER}]")
        else:
            # "If the accuser is wrong, the accuser must surrender all Tower Cards held to the
            # pack. The accused's revealed cards are also returned to the pack which is then
            # shuffled. The accused is then dealt fresh cards to replace them."
            n_acc = len(state.hands[accuser].cards)
            self._to_pack(state, state.hands[accuser].cards)
            state.hands[accuser].cards.clear()
            n = len(hand)
            self._to_pack(state, hand)
            hand.clear()
            self._shuffle_pack(state)
            state.note(f"{an} was wrong and surrenders all {n_acc} Tower cards; {cn}'s revealed cards go back, the pack is shuffled, and {cn} is dealt {n} fresh cards. [{R_SURRENDER}]")
            state.tasks[:0] = [("draw-tower", accused, "")] * n
        self.proceed(state)

    def _no_challenge(self, state: OutrageState, seat: str) -> bool:
        """One player lets the challenge go; whether the window has closed."""
        state.challengers.pop(0)
        if state.challengers:
            return False
        state.note(f"Nobody challenges {state.seat_name(state.accused)}. [{R_SURRENDER}]")
        return True
