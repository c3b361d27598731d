"""Dicetopia's data files, read and validated: the city board (``neighbourhoods.json``),
the ten factions (``factions.json``) and the 40 missions (``missions.json``).

A file that cannot be used raises :class:`DicetopiaDataError` naming the file and every
problem with its field path; nothing is parsed from free text at run time (each mission's
scoring is its ``kind`` and ``params``).

>>> t = tables()
>>> [h.id for h in t.hoods]
['agency', 'gugu', 'waste', 'congress', 'bank', 'syndicate']
>>> t.space_counts(2), t.space_counts(3), t.space_counts(4)
((3, 3, 3, 3, 3, 3), (4, 4, 4, 4, 4, 4), (5, 5, 5, 5, 5, 5))
>>> t.dice_per_colour(3), t.mission("replica").params
(8, {'points': 7})
>>> parse_missions({"missions": [{"id": "x", "name": "X", "text": "t", "kind": "most-colour", "params": {"colour": "gold", "points": 3}}]}, "ours.json")
Traceback (most recent call last):
...
rules.dicetopia.tables.DicetopiaDataError: ours.json: missions[0].params.colour: must be one of purple, teal, white, not 'gold'; (top): must hold 40 missions, not 1
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

from rules.datafile import DataFileError, Problems, at, short
from rules.datafile import parse_moments as read_moments

ACTIONS = ("agency", "reroll", "agent-die", "die-die", "city-board", "board-board")
"""The six neighbourhood actions (§5), by the word the engine uses."""
COLOURS = ("purple", "teal", "white")
TIMINGS = ("action-target", "end-domination", "setup-and-end-missions", "end-start", "own-action",
           "after-swapped", "own-turn-start", "other-turn-start")

# Each mission kind and its parameters: name -> (kind of value, lowest, highest).
_NUM = ("int", 1, 99)
MISSION_KINDS: dict[str, dict[str, tuple[Any, ...]]] = {
    "most-colour": {"colour": ("colour",), "points": _NUM},
    "no-colour": {"colour": ("colour",), "points": _NUM},
    "per-colour": {"colour": ("colour",), "points": _NUM},
    "per-city-colour": {"colour": ("colour",), "points": _NUM},
    "per-value": {"value": ("int", 1, 6), "points": _NUM},
    "no-value": {"value": ("int", 1, 6), "points": _NUM},
    "per-value-pair": {"points": _NUM},
    "value-triple": {"points": _NUM},
    "only-parity": {"parity": ("choice", "odd", "even"), "points": _NUM},
    "all-same-value": {"points": _NUM},
    "every-value": {"points": _NUM},
    "highest-total": {"points": _NUM},
    "lowest-total": {"points": _NUM},
    "per-replica-pair": {"points": _NUM},
    "every-colour": {"points": _NUM},
    "spies": {"points": _NUM},
    "every-neighbourhood": {"points": _NUM},
    "copycat": {},
    "high-stakes": {"factor": ("int", 2, 9)},
    "infiltration": {"points": _NUM},
    "king-of-the-hill": {"points": _NUM, "agents": ("int", 1, 6)},
}
MISSION_COUNT = 40


class DicetopiaDataError(DataFileError):
    """A Dicetopia data file that cannot be used: ``source`` names the file and each of
    ``problems`` the field path and what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Hood:
    """A neighbourhood: ``spaces[i]`` is the lowest player count that uses space ``i``."""

    id: str
    name: str
    action: str
    summary: str
    spaces: tuple[int, ...]

    def used(self, players: int) -> tuple[int, ...]:
        """The indices of the spaces used at ``players`` players."""
        return tuple(i for i, low in enumerate(self.spaces) if low <= players)


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    letter: str
    resource: str
    glyph: str


@dataclass(frozen=True, slots=True)
class FactionSpec:
    id: str
    name: str
    glyph: str
    ability: str
    text: str
    once: bool
    timing: str


@dataclass(frozen=True)
class MissionSpec:
    id: str
    name: str
    text: str
    kind: str
    params: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Moment:
    """When a kind of action is taken (``when``, completing "Ann: …"), and the rulebook
    section that says so (``rule``): what a refusal of that kind gives as its reason."""

    rule: str
    when: str


KINDS = ("roll", "draw", "keep", "deploy", "bottom", "reroll", "swap", "transcend", "hypnotize", "save_turn",
         "exterminate", "intervene", "block", "adapt", "clone", "rig", "choose", "copy", "decline")
"""Every action kind of the game: each has its moment in ``moments.json``."""


