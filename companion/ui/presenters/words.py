"""Player words for what the engine and the Table say (no Kivy).

Engine sentences, undo refusals and the Table's lines for undone actions are written for
referees and programs: they name seats by id ("dynasty-1's attack"), quote option and
action ids ("criminals-gain", "first_city", "tile=o-docks") and cite rulings
("(RULINGS E-02)", "(L-02)"). Everything a game screen shows passes through
:func:`humanise` first, with the game's own names for its ids.

>>> humanise("dynasty-1's first_city cannot be taken back (RULINGS L-02).", {"dynasty-1": "Dana"})
"Dana's first city cannot be taken back."
>>> humanise("undone — Ann: move tile=o-docks", {"o-docks": "the Docks"})
'undone — Ann: move the Docks'
>>> humanise("Glossary: missions (referee questions, RULINGS.md L-10)", {})
'Glossary: missions (referee questions)'
>>> humanise("cop_escape_pay is roll-only; balance = 1 (L-02)", {"roll-only": "roll only"})
'cop escape pay is roll only; balance: 1'
"""
from __future__ import annotations

import re
from typing import Mapping

_CODE = r"[A-Z]{1,3}-\d{1,3}"
_RULINGS = r"RULINGS(?:\.md)?:?\s+" + _CODE + r"(?:\s*(?:,|and|&)\s*" + _CODE + r")*"
_PATTERNS = (
    # "(RULINGS E-02)", "(see RULINGS.md T-03)", "(L-02)": the whole aside goes.
    (re.compile(r"\s*\((?:see\s+)?(?:" + _RULINGS + r"|" + _CODE + r")\)"), ""),
    # "(referee questions, RULINGS.md L-10)": the reference inside an aside goes.
    (re.compile(r"\s*[,;]\s*(?:see\s+)?" + _RULINGS), ""),
    # A bare "RULINGS S-02" or "Rule: L-02".
    (re.compile(r"\s*(?:see\s+)?" + _RULINGS), ""),
    # "tile=o-docks" (the Table's line for an undone action): the value alone (ids among
    # values become names below); "balance = 1": "balance: 1".
    (re.compile(r"\b[a-z][a-z_]*=(?=\S)"), ""),
    (re.compile(r"\b([a-z][a-z_]*) = (?=\S)"), r"\1: "),
)
_SNAKE = re.compile(r"(?<=[a-z])_(?=[a-z])")


def humanise(text: str, names: Mapping[str, str]) -> str:
    """``text`` in player words: ids in ``names`` (seats, tiles, cities, option values…)
    become their names, ``key=value`` becomes the value, ``snake_case`` words become
    words, and ruling references are dropped (a player reads the rule's words, a referee
    the RULINGS file)."""
    if not text:
        return text
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    if names:
        pattern = _ids_pattern(tuple(sorted(names, key=len, reverse=True)))
        text = pattern.sub(lambda m: names[m.group(1)] or m.group(1), text)
    text = _SNAKE.sub(" ", text)
    text = re.sub(r"(?<=\d),(?=\d)", ", ", text)  # "values=3,4" → "3, 4"
    return re.sub(r"[ \t]{2,}", " ", text).replace(" .", ".").strip()


_CACHE: dict[tuple[str, ...], re.Pattern[str]] = {}


def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    # Compiled once per set of ids: the screen humanises every log line on each refresh.
    p = _CACHE.get(ids)
    if p is None:
        p = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in ids) + r")(?![\w-])")
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[ids] = p
    return p


def option_words(options: object) -> dict[str, str]:
    """Plain words for a game's hyphenated option values ("criminals-gain" → "criminals
    gain"), from its ``Option`` declarations (``game.options``)."""
    out: dict[str, str] = {}
    for o in options or ():  # type: ignore[attr-defined]
        for c in getattr(o, "choices", ()) or ():
            if isinstance(c, str) and ("-" in c or "_" in c):
                out[c] = c.replace("-", " ").replace("_", " ")
    return out
