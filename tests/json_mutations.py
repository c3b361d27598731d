"""Altered data files for fuzz tests: take a shipped JSON file and change it the ways a
hand edit, a bad tool or a damaged disk would (drop keys, swap types, ``None``, huge,
negative or fractional numbers, NaN, deep nesting, the wrong container).

``mutate(data, rng)`` is deterministic for a given ``random.Random``, so a measurement over
``Random(0)`` … ``Random(1999)`` can be repeated; ``mutated(data)`` is the hypothesis
strategy the fuzz tests draw from.

>>> import random
>>> d = {"a": [1, {"b": 2}]}
>>> mutate(d, random.Random(3)) != d, d == {"a": [1, {"b": 2}]}
(True, True)
"""
from __future__ import annotations

import copy
import random
import re
from typing import Any, Callable

from hypothesis import strategies as st

Path = tuple[str | int, ...]

REPLACEMENTS: tuple[Any, ...] = (
    None, "", " x ", "x", 0, 7, -1, 1.5, -0.5, True, False, [], {}, [None], {"": None},
    10**30, -(10**30), 2**64, 1e308, -1e308, float("nan"), float("inf"), "9" * 50,
)


def paths(data: Any, limit: int = 20) -> list[Path]:
    """Every place in ``data`` down to ``limit`` levels, the root included (iterative: an
    earlier mutation may have nested a value thousands of levels deep)."""
    out: list[Path] = []
    todo: list[tuple[Any, Path]] = [(data, ())]
    while todo:
        value, path = todo.pop()
        out.append(path)
        if len(path) >= limit:
            continue
        if isinstance(value, dict):
            todo += [(v, path + (k,)) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(v, path + (i,)) for i, v in enumerate(value)]
    return out


def get(data: Any, path: Path) -> Any:
    for p in path:
        data = data[p]
    return data


def nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def _change(value: Any, rng: random.Random) -> tuple[bool, Any]:
    """(drop it?, the new value)."""
    op = rng.randrange(9)
    if op == 0:
        return True, None
    if op in (1, 2, 3):
        return False, copy.deepcopy(rng.choice(REPLACEMENTS))  # a copy: later mutations may change it
    if op == 4:
        return False, nest(value, rng.choice((1, 2, 40, 3000)))
    if op == 5:
        if isinstance(value, list):
            return False, {str(i): v for i, v in enumerate(value)}
        if isinstance(value, dict):
            return False, list(value.values())
        return False, [value]
    if op == 6 and isinstance(value, list) and value:
        return False, value + [rng.choice(value)]  # shared, not copied: it may be deep
    if op == 6 and isinstance(value, (int, float)) and not isinstance(value, bool):
        return False, rng.choice((-value, value * 10**20, value + 0.5, -(2**63), 2**63))
    if op == 7 and isinstance(value, str):
        return False, rng.choice((value.upper(), value + "-x", value * 200, ""))
    if op == 8 and isinstance(value, dict) and value:
        key = rng.choice(list(value))
        return False, {**value, key + "-renamed": value[key], key: None}
    return False, copy.deepcopy(rng.choice(REPLACEMENTS))


def mutate(data: Any, rng: random.Random, times: int | None = None) -> Any:
    """A copy of ``data`` changed in 1–3 places (``times`` to fix the number)."""
    data = copy.deepcopy(data)
    for _ in range(times if times is not None else rng.choice((1, 1, 1, 2, 3))):
        where = rng.choice(paths(data))
        drop, new = _change(get(data, where), rng)
        if not where:
            data = new
            continue
        parent = get(data, where[:-1])
        if drop:
            del parent[where[-1]]
        else:
            parent[where[-1]] = new
    return data


def mutated(data: Any) -> st.SearchStrategy[Any]:
    """Hypothesis: ``data`` altered by :func:`mutate`."""
    return st.randoms(use_true_random=False).map(lambda r: mutate(data, r))


PATH = re.compile(r"""^(\(top\)|[A-Za-z_$][\w$-]*)(\.[A-Za-z_$][\w$-]*|\[\d+\]|\['[^']*'\]|\["[^"]*"\])*$""")


def names_a_field(path: str) -> bool:
    """Whether ``path`` looks like ``tiles[3].range`` or ``categories.shipyard.dynasty``.

    >>> names_a_field("tiers.outer[3].range"), names_a_field("(top)[0]"), names_a_field("categories['']")
    (True, True, True)
    >>> names_a_field("bad thing"), names_a_field("categories.")
    (False, False)
    """
    return bool(PATH.match(path))


def check_each(problems: Any, check: Callable[[str], bool]) -> list[str]:
    """The problems ``check`` rejects (for a readable assertion)."""
    return [p for p in problems if not check(p)]
