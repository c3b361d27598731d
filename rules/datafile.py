"""Reading a game's data files (boards, maps, missions tables) field by field.

Each parser collects its problems as ``"path: what is wrong"`` (``tiers.outer[3].range:
must be [low, high] within 1–6``) in a :class:`Problems` and raises one
:class:`DataFileError` subclass naming the file or source and every problem. The helpers
take the value and its path and never assume a type, so any JSON at all gives either a
value or a problem, never a ``TypeError`` or ``AttributeError``.

>>> p = Problems("board.json")
>>> p.whole({"cost": "5"}.get("cost"), "tunnels[0].cost", 0, 10)
>>> p.text(None, "tiers.outer[2].id")
>>> p.raise_if_any(DataFileError)
Traceback (most recent call last):
...
rules.datafile.DataFileError: board.json: tunnels[0].cost: must be a whole number from 0 to 10, not '5'; tiers.outer[2].id: must be non-empty text, not None
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, NoReturn

from rules.core.errors import RulesError

MAX_DEPTH = 32
"""Data files nest a few levels; anything deeper than this is damage, and is refused before
any recursive code (``json.dumps``, ``repr``) could exhaust the stack on it."""


class DataFileError(RulesError):
    """A data file that cannot be used. ``problems`` holds each ``"path: reason"``;
    ``source`` names the file (or where the data came from)."""

    def __init__(self, problems: str | Iterable[str], source: str = "") -> None:
        self.problems: tuple[str, ...] = (problems,) if isinstance(problems, str) else tuple(problems)
        self.source = source
        text = "; ".join(self.problems)
        super().__init__(f"{source}: {text}" if source else text)


def read_json(path: str | Path, error: type[DataFileError], what: str) -> Any:
    """The JSON in the file at ``path``, or ``error`` naming the file when it cannot be
    read or parsed (``what``: "board file", for the message). Validating it is the caller's.

    >>> try:
    ...     read_json("/no/such/board.json", DataFileError, "board file")
    ... except DataFileError as e:
    ...     print(e.source, "|", e.problems[0].split(":")[0])
    /no/such/board.json | cannot read the board file (FileNotFoundError
    """
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise error(f"cannot read the {what} ({type(e).__name__}: {short(str(e), 80)})", str(path)) from None


def short(value: Any, limit: int = 40) -> str:
    """``repr`` cut to ``limit`` characters, so a message about a huge value stays readable.

    >>> short("x" * 100, 10), short(10**5000)
    ("'xxxxxxxx…", 'a number with too many digits')
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number with too many digits"
    return text if len(text) <= limit else text[: limit - 1] + "…"


_NAME = re.compile(r"[A-Za-z_$][\w$-]*")


def at(path: str, key: str | int) -> str:
    """The path of ``key`` inside ``path``: ``tiers.outer``, ``tiles[3]``, and for a key
    that is not a plain name, ``categories['']`` (so a path always reads unambiguously).

    >>> at("tiers", "outer"), at("tiers.outer", 3), at("categories", "a.b"), at("", "name")
    ('tiers.outer', 'tiers.outer[3]', "categories['a.b']", 'name')
    """
    if isinstance(key, int):
        return f"{path or '(top)'}[{key}]"
    if _NAME.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path or '(top)'}[{short(key, 60)}]"


def too_deep(data: Any, limit: int = MAX_DEPTH) -> str | None:
    """The path of a list or object nested deeper than ``limit``, or ``None``. Iterative,
    so no depth of input can exhaust the stack.

    >>> too_deep({"a": [[1]]}, 2), too_deep({"a": [[1]]}, 3), too_deep([[[]]], 2)
    ('a[0]', None, '(top)[0][0]')
    """
    todo: list[tuple[Any, str, int]] = [(data, "", 0)]
    while todo:
        value, path, depth = todo.pop()
        if not isinstance(value, (dict, list)):
            continue
        if depth >= limit:
            return path or "(top)"
        if isinstance(value, dict):
            todo += [(v, at(path, str(k)), depth + 1) for k, v in value.items()]
        else:
            todo += [(v, at(path, i), depth + 1) for i, v in enumerate(value)]
    return None


