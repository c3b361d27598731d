"""Issue 31, the journal: damage SQLite does not see is noticed. A flipped bit inside an
action's JSON (every row carries a checksum), an index that lost rows (the open runs
``integrity_check``), a damaged WAL that took acknowledged actions back (the count of
acknowledged changes kept beside the journal); a damaged game is refused in plain words and
set aside, the others play on; old journals are migrated, not refused."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from rules.core import Rng
from rules.core.jsondata import to_data

from companion import GameDamaged, Journal, JournalError, Table
from companion import journal_check, schema

from .table_helpers import clean_replay, new_table, play, same_state

NAME = "journal.sqlite3"


def _games(path: Path, n: int = 3, steps: int = 40) -> list[str]:
    """``n`` games (Tyranny, Liberation, …) played and checkpointed into the main file."""
    j = Journal.open(path, snapshot_every=10)
    keys = []
    for i in range(n):
        t = new_table(j, ("tyranny", "liberation")[i % 2], seed=i + 1)
        play(t, Rng(i), steps, undo_rate=6)
        keys.append(t.key)
        t.close()
    j.close()
    return keys


def _readings(path: Path, keys: list[str]) -> dict[str, tuple[str, str]]:
    j = Journal.open(path)
    try:
        out = {}
        for k in keys:
            t = Table.resume(j, k)
            out[k] = (json.dumps(to_data(t.state), sort_keys=True), t.export_json())
            t.close()
        return out
    finally:
        j.close()


def _integrity(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("PRAGMA integrity_check")]
    finally:
        db.close()


def _flip_a_roll(path: Path, key: str) -> None:
    """Flip one bit of a die's value in one of the game's rolls in force, the latest whose
    record is found once in the file (the JSON still parses: 4 ↔ 5, 2 ↔ 3, 6 ↔ 7, 1 ↔ 0);
    a resume would replay it as another roll, or refuse it as no face of the die. A record
    holds its columns in order, so the game's key, then (past the seq and ply) the seat,
    kind and action texts, name one row."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seat, kind, action FROM actions WHERE game_key=? AND undone=0 ORDER BY ply DESC",
                      (key,)).fetchall()
    db.close()
    raw = bytearray(path.read_bytes())
    for seat, kind, text in rows:
        mark = text.find('"values": [')
        if mark < 0:
            continue
        body = (seat + kind + text).encode()
        found = [i for i in range(len(raw)) if raw.startswith(body, i) and key.encode() in raw[max(0, i - 24):i]] \
            if raw.count(body) else []
        if len(found) == 1:
            raw[found[0] + len(seat + kind) + mark + len('"values": [')] ^= 1
            path.write_bytes(bytes(raw))
            return
    raise AssertionError("no roll of the game found once in the file")


def test_a_flipped_bit_inside_an_action_sets_its_game_aside_and_the_others_play_on(tmp_path):
    path = tmp_path / NAME
    keys = _games(path)
    before = _readings(path, keys)
    _flip_a_roll(path, keys[2])  # a game in progress: checked at the open
    assert _integrity(path) == ["ok"]  # what SQLite alone cannot see
    damaged = path.read_bytes()
    j = Journal.open(path)
    rec = j.recovery
    assert rec is not None and rec.lost == (keys[2],) and (rec.games_found, rec.games_recovered) == (3, 2)
    assert "does not match its checksum" in rec.reason
    assert Path(rec.set_aside).read_bytes() == damaged  # set aside as it was, never deleted
    assert [g.key for g in j.games()].count(keys[2]) == 0
    for k in (keys[0], keys[1]):
        t = Table.resume(j, k)
        assert (json.dumps(to_data(t.state), sort_keys=True), t.export_json()) == before[k]
        play(t, Rng(9), 3)  # and they play on
        t.close()
    j.close()
    assert Journal.open(path).recovery is None


def test_damage_met_after_the_open_is_refused_in_plain_words_and_counted(tmp_path):
    """A row changed after the open's check (or read by an app that did not restart) is
    refused by every read: resume, history, export, undo; never parsed as another game."""
    path = tmp_path / NAME
    keys = _games(path)
    j = Journal.open(path)
    t = Table.resume(j, keys[0])
    t.close()
    j._db.execute("UPDATE actions SET action=substr(action, 1, length(action) - 1) WHERE game_key=? AND seq=3",
                  (keys[0],))  # the JSON cut short: before issue 31, JSONDecodeError from history()
    with pytest.raises(GameDamaged) as e:
        Table.resume(j, keys[0]).history()
    assert isinstance(e.value, JournalError) and e.value.code == "game-damaged"
    words = str(e.value)
    assert "damaged" in words and "other games are not affected" in words
    assert "JSON" not in words and "checksum" not in words and keys[0] not in words
    assert set(j.damaged) == {keys[0]}
    with pytest.raises(GameDamaged):
        j.actions(keys[0])
    assert Table.resume(j, keys[1]).ply > 0  # the others are not affected
    j.close()
    again = Journal.open(path)  # the next launch sets it aside
    assert again.recovery is not None and again.recovery.lost == (keys[0],)


