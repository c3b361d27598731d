"""Outrage!: steal the Crown Jewels from the Tower of London and escape by the ferry.

The board is RECONSTRUCTED (README.md, "The board").

>>> import rules.outrage as o
>>> o.GAME.title, o.GAME.min_seats, o.GAME.max_seats
('Outrage!', 2, 6)
"""
from .actions import (
    Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender,
)
from .board import Board, BoardError, default_board, load_board, parse_board
from .cards import RAVEN, TOWER, attack_value, burglary_target
from .game import GAME, Outrage, moves
from .state import OutrageState

__all__ = [
    "Abandon", "Arm", "Attack", "Board", "BoardError", "Burgle", "Challenge", "Change", "Choose", "Decline", "Escape",
    "GAME", "Give", "MoveTo", "Outrage", "OutrageState", "Play", "RAVEN", "Split", "Surrender", "TOWER", "attack_value",
    "burglary_target", "default_board", "load_board", "moves", "parse_board",
]
