"""Issue 15, the journal: one writer per game (a lock the OS drops with its holder, and an
append that refuses a ply off the line of play), new journals created by racing processes,
damaged files set aside with their intact games recovered, a full disk as a typed error,
and snapshots never trusted over the actions.

The multi-process tests use real processes on a real file: separate interpreters
(``subprocess``) where a process must hold something and be killed, forked ones
(``multiprocessing``) where many must race."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import Journal, JournalError, Table
from companion import journal as journal_mod
from companion import journal_recovery
from companion import schema
from rules.core import Rng
from rules.core.playout import choose

from .table_helpers import clean_replay, new_table, play, same_state

ROOT = Path(__file__).resolve().parents[2]
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# A second app instance: resume the game and try to play one legal action on it.
SECOND_WINDOW = """
    import sys
    from companion import Journal, Table
    from rules.core import Rng
    from rules.core.playout import choose
    j = Journal.open(sys.argv[1])
    try:
        t = Table.resume(j, sys.argv[2])
        acc = t.submit(choose(Rng(5), list(t.legal_actions())))
        print("acknowledged", acc.ply)
    except Exception as e:
        print("refused", type(e).__name__, e)
"""


# ---------------------------------------------------------------- one writer per game

def test_a_second_process_on_the_same_game_is_refused_and_the_game_is_not_forked(tmp_path):
    path = tmp_path / "journal.sqlite3"
    j = Journal.open(path)
    t = new_table(j, "tyranny", seed=4)
    play(t, Rng(1), 6)
    child = _python(SECOND_WINDOW, str(path), t.key)
    out, err = child.communicate(timeout=120)
    play(t, Rng(2), 3)  # the first window plays on
    assert out.startswith("refused GameInUse"), (out, err)
    assert "this game is open in another window" in out.lower()
    again = Journal.open(tmp_path / "journal.sqlite3")
    t.close()
    resumed = Table.resume(again, t.key)  # no "line of play has gaps"
    assert resumed.ply == t.ply and same_state(resumed.state, clean_replay(t))


def test_another_journal_connection_in_the_same_process_is_refused(tmp_path):
    from companion import GameInUse

    path = tmp_path / "journal.sqlite3"
    t = new_table(Journal.open(path), "tyranny", seed=4)
    other = Journal.open(path)
    with pytest.raises(GameInUse, match="This game is open in another window") as e:
        Table.resume(other, t.key)
    assert isinstance(e.value, JournalError) and isinstance(e.value, ValueError)
    # Another game of the same journal is free to open beside it.
    new_table(other, "liberation", seed=2)
    t.close()  # the first window leaves the game: now it may be taken
    assert Table.resume(other, t.key).ply == t.ply


def test_the_same_journal_may_reopen_its_own_game(tmp_path):
    """One app (one Journal) reopening a game it holds is not a second writer."""
    j = Journal.open(tmp_path / "journal.sqlite3")
    t = new_table(j, "tyranny", seed=4)
    play(t, Rng(1), 3)
    assert Table.resume(j, t.key).ply == t.ply


HOLDER = """
    import sys, time
    from companion import Journal, Table
    t = Table.resume(Journal.open(sys.argv[1]), sys.argv[2])
    print("holding", flush=True)
    time.sleep(120)
"""


def test_a_killed_holder_does_not_lock_the_game_forever(tmp_path):
    from companion import GameInUse

    path = tmp_path / "journal.sqlite3"
    j = Journal.open(path)
    t = new_table(j, "tyranny", seed=4)
    play(t, Rng(1), 4)
    t.close()
    holder = _python(HOLDER, str(path), t.key)
    try:
        assert holder.stdout.readline().strip() == "holding", holder.stderr.read()
        with pytest.raises(GameInUse):
            Table.resume(j, t.key)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)
    assert Table.resume(j, t.key).ply == 4


APPENDER = """
    import sys
    from companion import Journal
    j = Journal.open(sys.argv[1])
    try:
        seq = j.append(sys.argv[2], ply=int(sys.argv[3]), seat=None, kind="x", action="{}", source="other", time=1.0)
        print("appended", seq)
    except Exception as e:
        print("refused", type(e).__name__, e)
