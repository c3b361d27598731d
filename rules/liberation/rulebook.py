"""The rulebook's sections as the engine cites them (``Violation.rule``): one place for each.

The headings are the rulebook's (``dynasty-liberation.txt``): SETUP, the Dynasty's and the
Liberation's turns (STEP 1-3), the Glossary; RULINGS.md covers what it leaves open.
"""
from __future__ import annotations

R_SETUP = "Setup"
R_STEP1 = "Turn, step 1: Draw"
R_D2 = "Dynasty turn, step 2"
R_OCCUPY = "Dynasty turn, step 2: Exploit a City — Occupy"
R_ATTACK = "Dynasty turn, step 2: Exploit a City — Attack"
R_DMISSION = "Dynasty turn, step 2: Mission"
R_EXPLOIT = "Glossary: Exploit"
R_UNEXPLOIT = "Dynasty turn: Unexploit a City"
R_EVADE = "Liberation turn, step 2: Evade"
R_SABOTAGE = "Liberation turn, step 2: Sabotage"
R_LMISSION = "Liberation turn, step 2: Mission"
R_COSTS = "Glossary: Costs"
R_STEP3 = "Step 3: Discard down to 3 cards"
R_MISSIONS = "Glossary: missions (referee questions, RULINGS.md L-10)"
