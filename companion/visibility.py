"""What of an action the shared screen may see.

A journaled action may carry hidden information (the card a seat drew, a secret choice not
yet revealed). Before an action reaches a public log line or an export of a game in
progress, every value the engine says is secret from the public (``Game.secrets``) is
replaced by :data:`HIDDEN`, and a secret choice is hidden until its round is revealed.

>>> public_data({"$": "core.draw", "seat": "a", "deck": "gains", "card": "g7", "source": "app"}, {"g7"})
{'deck': 'gains', 'card': '(hidden)'}
>>> public_data({"$": "core.commit", "seat": "a", "choice": "rock"}, set(), hide_choice=True)
{'choice': '(hidden)'}
"""
from __future__ import annotations

from typing import Any, Iterable

HIDDEN = "(hidden)"
_META = ("$", "seat", "source")


def redact(value: Any, hidden: set[str]) -> Any:
    """``value`` with every string in ``hidden`` replaced by HIDDEN (ids match whole)."""
    if isinstance(value, str):
        return HIDDEN if value in hidden else value
    if isinstance(value, list):
        return [redact(v, hidden) for v in value]
    if isinstance(value, dict):
        return {k: redact(v, hidden) for k, v in value.items()}
    return value


def public_data(data: dict[str, Any], hidden: Iterable[str], *, hide_choice: bool = False) -> dict[str, Any]:
    """An action's fields (``rules.core.to_data`` form) as the public may see them, without
    the bookkeeping keys (tag, seat, source) the record holds elsewhere."""
    h = {s for s in hidden if s}
    out = {k: redact(v, h) for k, v in data.items() if k not in _META}
    if hide_choice and "choice" in out:
        out["choice"] = HIDDEN
    return out


def describe(kind: str, seat: str | None, data: dict[str, Any]) -> str:
    """A short line for the log: ``"cop-1: move tile=o-docks"``.

    >>> describe("roll", "cop-1", {"values": [3, 4]})
    'cop-1: roll values=3,4'
    """
    bits = []
    for k, v in data.items():
        if isinstance(v, list):
            v = ",".join(str(x) for x in v)
        if v in ("", None, 0, False) and k not in ("values",):
            continue
        bits.append(f"{k}={v}")
    return f"{seat or '—'}: {kind}" + (" " + " ".join(bits) if bits else "")
