"""Outrage! at the table: the reconstructed Tower board, seat strips, 2d6 with doubles and
the split seven, burglaries, attacks behind the gate, Raven cards read aloud."""
GAME_ID = "outrage"
SCREEN = "companion.ui.games.outrage.screen:OutrageScreen"
SETUP = "companion.ui.games.outrage.setup_notes:add_notes"
