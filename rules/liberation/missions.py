"""The missions table: each category's Dynasty and Liberation mission, its cost and the
referee question it lets its player ask.

The rulebook names the missions (glossary) but prints neither their texts nor which card
carries which cost symbol, so costs and questions are data a table can edit
(``data/missions.json``; RULINGS.md L-03, L-10). The app records each mission play, enforces
its cost, and when the mission asks about hidden information it answers truthfully from the
state, in public: the answer, never the base.

>>> t = default_missions()
>>> t.mission("research-station", "dynasty").name
'Deep-Space Probe'
>>> q = t.mission("research-station", "dynasty").question
>>> q.kind, q.max_steps, q.text(city="City A", steps=2)
('base-within', 2, 'Is the base within 2 steps of City A?')
>>> t.mission("weapons-factory", "dynasty").cost
'exploit'
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping, Sequence

from rules.datafile import DataFileError, Problems, at, kind, short

from .mapdata import CATEGORIES

FORMAT = "liberation-missions/1"
SIDES = ("dynasty", "liberation")
COSTS = ("none", "discard", "exploit")
"""``discard``: discard 1 other card from your hand. ``exploit``: exploit 1 other City."""
QUESTION_KINDS = ("base-among", "base-within", "hand-among")
MAX_TEXT = 400
"""A mission's ``text`` as printed on a City card fits in this many characters."""


class MissionsError(DataFileError):
    """A missions table that cannot be used; ``problems`` holds each ``"path: reason"``
    and ``source`` names the file."""


@dataclass(frozen=True, slots=True)
class Question:
    """A referee question. ``base-among``: is the base among these cities (at most
    ``max_cities``)? ``base-within``: is the base within N steps (1..``max_steps``) of a
    city? ``hand-among``: does the opponent hold any of these cities in hand?"""

    kind: str
    max_cities: int = 0
    max_steps: int = 0

    def text(self, cities: Sequence[str] = (), city: str = "", steps: int = 0) -> str:
        """The question as the log shows it, with city names filled in."""
        if self.kind == "base-among":
            return f"Is the base among {_names(cities)}?"
        if self.kind == "base-within":
            return f"Is the base within {steps} step{'s' if steps != 1 else ''} of {city}?"
        return f"Does the opponent hold any of {_names(cities)}?"

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.kind == "base-within":
            out["max_steps"] = self.max_steps
        else:
            out["max_cities"] = self.max_cities
        return out


def _names(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True, slots=True)
class Mission:
    """``text``: the mission's words as the table entered them from its printed card
    ("" until it does: the rulebook prints no mission text, L-10). The app never carries
    a text out; it shows it while the table does."""

    name: str
    cost: str = "none"
    question: Question | None = None
    text: str = ""


@dataclass(frozen=True)
class MissionTable:
    """``missions[category][side]``: every category has one mission per side."""

    missions: Mapping[str, Mapping[str, Mission]]

    def __deepcopy__(self, memo: dict[int, Any]) -> "MissionTable":
        return self  # never changed once parsed

    def mission(self, category: str, side: str) -> Mission:
        return self.missions[category][side]

    def to_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "categories": {
                cat: {
                    side: {"name": m.name, "cost": m.cost, "question": m.question.to_data() if m.question else None,
                           **({"text": m.text} if m.text else {})}
                    for side, m in sides.items()
                }
                for cat, sides in self.missions.items()
            },
        }


