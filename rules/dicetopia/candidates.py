"""The actions that may be legal now, listed for the kernel (which keeps those its check
accepts): the legal-action listing behind ``legal_actions``."""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Prompt

from .actions import (
    Adapt, Block, Bottom, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize, Intervene, Keep,
    Reroll, Rig, SaveTurn, Swap, Transcend,
)
from .city import SWAP_ACTIONS
from .scoring import Domination, is_die
from .state import BOARD_SLOTS, DicetopiaState


class Candidates:
    """The legal-action listing: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    def _start_abilities(self, state: DicetopiaState, seat: str, accepted: tuple[str, ...]) -> Iterator[Action]:
        """The current player's own turn-start ability, every target, when ``accepted``."""
        if "save_turn" in accepted:
            yield SaveTurn(seat)
        if "exterminate" in accepted:
            for h, cells in state.city.items():
                for i, c in enumerate(cells):
                    if is_die(c):
                        yield Exterminate(seat, h, i)
        if "intervene" in accepted:
            dice = self._dice(state)
            for x, (a, ai) in enumerate(dice):
                for b, bi in dice[x:]:
                    yield Intervene(seat, a, ai, b, bi)

    def candidates(self, state: DicetopiaState, prompt: Prompt) -> Iterator[Action]:
        t = state.t
        phase = state.phase
        if phase == "keep" or phase == "deal":
            # The keeping (during the deal, a seat already dealt its three: the draw is chance's).
            for s, awaiting in prompt.waits.items():
                if "keep" in awaiting.accepted:
                    for c in state.hands[s].cards:
                        yield Keep(s, c)
            return
        seat = state.current
        if phase == "deploy":
            hoods = [state.hypnosis] if state.hypnosis else list(state.city)
            for h in hoods:
                for i, c in enumerate(state.city[h]):
                    if is_die(c):
                        yield Deploy(seat, h, i)
            p = state.holder("perceptioneers")
            if p is not None and p in prompt.waits:
                for h in state.city:
                    yield Hypnotize(p, h)
            yield from self._start_abilities(state, seat, prompt.waits[seat].accepted)
        elif phase == "first":
            (s, awaiting), = prompt.waits.items()
            yield Decline(s)
            if "hypnotize" in awaiting.accepted:
                for h in state.city:
                    yield Hypnotize(s, h)
            else:
                yield from self._start_abilities(state, s, awaiting.accepted)
        elif phase in ("act", "agency-draw"):
            if state.can_use(seat, "ewo"):
                for h in state.city:
                    if h != state.act_hood:
                        yield Transcend(seat, h)
            if phase == "act":
                act = self.hood_action(state, state.act_hood)
                if act == "reroll":
                    for w, i in self._dice(state):
                        yield Reroll(seat, w, i)
                elif act in SWAP_ACTIONS:
                    for a, ai, b, bi in self._swaps(state, act):
                        yield Swap(seat, a, ai, b, bi)
                yield Decline(seat)
        elif phase == "agency-bottom":
            for c in state.hands[seat].cards:
                yield Bottom(seat, c)
        elif phase == "react":
            r = state.reactions.peek()
            yield Decline(r.seat)
            if r.window == "block":
                yield Block(r.seat)
            else:
                for i, c in enumerate(state.boards[r.seat]):
                    if is_die(c):
                        yield Adapt(r.seat, i, 1)
                        yield Adapt(r.seat, i, -1)
        elif phase == "clone":
            s = state.holder("dangmer")
            if s is not None:
                yield Decline(s)
                for i in range(BOARD_SLOTS):
                    for j in range(BOARD_SLOTS):
                        for what in ("value", "colour"):
                            yield Clone(s, i, j, what)
        elif phase == "rig":
            s = state.holder("bingmai")
            if s is not None:
                yield Decline(s)
                for h, hold in Domination.of(t, state.city, state.order, {}).items():
                    if hold.tied:
                        for w in hold.winners:
                            yield Rig(s, h, w)
        elif phase == "choose":
            s = state.seat_of("centauri")
            if s is not None:
                for c in state.hands[s].cards:
                    yield Choose(s, c)
        elif phase == "copy":
            s = self._copier(state)
            if s is not None:
                for c in self._copy_targets(state, s):
                    yield CopyMission(s, c)