@dataclass(frozen=True)
class Tables:
    hoods: tuple[Hood, ...]
    colours: tuple[Colour, ...]
    per_colour: int
    removed_per_missing: int
    full_table: int
    factions: Mapping[str, FactionSpec]
    missions: Mapping[str, MissionSpec]
    moments: Mapping[str, Moment]

    def __deepcopy__(self, memo: dict[int, Any]) -> "Tables":
        return self  # immutable once read

    def hood(self, hood_id: str) -> Hood:
        return self._by_id[hood_id]

    @functools.cached_property
    def _by_id(self) -> dict[str, Hood]:
        return {h.id: h for h in self.hoods}

    @functools.cached_property
    def hood_actions(self) -> dict[str, str]:
        """Each neighbourhood's action, by id."""
        return {h.id: h.action for h in self.hoods}

    @functools.cached_property
    def hood_names(self) -> dict[str, str]:
        """Each neighbourhood's name, by id."""
        return {h.id: h.name for h in self.hoods}

    def mission(self, mission_id: str) -> MissionSpec:
        return self.missions[mission_id]

    def space_counts(self, players: int) -> tuple[int, ...]:
        """How many spaces each neighbourhood uses at ``players`` players (board order)."""
        return tuple(len(h.used(players)) for h in self.hoods)

    def dice_per_colour(self, players: int) -> int:
        """§3 step 2: 10 of each colour, 2 fewer of each per missing player."""
        return self.per_colour - self.removed_per_missing * (self.full_table - players)

    def colour_of_letter(self, letter: str) -> str:
        return self._colour_of[letter]

    def letter(self, colour: str) -> str:
        return self._letter_of[colour]

    def die_words(self, cell: str) -> str:
        """A die in words ("purple 4"); anything else is "die"."""
        return self._die_words.get(cell, "die")

    @functools.cached_property
    def _die_words(self) -> dict[str, str]:
        """Each of the 18 dice in words, by cell: its colour and its value."""
        return {c.letter + str(v): f"{c.id} {v}" for c in self.colours for v in range(1, 7)}

    def spaces(self, players: int) -> tuple[tuple[str, int], ...]:
        """The used spaces at ``players`` players in board order: where the setup roll's dice go."""
        return self._spaces[players]

    @functools.cached_property
    def _spaces(self) -> dict[int, tuple[tuple[str, int], ...]]:
        return {n: tuple((h.id, i) for h in self.hoods for i in h.used(n)) for n in range(1, self.full_table + 1)}

    @functools.cached_property
    def _colour_of(self) -> dict[str, str]:
        return {c.letter: c.id for c in self.colours}

    @functools.cached_property
    def _letter_of(self) -> dict[str, str]:
        return {c.id: c.letter for c in self.colours}


def parse_neighbourhoods(data: Any, source: str = "neighbourhoods.json") -> tuple[tuple[Hood, ...], tuple[Colour, ...], int, int, int]:
    p = Problems(source)
    data = p.top(data, DicetopiaDataError, "The city board file is a JSON object with 'neighbourhoods' and 'dice'")
    hoods: list[Hood] = []
    items = p.listing(data.get("neighbourhoods"), "neighbourhoods") or []
    for i, h in enumerate(items):
        path = at("neighbourhoods", i)
        h = p.mapping(h, path)
        if h is None:
            continue
        hid, name = p.text(h.get("id"), at(path, "id")), p.text(h.get("name"), at(path, "name"))
        summary = p.text(h.get("summary"), at(path, "summary"))
        act = h.get("action")
        if act not in ACTIONS:
            p.add(at(path, "action"), f"must be one of {', '.join(ACTIONS)}, not {short(act)}")
        spaces = p.listing(h.get("spaces"), at(path, "spaces")) or []
        counts = [p.whole(v, at(at(path, "spaces"), j), 2, 4) for j, v in enumerate(spaces)]
        if hid and name and summary and act in ACTIONS and None not in counts:
            hoods.append(Hood(hid, name, act, summary, tuple(counts)))  # type: ignore[arg-type]
    if items and len(items) != 6:
        p.add("neighbourhoods", f"must list the 6 neighbourhoods, not {len(items)}")
    if len({h.id for h in hoods}) != len(hoods):
        p.add("neighbourhoods", "each neighbourhood needs its own id")
    dice = p.mapping(data.get("dice"), "dice") or {}
    colours: list[Colour] = []
    for i, c in enumerate(p.listing(dice.get("colours"), "dice.colours") or []):
        path = at("dice.colours", i)
        c = p.mapping(c, path)
        if c is None:
            continue
        vals = [p.text(c.get(k), at(path, k)) for k in ("id", "letter", "resource", "glyph")]
        if vals[0] is not None and vals[0] not in COLOURS:
            p.add(at(path, "id"), f"must be one of {', '.join(COLOURS)}, not {short(vals[0])}")
        elif None not in vals:
            colours.append(Colour(*vals))  # type: ignore[arg-type]
    if dice and sorted(c.id for c in colours) != sorted(COLOURS) and not p:
        p.add("dice.colours", f"must list each of {', '.join(COLOURS)} once")
    per = p.whole(dice.get("per_colour"), "dice.per_colour", 1, 20)
    removed = p.whole(dice.get("removed_per_missing_player"), "dice.removed_per_missing_player", 0, 5)
    full = p.whole(dice.get("full_table"), "dice.full_table", 2, 4)
    p.raise_if_any(DicetopiaDataError)
    assert per is not None and removed is not None and full is not None
    for n in (2, 3, 4):
        spaces = sum(len(h.used(n)) for h in hoods)
        dice_n = len(colours) * (per - removed * (full - n))
        if spaces != dice_n:
            p.add("neighbourhoods", f"{spaces} spaces are used at {n} players but {dice_n} dice are rolled")
    p.raise_if_any(DicetopiaDataError)
    return tuple(hoods), tuple(colours), per, removed, full


