"""Dicetopia (All or None Games): two to four players swap agents for dice on a city of six
neighbourhoods, perform each neighbourhood's action, keep secret missions and score loot,
domination and missions at the end.

>>> from rules.dicetopia import GAME
>>> GAME.title, len(GAME.factions)
('Dicetopia', 10)
"""
from .actions import (
    Adapt, Block, Bottom, Choose, Clone, CopyMission, Decline, Deploy, Exterminate, Hypnotize, Intervene, Keep, Reroll,
    Rig, SaveTurn, Swap, Transcend,
)
from .game import GAME, Dicetopia
from .scoring import Domination, Line, Played, mission_points, ranking, tally
from .state import DicetopiaState
from .tables import DicetopiaDataError, Tables, tables

__all__ = [
    "Adapt", "Block", "Bottom", "Choose", "Clone", "CopyMission", "Decline", "Deploy", "DicetopiaDataError", "DicetopiaState",
    "Dicetopia", "Domination", "Exterminate", "GAME", "Hypnotize", "Intervene", "Keep", "Line", "Played", "Reroll", "Rig",
    "SaveTurn", "Swap", "Tables", "Transcend", "mission_points", "ranking", "tables", "tally",
]
