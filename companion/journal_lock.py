"""One writer per game: an OS file lock per game, beside the journal.

Why a lock file and not a lock row in the database: a row outlives a killed holder, so it
needs a liveness guess (pid and boot time, which a reused pid or a container defeats). An
``flock`` lock belongs to the open file and the operating system drops it the moment its
holder exits, however it exits (``kill -9``, a power cut), so a crash can never lock a game
for good. ``flock`` (not ``fcntl``/``lockf`` record locks, which belong to the process) so
that two journal connections in one process also exclude each other.

Each game has its own file, ``<journal>-locks/<game key>.lock``: two windows may play two
different games of one journal. The file is removed by the holder that releases it; a
holder re-checks after locking that the path still names the file it locked, so a release
racing another window's claim never leaves two holders.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> a = GameLock.acquire(os.path.join(folder, "j.sqlite3"), "g1")
>>> GameLock.acquire(os.path.join(folder, "j.sqlite3"), "g1")
Traceback (most recent call last):
...
companion.journal_lock.Held: ...g1.lock
>>> a.release()
>>> GameLock.acquire(os.path.join(folder, "j.sqlite3"), "g1").release()
"""
from __future__ import annotations

import os
import re

from .errors import CompanionError

try:
    import fcntl
except ImportError:  # Windows: msvcrt's byte lock, also dropped when its holder dies
    fcntl = None  # type: ignore[assignment]
    import msvcrt

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class Held(CompanionError):
    """Another open journal (this process or another) holds the game."""


def lock_path(journal_path: str, key: str) -> str:
    """``<journal>-locks/<key>.lock`` (a key's unsafe characters replaced)."""
    return os.path.join(f"{journal_path}-locks", _SAFE.sub("_", key) + ".lock")


class GameLock:
    """A held lock on one game; :meth:`release` it (the OS does, if its holder dies)."""

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd
        # A forked child inherits this object: only the process that took the lock may
        # remove its file (the child's exit must not unlink a file its parent still holds).
        self._pid = os.getpid()

    @classmethod
    def acquire(cls, journal_path: str, key: str) -> "GameLock":
        """Lock ``key`` of the journal at ``journal_path`` without waiting; raises
        :class:`Held` when someone else holds it."""
        path = lock_path(journal_path, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                if not _try_lock(fd):
                    raise Held(path)
                # The holder before us may have removed the file between our open and our
                # lock: then we locked an orphan, and must lock the file the path names now.
                try:
                    same = os.path.samestat(os.fstat(fd), os.stat(path))
                except FileNotFoundError:
                    same = False
            except BaseException:
                os.close(fd)
                raise
            if same:
                return cls(path, fd)
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the game up (idempotent). The file goes first, while still locked, so a
        waiting claimant re-checks and locks a fresh one."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if os.getpid() == self._pid:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        os.close(fd)  # drops the lock (once no other process shares the open file)

    def __del__(self) -> None:  # a lost reference must not hold the game until exit
        try:
            self.release()
        except Exception:
            pass


class Exclusive:
    """``with Exclusive(path):`` a blocking lock on ``path`` (created if needed) for work
    that only one process may do at a time, such as setting a damaged journal aside."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> "Exclusive":
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        else:  # pragma: no cover - Windows
            msvcrt.locking(self._fd, msvcrt.LK_LOCK, 1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    try:  # pragma: no cover - Windows
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True
