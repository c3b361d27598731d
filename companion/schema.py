"""The journal's SQLite schema, its version, and the migrations between versions.

The version lives in ``PRAGMA user_version``; :data:`MIGRATIONS` ``[i]`` takes a journal
from version ``i`` to ``i + 1``. A journal is recognised as ours by the ``meta`` row
``app = tabletop-companion``, written by the first migration, so a foreign SQLite file is
never mistaken for an empty journal and never written to.

>>> CURRENT == len(MIGRATIONS)
True
"""
from __future__ import annotations

import sqlite3
from typing import Callable

APP = "tabletop-companion"


def _v1(db: sqlite3.Connection) -> None:
    """Version 1: games and their ordered actions (the save file)."""
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta (key, value) VALUES ('app', ?)", (APP,))
    db.execute(
        """CREATE TABLE games (
            key TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seats TEXT NOT NULL,          -- JSON [{"id","faction","name"}]
            options TEXT NOT NULL,        -- JSON, resolved by the engine
            seed INTEGER NOT NULL,
            started REAL NOT NULL,        -- epoch seconds
            finished REAL,
            outcome TEXT                  -- JSON or NULL
        )"""
    )
    db.execute(
        """CREATE TABLE actions (
            game_key TEXT NOT NULL REFERENCES games(key),
            seq INTEGER NOT NULL,         -- order of arrival, never reused
            ply INTEGER NOT NULL,         -- index among the actions in force when accepted
            seat TEXT,
            kind TEXT NOT NULL,
            action TEXT NOT NULL,         -- JSON (rules.core.jsondata)
            source TEXT NOT NULL,
            time REAL NOT NULL,           -- wall clock, epoch seconds
            undone INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_key, seq)
        )"""
    )


def _v2(db: sqlite3.Connection) -> None:
    """Version 2: snapshots for fast resume, undo bookkeeping (barrier, tracked values per
    action), device assignments and clocks."""
    db.execute("ALTER TABLE games ADD COLUMN devices TEXT NOT NULL DEFAULT '{}'")
    db.execute("ALTER TABLE games ADD COLUMN clock_config TEXT")      # JSON or NULL: untimed
    db.execute("ALTER TABLE games ADD COLUMN clock_state TEXT")       # latest ClockSet.to_data()
    db.execute("ALTER TABLE games ADD COLUMN tracked0 TEXT NOT NULL DEFAULT '{}'")
    db.execute("ALTER TABLE actions ADD COLUMN barrier TEXT")          # why it can never be undone
    db.execute("ALTER TABLE actions ADD COLUMN turn INTEGER")
    db.execute("ALTER TABLE actions ADD COLUMN tracked TEXT")          # JSON tracked values after it
    db.execute("ALTER TABLE actions ADD COLUMN clocks TEXT")           # JSON clock state after it
    # undone: 0 in force, 1 undone (may be redone), 2 undone and superseded by a new action
    db.execute("CREATE INDEX actions_in_force ON actions (game_key, undone, ply)")
    db.execute(
        """CREATE TABLE snapshots (
            game_key TEXT NOT NULL REFERENCES games(key),
            ply INTEGER NOT NULL,         -- the state after `ply` actions in force
            state TEXT NOT NULL,          -- JSON (Game.state_to_data)
            PRIMARY KEY (game_key, ply)
        )"""
    )


def _v3(db: sqlite3.Connection) -> None:
    """Version 3: each snapshot carries a checksum over its text, its ply and the line of
    play it was taken on (a snapshot is never trusted over the actions). Older snapshots have none and
    nothing can vouch for them: they are dropped (derived data; resume replays instead)."""
    db.execute("ALTER TABLE snapshots ADD COLUMN checksum TEXT")  # sha256 hex, see journal._snapshot_sum
    db.execute("DELETE FROM snapshots")


def _v4(db: sqlite3.Connection) -> None:
    """Version 4: a game joined in progress keeps the position it started from (issue 16).
    JSON, or NULL for a game that began at the opening (every game of an older journal):
    resume, replay, undo to ply 0 and exports start from it instead of a fresh setup. It
    may hold a private part (Liberation's base and hands), so only the Table reads it; the
    exports get :func:`companion.positions.public_position` of it."""
    db.execute("ALTER TABLE games ADD COLUMN position TEXT")


def _v5(db: sqlite3.Connection) -> None:
    """Version 5: every row checks itself (issue 31). ``actions.checksum`` and
    ``games.checksum``: a CRC-32 over the row's other columns
    (:mod:`companion.journal_check`), verified whenever a row is read; and
    ``games.changes`` (changes acknowledged, mirrored outside the database in
    ``<journal>-acked/``) and ``games.seqs`` (actions written), so a game that lost rows is
    noticed. A migrated row gets its checksum only once its JSON is found to parse; one
    that does not keeps none, and the next open sets its game aside."""
    from .journal_check import ACTION_JSON, ACTION_SUM, GAME_JSON, GAME_SUM, parses, register

    register(db)
    db.execute("ALTER TABLE actions ADD COLUMN checksum INTEGER")
    db.execute("ALTER TABLE games ADD COLUMN changes INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN seqs INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN checksum INTEGER")
    db.execute("UPDATE games SET seqs=(SELECT COUNT(*) FROM actions a WHERE a.game_key=games.key)")
    cur = db.execute(f"SELECT game_key, seq, {', '.join(ACTION_JSON)} FROM actions")
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    db.executemany(f"UPDATE actions SET checksum={ACTION_SUM} WHERE game_key=? AND seq=?",
                   [(r["game_key"], r["seq"]) for r in rows if parses(r, ACTION_JSON)])
    cur = db.execute(f"SELECT key, {', '.join(GAME_JSON)} FROM games")
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    db.executemany(f"UPDATE games SET checksum={GAME_SUM} WHERE key=?", [(r["key"],) for r in rows if parses(r, GAME_JSON)])


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1, _v2, _v3, _v4, _v5]
CURRENT = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, target: int = CURRENT) -> int:
    """Bring ``db`` from its ``user_version`` up to ``target``, one transaction per step,
    so a crash mid-migration leaves the journal at the last complete version. Returns the
    version reached.

    The version is read inside each step's write transaction: another process may be
    migrating the same file at the same moment (two app instances creating a new journal),
    and a version read before the lock would run a step twice."""
    while True:
        db.execute("BEGIN IMMEDIATE")  # waits (busy timeout) for another migrating process
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version >= target:
                db.execute("COMMIT")
                return version
            MIGRATIONS[version](db)
            db.execute(f"PRAGMA user_version = {version + 1:d}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
