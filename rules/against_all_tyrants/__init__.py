"""Against All Tyrants: a two-player card battler refereed from the table's own card library."""
