"""Liberation (Button Shy, 2018): the Dynasty hunts the Liberation's secret base across a
map of 14 cities; the app is the trusted referee for everything hidden.

>>> import rules
>>> rules.load("liberation") is GAME
True
"""
from .actions import AskReferee, Attack, Claim, Discard, Evade, FirstCity, Mission, Occupy, Pass, PlaceBase, Sabotage, Unexploit
from .game import GAME, Liberation
from .mapbuilder import MapBuilder
from .mapcards import Arrangement, ArrangementError, CardSet, CardSetError, Placement, compose, parse_card_set, placeholder_card_set
from .mapdata import CATEGORIES, City, MapError, MapSpec, dump_map, make_map, parse_map, placeholder_data, placeholder_map
from .missions import MissionTable, default_missions, parse_missions
from .state import BaseMove, Event, LiberationState

__all__ = [
    "Arrangement", "ArrangementError", "AskReferee", "Attack", "CardSet", "CardSetError", "BaseMove", "CATEGORIES", "City", "Claim", "Discard", "Evade", "Event", "FirstCity", "GAME",
    "Liberation", "LiberationState", "MapBuilder", "MapError", "MapSpec", "Mission", "MissionTable", "Occupy",
    "Pass", "PlaceBase", "Placement", "compose", "parse_card_set", "placeholder_card_set", "Sabotage", "Unexploit", "default_missions", "dump_map", "make_map",
    "parse_map", "parse_missions", "placeholder_data", "placeholder_map",
]
