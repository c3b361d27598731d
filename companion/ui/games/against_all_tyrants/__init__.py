"""Against All Tyrants at the table: two theaters of cards, the escalation scale, the phase
tracker, hands behind the gate, the combat preview before an attack; and, from the setup
wizard, the decks each side plays and the table's own card editor and deck builder.

The game's plugin card (rules/against_all_tyrants/plugin.json) names this package's screen and setup widgets."""
