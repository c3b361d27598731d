"""The journal's failures as the player meets them, in the real app (issue 15): a full disk
mid-game, a damaged journal at launch, a game open in another window."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]


def _games(path: Path, n: int) -> list[str]:
    """``n`` Tyranny games of 30 actions, each action marked with its game's key (to find
    its pages in the file)."""
    from companion import Journal, Table
    from rules.core import Rng
    from rules.core.playout import choose

    j = Journal.open(path)
    keys = []
    for i in range(n):
        t = Table.create(j, game_id="tyranny", seats=SEATS, seed=i, wall=lambda i=i: 1000.0 + i)
        rng = Rng(i)
        for _ in range(30):
            t.submit(choose(rng, list(t.legal_actions())), source=f"marker-{t.key}-" + "p" * 200)
        keys.append(t.key)
        t.close()
    j.close()
    return keys


def test_a_full_disk_is_shown_and_the_app_plays_on(run_app):
    r = run_app("journal_full")
    assert any(n.startswith("refused:") and "disk is full" in n for n in r["notes"])
    assert any(n.startswith("die roll refused:") and "disk is full" in n for n in r["notes"])
    assert any(n.startswith("played on") for n in r["notes"])


def test_a_damaged_journal_opens_with_its_intact_games(run_app, tmp_path):
    path = tmp_path / "journal.sqlite3"
    keys = _games(path, 3)
    raw = bytearray(path.read_bytes())
    page = raw.rindex(f"marker-{keys[1]}-".encode()) // 4096
    raw[page * 4096:(page + 1) * 4096] = os.urandom(4096)
    path.write_bytes(bytes(raw))
    r = run_app("journal_damaged", journal=path)
    assert any(n.endswith("and 2 of 3 games were recovered.") for n in r["notes"])
    listed = next(json.loads(n) for n in r["notes"] if n.startswith("["))
    assert sorted(listed) == sorted([keys[0], keys[2]])
    assert any(n == "resumed ply 30" for n in r["notes"])
    assert [p.name for p in tmp_path.glob("journal.damaged-*.sqlite3")]


def test_a_game_open_in_another_window_is_not_opened_twice(run_app, tmp_path):
    from companion import Journal, Table

    path = tmp_path / "journal.sqlite3"
    [key] = _games(path, 1)
    holder = Table.resume(Journal.open(path), key)  # this process is the other window
    r = run_app("game_open_elsewhere", journal=path)
    assert any(n.startswith("This game is open in another window") for n in r["notes"])
    holder.close()


def test_a_damaged_game_is_refused_in_plain_words_and_the_other_resumes(run_app, tmp_path):
    """Issue 31: before, Resume caught only the journal's own errors, and a damaged action
    reached the player as a JSONDecodeError (or the game resumed as another)."""
    path = tmp_path / "journal.sqlite3"
    keys = _games(path, 2)
    r = run_app("journal_scenarios:game_damaged", journal=path)
    assert any("saved record is damaged" in n for n in r["notes"]), r["notes"]
    assert any(n.startswith("resumed ") and n.split()[1] in keys for n in r["notes"]), r["notes"]