"""


def test_an_append_off_the_line_of_play_is_refused_and_writes_nothing(tmp_path):
    """The lock keeps Tables apart; the journal itself also refuses, in the append's own
    transaction, a ply that does not follow its line of play (two processes, no Table)."""
    from companion import OffTheLine

    path = tmp_path / "journal.sqlite3"
    j = Journal.open(path)
    key = j.create_game(game_id="tyranny", seats=[{"id": "a", "faction": "cops", "name": "Ann"}], options={},
                        seed=1, started=1.0)
    for ply in range(3):
        j.append(key, ply=ply, seat="a", kind="x", action="{}", source="touch", time=1.0)
    out, err = _python(APPENDER, str(path), key, "3").communicate(timeout=120)
    assert out.startswith("appended 3"), (out, err)
    before = j.actions(key)
    with pytest.raises(OffTheLine, match="changed in another window"):
        j.append(key, ply=3, seat="a", kind="x", action="{}", source="touch", time=2.0)
    with pytest.raises(OffTheLine):
        j.append(key, ply=5, seat="a", kind="x", action="{}", source="touch", time=2.0)
    assert j.actions(key) == before and j.line_extent(key) == (4, 0, 3)
    out, err = _python(APPENDER, str(path), key, "2").communicate(timeout=120)
    assert out.startswith("refused OffTheLine"), (out, err)
    assert j.line_extent(key) == (4, 0, 3)


def _release_in_child(lock: object, out: "multiprocessing.Queue[str]") -> None:
    lock.release()  # type: ignore[attr-defined]
    out.put("released")


@needs_fork
def test_a_forked_child_does_not_take_its_parents_lock_file_away(tmp_path):
    """A child forked while a game is held inherits the lock object; its release (or its
    garbage collection) must not remove the file its parent still holds."""
    from companion import GameInUse
    from companion.journal_lock import GameLock

    path = tmp_path / "journal.sqlite3"
    t = new_table(Journal.open(path), "tyranny", seed=4)
    [(lock, _n)] = t.journal._claims.values()
    assert isinstance(lock, GameLock)
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_release_in_child, args=(lock, out))
    child.start()
    assert out.get(timeout=60) == "released"
    child.join(30)
    assert os.path.exists(lock.path)
    with pytest.raises(GameInUse):
        Table.resume(Journal.open(path), t.key)


def test_the_lock_module_examples():
    import doctest

    from companion import journal_lock

    assert doctest.testmod(journal_lock, optionflags=doctest.ELLIPSIS).failed == 0


# ---------------------------------------------------------------- racing creation

def _open_at_once(path: str, barrier: "multiprocessing.synchronize.Barrier", out: "multiprocessing.Queue[str]") -> None:
    try:
        barrier.wait(30)
        j = Journal.open(path)
        j.create_game(game_id="tyranny", seats=[{"id": "a", "faction": "cops"}], options={}, seed=1, started=1.0)
        j.close()
        out.put("ok")
    except BaseException as e:  # report, do not die silently
        out.put(f"{type(e).__name__}: {e}")


@needs_fork
def test_processes_racing_to_create_the_same_new_journal(tmp_path):
    ctx = multiprocessing.get_context("fork")
    n, rounds = 5, 6
    errors = []
    for r in range(rounds):
        path = str(tmp_path / f"new-{r}.sqlite3")
        barrier, out = ctx.Barrier(n), ctx.Queue()
        procs = [ctx.Process(target=_open_at_once, args=(path, barrier, out)) for _ in range(n)]
        for p in procs:
            p.start()
        results = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(30)
        errors += [x for x in results if x != "ok"]
        j = Journal.open(path)
        assert j.schema_version == schema.CURRENT and len(j.games()) == results.count("ok")
        j.close()
    assert errors == []


# ---------------------------------------------------------------- snapshots

def _flip_a_bit_of_the_influence(state: str) -> str:
    i = state.index('"influence"')
    while not state[i].isdigit():
        i += 1
    return state[:i] + chr(ord(state[i]) ^ 1) + state[i + 1:]  # '5' -> '4', '7' -> '6'


def test_a_snapshot_with_a_flipped_bit_is_ignored_and_the_game_replayed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    j = Journal.open(path, snapshot_every=5)
    t = new_table(j, "tyranny", seed=3)
    play(t, Rng(1), 23)
    t.close()
    j.close()
    db = sqlite3.connect(path)
    ply, state = db.execute("SELECT ply, state FROM snapshots ORDER BY ply DESC LIMIT 1").fetchone()
    assert ply == 20
    db.execute("UPDATE snapshots SET state=? WHERE ply=?", (_flip_a_bit_of_the_influence(state), ply))
    db.commit()
    db.close()
    j = Journal.open(path, snapshot_every=5)
    r = Table.resume(j, t.key)
    assert same_state(r.state, clean_replay(t)) and r.view() == t.view()
    assert j.snapshots_rejected == 1
    # The good snapshot below it is still used: a clean resume does not reject it again.
    assert j.latest_snapshot(t.key, 20)[0] == 15


def test_a_snapshot_of_another_line_of_play_is_ignored(tmp_path):
    """The checksum binds a snapshot to the line of play it was taken on: an intact
    snapshot left over from a line that was undone and replaced, or another game's, is not
    used; the same line brought back by redo matches again."""
    j = Journal.open(tmp_path / "journal.sqlite3")
    key, other = (j.create_game(game_id="tyranny", seats=[{"id": "a", "faction": "cops"}], options={}, seed=1,
                                started=1.0) for _ in range(2))
    for k in (key, other):
        for ply in range(10):
            j.append(k, ply=ply, seat="a", kind="x", action=json.dumps({"n": ply}), source="touch", time=1.0)
        j.put_snapshot(k, 10, '{"state": 10}')
    assert j.latest_snapshot(key, 10) == (10, '{"state": 10}')
    row = j._db.execute("SELECT state, checksum FROM snapshots WHERE game_key=? AND ply=10", (key,)).fetchone()

    def left_behind(k: str) -> None:  # as a bug or a crash between writes would leave it
        j._db.execute("INSERT OR REPLACE INTO snapshots (game_key, ply, state, checksum) VALUES (?,10,?,?)", (k, *row))

    j.mark_undone(key, 9)
    j.mark_redone(key, 9)  # the same line again
    left_behind(key)
    assert j.latest_snapshot(key, 10) == (10, '{"state": 10}') and j.snapshots_rejected == 0
    j.mark_undone(key, 9)
    j.append(key, ply=9, seat="a", kind="x", action=json.dumps({"n": 9}), source="touch", time=2.0)  # a new line
    left_behind(key)
    assert j.latest_snapshot(key, 10) is None and j.snapshots_rejected == 1
    j._db.execute("DELETE FROM snapshots WHERE game_key=?", (other,))
    left_behind(other)  # the same text and ply, another game: the checksum names the game
    assert j.latest_snapshot(other, 10) is None and j.snapshots_rejected == 2


def test_a_version_2_journal_opens_and_its_unverifiable_snapshots_are_dropped(tmp_path):
    p = tmp_path / "v2.sqlite3"
    ref = new_table(Journal.open(":memory:"), "tyranny", seed=11)
    play(ref, Rng(2), 30)
    db = sqlite3.connect(p, isolation_level=None)
    assert schema.migrate(db, target=2) == 2
    db.execute("INSERT INTO games (key, game_id, seats, options, seed, started) VALUES (?,?,?,?,?,?)",
               ("old2", "tyranny", json.dumps(ref.seats), json.dumps(ref.options), ref.seed, 1000.0))
    for e in ref._line:
        db.execute("INSERT INTO actions (game_key, seq, ply, seat, kind, action, source, time) VALUES (?,?,?,?,?,?,?,?)",
                   ("old2", e.seq, e.ply, e.seat, e.kind, e.action_json, e.source, e.time))
    wrong = json.loads(json.dumps(ref.game.state_to_data(ref.state)))  # a snapshot no check can vouch for
    db.execute("INSERT INTO snapshots (game_key, ply, state) VALUES (?,?,?)", ("old2", 10, json.dumps(wrong)))
    db.close()
    j = Journal.open(p)
    assert j.schema_version == schema.CURRENT
    t = Table.resume(j, "old2")
    assert t.ply == ref.ply and t.view() == ref.view()
    play(t, Rng(3), 5)
    assert Table.resume(j, "old2").view() == t.view()


# ---------------------------------------------------------------- a full disk

def _fill_the_disk(j: Journal) -> None:
    """SQLite's page limit: a write that needs a new page fails with SQLITE_FULL ("database
    or disk is full"), exactly as on a full disk."""
    pages = j._db.execute("PRAGMA page_count").fetchone()[0]
    j._db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_is_a_typed_error_and_nothing_changes(tmp_path):
    from companion import JournalFull

    j = Journal.open(tmp_path / "journal.sqlite3")
    t = new_table(j, "tyranny", seed=3)
    play(t, Rng(1), 5)
    before, view = j.actions(t.key), t.view()
    _fill_the_disk(j)
    rng = Rng(9)
    with pytest.raises(JournalFull, match="full") as e:
        for _ in range(200):  # until a write needs a new page
            t.submit(choose(rng, list(t.legal_actions())), source="x" * 2000)
    assert isinstance(e.value, JournalError) and "sqlite" not in str(e.value).lower()
    n = len(j.actions(t.key))
    assert t.ply == n and [r.seq for r in j.actions(t.key)][: len(before)] == [r.seq for r in before]
    assert same_state(t.state, clean_replay(t))  # memory is what the journal holds
    j._db.execute("PRAGMA max_page_count = 1073741823")  # space freed: the table plays on
    play(t, Rng(2), 3)
    assert t.ply == n + 3 and view != t.view()


