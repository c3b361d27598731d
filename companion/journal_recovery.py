"""A damaged journal found at open, set aside and salvaged (issue 15, issue 31).

:func:`damage` checks the file on a read-only connection before anything is written:
SQLite's ``integrity_check`` (every page, record and index entry), a walk of every table,
then what :mod:`companion.journal_check` adds (every row's checksum, each game's count of
actions, the changes acknowledged beside the journal). On damage,
:func:`set_aside_and_salvage` renames the file (with its ``-wal``, ``-shm`` and
``-acked``) to ``<journal>.damaged-<UTC time>.sqlite3``, never deleting or writing it, and
copies every game that reads back whole into a fresh journal at the old path. Windows
starting together take turns through :func:`opening`, so the file is set aside once.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import time as _time
from dataclasses import dataclass
from typing import Any

from . import journal_check as check
from . import schema
from .journal_errors import _BUSY, _DAMAGED, _LOCKED, JournalTooNew, NotAJournal, _code, _Unreadable
from .journal_lock import Exclusive


@dataclass(frozen=True)
class Recovery:
    """What :meth:`Journal.open` did with a damaged journal: the file (and its -wal, -shm
    and -acked) renamed to ``set_aside``, and the games it could list copied, those whose rows
    read back cleanly, into a fresh journal at the old path."""

    set_aside: str
    games_found: int
    games_recovered: int
    lost: tuple[str, ...]   # keys of the games that could not be read back
    reason: str             # what SQLite, or the rows' checks, said (for the log)

    @property
    def message(self) -> str:
        """The sentence the app shows."""
        return (f"The journal was damaged; it was set aside as {os.path.basename(self.set_aside)} "
                f"and {self.games_recovered} of {self.games_found} games were recovered.")


def connect(p: str, *, read_only: bool = False) -> sqlite3.Connection:
    try:
        if read_only:
            from urllib.parse import quote

            db = sqlite3.connect(f"file:{quote(os.path.abspath(p))}?mode=ro", uri=True, isolation_level=None,
                                 check_same_thread=False, timeout=10)
        else:
            # timeout: SQLite's busy handler, so a write waits for another process's write
            db = sqlite3.connect(p, isolation_level=None, check_same_thread=False, timeout=10)
    except sqlite3.Error as e:
        raise NotAJournal(f"{p} cannot be opened as a database: {e}") from None
    check.register(db)  # the rows' checksums are computed and checked in SQL
    return db


def set_wal(db: sqlite3.Connection, patience_s: float = 10.0) -> str:
    """``PRAGMA journal_mode=WAL``, retried while another process holds the file: the
    switch out of a new file's rollback mode needs an exclusive lock, and SQLite answers
    "database is locked" at once instead of calling its busy handler."""
    deadline = _time.monotonic() + patience_s
    while True:
        try:
            return str(db.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        except sqlite3.OperationalError as e:
            if _code(e) not in (_BUSY, _LOCKED) or _time.monotonic() > deadline:
                raise
            _time.sleep(0.005)


def read_version(db: sqlite3.Connection, p: str) -> int:
    """The schema version of an openable file that is ours (0 for an empty file).
    Raises :class:`_Unreadable` when SQLite cannot read even that much."""
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as e:
        if _code(e) not in _DAMAGED:
            raise
        raise _Unreadable(str(e)) from None
    if not tables and version == 0:
        return 0
    try:
        app = db.execute("SELECT value FROM meta WHERE key='app'").fetchone() if "meta" in tables else None
    except sqlite3.DatabaseError as e:
        if _code(e) not in _DAMAGED:
            raise
        raise _Unreadable(str(e)) from None
    if app is None or app[0] != schema.APP:
        raise NotAJournal(f"{p} is a SQLite database of another application (tables: {', '.join(sorted(tables)) or 'none'}); it was left untouched")
    if version > schema.CURRENT:
        raise JournalTooNew(f"{p} has journal schema version {version}; this app reads up to {schema.CURRENT}. Update the app.")
    return version


def damage(p: str) -> str | None:
    """What is wrong with the journal at ``p``, or None: SQLite's ``integrity_check``
    (every page, record and index entry: ``quick_check`` misses an index that lost rows,
    and a game would resume from a snapshot with part of its history gone), a walk of
    every table, then every row's checksum, each game's count of actions and its
    acknowledged changes (:func:`companion.journal_check.problems`). Read-only: the check
    itself never writes, and a file that cannot be checked now (busy, locked) is left to
    the normal open."""
    acks = check.read_acks(p)  # before the database: see journal_check (no false alarm)
    marks = check.damaged_marks(p)
    try:
        db = connect(p, read_only=True)
    except NotAJournal:
        return None
    try:
        try:
            version = read_version(db, p)
        except _Unreadable as e:
            return str(e)
        except (NotAJournal, JournalTooNew, sqlite3.Error):
            return None  # reported (and refused) by the normal open, the file untouched
        problems = [r[0] for r in db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            return "; ".join(problems[:3])
        # A walk of each table's own b-tree (not a smaller index) also meets a table SQLite
        # cannot enter.
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            db.execute(f'SELECT count(*) FROM "{name}" NOT INDEXED').fetchone()
        if version >= 5:
            try:
                found = check.problems(db, acks, marks)
            except sqlite3.Error as e:  # a row SQLite returns but that cannot be read (a text not UTF-8)
                return f"a row cannot be read ({str(e)[:80]})"
            if found:
                return "; ".join(found)
        elif acks:  # games acknowledged in a checked journal, now in an older one: it was replaced
            return "games acknowledged in this journal are missing from it"
        return None
    except sqlite3.DatabaseError as e:
        return str(e) if _code(e) in _DAMAGED else None
    finally:
        db.close()


def aside_name(p: str) -> str:
    stem, ext = os.path.splitext(p)
    stamp = _time.strftime("%Y%m%d-%H%M%S", _time.gmtime())
    name, n = f"{stem}.damaged-{stamp}{ext or '.sqlite3'}", 1
    while os.path.exists(name):
        n += 1
        name = f"{stem}.damaged-{stamp}-{n}{ext or '.sqlite3'}"
    return name


def opening(p: str) -> Any:
    """The lock every window holds while it checks, recovers and opens the journal at
    ``p`` (none for ``:memory:``, or where no lock file can be made: a read-only folder)."""
    if p == ":memory:":
        return contextlib.nullcontext()
    try:
        os.makedirs(p + "-locks", exist_ok=True)
    except OSError:
        return contextlib.nullcontext()
    return Exclusive(os.path.join(p + "-locks", "recovering.lock"))


def set_aside_and_salvage(p: str, reason: str) -> Recovery:
    """Rename the damaged journal (with its -wal, whose committed actions belong to it, and
    -shm) and copy every game whose rows read back cleanly into a fresh journal at ``p``."""
    aside = aside_name(p)
    os.rename(p, aside)
    for suffix in ("-wal", "-shm", "-acked"):  # the acknowledged counts vouch for the file set aside
        if os.path.exists(p + suffix):
            os.rename(p + suffix, aside + suffix)
    fresh = connect(p)
    try:
        set_wal(fresh)
        fresh.execute("PRAGMA synchronous=FULL")
        schema.migrate(fresh)
        found, saved, lost = _salvage(aside, fresh)
        # The recovered games' counts, as the fresh journal holds them.
        for key, changes in fresh.execute("SELECT key, changes FROM games").fetchall():
            check.write_ack(p, key, changes)
    finally:
        fresh.close()
    return Recovery(aside, found, saved, tuple(lost), reason)


def _salvage(aside: str, fresh: sqlite3.Connection) -> tuple[int, int, list[str]]:
    """Copy the games of ``aside`` that read back cleanly
    (:func:`companion.journal_check.checked_game`) into ``fresh``: (games found, games
    copied, keys lost). A game acknowledged but absent from the file counts as found and
    lost. Snapshots are not copied (derived; replay rebuilds them)."""
    acks = check.read_acks(aside)
    marks = check.damaged_marks(aside)
    try:
        old = connect(aside, read_only=True)
    except NotAJournal:
        return len(acks), 0, sorted(acks)
    keys: list[str] = []
    try:
        try:
            for (k,) in old.execute("SELECT key FROM games"):
                keys.append(k)
        except sqlite3.DatabaseError:
            pass  # the games listed before the damage are still tried
        named = {check.ack_path(aside, k) for k in keys}
        missing = sorted(k for k in acks if check.ack_path(aside, k) not in named)
        lost = list(missing)
        fresh_cols = {t: [r[1] for r in fresh.execute(f"PRAGMA table_info({t})")] for t in ("games", "actions")}
        for k in keys:
            try:
                if check.ack_path(aside, k).rsplit(os.sep, 1)[-1] in marks:
                    raise ValueError(f"game {k}: found damaged when read")
                game, actions = check.checked_game(old, k, acks)
            except (sqlite3.DatabaseError, ValueError, TypeError, KeyError):
                lost.append(k)
                continue
            fresh.execute("BEGIN IMMEDIATE")
            try:
                _insert(fresh, "games", fresh_cols["games"], [game])
                _insert(fresh, "actions", fresh_cols["actions"], actions)
                # Sealed again as the fresh file holds them (an older journal's rows had no checksum).
                fresh.execute("UPDATE games SET seqs=? WHERE key=?", (len(actions), k))
                check.seal_actions(fresh, k, [a["seq"] for a in actions])
                check.seal_game(fresh, k)
                fresh.execute("COMMIT")
            except BaseException:
                fresh.execute("ROLLBACK")
                raise
        return len(keys) + len(missing), len(keys) - len(lost) + len(missing), lost
    finally:
        old.close()


def _insert(db: sqlite3.Connection, table: str, cols: list[str], rows: list[dict[str, Any]]) -> None:
    for r in rows:
        have = [c for c in cols if c in r]
        db.execute(f"INSERT INTO {table} ({', '.join(have)}) VALUES ({', '.join('?' * len(have))})",
                   [r[c] for c in have])
