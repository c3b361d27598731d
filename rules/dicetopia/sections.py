"""The rulebook's sections, as rejections and prompts cite them."""
from __future__ import annotations

from .tables import Tables

R_SETUP = "§3 Setup"
R_ROUND = "§4 Game round"
R_ACTIONS = "§5 Neighbourhood Actions"
R_ADVANCED = "§5 Neighbourhood Actions: Advanced Variant"
R_END = "§6 End of the game"
R_TIMING = "§7 Timing conflicts and contradictory abilities"
R_MISSIONS = "§8 Mission cards"


def r_ability(t: Tables, faction: str) -> str:
    f = t.factions[faction]
    return f"§7 Factions and Abilities: {f.name}, {f.ability}"
