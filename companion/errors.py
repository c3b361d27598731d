"""The root of the exceptions ``companion`` raises (one base class per layer, as
``rules.RulesError`` and ``firmware_bridge.BridgeError``): the journal, the Table, the
clocks, exports, input mappings, undo and the secret desk all raise a
:class:`CompanionError`, so the app can catch "the session layer said no" by name and let
anything else (a programming error) reach the crash report.

Existing errors keep ``ValueError`` (or ``KeyError``) as a second base where callers
already rely on it.
"""
from __future__ import annotations


class CompanionError(Exception):
    """The session layer refused or could not do something. ``code`` is a stable short
    string for logs and tests."""

    code: str = "companion"
