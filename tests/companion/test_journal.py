"""Journal: opening (default place, WAL, synchronous=FULL), refusing corrupt and foreign
files without touching them, schema migrations, round trips, library and stats."""
from __future__ import annotations

import json
import os
import sqlite3

import pytest
from hypothesis import given, strategies as st

from companion import Journal, JournalTooNew, NotAJournal, Table, UnknownGameKey
from companion import journal as journal_mod
from companion import schema
from rules.core import Rng

from .table_helpers import new_table, play, seats_for


def test_default_path_is_the_user_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    p = journal_mod.default_path()
    assert p.name == "journal.sqlite3" and "tabletop-companion" in str(p) and str(tmp_path) in str(p)
    j = Journal.open()
    assert j.path == str(p) and p.exists()
    j.close()


def test_wal_and_full_sync(tmp_path):
    j = Journal.open(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert j.schema_version == schema.CURRENT
    j.close()


def test_random_bytes_file_is_refused_and_untouched(tmp_path):
    p = tmp_path / "j.sqlite3"
    data = os.urandom(8192)
    p.write_bytes(data)
    with pytest.raises(NotAJournal, match="not a SQLite database"):
        Journal.open(p)
    assert p.read_bytes() == data
    assert not (tmp_path / "j.sqlite3-wal").exists()


def test_damaged_sqlite_file_is_set_aside_untouched(tmp_path):
    """A SQLite file whose schema page is wrecked cannot be told apart from a damaged
    journal: it is renamed, byte for byte as it was, and a fresh journal takes its place
    (tests/companion/test_journal_hardening.py recovers the games of a damaged journal)."""
    p = tmp_path / "j.sqlite3"
    j = Journal.open(p)
    new_table(j)
    j.close()
    raw = bytearray(p.read_bytes())
    raw[100:4096] = os.urandom(4096 - 100)  # keep the header, wreck the schema page
    p.write_bytes(bytes(raw))
    j = Journal.open(p)
    assert j.recovery is not None and j.recovery.games_recovered == 0
    assert open(j.recovery.set_aside, "rb").read() == bytes(raw)
    assert j.games() == [] and j.schema_version == schema.CURRENT


def test_foreign_sqlite_db_is_refused_and_untouched(tmp_path):
    p = tmp_path / "other.db"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE contacts (name TEXT)")
    db.execute("INSERT INTO contacts VALUES ('Ann')")
    db.commit()
    db.close()
    before = p.read_bytes()
    with pytest.raises(NotAJournal, match="another application") as e:
        Journal.open(p)
    assert e.value.code == "not-a-journal" and isinstance(e.value, ValueError)
    assert p.read_bytes() == before


def test_newer_schema_is_refused(tmp_path):
    p = tmp_path / "j.sqlite3"
    Journal.open(p).close()
    db = sqlite3.connect(p)
    db.execute(f"PRAGMA user_version = {schema.CURRENT + 1}")
    db.commit()
    db.close()
    with pytest.raises(JournalTooNew):
        Journal.open(p)


def test_migration_from_version_1_keeps_games(tmp_path):
    """A journal written by schema version 1 (no snapshots, no clocks, no barrier column)
    opens, is migrated to the current version, and its game resumes as a clean replay."""
    p = tmp_path / "old.sqlite3"
    db = sqlite3.connect(p, isolation_level=None)
    assert schema.migrate(db, target=1) == 1
    # Play a game elsewhere and write it in the version-1 layout.
    ref = new_table(Journal.open(":memory:"), "tyranny", seed=11)
    play(ref, Rng(2), 40)
    db.execute("INSERT INTO games (key, game_id, seats, options, seed, started) VALUES (?,?,?,?,?,?)",
               ("old1", "tyranny", json.dumps(ref.seats), json.dumps(ref.options), ref.seed, 1000.0))
    for e in ref._line:
        db.execute("INSERT INTO actions (game_key, seq, ply, seat, kind, action, source, time) VALUES (?,?,?,?,?,?,?,?)",
                   ("old1", e.seq, e.ply, e.seat, e.kind, e.action_json, e.source, e.time))
    db.close()
    j = Journal.open(p)
    assert j.schema_version == schema.CURRENT
    t = Table.resume(j, "old1")
    assert t.ply == ref.ply and t.view() == ref.view()
    # The migrated journal takes new actions (the v2 columns work).
    play(t, Rng(3), 5)
    assert Table.resume(j, "old1").view() == t.view()
    j.close()


def test_unknown_game_key(tmp_path):
    j = Journal.open(":memory:")
    with pytest.raises(UnknownGameKey, match="no game 'nope'"):
        j.game("nope")


action_rows = st.lists(
    st.tuples(st.sampled_from(["a", "b", None]), st.text(min_size=1, max_size=8),
              st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
              st.text(max_size=12), st.floats(0, 2e9), st.none() | st.text(max_size=10)),
    max_size=20)


@given(action_rows)
def test_action_rows_round_trip(rows):
    j = Journal.open(":memory:")
    key = j.create_game(game_id="tyranny", seats=seats_for("tyranny"), options={}, seed=1, started=5.0)
    for ply, (seat, kind, data, source, t, barrier) in enumerate(rows):
        j.append(key, ply=ply, seat=seat, kind=kind, action=json.dumps(data), source=source, time=t,
                 barrier=barrier, turn=ply, tracked={"x": ply})
    back = j.actions(key)
    assert [(r.seat, r.kind, json.loads(r.action), r.source, r.time, r.barrier, r.undone) for r in back] == \
           [(s, k, d, src, t, b, 0) for s, k, d, src, t, b in rows]
    assert [r.ply for r in back] == list(range(len(rows)))
    assert j.tracked(key) == [(i, i, {"x": i}) for i in range(len(rows))]


def test_library_and_stats(tmp_path):
    j = Journal.open(tmp_path / "j.sqlite3")
    clock = iter(range(1000, 100000, 7))
    finished = []
    for seed in range(4):
        t = Table.create(j, game_id="liberation", seats=seats_for("liberation"), seed=seed, wall=lambda: float(next(clock)))
        play(t, Rng(seed), 2000)
        assert t.outcome is not None
        finished.append(t)
    running = new_table(j, "tyranny", seed=9)
    games = j.games()
    assert len(games) == 5
    assert [g.key for g in j.games("in-progress")] == [running.key]
    done = j.games("finished")
    assert {g.key for g in done} == {t.key for t in finished}
    for g in done:
        assert g.status == "finished" and g.duration_s is not None and g.duration_s > 0 and g.result
        assert g.factions == ["dynasty", "liberation"] and g.players[0]["name"] == "Player 0"
    s = j.stats()
    assert s.plays == 4 and sum(s.wins_by_faction.values()) == 4
    assert sum(s.wins_by_player.values()) == 4
    assert s.average_duration_s == pytest.approx(sum(g.duration_s for g in done) / 4)
    assert s.plays_by_game == {"liberation": 4}
    with pytest.raises(ValueError):
        j.games("paused")
    j.close()


def test_missing_folder_and_folder_paths_are_refused(tmp_path):
    from companion import JournalError

    with pytest.raises(JournalError, match="does not exist"):
        Journal.open(tmp_path / "nope" / "j.sqlite3")
    with pytest.raises(NotAJournal, match="folder"):
        Journal.open(tmp_path)


def test_last_in_play_is_the_game_with_the_newest_action_not_the_newest_start(tmp_path):
    """A relaunch reopens the game the table was playing (issue 32, item 9): an older game
    played a moment ago beats a newer one nobody touched since it was set up; with no
    action anywhere, the newest start; a finished game is never reopened."""
    j = Journal.open(tmp_path / "j.sqlite3")
    now = [100.0]

    def wall() -> float:
        now[0] += 1.0
        return now[0]

    assert j.last_in_play() is None
    older = new_table(j, "tyranny", seed=1, wall=wall)
    newer = new_table(j, "liberation", seed=2, wall=wall)
    assert j.last_in_play().key == newer.key  # nothing played yet: the newest start
    play(older, Rng(4), 3)
    assert older.ply > 0
    last = j.last_in_play()
    assert (last.key, last.game_id) == (older.key, "tyranny")
    j.set_result(older.key, finished=wall(), outcome={"winner": None, "reason": "agreed"})
    assert j.last_in_play().key == newer.key
    j.close()