class Problems:
    """The problems found so far in one file. Each check returns the value when it is
    usable and ``None`` (with a problem recorded) when it is not."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, path: str, text: str) -> None:
        self.items.append(f"{path or '(top)'}: {text}")

    def raise_if_any(self, error: type[DataFileError]) -> None:
        if self.items:
            raise error(self.items, self.source)

    def fail(self, error: type[DataFileError], path: str, text: str) -> NoReturn:
        self.add(path, text)
        raise error(self.items, self.source)

    def top(self, data: Any, error: type[DataFileError], what: str) -> dict[str, Any]:
        """The file's top-level object, after the checks every data file starts with (not
        nested too deep, an object at all): either fails at once with ``error``."""
        deep = too_deep(data)
        if deep is not None:
            self.fail(error, deep, f"nests lists or objects too deep (at most {MAX_DEPTH} levels)")
        if not isinstance(data, dict):
            self.fail(error, "(top)", f"{what}, not {kind(data)}")
        return data

    def mapping(self, value: Any, path: str, what: str = "an object") -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.add(path, f"must be {what}, not {kind(value)}")
        return None

    def listing(self, value: Any, path: str, what: str = "a list") -> list[Any] | None:
        if isinstance(value, list):
            return value
        self.add(path, f"must be {what}, not {kind(value)}")
        return None

    def text(self, value: Any, path: str, *, empty: bool = False) -> str | None:
        if isinstance(value, str) and (empty or value.strip()):
            return value
        self.add(path, f"must be {'text' if empty else 'non-empty text'}, not {short(value)}")
        return None

    def whole(self, value: Any, path: str, low: int, high: int) -> int | None:
        if type(value) is int and low <= value <= high:
            return value
        self.add(path, f"must be a whole number from {low} to {high}, not {short(value)}")
        return None

    def flag(self, value: Any, path: str) -> bool | None:
        if isinstance(value, bool):
            return value
        self.add(path, f"must be true or false, not {short(value)}")
        return None


def kind(value: Any) -> str:
    """A JSON value's kind in plain words.

    >>> kind([]), kind(None), kind(2.5)
    ('a list', 'null', 'a number')
    """
    return {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null"}.get(
        type(value), "a number"
    )


def parse_moments(data: Any, kinds: Iterable[str], game: str, error: type[DataFileError],
                  source: str = "moments.json") -> dict[str, tuple[str, str]]:
    """A game's ``data/moments.json``: when the rulebook has each action kind taken,
    ``{kind: (rule, when)}``, one entry per kind of ``kinds`` and no other. It is what a
    refusal of a kind not on offer gives as its reason ("Ann: a reroll is …").

    >>> parse_moments({"moments": {"roll": {"rule": "§2", "when": "taken at a turn's start"}}},
    ...               ("roll",), "Stepping Stones", DataFileError)
    {'roll': ('§2', "taken at a turn's start")}
    >>> parse_moments({"moments": {"fly": {"rule": "§9", "when": "never"}}}, ("roll",), "Stepping Stones",
    ...               DataFileError)
    Traceback (most recent call last):
    ...
    rules.datafile.DataFileError: moments.json: moments.fly: is not an action kind of Stepping Stones; moments: has no entry for the action kind 'roll'
    """
    kinds = tuple(kinds)
    p = Problems(source)
    data = p.top(data, error, "The moments file is a JSON object with 'moments'")
    given = p.mapping(data.get("moments"), "moments") or {}
    out: dict[str, tuple[str, str]] = {}
    for kind, m in given.items():
        path = at("moments", kind)
        if kind not in kinds:
            p.add(path, f"is not an action kind of {game}")
            continue
        m = p.mapping(m, path)
        if m is None:
            continue
        rule, when = p.text(m.get("rule"), at(path, "rule")), p.text(m.get("when"), at(path, "when"))
        if rule and when:
            out[kind] = (rule, when)
    for kind in kinds:
        if kind not in given:
            p.add("moments", f"has no entry for the action kind {kind!r}")
    p.raise_if_any(error)
    return out
