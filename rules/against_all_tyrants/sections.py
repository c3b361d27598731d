"""The rulebook's sections, as rejections, prompts and the log cite them, and the numbers
the rulebook fixes (5.2.5.2's five cards, 5.2.6.2.1's two plays)."""
from __future__ import annotations

HAND_START = 5
"""5.2.5.2 Starting Hand: each player draws five cards."""
PLAYS = 2
"""5.2.6.2.1 Play 2 Cards: up to two cards a turn."""
PRIMITIVES = ("damage", "heal", "token", "incident", "discard", "place", "move_theater", "instruct", "score", "done")
"""What a card's text may do, one step at a time (RULINGS A-12)."""
MAX_AMOUNT = 20
"""The most damage, healing or tokens one step of a card's text may give (RULINGS A-12)."""
ALWAYS_ON = ("Armor", "Fighter", "Capital")
"""The traits a Disruption token leaves working (5.2.8.4)."""
UNIT_KINDS = ("unit", "objective")
"""The kinds of card that are units: they attack, move and take instructions."""

R_SETUP = "5.2.5 Game Setup"
R_HAND = "5.2.5.2 Starting Hand"
R_DRAW = "5.2.6.1.1 Draw 1 Card"
R_PLAY = "5.2.6.2.1 Play 2 Cards"
R_EFFECT = "5.2.6.2.1.1 Playing One-Time Effect Cards"
R_DEPLOY = "5.2.6.2.1.2 Deploying a Unit"
R_LEADER = "5.2.6.2.1.2 Deploying a Leader"
R_COMBAT = "5.2.6.2 Phase Two - Combat"
R_ACTIONS = "5.2.6.2.1 Actions"
R_ATTACK = "5.2.6.2.1 Attack"
R_BASES = "5.2.6.2.1.1 Attacking Bases"
R_LEADERS = "5.2.6.2.1.2 Attacking Leaders"
R_ORDERS = "5.2.6.2.2 Orders"
R_MOVE = "5.2.6.2.3 Change Theaters"
R_END = "5.2.6.3 Phase 3 - End of Turn"
R_OBJECTIVE = "5.2.6.3.1 Alternate Objective Unit Placement"
R_TRAITS = "5.2.8.2 Traits"
R_TOKENS = "5.2.8.4 Tokens"
R_INSTRUCTION = "5.2.8.1 Game Terms: Instruction"
R_UNIQUE = "5.2.4.3 Deckbuilding (Unique)"
R_ESCALATION = "5.2.7 Escalation"
R_ALT = "5.1.2.3 Alternate Objective"
R_TEXT = "RULINGS A-12 (resolving a card's text)"