def parse_factions(data: Any, source: str = "factions.json") -> dict[str, FactionSpec]:
    p = Problems(source)
    data = p.top(data, DicetopiaDataError, "The factions file is a JSON object with 'factions'")
    out: dict[str, FactionSpec] = {}
    for fid, f in (p.mapping(data.get("factions"), "factions") or {}).items():
        path = at("factions", fid)
        f = p.mapping(f, path)
        if f is None:
            continue
        texts = [p.text(f.get(k), at(path, k)) for k in ("name", "glyph", "ability", "text")]
        once = p.flag(f.get("once"), at(path, "once"))
        timing = f.get("timing")
        if timing not in TIMINGS:
            p.add(at(path, "timing"), f"must be one of {', '.join(TIMINGS)}, not {short(timing)}")
        elif None not in texts and once is not None:
            name, glyph, ability, text = texts
            out[fid] = FactionSpec(fid, name, glyph, ability, text, once, timing)  # type: ignore[arg-type]
    if not p and len(out) != 10:
        p.add("factions", f"must hold the 10 factions, not {len(out)}")
    p.raise_if_any(DicetopiaDataError)
    return out


def parse_missions(data: Any, source: str = "missions.json") -> dict[str, MissionSpec]:
    p = Problems(source)
    data = p.top(data, DicetopiaDataError, "The missions file is a JSON object with 'missions'")
    out: dict[str, MissionSpec] = {}
    items = p.listing(data.get("missions"), "missions") or []
    for i, m in enumerate(items):
        path = at("missions", i)
        m = p.mapping(m, path)
        if m is None:
            continue
        mid, name, text = (p.text(m.get(k), at(path, k)) for k in ("id", "name", "text"))
        kind = m.get("kind")
        if kind not in MISSION_KINDS:
            p.add(at(path, "kind"), f"must be one of {', '.join(MISSION_KINDS)}, not {short(kind)}")
            continue
        params = p.mapping(m.get("params"), at(path, "params"))
        if params is None:
            continue
        spec = MISSION_KINDS[kind]
        ok = True
        for key, rule in spec.items():
            where = at(at(path, "params"), key)
            value = params.get(key)
            if rule[0] == "colour" and value not in COLOURS:
                p.add(where, f"must be one of {', '.join(COLOURS)}, not {short(value)}")
                ok = False
            elif rule[0] == "choice" and value not in rule[1:]:
                p.add(where, f"must be one of {', '.join(rule[1:])}, not {short(value)}")
                ok = False
            elif rule[0] == "int" and p.whole(value, where, rule[1], rule[2]) is None:
                ok = False
        for key in params:
            if key not in spec:
                p.add(at(at(path, "params"), key), f"is not a parameter of a {kind} mission")
                ok = False
        if mid in out:
            p.add(at(path, "id"), f"{short(mid)} is used twice")
        elif ok and mid and name and text:
            out[mid] = MissionSpec(mid, name, text, kind, dict(params))
    if len(items) != MISSION_COUNT:
        p.add("(top)", f"must hold {MISSION_COUNT} missions, not {len(items)}")
    p.raise_if_any(DicetopiaDataError)
    return out


def parse_moments(data: Any, source: str = "moments.json") -> dict[str, Moment]:
    """When each action kind is taken: one entry per kind of :data:`KINDS`, no other."""
    return {kind: Moment(rule, when)
            for kind, (rule, when) in read_moments(data, KINDS, "Dicetopia", DicetopiaDataError, source).items()}


def _read(name: str) -> Any:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except ValueError as e:
        raise DicetopiaDataError([f"(top): not valid JSON ({e})"], f"rules/dicetopia/data/{name}") from None


@functools.cache
def tables() -> Tables:
    """The game's data, read once from the package's ``data/`` folder."""
    src = "rules/dicetopia/data/"
    hoods, colours, per, removed, full = parse_neighbourhoods(_read("neighbourhoods.json"), src + "neighbourhoods.json")
    factions = parse_factions(_read("factions.json"), src + "factions.json")
    missions = parse_missions(_read("missions.json"), src + "missions.json")
    moments = parse_moments(_read("moments.json"), src + "moments.json")
    return Tables(hoods, colours, per, removed, full, factions, missions, moments)
