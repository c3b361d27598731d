"""The journal: every game's setup and ordered actions in one SQLite file.

The seed, the setup and the accepted actions are the save file; resume, history, undo,
export and the game library all read it. It is written with WAL and ``synchronous=FULL``
and each change is one transaction, committed before the Table tells anyone the action was
accepted: a crash or a power cut never loses an acknowledged action and never leaves half
of one. Snapshots of the state every ``snapshot_every`` actions make resuming a long game
fast; they are derived data, rewritten or dropped freely.

A file that is not a SQLite database, or a SQLite database that is not ours, raises
:class:`NotAJournal` and is never written to. A journal that SQLite finds damaged (its
integrity check, or a read of every table, fails) is set aside under a new name, never
deleted, and the games that still read back cleanly are copied into a fresh journal
(:attr:`Journal.recovery` says what happened).

One writer per game: a Table claims its game (:meth:`Journal.claim`), and a second window
gets :class:`GameInUse`; an append checks, in its own transaction, that its ply follows
the line of play (:class:`OffTheLine`). A write on a full disk raises :class:`JournalFull`.
Every snapshot carries a checksum over its text, its ply and the actions before it, and a
snapshot that fails it is never used (the state is replayed from the actions). Every games
and actions row carries a checksum too, checked whenever it is read: a row that fails it
makes its game :class:`GameDamaged` (refused, never replayed as another game), and each
acknowledged change is counted beside the file, so a WAL that lost committed changes is
noticed at the next open (:mod:`companion.journal_check`).

>>> j = Journal.open(":memory:")
>>> key = j.create_game(game_id="stepping_stones", seats=[{"id": "a", "faction": "fox", "name": "Ann"}],
...                     options={}, seed=7, started=1.0)
>>> j.game(key).seed, j.game(key).status
(7, 'in-progress')
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from . import journal_check as check
from . import journal_recovery as salvage
from . import schema
from .journal_check import ACTION_OK, GAME_OK
from .journal_errors import (GameDamaged, GameInUse, JournalDamaged, JournalError, JournalFull, JournalTooNew, NotAJournal,
                             OffTheLine, UnknownGameKey, _typed, _Unreadable)
from .journal_lock import GameLock, Held
from .journal_recovery import Recovery, connect, read_version, set_wal

__all__ = ["ActionRow", "GameDamaged", "GameInUse", "GameRow", "GameSummary", "Journal", "JournalDamaged", "JournalError",
           "JournalFull", "JournalTooNew", "NotAJournal", "OffTheLine", "Recovery", "Stats", "UnknownGameKey",
           "default_path"]

log = logging.getLogger("companion.journal")

SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_NAME = "journal.sqlite3"
APP_NAME = "tabletop-companion"

# undone column values
IN_FORCE, UNDONE, SUPERSEDED = 0, 1, 2


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
    position: dict[str, Any] | None = None  # a game joined in progress: where it started (with secrets)

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


# Every read asks SQLite, last, whether the row matches its checksum (journal_check).
_ACTION_READ = f"seq, ply, seat, kind, action, source, time, undone, barrier, turn, {ACTION_OK}"


_action_row = ActionRow._make


class Journal:
    """One open journal file. Thread-safe (one lock around the connection); open it once
    per process and share it."""

    def __init__(self, db: sqlite3.Connection, path: str, snapshot_every: int,
                 recovery: Recovery | None = None) -> None:
        self._db = db
        self.path = path
        self.snapshot_every = snapshot_every
        self._lock = threading.RLock()
        #: set when the file was found damaged at open and set aside (see :class:`Recovery`)
        self.recovery = recovery
        #: snapshots found not to match their checksum since the journal was opened
        self.snapshots_rejected = 0
        #: games whose rows were found damaged when read since the journal was opened
        #: (``{key: what was wrong}``); each was refused with :class:`GameDamaged`
        self.damaged: dict[str, str] = {}
        #: acknowledged counts that could not be written beside the journal (a full disk)
        self.ack_failures = 0
        self._claims: dict[str, tuple[GameLock | None, int]] = {}

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, snapshot_every: int = 100) -> "Journal":
        """Open (or create) the journal at ``path`` (default: :func:`default_path`).

        Raises :class:`NotAJournal` for a file that is not SQLite or not ours, and
        :class:`JournalTooNew` for a newer schema; in both cases nothing is written. A
        damaged journal is set aside and its intact games recovered (:attr:`recovery`)."""
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        p = str(default_path() if path is None else path)
        if p != ":memory:" and not os.path.isdir(os.path.dirname(os.path.abspath(p))):
            raise JournalError(f"{p}: the folder {os.path.dirname(os.path.abspath(p))} does not exist")
        if p != ":memory:" and os.path.isdir(p):
            raise NotAJournal(f"{p} is a folder, not a journal file")
        if p != ":memory:" and os.path.exists(p):
            try:
                with open(p, "rb") as f:
                    head = f.read(len(SQLITE_HEADER))
            except FileNotFoundError:
                # Another window set the damaged file aside just now; under the lock below
                # this one then opens the fresh journal it salvaged.
                head = b""
            if head and head != SQLITE_HEADER:
                raise NotAJournal(f"{p} is not a SQLite database (its first bytes are not the SQLite header); it was left untouched")
        # Every window opens the file under one lock: a window starting while another sets a
        # damaged journal aside waits, then sees the fresh journal whole, never half-salvaged.
        with salvage.opening(p):
            recovery = None
            if p != ":memory:" and os.path.exists(p) and os.path.getsize(p) > 0:
                damage = salvage.damage(p)
                if damage is not None:
                    recovery = salvage.set_aside_and_salvage(p, damage)
                    log.warning("%s (%s)", recovery.message, damage)
            db = connect(p)
            try:
                try:
                    version = read_version(db, p)
                except _Unreadable as e:  # damaged since the check a moment ago: still never written to
                    raise NotAJournal(f"{p} is damaged or not a SQLite database ({e}); it was left untouched") from None
                # Only now, knowing the file is ours (or empty), may anything be written.
                if p != ":memory:":
                    mode = set_wal(db)
                    if str(mode).lower() != "wal":
                        raise JournalError(f"{p}: the journal needs WAL mode, SQLite gave {mode!r}")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
                if version < schema.CURRENT:
                    schema.migrate(db)
            except sqlite3.Error as e:
                db.close()
                raise _typed(e, p) from e
            except BaseException:
                db.close()
                raise
        if 0 < version < 5 and p != ":memory:":
            # Rows migrated to checksums (version 5) are checked like any others: a row the
            # migration could not vouch for sets its game aside now, not at the next launch.
            db.close()
            again = cls.open(p, snapshot_every=snapshot_every)
            again.recovery = again.recovery or recovery
            return again
        return cls(db, p, snapshot_every, recovery)

    # ------------------------------------------------------------------ one writer per game
    def claim(self, key: str) -> None:
        """Become the game's one writer (a Table does, when it opens). Raises
        :class:`GameInUse` when another journal, in this process or another, holds it. This
        journal may claim its own game again (one app reopening a game); each claim is
        given back with :meth:`release`, and all of them by :meth:`close` or the death of
        the process."""
        with self._lock:
            held = self._claims.get(key)
            if held is not None:
                self._claims[key] = (held[0], held[1] + 1)
                return
            lock = None
            if self.path != ":memory:":  # a memory journal has no other connection
                try:
                    lock = GameLock.acquire(self.path, key)
                except Held:
                    raise GameInUse("This game is open in another window. Close it there, then resume it here.") from None
                except OSError as e:
                    raise JournalError(f"{self.path}: the game's lock file cannot be made ({e})") from None
            self._claims[key] = (lock, 1)

    def release(self, key: str) -> None:
        """Give back one :meth:`claim` of the game."""
        with self._lock:
            held = self._claims.get(key)
            if held is None:
                return
            if held[1] > 1:
                self._claims[key] = (held[0], held[1] - 1)
                return
            del self._claims[key]
            if held[0] is not None:
                held[0].release()

    def close(self) -> None:
        with self._lock:
            for lock, _n in self._claims.values():
                if lock is not None:
                    lock.release()
            self._claims.clear()
            self._db.close()

    @property
    def schema_version(self) -> int:
        with self._reading() as db:
            return db.execute("PRAGMA user_version").fetchone()[0]

    # ------------------------------------------------------------------ writing
    def _tx(self) -> "_Tx":
        return _Tx(self)

    def _reading(self) -> "_Read":
        return _Read(self)

    def create_game(self, *, game_id: str, seats: list[dict[str, Any]], options: dict[str, Any], seed: int,
                    started: float, devices: dict[str, str] | None = None, clock_config: dict[str, Any] | None = None,
                    clock_state: dict[str, Any] | None = None, tracked0: dict[str, Any] | None = None,
                    key: str | None = None, position: dict[str, Any] | None = None) -> str:
        """Store a new game's setup; returns its key. ``position``: the position a game
        joined in progress starts from (its private part included: the journal is the save
        file, never shown)."""
        if not key:
            import uuid  # only when a game begins: ~4 ms (it loads platform) off every start

            key = uuid.uuid4().hex[:12]
        with self._tx() as db:
            db.execute(
                "INSERT INTO games (key, game_id, seats, options, seed, started, devices, clock_config, clock_state, tracked0,"
                " position, changes, seqs) VALUES (?,?,?,?,?,?,?,?,?,?,?,0,0)",
                (key, game_id, json.dumps(seats), json.dumps(options), seed, started, json.dumps(devices or {}),
                 _j(clock_config), _j(clock_state), json.dumps(tracked0 or {}), _j(position)),
            )
            changes = check.seal_game(db, key)
        self._ack(key, changes)
        return key

    def append(self, key: str, *, ply: int, seat: str | None, kind: str, action: str, source: str, time: float,
               barrier: str | None = None, turn: int | None = None, tracked: dict[str, Any] | None = None,
               clocks: dict[str, Any] | None = None, snapshot: str | None = None,
               finished: float | None = None, outcome: dict[str, Any] | None = None) -> int:
        """Append one accepted action (and, in the same transaction, supersede any undone
        actions, store a snapshot, the clock state and the end of the game). Returns its
        ``seq``. Returns only once the transaction is durably committed.

        Raises :class:`OffTheLine`, writing nothing, when ``ply`` is not the next ply of the
        journal's line of play (another writer got there first)."""
        with self._tx() as db:
            _check_next(db, key, ply)
            seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM actions WHERE game_key=?", (key,)).fetchone()[0]
            redo = [r[0] for r in db.execute("SELECT seq FROM actions WHERE game_key=? AND undone=?", (key, UNDONE))]
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND undone=?", (SUPERSEDED, key, UNDONE))
            db.execute(
                "INSERT INTO actions (game_key, seq, ply, seat, kind, action, source, time, undone, barrier, turn, tracked, clocks)"
                " VALUES (?,?,?,?,?,?,?,?,0,?,?,?,?)",
                (key, seq, ply, seat, kind, action, source, time, barrier, turn, _j(tracked), _j(clocks)),
            )
            check.seal_actions(db, key, [*redo, seq])
            db.execute("UPDATE games SET seqs=? WHERE key=?", (seq + 1, key))
            # A snapshot is valid only for the line of play it was taken on.
            db.execute("DELETE FROM snapshots WHERE game_key=? AND ply>?", (key, ply))
            if snapshot is not None:
                _put_snapshot(db, key, ply + 1, snapshot)
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            if outcome is not None:
                db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))
            changes = _changed(db, key)
        self._ack(key, changes)
        return seq

    def mark_undone(self, key: str, seq: int, *, clocks: dict[str, Any] | None = None) -> None:
        """Mark the action ``seq`` undone (kept for the log; may be redone)."""
        with self._tx() as db:
            row = db.execute("SELECT ply, undone FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
            if row is None or row[1] != IN_FORCE:
                raise JournalError(f"action {seq} of game {key} is not in force")
            _check_next(db, key, row[0] + 1)  # only the last action of the line is undone
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND seq=?", (UNDONE, key, seq))
            check.seal_actions(db, key, [seq])
            db.execute("DELETE FROM snapshots WHERE game_key=? AND ply>?", (key, row[0]))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            changes = _changed(db, key)
        self._ack(key, changes)

    def mark_redone(self, key: str, seq: int, *, clocks: dict[str, Any] | None = None,
                    finished: float | None = None, outcome: dict[str, Any] | None = None) -> None:
        """Put an undone action back in force (redo)."""
        with self._tx() as db:
            row = db.execute("SELECT undone, ply FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
            if row is None or row[0] != UNDONE:
                raise JournalError(f"action {seq} of game {key} cannot be redone")
            _check_next(db, key, row[1])
            db.execute("UPDATE actions SET undone=? WHERE game_key=? AND seq=?", (IN_FORCE, key, seq))
            check.seal_actions(db, key, [seq])
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            if outcome is not None:
                db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))
            changes = _changed(db, key)
        self._ack(key, changes)

    def set_result(self, key: str, *, finished: float, outcome: dict[str, Any], clocks: dict[str, Any] | None = None) -> None:
        """End a game outside the engine (a loss on time)."""
        with self._tx() as db:
            db.execute("UPDATE games SET finished=?, outcome=? WHERE key=?", (finished, _j(outcome), key))
            if clocks is not None:
                db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            changes = _changed(db, key)
        self._ack(key, changes)

    def set_clock_state(self, key: str, clocks: dict[str, Any]) -> None:
        """Journal the clocks on their own (pause, resume, admin time)."""
        with self._tx() as db:
            db.execute("UPDATE games SET clock_state=? WHERE key=?", (_j(clocks), key))
            changes = _changed(db, key)
        self._ack(key, changes)

    def set_devices(self, key: str, devices: dict[str, str]) -> None:
        """Journal which input source belongs to which seat (a die given to a player mid-game)."""
        with self._tx() as db:
            db.execute("UPDATE games SET devices=? WHERE key=?", (json.dumps(devices), key))
            changes = _changed(db, key)
        self._ack(key, changes)

    def _ack(self, key: str, changes: int) -> None:
        """Record beside the journal that ``changes`` changes of the game were committed,
        before the caller tells anyone (see :mod:`companion.journal_check`). The change is
        already durable: a failure here weakens only the check, so it is logged, counted in
        :attr:`ack_failures`, and not raised."""
        try:
            check.write_ack(self.path, key, changes)
        except OSError as e:
            self.ack_failures += 1
            log.warning("%s: game %s: the acknowledged count could not be written (%s)", self.path, key, e)

    def _refuse(self, key: str, what: str) -> GameDamaged:
        """Count and log a game found damaged on read; the error to raise."""
        if key not in self.damaged:
            log.error("%s: game %s is damaged: %s", self.path, key, what)
            try:
                check.mark_damaged(self.path, key)  # the next open sets it aside
            except OSError as e:
                log.warning("%s: game %s: the damage could not be noted (%s)", self.path, key, e)
        self.damaged.setdefault(key, what)
        return GameDamaged(key, what)

    def put_snapshot(self, key: str, ply: int, state: str) -> None:
        """Store the state after the first ``ply`` actions of the line of play, with its
        checksum."""
        with self._tx() as db:
            _put_snapshot(db, key, ply, state)

    # ------------------------------------------------------------------ reading
    def game(self, key: str) -> GameRow:
        """The game's setup and status, checked against its checksum (:class:`GameDamaged`
        when it does not match)."""
        with self._reading() as db:
            r = db.execute("SELECT key, game_id, seats, options, seed, started, finished, outcome, devices, clock_config,"
                           f" clock_state, tracked0, position, {GAME_OK} FROM games WHERE key=?", (key,)).fetchone()
        if r is None:
            raise UnknownGameKey(f"no game {key!r} in this journal")
        if not r[-1]:
            raise self._refuse(key, "its setup row does not match its checksum")
        return GameRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), r[4], r[5], r[6], _unj(r[7]),
                       json.loads(r[8]), _unj(r[9]), _unj(r[10]), json.loads(r[11]), _unj(r[12]))

    def actions(self, key: str, *, in_force_only: bool = False, from_ply: int = 0) -> list[ActionRow]:
        """The game's actions in order of arrival (``in_force_only``: the line of play from
        ``from_ply``). Every row is checked against its checksum, and a full read against
        the count of actions written: :class:`GameDamaged` when one fails."""
        q = f"SELECT {_ACTION_READ} FROM actions WHERE game_key=?"
        if in_force_only:
            q += " AND undone=0 AND ply>=? ORDER BY ply"
            args: tuple[Any, ...] = (key, from_ply)
        else:
            q += " ORDER BY seq"
            args = (key,)
        with self._reading() as db:
            rows = db.execute(q, args).fetchall()
            written = None if in_force_only else db.execute("SELECT seqs FROM games WHERE key=?", (key,)).fetchone()
        out = []
        for r in rows:
            if not r[-1]:
                raise self._refuse(key, f"action {r[0]} does not match its checksum")
            out.append(_action_row(r[:-1]))
        if written is not None and [a.seq for a in out] != list(range(written[0])):
            raise self._refuse(key, f"{len(out)} actions read of the {written[0]} written")
        return out

    def tracked(self, key: str) -> list[tuple[int, int | None, dict[str, Any]]]:
        """``(ply, turn, tracked values after it)`` for each action in force, in order
        (each row checked, as :meth:`actions`)."""
        with self._reading() as db:
            rows = db.execute(f"SELECT seq, ply, turn, tracked, {ACTION_OK} FROM actions WHERE game_key=? AND undone=0"
                              " ORDER BY ply", (key,)).fetchall()
        out = []
        for seq, ply, turn, v, ok in rows:
            if not ok:
                raise self._refuse(key, f"action {seq} does not match its checksum")
            out.append((ply, turn, json.loads(v) if v is not None else {}))
        return out

    def line_extent(self, key: str) -> tuple[int, int | None, int | None]:
        """``(count, lowest ply, highest ply)`` of the actions in force; ``count`` is -1
        when two of them claim the same ply."""
        with self._reading() as db:
            n, distinct, low, high = db.execute(
                "SELECT COUNT(*), COUNT(DISTINCT ply), MIN(ply), MAX(ply) FROM actions WHERE game_key=? AND undone=0",
                (key,)).fetchone()
        return (n if n == distinct else -1), low, high

    def in_force_count(self, key: str) -> int:
        with self._reading() as db:
            return db.execute("SELECT COUNT(*) FROM actions WHERE game_key=? AND undone=0", (key,)).fetchone()[0]

    def latest_snapshot(self, key: str, max_ply: int) -> tuple[int, str] | None:
        """The newest snapshot at or before ``max_ply`` whose checksum matches its text and
        the journal's line of play: ``(ply, state JSON)``. A snapshot that does not
        match is never used (it is counted in :attr:`snapshots_rejected` and logged); the
        caller replays the actions instead."""
        with self._reading() as db:
            # The newest few only: when they all fail, something is wrong with more than one
            # snapshot, and a replay from the start is the answer rather than a longer search.
            sums = db.execute("SELECT ply, checksum FROM snapshots WHERE game_key=? AND ply<=? ORDER BY ply DESC"
                              " LIMIT 3", (key, max_ply)).fetchall()
            bad: list[int] = []
            found: tuple[int, str] | None = None
            for ply, checksum in sums:
                state = db.execute("SELECT state FROM snapshots WHERE game_key=? AND ply=?", (key, ply)).fetchone()[0]
                if checksum is not None and checksum == _snapshot_sum(key, ply, _line_end(db, key, ply), state):
                    found = (ply, state)
                    break
                bad.append(ply)
        if bad:
            self.snapshots_rejected += len(bad)
            log.warning("%s: game %s: the snapshot(s) at ply %s do not match their checksum; %s", self.path, key,
                        ", ".join(map(str, bad)), f"using the one at ply {found[0]}" if found else "replaying instead")
        return found

    def action_clocks(self, key: str, seq: int) -> dict[str, Any] | None:
        with self._reading() as db:
            r = db.execute("SELECT clocks FROM actions WHERE game_key=? AND seq=?", (key, seq)).fetchone()
        return None if r is None else _unj(r[0])

    # ------------------------------------------------------------------ library
    def games(self, status: str | None = None) -> list[GameSummary]:
        """The game library, newest first; ``status``: None, "in-progress" or "finished"."""
        if status not in (None, "in-progress", "finished"):
            raise ValueError(f"status is None, 'in-progress' or 'finished', not {status!r}")
        q = ("SELECT g.key, g.game_id, g.seats, g.started, g.finished, g.outcome,"
             f" (SELECT COUNT(*) FROM actions a WHERE a.game_key=g.key AND a.undone=0), {GAME_OK} FROM games g")
        if status == "finished":
            q += " WHERE g.finished IS NOT NULL"
        elif status == "in-progress":
            q += " WHERE g.finished IS NULL"
        q += " ORDER BY g.started DESC, g.key"
        with self._reading() as db:
            rows = db.execute(q).fetchall()
        out = []
        for key, game_id, seats, started, finished, outcome, plies, ok in rows:
            if not ok:  # listed as damaged (see ``damaged``), never as some other game
                self._refuse(key, "its setup row does not match its checksum")
                continue
            oc = _unj(outcome)
            # A finished game's outcome carries the seats as it ended (factions dealt in play).
            players = (oc or {}).get("seats") or json.loads(seats)
            out.append(GameSummary(
                key=key, game_id=game_id, players=players,
                factions=list(dict.fromkeys(p.get("faction", "") for p in players)),
                started=started, duration_s=None if finished is None else max(0.0, finished - started),
                result=_result_text(oc, players), status="finished" if finished is not None else "in-progress",
                winner=None if oc is None else oc.get("winner"), plies=plies))
        return out

    def last_in_play(self) -> GameSummary | None:
        """The game in progress that was played last (its newest action, taken back or not,
        else its start), or None: what a relaunch reopens after a crash, whichever game it is."""
        going = {g.key: g for g in self.games("in-progress") if g.key not in self.damaged}
        if not going:
            return None
        with self._reading() as db:
            rows = db.execute("SELECT g.key, COALESCE((SELECT MAX(a.time) FROM actions a WHERE a.game_key=g.key),"
                              " g.started) AS t FROM games g WHERE g.finished IS NULL ORDER BY t DESC, g.key").fetchall()
        return next((going[key] for key, _t in rows if key in going), None)

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


