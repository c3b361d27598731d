"""Liberation at the table: the map, the ACT tracker, turn steps, the secret base and
every Evade behind the privacy gate, the Attack reveal, the end-of-game audit; and the
map-entry screen (a table's own map, saved for reuse).

The game's plugin card (rules/liberation/plugin.json) names this package's screen and setup widgets."""