def test_a_games_row_with_a_changed_seed_is_refused(tmp_path):
    path = tmp_path / NAME
    keys = _games(path, n=2, steps=10)
    j = Journal.open(path)
    j._db.execute("UPDATE games SET seed=seed+1 WHERE key=?", (keys[1],))  # a different game, silently
    assert [g.key for g in j.games()] == [keys[0]] and set(j.damaged) == {keys[1]}
    with pytest.raises(GameDamaged):
        Table.resume(j, keys[1])


def _drop_from_the_index(path: Path, from_seq: int) -> None:
    """An index that lost rows, as damage leaves it: the in-force index is rebuilt as if it
    were partial (rows with seq >= ``from_seq`` left out), then its definition put back."""
    db = sqlite3.connect(path, isolation_level=None)
    sql = db.execute("SELECT sql FROM sqlite_master WHERE name='actions_in_force'").fetchone()[0]
    db.execute("PRAGMA writable_schema=ON")
    db.execute("UPDATE sqlite_master SET sql=? WHERE name='actions_in_force'", (f"{sql} WHERE seq < {from_seq}",))
    db.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("REINDEX actions_in_force")
    db.execute("PRAGMA writable_schema=ON")
    db.execute("UPDATE sqlite_master SET sql=? WHERE name='actions_in_force'", (sql,))
    db.close()


def test_an_index_that_lost_rows_is_caught_at_the_open(tmp_path):
    """The issue's finding: quick_check passes, the game lists part of its actions and
    resumes from a snapshot with its history no longer matching. integrity_check sees it."""
    path = tmp_path / NAME
    keys = _games(path, n=2, steps=40)
    before = _readings(path, keys)
    _drop_from_the_index(path, 25)
    problems = _integrity(path)
    assert problems != ["ok"] and "missing from index actions_in_force" in problems[0]
    j = Journal.open(path)
    assert j.recovery is not None
    for k in keys:  # each game is either recovered whole or reported lost: never a shorter game
        if k in j.recovery.lost:
            continue
        t = Table.resume(j, k)
        assert (json.dumps(to_data(t.state), sort_keys=True), t.export_json()) == before[k]
        t.close()
    assert j.recovery.games_recovered == 2 - len(j.recovery.lost)


def _in_the_wal(folder: Path) -> tuple[Path, list[str], Table]:
    """Two games checkpointed, then a third played with the WAL never checkpointed; a copy
    of the files taken while the writer holds them (as a power cut leaves them)."""
    live = folder / "live"
    live.mkdir()
    keys = _games(live / NAME, n=2, steps=20)
    j = Journal.open(live / NAME, snapshot_every=10)
    j._db.execute("PRAGMA wal_autocheckpoint=0")
    t = new_table(j, "tyranny", seed=7)
    play(t, Rng(7), 40)
    copy = folder / "copy"
    copy.mkdir()
    for p in live.iterdir():
        if p.name.startswith(NAME) and not p.name.endswith("-locks"):
            (shutil.copytree if p.is_dir() else shutil.copyfile)(p, copy / p.name)
    return copy / NAME, [*keys, t.key], t


