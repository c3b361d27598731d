"""Why an action is not on offer now (the engine's ``explain``), in the game's words and
from public facts only: a refusal never carries only the kernel's "the game is waiting
for …".

The reason that depends on the moment comes first: something is being resolved and comes
first, whatever the phase (a card's text, a trait's draws or placements, a hit on the
base); the turn's draw comes before anything else; two plays a turn; one objective unit a
turn; units act in phase 2. Otherwise the kind's moment: when the rulebook has a player
take it (``data/moments.json``).

>>> from rules.core import Seat
>>> from rules.against_all_tyrants import GAME, Attack
>>> s = GAME.new([Seat("att", "attacker", "Ann"), Seat("def", "defender", "Bob")], {}, seed=1)
>>> [(v.code, v.message) for v in GAME.check(s, Attack("def", "x", "y"))][1]
('not-combat', 'Bob, units act in phase 2 (combat), not now.')
"""
from __future__ import annotations

import json
from functools import cache
from typing import Any, Iterator

from rules.core import Action, Draw, Prompt, Violation
from rules.datafile import DataFileError
from rules.datafile import parse_moments as read_moments

from .actions import Attack, Clear, Move, Order, PlaceObjective, Play
from .cards import DATA
from .sections import PLAYS, R_BASES, R_COMBAT, R_DRAW, R_OBJECTIVE, R_PLAY, R_TEXT, R_TRAITS
from .state import AatState, Pending

KINDS = ("draw", "mulligan", "infiltrate", "play", "end_phase", "attack", "order", "move", "clear", "place_objective",
         "damage", "heal", "token", "incident", "discard", "place", "move_theater", "instruct", "score", "done",
         "delegate", "skip")
"""Every action kind of the game: each has its moment in ``data/moments.json``."""

_TRAIT_OF = {"supply": "Supply", "compute": "Compute", "backup": "Backup", "transport": "Transport", "rally": "Sympathized"}
"""The trait whose draws or placements each kind of pending resolution is."""


def parse_moments(data: Any, source: str = "moments.json") -> dict[str, tuple[str, str]]:
    """Each kind's (rule, when): one entry per kind of :data:`KINDS`, no other."""
    return read_moments(data, KINDS, "Against All Tyrants", DataFileError, source)


@cache
def moments() -> dict[str, tuple[str, str]]:
    """When each kind is taken, read once from ``data/moments.json``."""
    return parse_moments(json.loads((DATA / "moments.json").read_text(encoding="utf-8")),
                         "rules/against_all_tyrants/data/moments.json")


class Refusals:
    """Why a kind is not on offer: a part of :class:`~rules.against_all_tyrants.game.AgainstAllTyrants`."""

    def explain(self, state: AatState, action: Action, prompt: Prompt) -> Iterator[Violation]:
        seat = action.seat
        awaiting = prompt.waits.get(seat)
        # A seat the prompt does not name is told whose turn it is by the kernel.
        if awaiting is None or action.kind in awaiting.accepted:
            return
        who = state.name(seat)
        if state.pending:
            yield self._first(state, state.pending[0], who)
            return
        if state.phase == "draw" and not isinstance(action, Draw):
            yield Violation("must-draw", R_DRAW, f"{who} draws 1 card at the start of the turn before anything else.")
        elif state.phase == "deploy" and isinstance(action, Play):
            if state.plays >= PLAYS:
                yield Violation("two-plays", R_PLAY, f"{who} has already played {PLAYS} cards this turn.")
            else:
                yield Violation("empty-hand", R_PLAY, f"{who} has no card in hand to play.")
        elif isinstance(action, PlaceObjective) and state.phase == "end" and state.placed_objective:
            yield Violation("one-objective", R_OBJECTIVE, f"{who} may place one objective unit per turn.")
        elif isinstance(action, (Attack, Order, Move, Clear)) and state.phase != "combat":
            yield Violation("not-combat", R_COMBAT, f"{who}, units act in phase 2 (combat), not now.")
        else:
            rule, when = moments()[action.kind]
            yield Violation("not-now", rule, f"{who}: {when}.")

    def _first(self, state: AatState, p: Pending, who: str) -> Violation:
        """What is being resolved, which comes first: its card is in play or was just
        played face up, so naming it reveals nothing."""
        title = state.card(p.card).title if p.card else "the card"
        if p.kind == "text":
            steps = self.script(state, p)  # type: ignore[attr-defined]
            if steps:
                return Violation("resolve-first", R_TEXT, f"{who}, first finish resolving {title} as written: {steps[p.step].words()}.")
            return Violation("resolve-first", R_TEXT, f"{who}, first finish resolving {title}: apply its text step by step, then say done.")
        if p.kind == "delegate":
            return Violation("resolve-first", R_BASES, f"{who}, first say how much of the {p.left} damage to your base goes to one of your leaders.")
        verb = "draw" if p.kind == "supply" else "place"
        return Violation("resolve-first", R_TRAITS, f"{who}, first {verb} what {title}'s {_TRAIT_OF[p.kind]} gives, or stop.")
