"""The session layer: a Table owns one game in progress (engine + journal + clocks + input
routing + secret desk); the journal is the save file and the game library. No Kivy here:
``companion.ui`` is the app. See companion/README.md for the API."""
from .journal import (
    ActionRow, GameRow, GameSummary, Journal, JournalError, JournalTooNew, NotAJournal, Stats, UnknownGameKey,
    default_path,
)
from .record import ActionRecord, GameRecord
from .routing import MappingError, Router, load_mapping
from .secrets import NotYourSecret, SecretDesk, SecretError, SecretStatus
from .table import (
    Accepted, Change, LogLine, NothingToRoll, Rejected, RouteResult, Table, TableClosed, TableError, plain_outcome,
)
from .undo import UndoRefused, undo_refusal

__all__ = [
    "Accepted", "ActionRecord", "ActionRow", "Change", "GameRecord", "GameRow", "GameSummary", "Journal",
    "JournalError", "JournalTooNew", "LogLine", "MappingError", "NotAJournal", "NotYourSecret", "NothingToRoll",
    "Rejected", "RouteResult", "Router", "SecretDesk", "SecretError", "SecretStatus", "Stats", "Table",
    "TableClosed", "TableError", "UndoRefused", "UnknownGameKey", "default_path", "load_mapping",
    "plain_outcome", "undo_refusal",
]
