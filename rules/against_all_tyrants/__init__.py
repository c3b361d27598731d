"""Against All Tyrants: a two-player card battler. No card list was published, so the app
referees the rules system over the table's own card library (and an example set, made for
trying the rules — not the published cards).

>>> from rules.against_all_tyrants import GAME
>>> GAME.title, GAME.factions
('Against All Tyrants', ('attacker', 'defender'))
"""
from .actions import (
    Attack, Clear, Damage, Delegate, Discard, Done, EndPhase, Heal, Incident, Infiltrate, Instruct, Move, MoveTheater, Mulligan,
    Order, Place, PlaceObjective, Play, Score, Skip, Token,
)
from .cards import (
    KINDS, THEATERS, TOKENS, TRAITS, TYPES, Card, CardError, CardSet, FieldProblem, Trait, check_field, check_trait,
    dump_card_set, example_set, load_card_set, parse_card, parse_card_set, parse_trait_text,
)
from .combat import Hit, Side, combat_preview, damage_preview
from .decks import DeckList, check_deck, dump_deck, example_decks, load_deck, parse_deck
from .game import GAME, AgainstAllTyrants
from .objectives import Objective, objective_of
from .state import AatState, Pending, Piece, SideState, instances

__all__ = [
    "AatState", "AgainstAllTyrants", "Attack", "Card", "CardError", "CardSet", "Clear", "Damage", "DeckList", "Delegate",
    "Discard", "Done", "EndPhase", "FieldProblem", "GAME", "Heal", "Hit", "Incident", "Infiltrate", "Instruct", "KINDS", "Move",
    "MoveTheater", "Mulligan", "Objective", "Order", "Pending", "Piece", "Place", "PlaceObjective", "Play", "Score",
    "Side", "SideState", "Skip", "THEATERS", "TOKENS", "TRAITS", "TYPES", "Token", "Trait", "check_deck", "check_field",
    "check_trait", "combat_preview", "damage_preview", "dump_card_set", "dump_deck", "example_decks", "example_set",
    "instances", "load_card_set", "load_deck", "objective_of", "parse_card", "parse_card_set", "parse_deck",
    "parse_trait_text",
]
