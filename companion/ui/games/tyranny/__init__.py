"""Tyranny at the table: board map, influence and streaks, dice, cards behind the gate."""
GAME_ID = "tyranny"
SCREEN = "companion.ui.games.tyranny.screen:TyrannyScreen"
