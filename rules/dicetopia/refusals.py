"""Why an action is not on offer now (the engine's ``explain``): a refusal says why in the
game's terms, never only the kernel's "the game is waiting for …".

The most telling reason comes first: a faction ability the player's faction does not have,
or has already used, or that would cancel another (§7). Otherwise the kind's moment: when
the rulebook has a player take it (``data/moments.json``), e.g. "Ann: a reroll is The
Gugu Airforce's action, performed by the player who has just swapped an agent there (§5)."

>>> from rules.core import Seat
>>> from rules.dicetopia import GAME, Reroll
>>> s = GAME.new([Seat("a", "ewo", "Ann"), Seat("b", "hollows", "Bob")], {"first": "a"}, seed=3)
>>> [v.code for v in GAME.check(s, Reroll("a", "gugu", 0))]
['not-awaited', 'not-now']
>>> GAME.check(s, Reroll("a", "gugu", 0))[1].message[:48]
"Ann: a reroll is The Gugu Airforce's action, per"
"""
from __future__ import annotations

from typing import Iterator

from rules.core import Action, Prompt, Violation

from .actions import Adapt, Block, Choose, Clone, Exterminate, Hypnotize, Intervene, Rig, SaveTurn, Transcend
from .sections import R_TIMING, r_ability
from .state import DicetopiaState

FACTION_OF = {SaveTurn: "roamers", Exterminate: "shakra", Intervene: "tuulu", Transcend: "ewo", Hypnotize: "perceptioneers",
              Block: "banxa", Adapt: "hollows", Clone: "dangmer", Rig: "bingmai", Choose: "centauri"}
"""The faction whose ability each action is."""


class Refusals:
    """Why a kind is not on offer: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    def explain(self, state: DicetopiaState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        seat = action.seat
        if seat not in state._seat_ids:
            return
        ability = self._ability_refusal(state, action)
        if ability is not None:
            yield ability
            return
        awaiting = prompt.waits.get(seat)
        # A seat the prompt does not name is told whose turn it is by the kernel.
        if awaiting is not None and action.kind not in awaiting.accepted:
            moment = state.t.moments[action.kind]
            yield Violation("not-now", moment.rule, f"{state.seat_name(seat)}: {moment.when}.")

    def _ability_refusal(self, state: DicetopiaState, action: Action) -> Violation | None:
        """Why the player may not use this faction ability at all now: not their faction,
        already used (once per game), or it would cancel Hypnosis (§7)."""
        f = FACTION_OF.get(type(action))
        if f is None:
            return None
        t, seat = state.t, action.seat
        who = state.seat_name(seat)
        if state.faction.get(seat) != f:
            return Violation("not-your-ability", r_ability(t, f), f"{who} does not play {t.factions[f].name}.")
        if state.flipped.get(seat) and t.factions[f].once:
            return Violation("ability-used", r_ability(t, f), f"{who} has already used {t.factions[f].ability} (once per game).")
        if isinstance(action, SaveTurn) and state.hypnosis and state.current == seat:
            return Violation("ability-cancels-ability", R_TIMING,
                             f"{who} cannot skip a turn Hypnosis has chosen: a Faction Ability can never cancel another.")
        return None
