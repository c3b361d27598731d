"""Tyranny: cops against criminals over a two-tier city, fought with influence.

>>> import rules
>>> rules.load("tyranny") is GAME
True
"""
from .actions import (
    Arrest, Capture, ChooseRange, CollapseTunnel, CrossTier, Decline, MoveTo, OpenTunnel, PayEscape, PickCard,
    PlayCard,
)
from .board import Board, BoardError, Tile, Tunnel, default_board, load_board, parse_board
from .cards import ALL_CARDS, CARDS, DECKS, Card, Half
from .game import GAME, Tyranny, reachable
from .state import TyrannyState

__all__ = [
    "ALL_CARDS", "Arrest", "Board", "BoardError", "CARDS", "Capture", "Card", "ChooseRange", "CollapseTunnel",
    "CrossTier", "DECKS", "Decline", "GAME", "Half", "MoveTo", "OpenTunnel", "PayEscape", "PickCard", "PlayCard",
    "Tile", "Tunnel", "Tyranny", "TyrannyState", "default_board", "load_board", "parse_board", "reachable",
]
