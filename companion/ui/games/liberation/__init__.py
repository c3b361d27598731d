"""Liberation at the table: the map, the ACT tracker, turn steps, the secret base and
every Evade behind the privacy gate, the Attack reveal, the end-of-game audit; and the
map-entry screen (a table's own map, saved for reuse)."""
GAME_ID = "liberation"
SCREEN = "companion.ui.games.liberation.screen:LiberationScreen"
SETUP = "companion.ui.games.liberation.setup_map:add_map_choice"
