"""Fixtures for the Liberation UI tests: a real Table running Liberation (companion.Table)."""
from __future__ import annotations

from typing import Any

import pytest

SEATS = [{"id": "dyn", "faction": "dynasty", "name": "Dana"}, {"id": "lib", "faction": "liberation", "name": "Lee"}]


@pytest.fixture
def new_table(tmp_path: Any) -> Any:
    """new_table(seed=1, options=None) → a Table running Liberation in a fresh journal."""
    companion = pytest.importorskip("companion")
    Table, Journal = getattr(companion, "Table", None), getattr(companion, "Journal", None)
    if Table is None or Journal is None:
        pytest.skip("companion.Table is not in the tree yet")
    journal = Journal.open(tmp_path / "journal.sqlite3")
    tables: list[Any] = []

    def make(seed: int = 1, options: dict[str, Any] | None = None) -> Any:
        t = Table.create(journal, game_id="liberation", seats=SEATS, options=options or {}, seed=seed)
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()
    journal.close()
