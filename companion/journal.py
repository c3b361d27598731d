"""The journal: every game's setup and ordered actions in one SQLite file.

The seed, the setup and the accepted actions are the save file; resume, history, undo,
export and the game library all read it. It is written with WAL and ``synchronous=FULL``
and each change is one transaction, committed before the Table tells anyone the action was
accepted: a crash or a power cut never loses an acknowledged action and never leaves half
of one. Snapshots of the state every ``snapshot_every`` actions make resuming a long game
fast; they are derived data, rewritten or dropped freely.

A file that is not a SQLite database, or a SQLite database that is not ours, raises
:class:`NotAJournal` and is never written to.

>>> j = Journal.open(":memory:")
>>> key = j.create_game(game_id="tyranny", seats=[{"id": "a", "faction": "cops", "name": "Ann"}],
...                     options={}, seed=7, started=1.0)
>>> j.game(key).seed, j.game(key).status
(7, 'in-progress')
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from . import schema

SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_NAME = "journal.sqlite3"
APP_NAME = "tabletop-companion"

# undone column values
IN_FORCE, UNDONE, SUPERSEDED = 0, 1, 2


class JournalError(ValueError):
    """Base of the journal's errors."""

    code = "journal-error"


class NotAJournal(JournalError):
    """The file is not a readable SQLite database, or is someone else's database. It is
    left exactly as it was."""

    code = "not-a-journal"


class JournalTooNew(JournalError):
    """The journal was written by a newer version of the app (a higher schema version)."""

    code = "journal-too-new"


class UnknownGameKey(JournalError, KeyError):
    """No game with that key in this journal."""

    code = "unknown-game"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


def default_path() -> Path:
    """``<user data dir>/journal.sqlite3`` (platformdirs), the folder created if needed."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir(APP_NAME, appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / DEFAULT_NAME


@dataclass(frozen=True)
class GameRow:
    """A game's setup and status as stored."""

    key: str
    game_id: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    started: float
    finished: float | None
    outcome: dict[str, Any] | None
    devices: dict[str, str]
    clock_config: dict[str, Any] | None
    clock_state: dict[str, Any] | None
    tracked0: dict[str, Any]

    @property
    def status(self) -> str:
        return "finished" if self.finished is not None else "in-progress"


class ActionRow(NamedTuple):
    """One journaled action. ``action`` is the JSON text (parse it with
    ``rules.core.parse_action(json.loads(...))``); ``undone`` is 0 (in force), 1 (undone,
    may be redone) or 2 (undone, then superseded by another action). A named tuple: a
    10,000-action game loads fast."""

    seq: int
    ply: int
    seat: str | None
    kind: str
    action: str
    source: str
    time: float
    undone: int
    barrier: str | None
    turn: int | None

    @property
    def in_force(self) -> bool:
        return self.undone == IN_FORCE


@dataclass(frozen=True)
class GameSummary:
    """A line of the game library."""

    key: str
    game_id: str
    players: list[dict[str, Any]]
    factions: list[str]
    started: float
    duration_s: float | None
    result: str | None
    status: str
    winner: str | None
    plies: int


@dataclass(frozen=True)
class Stats:
    """Stats across finished games."""

    plays: int
    wins_by_faction: dict[str, int]
    wins_by_player: dict[str, int]
    average_duration_s: float | None
    plays_by_game: dict[str, int]


_ACTION_COLS = "seq, ply, seat, kind, action, source, time, undone, barrier, turn"


_action_row = ActionRow._make


