"""The kernel every game engine is built on. See :mod:`rules.core.game` for the contract."""
from .actions import Action, Commit, Draw, Roll, action, parse_action
from .errors import IllegalAction, InvalidSetup, ParseError, RulesError, UnknownGame, Violation
from .game import Game, LegalActions, Option, State
from .log import LogEntry
from .outcome import Outcome, Score
from .prompt import Decision, DrawRequest, GameOver, Prompt, RollRequest, SecretRequest
from .rng import Rng
from .seats import PUBLIC, Seat, TurnOrder
from .secrets import SecretRound
from .serial import dumps, from_data, loads, serializable, to_data
from .tracks import Escalation, Streak, Track
from .zones import Deck, EmptyDeck, Hand

__all__ = [
    "Action", "Commit", "Decision", "Deck", "Draw", "DrawRequest", "EmptyDeck", "Escalation",
    "Game", "GameOver", "Hand", "IllegalAction", "InvalidSetup", "LegalActions", "LogEntry",
    "Option", "Outcome", "PUBLIC", "ParseError", "Prompt", "Rng", "Roll", "RollRequest",
    "RulesError", "Score", "Seat", "SecretRequest", "SecretRound", "State", "Streak", "Track",
    "TurnOrder", "UnknownGame", "Violation", "action", "dumps", "from_data", "loads",
    "parse_action", "serializable", "to_data",
]
