"""Reading a position (see :meth:`Game.position`): field checks that collect one
:class:`Violation` per problem, each naming the field path, instead of stopping at the first."""
from __future__ import annotations

from typing import Any, Iterable

from .errors import InvalidSetup, Violation


class PositionReader:
    """Collects the problems of one position; :meth:`done` raises them all at once.

    >>> r = PositionReader({"turn": 0}, "Setup")
    >>> r.int("turn", lo=1)
    >>> [str(v) for v in r.found]
    ['position.turn: must be a whole number from 1, not 0. [Setup]']
    """

    def __init__(self, position: dict[str, Any], rule: str) -> None:
        self.position = position
        self.rule = rule
        self.found: list[Violation] = []

    def bad(self, path: str, message: str) -> None:
        self.found.append(Violation("bad-position", self.rule, f"position.{path}: {message}"))

    def keys(self, data: dict[str, Any], required: Iterable[str], optional: Iterable[str] = (), path: str = "") -> None:
        """Every required key present, no unknown key."""
        req, opt = list(required), set(optional)
        prefix = f"{path}." if path else ""
        for k in req:
            if k not in data:
                self.bad(f"{prefix}{k}", "missing.")
        for k in data:
            if k not in req and k not in opt:
                self.bad(f"{prefix}{k}", "not a field of this game's position.")

    def int(self, path: str, value: Any = None, lo: int | None = None, hi: int | None = None) -> int | None:
        """The whole number at ``path`` (read from the position unless ``value`` is given)."""
        if value is None:
            value = self.position.get(path)
        ok = isinstance(value, int) and not isinstance(value, bool) and (lo is None or value >= lo) and (hi is None or value <= hi)
        if not ok:
            span = f" from {lo}" if hi is None and lo is not None else (f" from {lo} to {hi}" if lo is not None else "")
            self.bad(path, f"must be a whole number{span}, not {value!r}.")
            return None
        return value

    def obj(self, path: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.bad(path, f"must be a JSON object, not {type(value).__name__}.")
            return {}
        return value

    def list(self, path: str, value: Any) -> list[Any]:
        if not isinstance(value, list):
            self.bad(path, f"must be a list, not {type(value).__name__}.")
            return []
        return value

    def done(self) -> None:
        if self.found:
            raise InvalidSetup(self.found)
