"""What lets the journal notice damage SQLite cannot see: a checksum on every stored row,
and the count of acknowledged changes per game kept outside the database.

**Row checksums.** Every ``games`` row and every ``actions`` row carries a CRC-32 over all
of its other columns (the game, the seq and ply, the action's JSON, whether it is undone,
the tracked values…). SQLite checks its pages' structure, not what a record says: a
flipped bit inside an action's JSON, a roll's value or a seat passes ``PRAGMA
integrity_check``. The checksum catches it: CRC-32 finds every single-bit error and every
burst of up to 32 bits, so a changed action is refused instead of replayed as another
game. SQLite spells the row out itself (``json_array`` of its columns: a text quoted, an
integer in digits, NULL as ``null``, so no two different rows read the same; a BLOB,
which no column of ours holds, is refused), and one function call per row takes the CRC
of that text and of the row's REAL columns as Python writes them (``repr``: exact, and
the same in every SQLite version, which SQLite's own spelling of a REAL is not). Measured
on 23,000 rows: the row spelled value by value in Python cost about 2 s, ``quote()`` of
each column joined with ``||`` 520 ms, ``json_array`` 67 ms.

>>> db = sqlite3.connect(":memory:"); register(db)
>>> row = "json_array(a, b)"
>>> crc = lambda a, b: db.execute(f"SELECT tc_row_sum({row}, 1.5) FROM (SELECT ? AS a, ? AS b)", (a, b)).fetchone()[0]
>>> crc("4", 1) == crc("5", 1), crc("1", 2) == crc(1, 2), crc("a,1", 2) == crc("a", "1,2")
(False, False, False)

**Acknowledged changes, beside the database.** A game's row counts the changes made to it
(``games.changes``: every action, undo, redo, result, clock and device change). After each
change is committed, and before the Table tells anyone, the count is written to a small
file per game, ``<journal>-acked/<key>``, and synced. Why outside SQLite: the WAL holds the
newest transactions, and SQLite discards every WAL frame from the first one whose checksum
fails, silently, so a damaged WAL rolls a game back to an older state that the database
alone cannot tell from the truth. The file can: a game whose row counts fewer changes than
were acknowledged (or that is gone altogether) has lost acknowledged actions. The count is
written after the commit, so a crash between the two leaves the file behind the database,
never ahead of it (no false alarm); a reader reads the files first and the database after,
for the same reason. Each file holds two slots written alternately, each with its own
CRC-32, so a torn write leaves the previous count readable.

>>> import tempfile, os
>>> j = os.path.join(tempfile.mkdtemp(), "journal.sqlite3")
>>> write_ack(j, "g1", 5); write_ack(j, "g1", 6); read_acks(j)
{'g1': 6}
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from typing import Any, Iterable

# The columns each checksum covers, in order; the REAL ones are folded in by Python (``repr``).
ACTION_COLS = ("game_key", "seq", "ply", "seat", "kind", "action", "source", "time", "undone", "barrier", "turn",
               "tracked", "clocks")
GAME_COLS = ("key", "game_id", "seats", "options", "seed", "started", "finished", "outcome", "devices",
             "clock_config", "clock_state", "tracked0", "position", "changes", "seqs")
_ACTION_REALS = ("time",)
_GAME_REALS = ("started", "finished")
# The JSON columns a migrated row must parse before the migration vouches for it.
ACTION_JSON = ("action", "tracked", "clocks")
GAME_JSON = ("seats", "options", "devices", "tracked0", "outcome", "clock_config", "clock_state", "position")


def _sum_sql(cols: tuple[str, ...], reals: tuple[str, ...]) -> str:
    text = ", ".join(c for c in cols if c not in reals)
    return f"tc_row_sum(json_array({text}), {', '.join(reals)})"


#: SQL for a row's checksum as it should be, and for "the row matches its checksum" (1 or
#: 0), on a connection given the function by :func:`register`.
ACTION_SUM = _sum_sql(ACTION_COLS, _ACTION_REALS)
GAME_SUM = _sum_sql(GAME_COLS, _GAME_REALS)
ACTION_OK = f"(checksum IS NOT NULL AND checksum = {ACTION_SUM})"
GAME_OK = f"(checksum IS NOT NULL AND checksum = {GAME_SUM})"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_DAMAGED_MARK = "~damaged"  # never part of a key's file name ("~" is replaced)
_SLOT = 32  # bytes per slot of an ack file: "<count:22d> <crc32:08x>\n"


def row_sum(text: Any, *reals: Any) -> int:
    """The CRC-32 of a row as SQLite spelled it (``text``) and of its REAL columns. Any
    value is taken (a damaged record may hold another type where a text belongs): its
    ``repr`` differs, and so does the sum."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else repr(text).encode()
    crc = zlib.crc32(data)
    for r in reals:
        crc = zlib.crc32(b"|" + repr(r).encode(), crc)
    return crc


