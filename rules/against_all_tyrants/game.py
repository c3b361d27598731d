"""The Against All Tyrants engine: the app referees the rules system; the cards are the
table's (or the example set).

>>> g = AgainstAllTyrants()
>>> s = g.new([("att", "attacker"), ("def", "defender")], {}, seed=1)
>>> str(g.prompt(s))
'def: draw from deck-def (setup: draw 5 cards (0 of 5))'
>>> while s.phase in ("deal", "mulligan", "redraw", "infiltrate"):
...     g.push(s, g.sample(s) or next(iter(g.legal_actions(s))))
>>> s.phase, s.active == "def", len(s.sides["def"].hand)
('draw', True, 5)
"""
from __future__ import annotations

from typing import Any

from rules.core import Action, Deck, Draw, Game, Option, Prompt, Rng, Seat, Violation

from .naming import Naming
from . import position as positions
from .actions import (
    Attack, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Incident, Infiltrate, Instruct, Move, MoveTheater,
    Mulligan, Order, Place, PlaceObjective, Play, Score, Skip, Token,
)
from .candidates import Candidates
from .combat import Side
from .phase_one import PhaseOne
from .phase_two import PhaseTwo
from .refusals import Refusals
from .resolution import Resolution
from .scripts import Scripts
from .sections import ALWAYS_ON
from .setup import Setup
from .state import ROLES, AatState, Piece
from .turn import Turn
from .victory import Victory
from .views import Views


class AgainstAllTyrants(Setup, Turn, PhaseOne, PhaseTwo, Resolution, Scripts, Victory, Refusals, Candidates, Views, Naming,
                        Game[AatState]):
    """Against All Tyrants: two seats, factions ``attacker`` and ``defender`` (the roles).

    The class is assembled from parts, each in its own module named for its chapter of the
    rulebook: ``setup`` (5.2.1, 5.2.5), ``turn`` (5.2.6: the draw, phase 3, passing the
    turn), ``phase_one`` (5.2.6.1: playing cards, a card entering play), ``phase_two``
    (5.2.6.2: actions, attacks, orders, damage), ``resolution`` (what is being resolved
    first: card texts, RULINGS A-12, and traits asking for a choice, 5.2.8.2), ``scripts``
    (a text carried out as written, step by step), ``victory``
    (5.2.3 and 5.2.7), ``refusals`` (why a kind is not on offer), ``candidates`` (the
    listing) and ``views``. This module holds the game's facts, the questions every part
    asks about a card in play, and the per-class dispatch of checks and effects."""

    id = "against_all_tyrants"
    title = "Against All Tyrants"
    rulebook = "against-all-tyrants.txt"
    min_seats = 2
    max_seats = 2
    factions = ROLES
    options = (
        Option("cards", {}, help="The table's own card set (card-set file data) added to the example set; {} = the example set alone.", ruling="A-01"),
        Option("attacker_deck", "", help="The Attacker's deck: an example deck's key, or deck-file data ('' = the First Leader's Navy example).", ruling="A-01"),
        Option("defender_deck", "", help="The Defender's deck: an example deck's key, or deck-file data ('' = the Freedom Fighters example).", ruling="A-01"),
    )
    action_types = (Draw, Mulligan, Infiltrate, Play, EndPhase, Attack, Order, Move, Clear, PlaceObjective, Damage, Heal,
                    Token, Incident, Discard, Place, MoveTheater, Instruct, Score, Done, Delegate, Skip)
    turn_rule = "5.2.6 Turn Structure"
    cards_rule = "5.2.4 The Deck"

    def deck(self, state: AatState, name: str) -> Deck:
        return state.sides[name[len("deck-"):]].deck

    def not_drawable(self, state: AatState, seat: str, deck: str, card: str) -> str:
        """Why ``seat`` cannot have drawn ``card`` from its own deck: its deck list and the
        cards it has seen tell it which cards are left there (only their order is hidden,
        A-30), so saying so tells it nothing; the deck is named as players see it."""
        if card in state.sides[seat].hand:
            return "That card is in your hand."
        return "That card is not left in your deck: your deck list and the cards you have seen say where it is."

    def position(self, state: AatState) -> dict[str, Any]:
        return positions.write(self, state)

    def from_position(self, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> AatState:
        return positions.read(self, seats, options, pos, rng, seed)

    def works(self, state: AatState, piece: Piece, trait: str) -> bool:
        """Whether ``piece``'s trait works now: a Disruption token leaves only Armor,
        Fighter and Capital (5.2.8.4)."""
        return state.card(piece.id).has(trait) and (trait in ALWAYS_ON or not piece.count("Disruption"))

    def side_of(self, state: AatState, piece: Piece) -> Side:
        return Side.of(state.card(piece.id), piece.tokens, piece.theater)

    def kind(self, state: AatState, piece_or_card: str) -> str:
        return state.card(piece_or_card).kind

    def leaders(self, state: AatState, seat: str) -> list[Piece]:
        return [p for p in state.pieces.values() if p.owner == seat and self.kind(state, p.id) == "leader"]

    def violations(self, state: AatState, action: Action, prompt: Prompt) -> tuple[Violation, ...]:
        cls = type(action)
        # A draw's card is checked by the kernel against the deck; nothing else to see.
        # (The kernel asks only for a seat it awaits, with a kind it accepts.)
        if cls is Draw:
            return ()
        # The rule checks of the action's class, found in one look-up (no isinstance chain);
        # the effect primitives (damage, heal, tokens…) share one.
        check = _CHECKS.get(cls)
        if check is not None:
            found = check(self, state, action)
        else:
            found = self._primitive_violations(state, action, state.pending[0] if state.pending else None)
        return tuple(found) if found else ()

    def execute(self, state: AatState, action: Action) -> None:
        cls = type(action)
        if state.pending and cls is not Mulligan and cls is not Infiltrate:
            self._resolve(state, action, state.pending[0])
            return
        # The action's class finds its effect in one look-up (no isinstance chain).
        effect = _EFFECTS.get(cls)
        if effect is not None:
            effect(self, state, action)



# Each action class's rule checks, looked up by class in one step (the effect
# primitives not listed here share _primitive_violations).
_CHECKS = {
    Mulligan: AgainstAllTyrants._mulligan_violations, Infiltrate: AgainstAllTyrants._infiltrate_violations,
    EndPhase: AgainstAllTyrants._end_phase_violations, Play: AgainstAllTyrants._play_violations,
    Attack: AgainstAllTyrants._attack_violations, Order: AgainstAllTyrants._order_violations,
    Move: AgainstAllTyrants._move_violations, Clear: AgainstAllTyrants._clear_violations,
    PlaceObjective: AgainstAllTyrants._objective_violations, Delegate: AgainstAllTyrants._delegate_violations,
    Skip: AgainstAllTyrants._skip_violations,
}

# Each action class's effect when nothing is being resolved.
_EFFECTS = {
    Draw: AgainstAllTyrants._draw, Mulligan: AgainstAllTyrants._mulligan, Infiltrate: AgainstAllTyrants._infiltrate,
    Play: AgainstAllTyrants._play, EndPhase: AgainstAllTyrants._end_phase_action, Attack: AgainstAllTyrants._attack,
    Order: AgainstAllTyrants._order, Move: AgainstAllTyrants._move_action, Clear: AgainstAllTyrants._clear,
    PlaceObjective: AgainstAllTyrants._place_objective,
}


GAME = AgainstAllTyrants()
