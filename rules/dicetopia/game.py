"""The Dicetopia engine (All or None Games): two to four players swap agents for dice on a
city of six neighbourhoods, perform each neighbourhood's action, keep secret missions and
score loot, domination and missions at the end.

>>> g = Dicetopia()
>>> s = g.new([Seat("a", "ewo", "Ann"), Seat("b", "hollows", "Bob")], {"first": "a"}, seed=3)
>>> s.phase, str(g.prompt(s))[:40]
('roll', 'a: roll 18d6 to setup: roll every die on')
>>> g.push(s, g.sample(s))                      # the app rolls the city
>>> [len([c for c in cells if c != "-"]) for cells in s.city.values()]
[3, 3, 3, 3, 3, 3]
>>> while s.phase == "deal":
...     g.push(s, g.sample(s))                  # three missions each, from the app's deck
>>> g.push(s, Keep("a", s.hands["a"].cards[0])); g.push(s, Keep("b", s.hands["b"].cards[2]))
>>> s.phase, s.current, len(s.hands["a"])
('deploy', 'a', 2)
>>> "cards" in g.view(s, "a")["missions"]["b"], "cards" in g.view(s, "a")["missions"]["a"]
(False, True)
"""
from __future__ import annotations

from typing import Iterable

from rules.core import Action, Draw, Game, Option, Prompt, Roll, Seat, Violation

from .naming import Naming
from .actions import (
    Adapt, Block, Bottom, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize, Intervene, Keep,
    Reroll, Rig, SaveTurn, Swap, Transcend,
)
from .abilities import Abilities
from .candidates import Candidates
from .chance import Chance
from .city import City
from .ending import Ending
from .refusals import Refusals
from .sections import R_ROUND
from .setup import Setup
from .state import DicetopiaState
from .tables import tables
from .turn import Turn
from .views import Views


class Dicetopia(Setup, Chance, Turn, Abilities, Ending, Refusals, Candidates, Views, City, Naming,
                Game[DicetopiaState]):
    """Dicetopia: 2-4 seats, each one of the ten factions (or dealt, with ``deal_factions``).

    The class is assembled from parts, each in its own module: ``setup`` (§3), ``chance``
    (where rolls and draws go), ``turn`` (§4-5), ``abilities`` (§7, during play),
    ``ending`` (§6, §8), ``refusals`` (why a kind is not on offer), ``candidates`` (the listing), ``views`` and ``city`` (places and
    words). This module holds the game's facts and the per-class dispatch of checks and
    effects."""

    id = "dicetopia"
    title = "Dicetopia"
    rulebook = "dicetopia.txt"
    min_seats = 2
    max_seats = 4
    factions = tuple(tables().factions)
    options = (
        Option("first", "", help="Who plays first: the player the table chose (§3 step 1), or let the app draw one.",
               ruling="D-02"),
        Option("deal_factions", False, help="Deal the faction cards (a draw each, the physical card can be entered) "
               "instead of playing the factions the seats chose.", ruling="D-03"),
        Option("advanced", False, help="Advanced Variant: Observatory Bank's swap needs a die matching in colour or number.",
               ruling="D-05"),
        Option("relative_ties", "all", ("all", "none"), help="Relative missions (most, highest, lowest) when tied: "
               "every tied player scores, or nobody does.", ruling="D-21"),
    )
    action_types = (Roll, Draw, Keep, Deploy, Bottom, Reroll, Swap, Transcend, Hypnotize, SaveTurn, Exterminate,
                    Intervene, Block, Adapt, Clone, Rig, Choose, CopyMission, Decline)
    turn_rule = R_ROUND
    dice_rule = "§1 Components: 30 x D6"
    cards_rule = "§1 Components: 40 Mission Cards"

    def violations(self, state: DicetopiaState, action: Action, prompt: Prompt) -> Iterable[Violation]:
        # The rule checks of the action's class, found in one look-up (no isinstance chain).
        check = _CHECKS.get(type(action))
        return () if check is None else check(self, state, action)

    def execute(self, state: DicetopiaState, action: Action) -> None:
        # The action's class finds its effect in one look-up (no isinstance chain).
        _EFFECTS[type(action)](self, state, action)


# Each action class's rule checks and effect, looked up by class in one step.
_CHECKS = {
    Roll: Dicetopia._v_roll, Keep: Dicetopia._v_keep, Deploy: Dicetopia._v_deploy, Hypnotize: Dicetopia._v_hypnotize,
    Exterminate: Dicetopia._v_exterminate, Intervene: Dicetopia._v_intervene, Transcend: Dicetopia._v_transcend,
    Reroll: Dicetopia._v_reroll, Swap: Dicetopia._v_swap, Bottom: Dicetopia._v_bottom, Adapt: Dicetopia._v_adapt,
    Clone: Dicetopia._v_clone, Rig: Dicetopia._v_rig, Choose: Dicetopia._v_choose, CopyMission: Dicetopia._v_copy,
}
_EFFECTS = {
    Draw: Dicetopia._draw, Roll: Dicetopia._roll, Keep: Dicetopia._keep, Deploy: Dicetopia._deploy,
    # The turn-start abilities go through Player Order first (D-32).
    Hypnotize: Dicetopia._turn_start, SaveTurn: Dicetopia._turn_start, Exterminate: Dicetopia._turn_start,
    Intervene: Dicetopia._turn_start, Transcend: Dicetopia._transcend, Bottom: Dicetopia._bottom,
    Reroll: Dicetopia._reroll, Swap: Dicetopia._swap, Block: Dicetopia._block, Adapt: Dicetopia._adapt,
    Decline: Dicetopia._decline, Clone: Dicetopia._clone, Rig: Dicetopia._rig, Choose: Dicetopia._choose,
    CopyMission: Dicetopia._copy,
}


GAME = Dicetopia()
