"""Fixtures for the Dicetopia UI tests: a real Table running Dicetopia (companion.Table)."""
from __future__ import annotations

from typing import Any

import pytest

SEATS = [{"id": "banxa-1", "faction": "banxa", "name": "Ann"}, {"id": "hollows-1", "faction": "hollows", "name": "Bob"}]


@pytest.fixture
def new_table(tmp_path: Any) -> Any:
    """new_table(seed=1, options=None, seats=SEATS, position=None) → a Table running Dicetopia in a fresh journal."""
    from companion import Journal, Table

    journal = Journal.open(tmp_path / "journal.sqlite3")
    tables: list[Any] = []

    def make(seed: int = 1, options: dict[str, Any] | None = None, seats: list[dict[str, str]] | None = None,
             position: dict[str, Any] | None = None) -> Any:
        t = Table.create(journal, game_id="dicetopia", seats=seats or SEATS, options=options or {}, seed=seed,
                         position=position)
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()
    journal.close()
