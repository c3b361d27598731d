"""Dicetopia at the table: the city of six neighbourhoods, the faction boards, the guided
turn, rerolls through the dice tray, missions behind the gate, the end's tally."""
GAME_ID = "dicetopia"
SCREEN = "companion.ui.games.dicetopia.screen:DicetopiaScreen"
