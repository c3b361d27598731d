"""The rulebook's sections and numbers, as the engine cites them: one place for each.

A violation names the section it follows (``rule``), as the rulebook heads it; the numbers
are the rulebook's own (Setup 2, Escaping capture, Winning).
"""
from __future__ import annotations

from rules.core.text import Term

COPS, CRIMINALS = "cops", "criminals"

# Words running text names by id (a faction, a tier, the game): each a Term the game's
# catalogue translates, marked here so the extractor lists it.
FACTION_WORDS = {COPS: Term("cops"), CRIMINALS: Term("criminals")}
WORDS = (Term("Tyranny"), Term("outer"), Term("inner"))

START_INFLUENCE = 500
"""Setup 2: "Set the initial value of influence to 500 at the beginning of the game"."""
WIN_INFLUENCE = 1000
"""How the Criminals win: "the criminals must reach 1000 Influence Points"."""
ESCAPE_COST = 200
"""Escaping capture: "the captured player must pay 200 Influence Points or roll a 6"."""

R_SETUP = "Setup"
R_MOVE = "Gameplay: A typical movement turn"
R_CAPTURE = "Gameplay: A typical capture turn"
R_TIERS = "Gameplay: Moving between city tiers"
R_TUNNEL = "Gameplay: Digging a tunnel"
R_PLAYER = "Gameplay: Capturing another player"
R_ESCAPE = "Gameplay: Escaping capture"
R_CARDS = "Tyranny - Cards"
