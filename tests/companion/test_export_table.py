"""Exports of games in progress made through the Table: the record it builds is public,
so no export names anything still hidden at that moment (hand cards, secret choices,
the deck order the seed would give away)."""
from __future__ import annotations

import json

import pytest

from companion import Journal
from companion.export import GameNotFinished
from rules.core import PUBLIC, Rng

from .table_helpers import GAMES, new_table, play, publicly_named


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_exports_of_a_game_in_progress_name_nothing_hidden(game_id, seed, soak_factor):
    table = new_table(Journal.open(":memory:"), game_id, seed=seed)
    rng = Rng(seed)
    checked = 0
    for _ in range(6 * soak_factor):
        play(table, rng, 15, undo_rate=4)
        if table.outcome is not None:
            break
        data = json.loads(table.export_json())
        # Each record leaves out what its action hides from the other seats (a card put
        # face down, a sealed choice): checked per record, by field, never by matching
        # strings (a city named in public by an Attack may also lie in the deck).
        entries = sorted(table._entries, key=lambda e: e.seq)
        assert len(entries) == len(data["actions"])
        for e, rec in zip(entries, data["actions"]):
            for name in e.action.hidden_fields:
                assert name not in rec["data"], (e.action, rec)
            if e.action.secret:
                assert set(rec["data"]) <= {"choice"}, rec
        hidden = {s for s in table.game.secrets(table.state, PUBLIC) if len(s) >= 3}
        hidden -= publicly_named(table)
        # The options were set up in the open (Liberation's map names every city, which
        # the engine also lists as card ids that must stay hidden in hands): check the rest.
        assert data["options"] == table.options
        data.pop("options")
        text = json.dumps(data, ensure_ascii=False) + table.export_csv()
        assert not [s for s in hidden if s in text], f"ply {table.ply}"
        assert data["seed"] is None and data["status"] == "in-progress"
        with pytest.raises(GameNotFinished):
            table.bgstats_link()
        checked += bool(hidden)
    assert checked  # there was something hidden to leak
