"""Outrage! at the table: the reconstructed Tower board, seat strips, 2d6 with doubles and
the split seven, burglaries, attacks behind the gate, Raven cards read aloud.

The game's plugin card (rules/outrage/plugin.json) names this package's screen and setup widgets."""