class Journal:
    """One open journal file. Thread-safe (one lock around the connection); open it once
    per process and share it."""

    def __init__(self, db: sqlite3.Connection, path: str, snapshot_every: int) -> None:
        self._db = db
        self.path = path
        self.snapshot_every = snapshot_every
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, snapshot_every: int = 100) -> "Journal":
        """Open (or create) the journal at ``path`` (default: :func:`default_path`).

        Raises :class:`NotAJournal` for a file that is not SQLite or not ours, and
        :class:`JournalTooNew` for a newer schema; in both cases nothing is written."""
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        p = str(default_path() if path is None else path)
        if p != ":memory:" and not os.path.isdir(os.path.dirname(os.path.abspath(p))):
            raise JournalError(f"{p}: the folder {os.path.dirname(os.path.abspath(p))} does not exist")
        if p != ":memory:" and os.path.isdir(p):
            raise NotAJournal(f"{p} is a folder, not a journal file")
        if p != ":memory:" and os.path.exists(p):
            with open(p, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
            if head and head != SQLITE_HEADER:
                raise NotAJournal(f"{p} is not a SQLite database (its first bytes are not the SQLite header); it was left untouched")
        try:
            db = sqlite3.connect(p, isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.Error as e:
            raise NotAJournal(f"{p} cannot be opened as a database: {e}") from None
        try:
            version = cls._inspect(db, p)
            # Only now, knowing the file is ours (or empty), may anything be written.
            if p != ":memory:":
                mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise JournalError(f"{p}: the journal needs WAL mode, SQLite gave {mode!r}")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if version < schema.CURRENT:
                schema.migrate(db)
        except BaseException:
            db.close()
            raise
        return cls(db, p, snapshot_every)

    @staticmethod
    def _inspect(db: sqlite3.Connection, p: str) -> int:
        """The schema version of an openable file that is ours (0 for an empty file)."""
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as e:
            raise NotAJournal(f"{p} is damaged or not a SQLite database ({e}); it was left untouched") from None
        if not tables and version == 0:
            return 0
        try:
            app = db.execute("SELECT value FROM meta WHERE key='app'").fetchone() if "meta" in tables else None
        except sqlite3.DatabaseError as e:
            raise NotAJournal(f"{p} is damaged ({e}); it was left untouched") from None
        if app is None or app[0] != schema.APP:
            raise NotAJournal(f"{p} is a SQLite database of another application (tables: {', '.join(sorted(tables)) or 'none'}); it was left untouched")
        if version > schema.CURRENT:
            raise JournalTooNew(f"{p} has journal schema version {version}; this app reads up to {schema.CURRENT}. Update the app.")
        return version

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._db.execute("PRAGMA user_version").fetchone()[0]

    # ------------------------------------------------------------------ writing
    def _tx(self) -> "_Tx":
        return _Tx(self)

    def create_game(self, *, game_id: str, seats: list[dict[str, Any]], options: dict[str, Any], seed: int,
                    started: float, devices: dict[str, str] | None = None, clock_config: dict[str, Any] | None = None,
                    clock_state: dict[str, Any] | None = None, tracked0: dict[str, Any] | None = None,
                    key: str | None = None) -> str:
        """Store a new game's setup; returns its key."""
        if not key:
            import uuid  # only when a game begins: ~4 ms (it loads platform) off every start

            key = uuid.uuid4().hex[:12]
        with self._tx() as db:
            db.execute(
                "INSERT INTO games (key, game_id, seats, options, seed, started, devices, clock_config, clock_state, tracked0)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)",
                (key, game_id, json.dumps(seats), json.dumps(options), seed, started, json.dumps(devices or {}),
                 _j(clock_config), _j(clock_state), json.dumps(tracked0 or {})),
            )
        return key

    def append(self, key: str, *, ply: int, seat: str | None, kind: str, action: str, source: str, time: float,
               barrier: str | None = None, turn: int | None = None, tracked: dict[str, Any] | None = None,
               clocks: dict[str, Any] | None = None, snapshot: str | None = None,
               finished: float | None = None, outcome: dict[str, Any] | None = None) -> int:
        """Append one accepted action (and, in the same transaction, supersede any undone
        actions, store a snapshot, the clock state and the end of the game). Returns its
        ``seq``. Returns only once the transaction is durably committed."""
        with self._tx() as db:
            seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM actions WHERE game_key=?", (key,)).fetchone()[0]
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND undone=?", (SUPERSEDED, key, UNDONE))
            db.execute(
                "INSERT INTO actions (game_key, seq, ply, seat, kind, action, source, time, undone, barrier, turn, tracked, clocks)"
                " VALUES (?,?,?,?,?,?,?,?,0,?,?,?,?)",
                (key, seq, ply, seat, kind, action, source, time, barrier, turn, _j(tracked), _j(clocks)),
            )
            # A snapshot is valid only for the line of play it was taken on.
            db.execute("DELETE FROM snapshots WHERE game_key=? AND ply>?", (key, ply))
            if snapshot is not None:
                db.execute("INSERT OR REPLACE INTO snapshots (game_key, ply, state) VALUES (?,?,?)", (key, ply + 1, snapshot))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            if outcome is not None:
                db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))
        return seq

    def mark_undone(self, key: str, seq: int, *, clocks: dict[str, Any] | None = None) -> None:
        """Mark the action ``seq`` undone (kept for the log; may be redone)."""
        with self._tx() as db:
            row = db.execute("SELECT ply, undone FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
            if row is None or row[1] != IN_FORCE:
                raise JournalError(f"action {seq} of game {key} is not in force")
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND seq=?", (UNDONE, key, seq))
            db.execute("DELETE FROM snapshots WHERE game_key=? AND ply>?", (key, row[0]))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))

    def mark_redone(self, key: str, seq: int, *, clocks: dict[str, Any] | None = None,
                    finished: float | None = None, outcome: dict[str, Any] | None = None) -> None:
        """Put an undone action back in force (redo)."""
        with self._tx() as db:
            row = db.execute("SELECT undone FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
            if row is None or row[0] != UNDONE:
                raise JournalError(f"action {seq} of game {key} cannot be redone")
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND seq=?", (IN_FORCE, key, seq))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            if outcome is not None:
                db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))

    def set_result(self, key: str, *, finished: float, outcome: dict[str, Any], clocks: dict[str, Any] | None = None) -> None:
        """End a game outside the engine (a loss on time)."""
        with self._tx() as db:
            db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))

    def set_clock_state(self, key: str, clocks: dict[str, Any]) -> None:
        """Journal the clocks on their own (pause, resume, admin time)."""
        with self._tx() as db:
            db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))

    def put_snapshot(self, key: str, ply: int, state: str) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO snapshots (game_key, ply, state) VALUES (?,?,?)", (key, ply, state))

    # ------------------------------------------------------------------ reading
    def game(self, key: str) -> GameRow:
        with self._lock:
            r = self._db.execute(
                "SELECT key, game_id, seats, options, seed, started, finished, outcome, devices, clock_config,"
                " clock_state, tracked0 FROM games WHERE key=?", (key,)).fetchone()
        if r is None:
            raise UnknownGameKey(f"no game {key!r} in this journal")
        return GameRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5], r[6], _unj(r[7]),
                       json.loads(r[8]), _unj(r[9]), _unj(r[10]), json.loads(r[11]))

    def actions(self, key: str, *, in_force_only: bool = False, from_ply: int = 0) -> list[ActionRow]:
        """The game's actions in order of arrival (``in_force_only``: the line of play)."""
        q = f"SELECT {_ACTION_COLS} FROM actions WHERE game_key=?"
        if in_force_only:
            q += " AND undone=0 AND ply>=? ORDER BY ply"
            args: tuple[Any, ...] = (key, from_ply)
        else:
            q += " ORDER BY seq"
            args = (key,)
        with self._lock:
            return [_action_row(r) for r in self._db.execute(q, args)]

    def tracked(self, key: str) -> list[tuple[int, int | None, dict[str, Any]]]:
        """``(ply, turn, tracked values after it)`` for each action in force, in order."""
        with self._lock:
            rows = self._db.execute("SELECT ply, turn, tracked FROM actions WHERE game_key=? AND undone=0 ORDER BY ply",
                                    (key,)).fetchall()
        return [(p, t, json.loads(v) if v is not None else {}) for p, t, v in rows]

    def line_extent(self, key: str) -> tuple[int, int | None, int | None]:
        """``(count, lowest ply, highest ply)`` of the actions in force; ``count`` is -1
        when two of them claim the same ply."""
        with self._lock:
            n, distinct, low, high = self._db.execute(
                "SELECT COUNT(*), COUNT(DISTINCT ply), MIN(ply), MAX(ply) FROM actions WHERE game_key=? AND undone=0",
                (key,)).fetchone()
        return (n if n == distinct else -1), low, high

    def in_force_count(self, key: str) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM actions WHERE game_key=? AND undone=0", (key,)).fetchone()[0]

    def latest_snapshot(self, key: str, max_ply: int) -> tuple[int, str] | None:
        """The newest snapshot at or before ``max_ply``: ``(ply, state JSON)``."""
        with self._lock:
            r = self._db.execute("SELECT ply, state FROM snapshots WHERE game_key=? AND ply<=? ORDER BY ply DESC LIMIT 1",
                                 (key, max_ply)).fetchone()
        return None if r is None else (r[0], r[1])

    def action_clocks(self, key: str, seq: int) -> dict[str, Any] | None:
        with self._lock:
            r = self._db.execute("SELECT clocks FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
        return None if r is None else _unj(r[0])

    # ------------------------------------------------------------------ library
    def games(self, status: str | None = None) -> list[GameSummary]:
        """The game library, newest first; ``status``: None, "in-progress" or "finished"."""
        if status not in (None, "in-progress", "finished"):
            raise ValueError(f"status is None, 'in-progress' or 'finished', not {status!r}")
        q = ("SELECT g.key, g.game_id, g.seats, g.started, g.finished, g.outcome,"
             " (SELECT COUNT(*) FROM actions a WHERE a.game_key=g.key AND a.undone=0) FROM games g")
        if status == "finished":
            q += " WHERE g.finished IS NOT NULL"
        elif status == "in-progress":
            q += " WHERE g.finished IS NULL"
        q += " ORDER BY g.started DESC, g.key"
        with self._lock:
            rows = self._db.execute(q).fetchall()
        out = []
        for key, game_id, seats, started, finished, outcome, plies in rows:
            players = json.loads(seats)
            oc = _unj(outcome)
            out.append(GameSummary(
                key=key, game_id=game_id, players=players,
                factions=list(dict.fromkeys(p.get("faction", "") for p in players)),
                started=started, duration_s=None if finished is None else max(0.0, finished - started),
                result=_result_text(oc, players), status="finished" if finished is not None else "in-progress",
                winner=None if oc is None else oc.get("winner"), plies=plies))
        return out

    def stats(self) -> Stats:
        """Plays, wins by faction and by player (name, else seat id) and average duration,
        over finished games."""
        finished = self.games("finished")
        by_faction: dict[str, int] = {}
        by_player: dict[str, int] = {}
        by_game: dict[str, int] = {}
        total = 0.0
        for g in finished:
            by_game[g.game_id] = by_game.get(g.game_id, 0) + 1
            total += g.duration_s or 0.0
            winners = _winners(self.game(g.key).outcome, g.players)
            for p in winners:
                name = p.get("name") or p["id"]
                by_player[name] = by_player.get(name, 0) + 1
            # A faction wins once per game however many of its seats share the win.
            for f in dict.fromkeys(p.get("faction", "") for p in winners):
                by_faction[f] = by_faction.get(f, 0) + 1
        return Stats(plays=len(finished), wins_by_faction=by_faction, wins_by_player=by_player,
                     average_duration_s=(total / len(finished)) if finished else None, plays_by_game=by_game)


def _winners(outcome: dict[str, Any] | None, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not outcome:
        return []
    seats = set(outcome.get("winning_seats") or ())
    w = outcome.get("winner")
    return [p for p in players if p["id"] in seats or (w is not None and w in (p["id"], p.get("faction")))]


def _result_text(outcome: dict[str, Any] | None, players: list[dict[str, Any]]) -> str | None:
    if outcome is None:
        return None
    w = outcome.get("winner")
    who = "draw" if w is None else f"{w} won"
    reason = outcome.get("reason")
    return f"{who}: {reason}" if reason else who


def _j(v: Any) -> str | None:
    return None if v is None else json.dumps(v, allow_nan=False)


def _unj(v: str | None) -> Any:
    return None if v is None else json.loads(v)


class _Tx:
    """``with journal._tx() as db``: one IMMEDIATE transaction under the journal's lock,
    committed (durably, synchronous=FULL) on a clean exit, rolled back on an exception."""

    def __init__(self, journal: Journal) -> None:
        self.j = journal

    def __enter__(self) -> sqlite3.Connection:
        self.j._lock.acquire()
        try:
            self.j._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.j._lock.release()
            raise
        return self.j._db

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if exc_type is None:
                self.j._db.execute("COMMIT")
            else:
                self.j._db.execute("ROLLBACK")
        finally:
            self.j._lock.release()
