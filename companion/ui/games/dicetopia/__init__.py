"""Dicetopia at the table: the city of six neighbourhoods, the faction boards, the guided
turn, rerolls through the dice tray, missions behind the gate, the end's tally.

The game's plugin card (rules/dicetopia/plugin.json) names this package's screen and setup widgets."""
