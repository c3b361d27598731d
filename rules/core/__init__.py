"""The kernel every game engine is built on. See :mod:`rules.core.game` for the contract."""
from .actions import Action, Commit, Draw, Roll, action, bad_fields, parse_action
from .commits import SecretRound
from .errors import IllegalAction, InvalidSetup, NoPositions, ParseError, RulesError, UnknownGame, Violation
from .game import Game, LegalActions, Option, State, Step, step, swap_hidden
from .graph import Edge, Graph, GraphError, UnknownNode
from .jsondata import dumps, from_data, loads, serializable, to_data
from .log import LogEntry
from .outcome import Outcome, Score
from .prompt import POOL, CommitRequest, Decision, Die, DrawRequest, Prompt, RollRequest
from .reactions import Reaction, ReactionStack
from .rng import Rng
from .seats import PUBLIC, Seat, TurnOrder
from .text import Term, Text, t, tn
from .tracks import Escalation, Streak, Track
from .zones import Deck, EmptyDeck, Hand, next_pile, swap_into

__all__ = [
    "Action", "Commit", "CommitRequest", "Decision", "Deck", "Die", "Draw", "DrawRequest", "Edge", "EmptyDeck",
    "Escalation", "Game", "Graph", "GraphError", "Hand", "IllegalAction", "InvalidSetup", "NoPositions", "LegalActions", "LogEntry", "Option",
    "Outcome", "POOL", "PUBLIC", "ParseError", "Prompt", "Reaction", "ReactionStack", "Rng", "Roll",
    "RollRequest", "RulesError", "Score", "Seat", "SecretRound", "State", "Step", "Streak", "Term", "Text", "Track",
    "TurnOrder", "UnknownGame", "UnknownNode", "Violation", "action", "bad_fields", "dumps", "from_data", "loads",
    "next_pile", "parse_action", "serializable", "step", "swap_hidden", "swap_into", "t", "tn", "to_data",
]