# ---------------------------------------------------------------- damaged files

def _three_games(path: Path) -> list[str]:
    j = Journal.open(path, snapshot_every=1000)
    keys = []
    for i, game_id in enumerate(("tyranny", "liberation", "tyranny")):
        t = Table.create(j, game_id=game_id, seats=new_table(Journal.open(":memory:"), game_id).seats, seed=i,
                         wall=lambda i=i: 1000.0 + i)
        rng = Rng(i)
        for _ in range(60):
            if t.outcome is not None:
                break
            t.submit(choose(rng, list(t.legal_actions())), source=f"marker-{t.key}-" + "p" * 200)
        keys.append(t.key)
        t.close()
    j.close()  # the last connection checkpoints: everything is in the main file
    return keys


def _page_of(raw: bytes, marker: bytes, page_size: int = 4096) -> int:
    return raw.rindex(marker) // page_size


def test_a_damaged_page_sets_the_file_aside_and_recovers_the_intact_games(tmp_path):
    path = tmp_path / "journal.sqlite3"
    keys = _three_games(path)
    raw = bytearray(path.read_bytes())
    page = _page_of(bytes(raw), f"marker-{keys[1]}-".encode())
    raw[page * 4096:(page + 1) * 4096] = os.urandom(4096)
    path.write_bytes(bytes(raw))
    j = Journal.open(path)
    rec = j.recovery
    assert rec is not None and rec.games_found == 3 and rec.games_recovered == 2
    aside = Path(rec.set_aside)
    assert aside.parent == tmp_path and aside.name.startswith("journal.damaged-") and aside.suffix == ".sqlite3"
    assert aside.read_bytes() == bytes(raw)  # set aside exactly as it was, never deleted
    assert rec.message == (f"The journal was damaged; it was set aside as {aside.name} "
                           "and 2 of 3 games were recovered.")
    assert {g.key for g in j.games()} == {keys[0], keys[2]}
    for k in (keys[0], keys[2]):
        t = Table.resume(j, k)
        assert same_state(t.state, clean_replay(t)) and t.ply > 50
        play(t, Rng(4), 2)  # and they play on
    j.close()
    assert Journal.open(path).recovery is None  # the fresh journal is healthy


