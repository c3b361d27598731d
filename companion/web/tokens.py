"""Seat tokens: an unguessable secret per seat of one game, re-issuable (which revokes
the old one). A token grants exactly one seat of one game.

>>> book = TokenBook("game-1", ["dyn", "lib"])
>>> t = book.issue("lib")
>>> book.grant(t)
Grant(game='game-1', seat='lib')
>>> t2 = book.issue("lib"); book.grant(t) is None, book.grant(t2).seat
(True, 'lib')
>>> book.grant("not-a-token") is None
True
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass
from typing import Iterable

TOKEN_BYTES = 32  # 256 bits: guessing is hopeless, so a wrong token is simply refused
MAX_TOKEN_CHARS = 64


@dataclass(frozen=True)
class Grant:
    """What a valid token allows: one seat of one game."""

    game: str
    seat: str


def _digest(token: str) -> bytes:
    # Tokens are looked up by their hash: the table holds no token a timing probe could walk.
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


class TokenBook:
    """The live tokens of one game's seats. Thread-safe (the app's thread issues, the
    server's thread checks)."""

    def __init__(self, game: str, seats: Iterable[str]) -> None:
        self.game = game
        self.seats = tuple(seats)
        self._by_digest: dict[bytes, str] = {}
        self._of_seat: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def issue(self, seat: str) -> str:
        """A new token for ``seat``; any token it had before stops working."""
        if seat not in self.seats:
            raise KeyError(f"{seat!r} is not a seat of this game")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self._lock:
            old = self._of_seat.pop(seat, None)
            if old is not None:
                self._by_digest.pop(old, None)
            d = _digest(token)
            self._by_digest[d] = seat
            self._of_seat[seat] = d
        return token

    def revoke(self, seat: str) -> None:
        """``seat`` has no phone any more (its token stops working)."""
        with self._lock:
            old = self._of_seat.pop(seat, None)
            if old is not None:
                self._by_digest.pop(old, None)

    def grant(self, token: str) -> Grant | None:
        """The seat ``token`` opens, or None (wrong, revoked, or malformed)."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
            return None
        d = _digest(token)
        with self._lock:
            for known, seat in self._by_digest.items():
                if hmac.compare_digest(known, d):
                    return Grant(self.game, seat)
        return None

    def holds(self, token: str, seat: str) -> bool:
        g = self.grant(token)
        return g is not None and g.seat == seat

    def issued(self) -> tuple[str, ...]:
        """The seats that have a live token."""
        with self._lock:
            return tuple(s for s in self.seats if s in self._of_seat)
