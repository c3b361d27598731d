"""The journal's errors: one base, :class:`JournalError`, and SQLite's errors put into
the journal's plain words (:func:`_typed`), the SQLite text kept on the error for the log.

>>> str(GameDamaged("k1", "action 3 does not match its checksum")).split(",")[0]
"This game's saved record is damaged"
"""
from __future__ import annotations

import sqlite3

from .errors import CompanionError


class JournalError(CompanionError, ValueError):
    """Base of the journal's errors."""

    code = "journal-error"


class NotAJournal(JournalError):
    """The file is not a readable SQLite database, or is someone else's database. It is
    left exactly as it was."""

    code = "not-a-journal"


class JournalTooNew(JournalError):
    """The journal was written by a newer version of the app (a higher schema version)."""

    code = "journal-too-new"


class GameInUse(JournalError):
    """Another window (another process, or another open journal in this one) has the game
    open: only one may write to it."""

    code = "game-in-use"


class OffTheLine(JournalError):
    """A write that does not follow the journal's line of play (someone else wrote to the
    game since this window read it). Nothing was written."""

    code = "off-the-line"


class JournalFull(JournalError):
    """The disk holding the journal is full. Nothing was written."""

    code = "journal-full"


class JournalDamaged(JournalError):
    """SQLite found the journal file damaged while reading or writing it."""

    code = "journal-damaged"


class GameDamaged(JournalDamaged):
    """One game's stored record fails its own check (a row that does not match its
    checksum, actions missing): the game is refused, never replayed as some other game;
    the journal's other games are not affected. ``key`` names the game (for the log)."""

    code = "game-damaged"

    def __init__(self, key: str, what: str) -> None:
        super().__init__("This game's saved record is damaged, so it cannot be resumed, shown or exported. "
                         "The other games are not affected. Restart the app: it sets the damaged game aside "
                         "(it is kept, never deleted) and recovers every other game.")
        self.key, self.what = key, what


class UnknownGameKey(JournalError, KeyError):
    """No game with that key in this journal."""

    code = "unknown-game"

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


# SQLite's primary result codes (sqlite3.h) that the journal tells apart.
_CORRUPT, _FULL, _NOTADB, _BUSY, _LOCKED, _IOERR, _READONLY = 11, 13, 26, 5, 6, 10, 8
_DAMAGED = (_CORRUPT, _NOTADB)


class _Unreadable(Exception):
    """SQLite cannot read the file's schema (damage, or not a database at all)."""


def _code(e: sqlite3.Error) -> int:
    return (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF


def _undecodable(e: sqlite3.Error) -> bool:
    """A stored text that is not UTF-8 any more (a flipped bit turned it into bytes
    Python cannot decode): damage. Met in a row read, the message quotes the text (so it
    is never shown); met in the checksum's function, Python could not even call it; a
    text turned into a BLOB, which no column of ours holds."""
    text = str(e).lower()
    return any(m in text for m in ("could not decode", "user-defined function raised exception",
                                   "json cannot hold blob"))


def _typed(e: sqlite3.Error, path: str) -> JournalError:
    """SQLite's error as the journal's own, in plain words; ``path`` and the SQLite text
    stay on the exception for the log."""
    code = _code(e)
    if code == _FULL:
        err: JournalError = JournalFull("The disk is full, so this was not saved and nothing changed. "
                                        "Free some space on this device, then try again.")
    elif code in _DAMAGED or _undecodable(e):
        err = JournalDamaged("The game journal is damaged, so this was not saved. Restart the app: it sets the "
                             "damaged journal aside and recovers every game it can.")
    elif code in (_BUSY, _LOCKED):
        err = JournalError("The game journal is busy in another window, so this was not saved. Try again.")
    elif code == _READONLY:
        err = JournalError("The game journal cannot be written (it is read-only), so this was not saved.")
    elif code == _IOERR:
        err = JournalError("The game journal could not be written (a disk error), so this was not saved.")
    else:
        err = JournalError(f"The game journal could not be used ({e}).")
    err.path = path  # type: ignore[attr-defined]
    err.sqlite_error = str(e)  # type: ignore[attr-defined]
    return err
