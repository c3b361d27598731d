"""The rulebook's section headings (Outrage! Crowns and Regalia), cited in brackets at the
end of every log line and every refusal, so that a player can look the rule up.

>>> a("Orb"), a("Sword")
('an Orb', 'a Sword')
"""
from __future__ import annotations

R_CONTENTS = "GAME CONTENTS"
R_SETUP = "BEFORE PLAY BEGINS"
R_DICE = "THE DICE"
R_SPLIT = "SPLITTING THE SEVEN"
R_WALL = "THE WALL WALK"
R_ACCR = "ACCREDITATION"
R_INNER = "INNER WARD"
R_INMOST = "INMOST WARD AND WHITE TOWER"
R_GENERAL = "GENERAL REGULATIONS"
R_SURRENDER = "SURRENDERING WEAPONS"
R_STEAL = "STEALING THE JEWELS"
R_ATTACK = "ATTACK"
R_MONEY = "MONEY"
R_PRISON = "PRISON"
R_RACK = "THE RACK OF TORMENT"
R_END = "THE ENDGAME"
R_RAVEN = "RAVEN CARDS"
R_TOWER = "TOWER CARDS"
R_CARDS = "THE CARDS"


def a(name: str) -> str:
    """``name`` with its indefinite article, as the log speaks of a card."""
    return ("an " if name[:1] in "AEIOU" else "a ") + name
