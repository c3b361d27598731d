"""What of an action a log line or an export shows.

The engine decides what each viewer may see of an action, field by field
(``Game.public_action``: a sealed commit shows only that its seat chose; a card put face
down is left out). Nothing here matches strings against secrets: a card named like a seat,
or two cards with one name, can neither leak nor be over-redacted.

>>> public_data({"$": "core.draw", "seat": "a", "deck": "gains", "source": "app"})
{'deck': 'gains'}
>>> public_data({"$": "raid.bid", "seat": "a", "sealed": True})
{'choice': '(hidden)'}
"""
from __future__ import annotations

from typing import Any

HIDDEN = "(hidden)"
_META = ("$", "seat", "source")


def public_data(data: dict[str, Any]) -> dict[str, Any]:
    """An action's visible fields (``Game.public_action`` form), without the bookkeeping
    keys (tag, seat, source) the record holds elsewhere; a sealed commit shows HIDDEN."""
    if data.get("sealed"):
        return {"choice": HIDDEN}
    return {k: v for k, v in data.items() if k not in _META}


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