def test_a_damaged_wal_that_lost_acknowledged_actions_is_reported(tmp_path):
    """SQLite drops every WAL frame from the first with a bad checksum, silently: the game
    would resume some 20 actions back. The count acknowledged beside the journal says so."""
    path, keys, live = _in_the_wal(tmp_path)
    wal = Path(str(path) + "-wal")
    raw = bytearray(wal.read_bytes())
    frame = 24 + 4096 + 24  # WAL header, then (frame header + page) per frame (page size 4096)
    middle = 32 + (len(raw) // frame // 2) * frame + 100  # inside a page in the middle of the WAL
    raw[middle] ^= 0x10
    wal.write_bytes(bytes(raw))
    j = Journal.open(path)
    rec = j.recovery
    assert rec is not None and keys[2] in rec.lost and "acknowledged" in rec.reason
    assert {g.key for g in j.games()} == set(keys[:2])  # the others are recovered
    assert Path(rec.set_aside + "-wal").read_bytes() == bytes(raw)
    live.close()


def test_a_game_only_in_a_lost_wal_is_reported_missing(tmp_path):
    path, keys, live = _in_the_wal(tmp_path)
    wal = Path(str(path) + "-wal")
    raw = bytearray(wal.read_bytes())
    raw[40] ^= 1  # the first frame's page: nothing of the WAL is read any more
    wal.write_bytes(bytes(raw))
    j = Journal.open(path)
    assert j.recovery is not None and keys[2] in j.recovery.lost
    assert j.recovery.games_found == 3 and j.recovery.games_recovered == 2
    live.close()


def test_an_intact_wal_is_not_mistaken_for_damage(tmp_path):
    path, keys, live = _in_the_wal(tmp_path)
    j = Journal.open(path)
    assert j.recovery is None
    t = Table.resume(j, keys[2])
    assert t.ply == live.ply and same_state(t.state, live.state)
    live.close()


def test_the_acknowledged_count_is_written_after_each_change(tmp_path):
    j = Journal.open(tmp_path / NAME)
    t = new_table(j, "tyranny", seed=2)
    play(t, Rng(1), 5)
    acks = journal_check.read_acks(str(tmp_path / NAME))
    changes = j._db.execute("SELECT changes FROM games WHERE key=?", (t.key,)).fetchone()[0]
    assert acks == {t.key: changes} and changes >= 5


# ---------------------------------------------------------------- old journals

def _v4_journal(path: Path, ref: Table, *, broken_seq: int | None = None) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    assert schema.migrate(db, target=4) == 4
    for key, table in (("old4", ref), ("old4b", ref)):
        db.execute("INSERT INTO games (key, game_id, seats, options, seed, started) VALUES (?,?,?,?,?,?)",
                   (key, "tyranny", json.dumps(table.seats), json.dumps(table.options), table.seed, 1000.0))
        for e in table._line:
            text = e.action_json[:-2] if (key == "old4b" and e.seq == broken_seq) else e.action_json
            db.execute("INSERT INTO actions (game_key, seq, ply, seat, kind, action, source, time) VALUES (?,?,?,?,?,?,?,?)",
                       (key, e.seq, e.ply, e.seat, e.kind, text, e.source, e.time))
    db.close()


def test_a_version_4_journal_is_migrated_and_every_row_sealed(tmp_path):
    ref = new_table(Journal.open(":memory:"), "tyranny", seed=11)
    play(ref, Rng(2), 30)
    path = tmp_path / NAME
    _v4_journal(path, ref)
    j = Journal.open(path)
    assert j.recovery is None and j.schema_version == schema.CURRENT == 5
    assert j._db.execute("SELECT COUNT(*) FROM actions WHERE checksum IS NULL").fetchone()[0] == 0
    assert j._db.execute("SELECT seqs FROM games WHERE key='old4'").fetchone()[0] == 30
    t = Table.resume(j, "old4")
    assert t.ply == ref.ply and same_state(t.state, clean_replay(ref)) and len(t.history()) == 30
    play(t, Rng(3), 5)
    j.close()
    again = Journal.open(path)
    assert again.recovery is None and Table.resume(again, "old4").view() == t.view()


def test_a_version_4_row_that_does_not_parse_is_set_aside_not_sealed(tmp_path):
    ref = new_table(Journal.open(":memory:"), "tyranny", seed=11)
    play(ref, Rng(2), 30)
    path = tmp_path / NAME
    _v4_journal(path, ref, broken_seq=12)
    j = Journal.open(path)
    assert j.recovery is not None and j.recovery.lost == ("old4b",)
    assert Table.resume(j, "old4").ply == 30


def test_a_text_no_longer_utf8_is_damage_and_its_bytes_are_never_shown(tmp_path):
    """A flipped bit can make a stored text invalid UTF-8: Python's sqlite3 then raises
    with the text quoted in its message; the journal says "damaged" instead."""
    from companion import JournalDamaged

    path = tmp_path / NAME
    keys = _games(path, n=2, steps=10)
    j = Journal.open(path)
    j._db.execute("UPDATE actions SET action=CAST(X'ff7b2273656372657422' AS TEXT) WHERE game_key=? AND seq=2",
                  (keys[0],))
    with pytest.raises(JournalDamaged) as e:
        j.actions(keys[0])
    assert "secret" not in str(e.value) and "decode" not in str(e.value)
    j.close()
    again = Journal.open(path)  # and the open's check sets the game aside
    assert again.recovery is not None and again.recovery.lost == (keys[0],)


def test_a_finished_games_damage_is_refused_when_read_then_set_aside(tmp_path):
    """The open checks the action rows of games in progress (a finished game's are only
    ever read back); a finished game's damaged action is refused when its history is read,
    noted beside the journal, and the next open sets it aside."""
    path = tmp_path / NAME
    j = Journal.open(path)
    done = new_table(j, "dicetopia", seed=3)
    play(done, Rng(3), 2000)
    assert done.outcome is not None
    other = new_table(j, "tyranny", seed=4)
    play(other, Rng(4), 10)
    keys = [done.key, other.key]
    done.close()
    other.close()
    j.close()
    _flip_a_roll(path, keys[0])
    j = Journal.open(path)
    assert j.recovery is None  # not read at the open
    with pytest.raises(GameDamaged):
        Table.resume(j, keys[0]).export_json()
    assert set(j.damaged) == {keys[0]}
    assert Table.resume(j, keys[1]).ply == 10
    j.close()
    again = Journal.open(path)
    assert again.recovery is not None and again.recovery.lost == (keys[0],)
    assert [g.key for g in again.games()] == [keys[1]]
