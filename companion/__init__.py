"""The session layer: a Table owns one game in progress (engine + journal + clocks + input
routing + secret desk); the journal is the save file and the game library. No Kivy here:
``companion.ui`` is the app. See companion/README.md for the API.

The names below are imported on first use (PEP 562), so ``python -m companion`` starts its
``main()`` before the session layer's modules load: it holds the garbage collector off
during start-up first (see ``companion/ui/collector.py``).

>>> from companion import Table
>>> Table.__module__
'companion.table'
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "journal": ("ActionRow", "GameDamaged", "GameInUse", "GameRow", "GameSummary", "Journal", "JournalDamaged", "JournalError",
                "JournalFull", "JournalTooNew", "NotAJournal", "OffTheLine", "Recovery", "Stats", "UnknownGameKey",
                "default_path"),
    "record": ("ActionRecord", "GameRecord"),
    "routing": ("MappingError", "RouteView", "Router", "load_mapping"),
    "secret_desk": ("NotYourSecret", "SecretDesk", "SecretError", "SecretStatus"),
    "results": ("Accepted", "Change", "Rejected", "RouteResult", "Routed", "rejected_from"),
    "table": ("LogLine", "NothingToRoll", "Table", "TableClosed", "TableError", "plain_outcome"),
    "undo": ("UndoRefused", "undo_refusal"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'companion' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what type checkers and IDEs see
    from .journal import (
        ActionRow, GameDamaged, GameInUse, GameRow, GameSummary, Journal, JournalDamaged, JournalError, JournalFull, JournalTooNew,
        NotAJournal, OffTheLine, Recovery, Stats, UnknownGameKey, default_path,
    )
    from .record import ActionRecord, GameRecord
    from .routing import MappingError, RouteView, Router, load_mapping
    from .secret_desk import NotYourSecret, SecretDesk, SecretError, SecretStatus
    from .results import Accepted, Change, Rejected, RouteResult, Routed, rejected_from
    from .table import LogLine, NothingToRoll, Table, TableClosed, TableError, plain_outcome
    from .undo import UndoRefused, undo_refusal
