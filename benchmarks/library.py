"""A saved-games library for the cold-start benchmark: finished and in-progress random
Tyranny games in a journal, so that the home screen is measured with a history, stats and
games to resume, as a table that has used the app for a while sees it.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "journal.sqlite3")
>>> fill(path, finished=1, in_progress=1)
(1, 1)
>>> from companion import Journal
>>> j = Journal.open(path); len(j.games(status="finished")), len(j.games(status="in-progress")); j.close()
(1, 1)
"""
from __future__ import annotations

import os
from pathlib import Path

SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"},
         {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]
IN_PROGRESS_PLIES = 40
MAX_PLIES = 5000  # a random game that has not ended by then counts as in progress


def fill(path: str | os.PathLike[str], finished: int, in_progress: int, seed: int = 7) -> tuple[int, int]:
    """Play ``finished`` random games to their end and ``in_progress`` games
    :data:`IN_PROGRESS_PLIES` plies in, through the Table, into the journal at ``path``.
    Returns how many of each it holds."""
    from companion import Journal, Table
    from rules.core import Rng
    from rules.core.playout import choose

    done = ongoing = 0
    j = Journal.open(Path(path))
    try:
        for i in range(finished + in_progress):
            table = Table.create(j, game_id="tyranny", seats=SEATS, options={}, seed=seed + i)
            rng = Rng(seed + i)
            limit = MAX_PLIES if i < finished else IN_PROGRESS_PLIES
            for _ in range(limit):
                if table.outcome is not None:
                    break
                table.submit(choose(rng, list(table.legal_actions())))
            if table.outcome is not None:
                done += 1
            else:
                ongoing += 1
            table.close()
    finally:
        j.close()
    return done, ongoing
