"""Tyranny at the table: board map, influence and streaks, dice, cards behind the gate.

The game's plugin card (rules/tyranny/plugin.json) names this package's screen and setup widgets."""
