"""Against All Tyrants at the table: two theaters of cards, the escalation scale, the phase
tracker, hands behind the gate, the combat preview before an attack; and, from the setup
wizard, the decks each side plays and the table's own card editor and deck builder."""
GAME_ID = "against_all_tyrants"
SCREEN = "companion.ui.games.against_all_tyrants.screen:AatScreen"
SETUP = "companion.ui.games.against_all_tyrants.setup_decks:add_setup"
