"""Fixtures for the Against All Tyrants UI tests: a real Table running the game."""
from __future__ import annotations

from typing import Any

import pytest

SEATS = [{"id": "att", "faction": "attacker", "name": "Ann"}, {"id": "def", "faction": "defender", "name": "Dee"}]


@pytest.fixture
def new_table(tmp_path: Any) -> Any:
    """new_table(seed=1, options=None, position=None) → a Table running Against All Tyrants in a fresh journal."""
    from companion import Journal, Table

    journal = Journal.open(tmp_path / "journal.sqlite3")
    tables: list[Any] = []

    def make(seed: int = 1, options: dict[str, Any] | None = None, position: dict[str, Any] | None = None) -> Any:
        t = Table.create(journal, game_id="against_all_tyrants", seats=SEATS, options=options or {}, seed=seed,
                         position=position)
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()
    journal.close()
