"""What players must never read (issue 32, item 11): a seat id ("criminals-1"), a faction id
("bingmai"), a device id ("sim/0"), a process's exit status ("status 3") or a ruling code
("RULINGS L-01", "L-01"). Players see names; the ids are the program's.

>>> leaks(["Criminals-1 ran out of time", "That die (sim/0) is not any player's", "won by the bingmai",
...        "the link opener stopped with status 3", "the 14 cities and their lines (RULINGS L-01)"],
...       seats={"criminals-1"}, factions={"bingmai": "Bingmai Gamblers"})  # doctest: +NORMALIZE_WHITESPACE
[('seat id criminals-1', 'Criminals-1 ran out of time'), ('device id', "That die (sim/0) is not any player's"),
 ('faction id bingmai', 'won by the bingmai'), ('exit status', 'the link opener stopped with status 3'),
 ('ruling code', 'the 14 cities and their lines (RULINGS L-01)')]
>>> leaks(["Bob ran out of time", "won by Ann (Bingmai Gamblers)", "the cops held the city", "Dice hub 2"],
...       seats={"criminals-1"}, factions={"bingmai": "Bingmai Gamblers", "cops": "Cops"})
[]
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping

_DEVICE = re.compile(r"(?<![\w-])(?:sim|gpio|ble|hub\d+)(?:/\d+)?(?![\w-])|\bdie:\S")
_STATUS = re.compile(r"\b(?:exit )?(?:status|code) -?\d+\b", re.IGNORECASE)
_RULING = re.compile(r"\bRULINGS\b|(?<![\w-])[A-Z]{1,3}-\d{2}(?![\w-])")


def _word(text: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(text) + r"(?![\w-])")


def leaks(texts: Iterable[str], seats: Iterable[str], factions: Mapping[str, str]) -> list[tuple[str, str]]:
    """(what leaked, the text) for each text that shows an id, an exit status or a ruling
    code. ``seats``: seat ids (matched in any case: "Criminals-1"); ``factions``: faction id
    → its name. A faction id that is its name in lower case ("cops" for "Cops") is an
    ordinary word ("the cops held…"), not a leak; any other ("bingmai") is."""
    seat_patterns = [(s, re.compile(_word(s).pattern, re.IGNORECASE)) for s in sorted(set(seats))]
    faction_patterns = [(f, _word(f)) for f, name in sorted(factions.items()) if f != name.lower()]
    out = []
    for text in texts:
        found = next((f"seat id {s}" for s, p in seat_patterns if p.search(text)), None)
        found = found or ("device id" if _DEVICE.search(text) else None)
        found = found or next((f"faction id {f}" for f, p in faction_patterns if p.search(text)), None)
        found = found or ("exit status" if _STATUS.search(text) else None)
        found = found or ("ruling code" if _RULING.search(text) else None)
        if found:
            out.append((found, text))
    return out