def _changed(db: sqlite3.Connection, key: str) -> int:
    """Count one more change of the game and seal its row (inside the change's
    transaction); returns the count, for :meth:`Journal._ack` once committed."""
    db.execute("UPDATE games SET changes=changes+1 WHERE key=?", (key,))
    return check.seal_game(db, key)


def _j(v: Any) -> str | None:
    return None if v is None else json.dumps(v, allow_nan=False)


def _unj(v: str | None) -> Any:
    return None if v is None else json.loads(v)


def _check_next(db: sqlite3.Connection, key: str, ply: int) -> None:
    """``ply`` must be the next ply of the game's line of play (inside the write's own
    transaction, so no other writer can slip in between)."""
    # MAX alone (one step down the in-force index, not a count of the whole line): a line
    # kept by this check from its first action on has no gaps, so its top ply says its length.
    top = db.execute("SELECT MAX(ply) FROM actions WHERE game_key=? AND undone=0", (key,)).fetchone()[0]
    n = 0 if top is None else top + 1
    if ply != n:
        err = OffTheLine("This game was changed in another window, so this was not saved. "
                         "Go back home and resume the game to see it as it is now.")
        err.ply, err.in_force = ply, n  # type: ignore[attr-defined]
        raise err


def _line_end(db: sqlite3.Connection, key: str, ply: int) -> str:
    """What identifies the line of play's first ``ply`` actions: the seq and JSON of the
    action in force at ``ply - 1``. Seqs are never reused and only the end of the line is
    ever undone, so while that row is in force every action before it is exactly the one
    that was in force when it was written: its seq names the whole line, at the cost of one
    indexed read (hashing the line's every action cost ~35 ms per 10,000 on each resume)."""
    if ply == 0:
        return ""
    rows = db.execute("SELECT seq, action FROM actions WHERE game_key=? AND undone=0 AND ply=?", (key, ply - 1)).fetchall()
    if len(rows) != 1:  # no such action, or a forked line: nothing can match
        return f"unmatched:{len(rows)}"
    return f"{rows[0][0]}\x1f{rows[0][1]}"