def parse_missions(data: Any, source: str = "missions data") -> MissionTable:
    """Read and validate a missions table; :class:`MissionsError` names ``source`` and
    every problem with its place in the data (``categories.shipyard.dynasty.cost``).

    >>> parse_missions({"categories": []}, "ours.json")
    Traceback (most recent call last):
    ...
    rules.liberation.missions.MissionsError: ours.json: categories: A missions table has an object of categories, not a list.
    """
    p = Problems(source)
    data = p.top(data, MissionsError, "A missions table is a JSON object with 'categories'")
    cats = data.get("categories")
    if not isinstance(cats, dict):
        p.fail(MissionsError, "categories", f"A missions table has an object of categories, not {kind(cats)}.")
    if data.get("format", FORMAT) != FORMAT:
        p.add("format", f"Unknown missions format {short(data.get('format'))}; expected {FORMAT!r}.")
    table: dict[str, dict[str, Mission]] = {}
    for cat in CATEGORIES:
        if cat not in cats or not isinstance(cats[cat], dict):
            p.add(f"categories.{cat}", f"The missions table has no entry for {CATEGORIES[cat]} ({cat!r}).")
            continue
        table[cat] = {}
        for side in SIDES:
            raw = cats[cat].get(side)
            path = f"categories.{cat}.{side}"
            where = f"{CATEGORIES[cat]}, {side}"
            if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
                p.add(f"{path}.name" if isinstance(raw, dict) else path, f"{where}: a mission needs a name.")
                continue
            cost = raw.get("cost", "none")
            if not isinstance(cost, str) or cost not in COSTS:
                p.add(f"{path}.cost", f"{where}: cost {short(cost)} must be one of {', '.join(COSTS)}.")
                continue
            if side == "liberation" and cost == "exploit":
                p.add(f"{path}.cost", f"{where}: the Liberation never occupies a city, so its missions cannot cost 'exploit'.")
                continue
            question = None
            rq = raw.get("question")
            if rq is not None:
                question, bad = _parse_question(rq, where, side)
                if bad:
                    p.add(f"{path}.question", bad)
                    continue
            text = raw.get("text", "")
            if not isinstance(text, str) or len(text) > MAX_TEXT:
                p.add(f"{path}.text", f"{where}: a mission's text is words of at most {MAX_TEXT} characters, not {short(text)}.")
                continue
            table[cat][side] = Mission(raw["name"].strip(), cost, question, " ".join(text.split()))
    for extra in sorted(set(cats) - set(CATEGORIES)):
        p.add(at("categories", extra), f"{short(extra)} is not a city category ({', '.join(CATEGORIES)}).")
    p.raise_if_any(MissionsError)
    return MissionTable(table)


def _parse_question(rq: Any, where: str, side: str) -> tuple[Question | None, str]:
    kind_ = rq.get("type") if isinstance(rq, dict) else None
    if not isinstance(kind_, str) or kind_ not in QUESTION_KINDS:
        return None, f"{where}: a question's type must be one of {', '.join(QUESTION_KINDS)}."
    if kind_.startswith("base-") and side == "liberation":
        return None, f"{where}: the Liberation knows its own base; only Dynasty missions ask about it."
    if kind_ == "base-within":
        steps = rq.get("max_steps")
        if type(steps) is not int or not 1 <= steps <= 13:
            return None, f"{where}: 'max_steps' must be a whole number from 1 to 13."
        return Question(kind_, max_steps=steps), ""
    n = rq.get("max_cities")
    if type(n) is not int or not 1 <= n <= 13:
        return None, f"{where}: 'max_cities' must be a whole number from 1 to 13."
    return Question(kind_, max_cities=n), ""


def default_missions_data() -> dict[str, Any]:
    """The shipped missions table as JSON data (a fresh copy)."""
    text = resources.files("rules.liberation").joinpath("data/missions.json").read_text(encoding="utf-8")
    return json.loads(text)


def default_missions() -> MissionTable:
    return parse_missions(default_missions_data(), "missions.json")


_CACHE: dict[str, MissionTable] = {}


def parse_missions_cached(data: Any) -> MissionTable:
    """:func:`parse_missions` memoised on the data's JSON text."""
    try:
        key = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # not JSON data, or nested too deep: parse_missions says where
        return parse_missions(data)
    table = _CACHE.get(key)
    if table is None:
        table = _CACHE[key] = parse_missions(data)
    return table