def register(db: sqlite3.Connection) -> None:
    """Give ``db`` the ``tc_row_sum`` function the checksums' SQL calls."""
    db.create_function("tc_row_sum", -1, row_sum, deterministic=True)


def parses(row: dict[str, Any], cols: Iterable[str]) -> bool:
    """Whether every JSON column of ``row`` among ``cols`` parses (a migration vouches for
    nothing else)."""
    try:
        for c in cols:
            if row.get(c) is not None:
                json.loads(row[c])
    except (ValueError, TypeError, RecursionError):
        return False
    return True


# ------------------------------------------------------------------ acknowledged changes

def acks_folder(journal_path: str) -> str:
    return f"{journal_path}-acked"


def ack_path(journal_path: str, key: str) -> str:
    """``<journal>-acked/<key>`` (a key's unsafe characters replaced)."""
    return os.path.join(acks_folder(journal_path), _SAFE.sub("_", key))


def write_ack(journal_path: str, key: str, changes: int) -> None:
    """Record, durably, that ``changes`` changes of game ``key`` were acknowledged. Called
    after the change's commit; a failure here (a full disk) is logged by the caller and
    costs only the check, never the change."""
    if journal_path == ":memory:":
        return
    path = ack_path(journal_path, key)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = f"{changes:022d}"
    record = f"{text} {zlib.crc32(os.path.basename(path).encode() + text.encode()):08x}\n".encode()
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, record, (changes % 2) * _SLOT)
        (getattr(os, "fdatasync", None) or os.fsync)(fd)
    finally:
        os.close(fd)


def _read_ack(path: str, key: str) -> int | None:
    try:
        with open(path, "rb") as f:
            raw = f.read(2 * _SLOT)
    except OSError:
        return None
    best = None
    for i in range(0, len(raw) - _SLOT + 1, _SLOT):
        slot = raw[i:i + _SLOT]
        try:
            text, crc = slot[:22].decode("ascii"), int(slot[23:31], 16)
        except ValueError:
            continue
        if text.isdigit() and crc == zlib.crc32(key.encode() + text.encode()):
            best = max(best or 0, int(text))
    return best


def read_acks(journal_path: str) -> dict[str, int]:
    """``{game key: changes acknowledged}`` from the ack files (an unreadable file vouches
    for nothing and is left out). The key is the file's name: games' keys are made of
    safe characters; a key that is not has its file found by :func:`ack_path`."""
    folder = acks_folder(journal_path)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return {}
    out = {}
    for name in names:
        if name.endswith(_DAMAGED_MARK):
            continue
        n = _read_ack(os.path.join(folder, name), name)
        if n is not None:
            out[name] = n
    return out


def ack_of(acks: dict[str, int], key: str) -> int | None:
    return acks.get(_SAFE.sub("_", key))


def mark_damaged(journal_path: str, key: str) -> None:
    """Note beside the journal that game ``key`` was found damaged when read, so the next
    open sets it aside (the open checks the rows of games in progress only)."""
    if journal_path != ":memory:":
        path = ack_path(journal_path, key) + _DAMAGED_MARK
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="ascii") as f:
            f.write("damaged\n")


def damaged_marks(journal_path: str) -> set[str]:
    """The games (their file names, as :func:`read_acks`) noted by :func:`mark_damaged`."""
    try:
        names = os.listdir(acks_folder(journal_path))
    except OSError:
        return set()
    return {n[:-len(_DAMAGED_MARK)] for n in names if n.endswith(_DAMAGED_MARK)}


# ------------------------------------------------------------------ checking a whole file