def test_random_bytes_behind_an_intact_header_are_set_aside(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _three_games(path)
    raw = bytearray(path.read_bytes())
    raw[100:] = os.urandom(len(raw) - 100)
    path.write_bytes(bytes(raw))
    j = Journal.open(path)
    assert j.recovery is not None and j.recovery.games_recovered == 0
    assert Path(j.recovery.set_aside).read_bytes() == bytes(raw)
    assert "was set aside as journal.damaged-" in j.recovery.message
    assert j.games() == []
    new_table(j, "tyranny")  # the fresh journal takes new games
    assert len(j.games()) == 1


def test_a_damaged_journal_is_set_aside_with_its_wal_and_the_games_only_there_recovered(tmp_path):
    """A crash leaves committed actions in the -wal: it moves with the damaged file, and
    what it holds is recovered."""
    import shutil

    live = tmp_path / "live.sqlite3"
    keys = _three_games(live)
    j = Journal.open(live)
    j._db.execute("PRAGMA wal_autocheckpoint=0")  # the new game stays in the -wal
    t = new_table(j, "tyranny", seed=8)
    play(t, Rng(8), 10)
    path = tmp_path / "journal.sqlite3"
    for suffix in ("", "-wal", "-shm"):  # the files as a power cut leaves them
        shutil.copyfile(str(live) + suffix, str(path) + suffix)
    wal = Path(str(path) + "-wal").read_bytes()
    assert f"marker-{keys[0]}-".encode() not in wal
    raw = bytearray(path.read_bytes())
    page = _page_of(bytes(raw), f"marker-{keys[0]}-".encode())
    raw[page * 4096:(page + 1) * 4096] = os.urandom(4096)
    path.write_bytes(bytes(raw))
    again = Journal.open(path)
    rec = again.recovery
    assert rec is not None and (rec.games_found, rec.games_recovered) == (4, 3) and rec.lost == (keys[0],)
    assert Path(rec.set_aside + "-wal").read_bytes() == wal and Path(rec.set_aside).read_bytes() == bytes(raw)
    resumed = Table.resume(again, t.key)
    assert resumed.ply == 10 and same_state(resumed.state, t.state)


def test_damage_met_after_opening_is_a_typed_error(tmp_path, monkeypatch):
    """Damage the open's check did not see (it appeared later, or in a page no check
    reached) reaches the caller as JournalDamaged, never as a raw sqlite3 error."""
    from companion import JournalDamaged

    path = tmp_path / "journal.sqlite3"
    keys = _three_games(path)
    raw = bytearray(path.read_bytes())
    page = _page_of(bytes(raw), f"marker-{keys[1]}-".encode())
    raw[page * 4096:(page + 1) * 4096] = os.urandom(4096)
    path.write_bytes(bytes(raw))
    monkeypatch.setattr(journal_recovery, "damage", lambda p: None)  # as if the check had passed
    j = Journal.open(path)
    with pytest.raises(JournalDamaged, match="damaged") as e:
        Table.resume(j, keys[1])
    assert not isinstance(e.value, sqlite3.Error) and isinstance(e.value.__cause__, sqlite3.DatabaseError)
    assert Table.resume(j, keys[0]).ply > 0  # the rest of the journal still reads


def _open_damaged(path: str, barrier: "multiprocessing.synchronize.Barrier", out: "multiprocessing.Queue[str]") -> None:
    try:
        barrier.wait(30)
        j = Journal.open(path)
        out.put(json.dumps([j.recovery.set_aside if j.recovery else None, sorted(g.key for g in j.games())]))
        j.close()
    except BaseException as e:
        out.put(f"{type(e).__name__}: {e}")


@needs_fork
def test_windows_starting_together_on_a_damaged_journal_set_it_aside_once(tmp_path):
    path = tmp_path / "journal.sqlite3"
    keys = _three_games(path)
    raw = bytearray(path.read_bytes())
    page = _page_of(bytes(raw), f"marker-{keys[1]}-".encode())
    raw[page * 4096:(page + 1) * 4096] = os.urandom(4096)
    path.write_bytes(bytes(raw))
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_open_damaged, args=(str(path), barrier, out)) for _ in range(4)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    parsed = [json.loads(r) for r in results]  # every window opened
    asides = [a for a, _g in parsed if a]
    assert len(asides) == 1 and [p.name for p in tmp_path.glob("journal.damaged-*.sqlite3")] == [Path(asides[0]).name]
    assert all(g == sorted([keys[0], keys[2]]) for _a, g in parsed), (parsed, keys)


def test_a_journal_set_aside_between_the_look_and_the_read_still_opens(tmp_path, monkeypatch):
    """Another window may rename a damaged journal between this window's look at the
    path and its read of the header (seen when four windows started together on a
    loaded machine): the open goes on under the recovery lock instead of failing."""
    path = tmp_path / "journal.sqlite3"
    real_exists = os.path.exists
    looks: list[str] = []

    def exists(p: object) -> bool:
        # The first look finds the file; by the read it is gone (renamed by the other window).
        if str(p) == str(path) and not looks:
            looks.append(str(p))
            return True
        return real_exists(p)

    monkeypatch.setattr(journal_mod.os.path, "exists", exists)
    j = Journal.open(path)
    try:
        assert j.games() == [] and j.recovery is None
    finally:
        j.close()
