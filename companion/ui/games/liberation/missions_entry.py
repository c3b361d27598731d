"""Entering a table's own missions table, without Kivy: the model behind the "Missions"
page of the setup wizard's Liberation step (unit-tested without a window).

The rulebook names each City category's two missions but prints neither their words nor
their cost symbols (RULINGS L-10), so the table copies them from its printed City cards:
for each category and side, the card's words, its cost (none, discard a card, exploit a
City) and the referee question it lets its player ask. The rules' own
:func:`rules.liberation.parse_missions` decides what is a usable table; its refusals are
reworded here for players (names and words, no field names or ids). A finished table is
saved once in the app's user-data folder (``liberation-missions/``, beside the saved maps)
and every later game starts with it (the ``missions`` option) until the table goes back
to the box's defaults.

>>> import tempfile
>>> entry = MissionsEntry.load(tempfile.mkdtemp())
>>> entry.row("research-station", "dynasty").title
'Research Station — the Dynasty’s Deep-Space Probe'
>>> entry.set_cost("shipyard", "liberation", "exploit")
>>> entry.problems()
['Shipyard — the Liberation’s Mobilize Base: the Liberation never occupies a city, so its missions cannot cost “exploit a City”.']
>>> entry.set_cost("shipyard", "liberation", "discard"); entry.problems()
[]
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.files import NotJson, parse_json, write_atomic
from rules.liberation.mapdata import CATEGORIES
from rules.liberation.missions import COSTS, SIDES, MissionsError, MissionTable, default_missions_data, parse_missions

FOLDER = "liberation-missions"
FILE = "missions.json"

SIDE_NAMES = {"dynasty": "Dynasty", "liberation": "Liberation"}
COST_WORDS = {"none": "No cost", "discard": "Discard a card", "exploit": "Exploit a City"}
"""Each cost as the table says it (the rules' ids stay in the data)."""
NO_QUESTION = ""
QUESTION_WORDS = {
    NO_QUESTION: "No question",
    "base-among": "Is the base among these Cities?",
    "base-within": "Is the base within N steps of a City?",
    "hand-among": "Does the opponent hold any of these Cities?",
}
NUMBER_WORDS = {"base-among": "Cities at most", "base-within": "steps at most", "hand-among": "Cities at most"}
"""What a question's number counts, beside its field."""
_NUMBER_KEY = {"base-among": "max_cities", "base-within": "max_steps", "hand-among": "max_cities"}
# The rules' field names and ids, as they appear in parse_missions' refusals, in players' words.
_REWORD = (("'max_steps'", "The number of steps"), ("'max_cities'", "The number of Cities"),
           ("'exploit'", "“exploit a City”"), ("a mission's text is words of at most", "the card’s words can be at most"))


class MissionsEntryError(CompanionError):
    """The missions entered cannot be saved; ``problems`` says why, in players' words."""

    code = "liberation-missions"

    def __init__(self, problems: list[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Row:
    """One mission as the page shows it: its category and side, and what is entered."""

    category: str
    side: str
    name: str
    text: str
    cost: str
    question: str  # a QUESTION_WORDS key
    number: str  # as typed: the engine refuses what is not a whole number in range

    @property
    def title(self) -> str:
        return f"{CATEGORIES[self.category]} — the {SIDE_NAMES[self.side]}’s {self.name}"


def missions_folder(user_data: str | Path) -> Path:
    """Where the table's missions table is saved inside the app's user-data folder."""
    return Path(user_data) / FOLDER


def load_saved(user_data: str | Path) -> tuple[dict[str, Any] | None, str]:
    """The saved missions table's data (None when there is none) and, for a file that
    cannot be used, why in players' words (the box's defaults are used then; the file
    is left as it is, nothing lost)."""
    path = missions_folder(user_data) / FILE
    if not path.is_file():
        return None, ""
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
        parse_missions(data, FILE)
    except (OSError, UnicodeDecodeError, NotJson, MissionsError):
        return None, (f"Your saved missions ({path.name}) cannot be read (damaged, or edited by hand), so the box's "
                      "defaults are used: enter yours again and save.")
    return data, ""


class MissionsEntry:
    """The missions table being entered: ten missions (five categories × two sides)."""

    def __init__(self, user_data: str | Path, data: dict[str, Any]) -> None:
        self.user_data = Path(user_data)
        self._fill(data)

    def _fill(self, data: dict[str, Any]) -> None:
        self.data = copy.deepcopy(data)
        self.data.pop("note", None)  # the box's note is about its own defaults
        self._numbers: dict[tuple[str, str], str] = {}
        for cat in CATEGORIES:
            for side in SIDES:
                q = self._raw(cat, side).get("question")
                if isinstance(q, dict) and q.get("type") in _NUMBER_KEY:
                    self._numbers[cat, side] = str(q.get(_NUMBER_KEY[q["type"]], ""))

    @classmethod
    def load(cls, user_data: str | Path, current: dict[str, Any] | None = None) -> "MissionsEntry":
        """Start from ``current`` (the table this game would use), else the saved table,
        else the box's defaults."""
        if current is not None:
            try:
                parse_missions(current)
            except MissionsError:  # not a table the page can show: start from the saved one
                current = None
        if current is None:
            current, _why = load_saved(user_data)
        return cls(user_data, current if current is not None else default_missions_data())

    def _raw(self, category: str, side: str) -> dict[str, Any]:
        return self.data["categories"][category][side]

    def row(self, category: str, side: str) -> Row:
        raw = self._raw(category, side)
        q = raw.get("question")
        kind_ = q.get("type", NO_QUESTION) if isinstance(q, dict) else NO_QUESTION
        return Row(category, side, raw["name"], raw.get("text", ""), raw.get("cost", "none"), kind_,
                   self._numbers.get((category, side), ""))

    def rows(self) -> list[Row]:
        """Every mission, category by category, the Liberation's first (the glossary's order)."""
        return [self.row(cat, side) for cat in CATEGORIES for side in ("liberation", "dynasty")]

    # ------------------------------------------------------------ entering

    def set_text(self, category: str, side: str, text: str) -> None:
        raw = self._raw(category, side)
        if text.strip():
            raw["text"] = text
        else:
            raw.pop("text", None)

    def set_cost(self, category: str, side: str, cost: str) -> None:
        if cost not in COSTS:
            raise ValueError(f"unknown cost {cost!r}")  # a programming error: the page offers COSTS only
        self._raw(category, side)["cost"] = cost

    def set_question(self, category: str, side: str, kind_: str, number: str | None = None) -> None:
        """``kind_``: a QUESTION_WORDS key; ``number``: as typed (kept when None)."""
        if kind_ not in QUESTION_WORDS:
            raise ValueError(f"unknown question {kind_!r}")
        if number is not None:
            self._numbers[category, side] = number
        raw = self._raw(category, side)
        if kind_ == NO_QUESTION:
            raw["question"] = None
            return
        typed = self._numbers.setdefault((category, side), "1" if kind_ != "base-among" else "3").strip()
        value: Any = int(typed) if typed.isdigit() and len(typed) < 4 else typed
        raw["question"] = {"type": kind_, _NUMBER_KEY[kind_]: value}

    def set_number(self, category: str, side: str, number: str) -> None:
        self.set_question(category, side, self.row(category, side).question, number)

    def back_to_the_box(self) -> None:
        """The box's defaults in every field (saved, and used, once the table saves)."""
        self._fill(default_missions_data())

    # ------------------------------------------------------------ checking and saving

    def table(self) -> MissionTable:
        """The table as the engine reads it; :class:`MissionsEntryError` with the problems."""
        try:
            return parse_missions(self.data, "missions")
        except MissionsError as e:
            raise MissionsEntryError([self._reword(p) for p in e.problems]) from None

    def problems(self) -> list[str]:
        """What stops this table from being used, in players' words (none when it can)."""
        try:
            self.table()
        except MissionsEntryError as e:
            return e.problems
        return []

    def _reword(self, problem: str) -> str:
        # "categories.shipyard.liberation.cost: Shipyard, liberation: the Liberation …":
        # the place becomes the mission's name, the rules' ids become the page's words.
        path, _, reason = problem.partition(": ")
        parts = path.split(".")
        if len(parts) >= 3 and parts[1] in CATEGORIES and parts[2] in SIDES:
            cat, side = parts[1], parts[2]
            where = f"{CATEGORIES[cat]}, {side}: "
            reason = reason[len(where):] if reason.startswith(where) else reason
            if path.endswith(".text"):
                reason = reason.split(" characters, not ")[0] + " characters long."
            for old, new in _REWORD:
                reason = reason.replace(old, new)
            return f"{self.row(cat, side).title}: {reason}"
        return reason or problem

    def option(self) -> dict[str, Any]:
        """The ``missions`` option for a game (the rules' data format)."""
        return self.table().to_data()

    def save(self) -> Path:
        """Write the table to the user-data folder atomically, for every later game;
        :class:`MissionsEntryError` (nothing written) if it cannot be used."""
        data = self.option()
        return write_atomic(missions_folder(self.user_data) / FILE, json.dumps(data, indent=1, ensure_ascii=False))
