"""The actions that may be legal now, for the kernel's ``legal_actions`` (it lists the
throws and draws itself, and keeps only the candidates its check accepts): one of each
distinct choice a player has, not every order of the same cards.
"""
from __future__ import annotations

from typing import Iterable

from rules.core import Action, Prompt

from .actions import Abandon, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender
from .attack import targets
from .burglary import TOOL_KINDS
from .cards import KIND_NAME, TOWER, kind_of
from .movement import movable_others
from .state import OutrageState

WEAPON_KINDS = tuple(k for k in KIND_NAME if TOWER[f"{k}-1"].group == "weapon")


class Listing:
    """``candidates`` (the rules' part of :class:`~rules.outrage.game.Outrage`)."""

    def candidates(self, state: OutrageState, prompt: Prompt) -> Iterable[Action]:
        phase = state.phase
        if phase == "attack":
            assert state.combat is not None
            for seat in prompt.seats():
                yield from self._arm_candidates(state, seat)
            return
        seat = prompt.seats()[0] if prompt.waits else state.actor
        awaiting = prompt.waits.get(seat)
        accepted = awaiting.accepted if awaiting is not None else ()
        if phase == "move":
            if "choose" in accepted:
                yield Choose(seat, "stay")
            if "move" in accepted:
                disguises = state.cards_of(seat, "disguise")
                for sq, (_, needs) in self.derived(state).items():
                    if needs:
                        if disguises:
                            yield MoveTo(seat, sq, disguises[0])
                    else:
                        yield MoveTo(seat, sq)
            if "split" in accepted:
                for other in movable_others(state, seat):
                    for n in range(1, 7):
                        yield Split(seat, other, n)
            return
        if "choose" in accepted:
            if phase == "rack":
                yield Choose(seat, "wait")
            elif phase == "tea":
                yield Choose(seat, "stay")
            else:
                for c in state.choices:
                    yield Choose(seat, c)
        if "decline" in accepted:
            yield Decline(seat)
        if "play" in accepted:
            for c in state.hands[seat].cards:
                if kind_of(c) == "confession":
                    for o in state.order.order:
                        if o != seat:
                            yield Play(seat, c, o)
                else:
                    yield Play(seat, c)
        if "change" in accepted:
            hand = state.hands[seat].cards
            for c in hand:
                yield Change(seat, (c,))
            if phase == "start" and len(hand) > 1:
                yield Change(seat, tuple(hand))
        if "attack" in accepted:
            for t in targets(state, seat):
                yield Attack(seat, t)
        if "escape" in accepted:
            yield Escape(seat)
        if "abandon" in accepted:
            yield Abandon(seat)
        if "burgle" in accepted:
            by_kind: dict[str, str] = {}
            for c in state.cards_of(seat, *TOOL_KINDS):
                by_kind.setdefault(kind_of(c), c)
            for c in by_kind.values():
                yield Burgle(seat, (c,))
            rest = [c for k, c in by_kind.items() if k != "key"]  # the Key goes alone
            if len(rest) > 1:
                yield Burgle(seat, tuple(rest))
        if "give" in accepted:
            for s in prompt.seats():
                yield Give(s)
                yield from (Give(s, c) for c in dict.fromkeys(state.hands[s].cards))
        if "surrender" in accepted:
            weapons = state.cards_of(seat, *WEAPON_KINDS)
            yield Surrender(seat, tuple(weapons))
            if weapons:
                yield Surrender(seat, tuple(weapons[1:]))
        if "challenge" in accepted:
            yield Challenge(seat)