def _snapshot_sum(key: str, ply: int, line_end: str, state: str) -> str:
    """A snapshot's checksum: its text, its game and ply, and the line of play it was taken
    on (:func:`_line_end`), so that a changed snapshot and a snapshot of another line both
    fail it."""
    return hashlib.sha256(f"{key}\x1f{ply}\x1f{line_end}\x1f".encode() + state.encode()).hexdigest()


def _put_snapshot(db: sqlite3.Connection, key: str, ply: int, state: str) -> None:
    db.execute("INSERT OR REPLACE INTO snapshots (game_key, ply, state, checksum) VALUES (?,?,?,?)",
               (key, ply, state, _snapshot_sum(key, ply, _line_end(db, key, ply), state)))


class _Read:
    """``with journal._reading() as db``: the journal's lock, and SQLite's errors as the
    journal's own (a damaged page met while reading is :class:`JournalDamaged`)."""

    def __init__(self, journal: Journal) -> None:
        self.j = journal

    def __enter__(self) -> sqlite3.Connection:
        self.j._lock.acquire()
        return self.j._db

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.j._lock.release()
        if isinstance(exc, sqlite3.Error):
            raise _typed(exc, self.j.path) from exc


class _Tx:
    """``with journal._tx() as db``: one IMMEDIATE transaction under the journal's lock,
    committed (durably, synchronous=FULL) on a clean exit, rolled back on an exception.
    SQLite's errors leave as the journal's own (:class:`JournalFull` for a full disk)."""

    def __init__(self, journal: Journal) -> None:
        self.j = journal

    def __enter__(self) -> sqlite3.Connection:
        self.j._lock.acquire()
        try:
            self.j._db.execute("BEGIN IMMEDIATE")
        except BaseException as e:
            self.j._lock.release()
            if isinstance(e, sqlite3.Error):
                raise _typed(e, self.j.path) from e
            raise
        return self.j._db

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        db = self.j._db
        try:
            if exc_type is None:
                try:
                    db.execute("COMMIT")
                except sqlite3.Error as e:
                    _rollback(db)
                    raise _typed(e, self.j.path) from e
            else:
                _rollback(db)
                if isinstance(exc, sqlite3.Error):
                    raise _typed(exc, self.j.path) from exc
        finally:
            self.j._lock.release()


def _rollback(db: sqlite3.Connection) -> None:
    # SQLite may already have rolled back (it does on SQLITE_FULL): then there is nothing to do.
    if db.in_transaction:
        db.execute("ROLLBACK")