def problems(db: sqlite3.Connection, acks: dict[str, int], marks: Iterable[str] = (), limit: int = 3) -> list[str]:
    """What the row checksums, the count of each game's actions, the acknowledged changes
    and the games marked damaged (:func:`mark_damaged`) say is wrong with the journal open
    on ``db`` (schema version 5 or newer), in a few sentences (empty: nothing). ``acks``
    must be read before ``db``'s read began.

    Every games row is checked, and the action rows of the games in progress (those a
    resume replays). A finished game's actions are checked when read (its history, an
    export): checking every row of a library of 100 finished games cost 0.2 to 0.5 s at
    every launch (BENCHMARKS.md), for games that are only ever read back, and a finished
    game found damaged then is marked, so the next open sets it aside."""
    found: list[str] = []
    register(db)
    bad = db.execute(f"SELECT key FROM games NOT INDEXED WHERE NOT {GAME_OK} LIMIT {limit:d}").fetchall()
    found += [f"game {k}: its setup row does not match its checksum" for (k,) in bad]
    bad = db.execute("SELECT game_key, seq FROM actions NOT INDEXED WHERE game_key IN"
                     f" (SELECT key FROM games WHERE finished IS NULL) AND NOT {ACTION_OK} LIMIT {limit:d}").fetchall()
    found += [f"game {k}: action {seq} does not match its checksum" for k, seq in bad]
    counted = dict(db.execute("SELECT game_key, COUNT(*) FROM actions GROUP BY game_key").fetchall())
    games = db.execute("SELECT key, seqs, changes FROM games NOT INDEXED").fetchall()
    for key, seqs, changes in games:
        if counted.get(key, 0) != seqs:
            found.append(f"game {key}: {counted.get(key, 0)} actions stored of the {seqs} written")
        acked = ack_of(acks, key)
        if acked is not None and changes < acked:
            found.append(f"game {key}: {changes} changes stored of the {acked} acknowledged")
    known = {_SAFE.sub("_", k) for k, _s, _c in games}
    found += [f"game {k}: found damaged when read" for k in sorted(set(marks) & known)]
    found += [f"game {k}: acknowledged, but missing from the journal" for k in sorted(set(acks) - known)]
    return found[:limit]


def checked_game(db: sqlite3.Connection, key: str, acks: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's row and its actions as stored, checked for the salvage: every row matches
    its checksum (a journal of schema version 5 or newer: the columns are there) or,
    older, every JSON column parses; seqs 0..n-1 with none missing; a line of play
    without gaps; no fewer changes than were acknowledged. Rows are found through the
    indexes (a damaged page elsewhere in the table must not cost every game); the count of
    actions written catches an index that lost some. Raises ValueError (or SQLite's
    error) otherwise."""
    register(db)
    sealed = "checksum" in {r[1] for r in db.execute("PRAGMA table_info(games)")}  # version 5 or newer
    cur = db.execute(f"SELECT *, {GAME_OK if sealed else 1} AS tc_ok FROM games WHERE key=?", (key,))
    names = [d[0] for d in cur.description]
    rows = cur.fetchall()
    if len(rows) != 1:
        raise ValueError(f"game {key}: {len(rows)} setup rows")
    game = dict(zip(names, rows[0]))
    cur = db.execute(f"SELECT *, {ACTION_OK if sealed else 1} AS tc_ok FROM actions WHERE game_key=?", (key,))
    names = [d[0] for d in cur.description]
    actions = sorted((dict(zip(names, r)) for r in cur.fetchall()), key=lambda a: a["seq"])
    if not game.pop("tc_ok"):
        raise ValueError(f"game {key}: its setup row does not match its checksum")
    for a in actions:
        if not a.pop("tc_ok"):
            raise ValueError(f"game {key}: action {a['seq']} does not match its checksum")
    if sealed and game["seqs"] != len(actions):
        raise ValueError(f"game {key}: actions missing")
    if not sealed and not (parses(game, GAME_JSON) and all(parses(a, ACTION_JSON) for a in actions)):
        raise ValueError(f"game {key}: a row that does not parse")
    acked = ack_of(acks, key)
    if acked is not None and game.get("changes", 0) < acked:
        raise ValueError(f"game {key}: acknowledged changes missing")
    if [a["seq"] for a in actions] != list(range(len(actions))):
        raise ValueError(f"game {key}: actions missing")
    line = sorted(a["ply"] for a in actions if a.get("undone", 0) == 0)
    if line != list(range(len(line))):
        raise ValueError(f"game {key}: the line of play has gaps")
    return game, actions


def seal_game(db: sqlite3.Connection, key: str) -> int:
    """Recompute game ``key``'s row checksum after a change (inside the change's
    transaction; ``db`` :func:`register`-ed); returns its count of changes."""
    db.execute(f"UPDATE games SET checksum={GAME_SUM} WHERE key=?", (key,))
    return db.execute("SELECT changes FROM games WHERE key=?", (key,)).fetchone()[0]


def seal_actions(db: sqlite3.Connection, key: str, seqs: Iterable[int]) -> None:
    """Recompute the checksums of game ``key``'s actions ``seqs`` from the rows as stored
    (inside the change's transaction: after an insert, or an update of ``undone``)."""
    db.executemany(f"UPDATE actions SET checksum={ACTION_SUM} WHERE game_key=? AND seq=?", [(key, q) for q in seqs])
