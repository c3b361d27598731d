"""The alternate objectives (5.1.2.3), read from ``data/objectives.json``.

>>> objective_of("Robot Uprising", "attacker").goal, objective_of("Robot Uprising", "attacker").target
('viral', 10)
>>> objective_of("Alien Coalitions", "defender").goal
'tbd'
>>> objective_of("My Own Subfaction", "attacker").goal
'none'
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .cards import DATA


@dataclass(frozen=True)
class Objective:
    """A subfaction's alternate objective for one role: ``goal`` is ``escape``, ``score``,
    ``crack``, ``viral``, ``tbd`` (the book's "To Be Determined") or ``none`` (a subfaction
    the book does not name)."""

    subfaction: str
    role: str
    name: str
    goal: str
    rule: str
    target: int = 0
    card: str = ""
    text: str = ""


def _load() -> dict[tuple[str, str], Objective]:
    data = json.loads((DATA / "objectives.json").read_text(encoding="utf-8"))
    out = {}
    for sub, row in data["subfactions"].items():
        for role in ("attacker", "defender"):
            o = row[role]
            out[(sub, role)] = Objective(sub, role, o["name"], o["goal"], row["rule"], o.get("target", 0), o.get("card", ""), o.get("text", ""))
    return out


OBJECTIVES = _load()


def objective_of(subfaction: str, role: str) -> Objective:
    return OBJECTIVES.get((subfaction, role)) or Objective(subfaction, role, "", "none", "5.1.2.2")
