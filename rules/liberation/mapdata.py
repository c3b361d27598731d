"""Liberation's map as data: 14 cities (id, name, category) and the lines between them.

Button Shy never published the city names or the lines of the four map cards, so a table
enters its own map once (see :mod:`rules.liberation.mapbuilder`) and the engine checks every
adjacency rule against the map in use. A labelled placeholder map ships so the game can be
tried at once. This module is pure: it parses and validates; the graph questions are the
kernel's :class:`~rules.core.graph.Graph`'s, which a :class:`MapSpec` holds. The only file
it reads is the shipped placeholder (through :mod:`importlib.resources`).

>>> m = placeholder_map()
>>> m.placeholder, len(m.cities), len(m.lines)
(True, 14, 21)
>>> m.adjacent("city-a", "city-b"), m.adjacent("city-a", "city-d")
(True, False)
>>> sorted(m.reachable("city-a"))          # where a base at city-a may Evade to
['city-a', 'city-b', 'city-c']
>>> m.distance("city-a", "city-n")
4
>>> parse_map(dump_map(m)) == m
True
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from rules.core.graph import Graph, UnknownNode
from rules.datafile import DataFileError, Problems, kind, short

FORMAT = "liberation-map/1"
CITY_COUNT = 14

CATEGORIES: dict[str, str] = {
    "political-center": "Political Center",
    "weapons-factory": "Weapons Factory",
    "shipyard": "Shipyard",
    "research-station": "Research Station",
    "underworld": "Underworld",
}
"""The five city categories of the rulebook's glossary: id → display name."""


class MapError(DataFileError):
    """A map that cannot be played; ``problems`` lists every reason, one sentence each
    (read from a file: each starts with its place in it, ``cities[3].name: …``), and
    ``source`` names the file."""


@dataclass(frozen=True, slots=True)
class City:
    id: str
    name: str
    category: str
    map_card: str = ""  # which printed map card it is on, for laying the map out (optional)

    @property
    def category_name(self) -> str:
        return CATEGORIES[self.category]


@dataclass(frozen=True)
class MapSpec:
    """A validated map: its cities and the graph of lines between them (the graph's nodes
    are the city ids, in the cities' order). Lines are kept as sorted pairs, in sorted
    order, so two specs with the same cities and lines compare equal however they were
    entered."""

    id: str
    name: str
    cities: tuple[City, ...]
    graph: Graph
    placeholder: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if self.graph.nodes != self.city_ids:
            raise MapError("The map's graph must have the cities' ids as its nodes, in the cities' order.")
        # Each city by id: names and categories are read on nearly every action.
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cities})

    def __deepcopy__(self, memo: dict[int, Any]) -> "MapSpec":
        return self  # immutable

    @property
    def city_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cities)

    @property
    def lines(self) -> tuple[tuple[str, str], ...]:
        """Each line once, as a sorted pair."""
        return self.graph.lines

    def __contains__(self, city_id: object) -> bool:
        return city_id in self.graph

    def city(self, city_id: str) -> City:
        try:
            return self._by_id[city_id]  # type: ignore[attr-defined,no-any-return]
        except (KeyError, TypeError):
            raise UnknownNode(city_id) from None

    def name_of(self, city_id: str) -> str:
        return self.city(city_id).name

    def category_of(self, city_id: str) -> str:
        return self.city(city_id).category

    def neighbours(self, city_id: str) -> frozenset[str]:
        """Cities connected to ``city_id`` by one line."""
        return self.graph.neighbours(city_id)

    def adjacent(self, a: str, b: str) -> bool:
        """Whether one line connects ``a`` and ``b`` (a city is not adjacent to itself)."""
        return self.graph.adjacent(a, b)

    def reachable(self, city_id: str, steps: int = 1) -> frozenset[str]:
        """Cities at most ``steps`` lines away, ``city_id`` included. With ``steps=1``:
        the cities a base there may Evade to."""
        return self.graph.within(city_id, steps)

    def distance(self, a: str, b: str) -> int | None:
        """Fewest lines from ``a`` to ``b`` (``None`` if not connected, or not a city)."""
        return self.graph.distance(a, b) if b in self.graph else None


def problems_of(cities: Iterable[City], lines: Iterable[tuple[str, str]]) -> list[str]:
    """Every reason the cities and lines cannot make a Liberation map (empty if fine).

    >>> problems_of([], [])[0]
    'A map has 14 cities (one per City card), not 0.'
    """
    return [text for _, text in _problems(list(cities), list(lines))]


def _problems(cities: list[City], lines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """:func:`problems_of`, each with its place in a map file (``cities[3].category``)."""
    out: list[tuple[str, str]] = []
    if len(cities) != CITY_COUNT:
        out.append(("cities", f"A map has {CITY_COUNT} cities (one per City card), not {len(cities)}."))
    ids = [c.id for c in cities]
    id_count = Counter(ids)
    for i, c in enumerate(cities):
        if id_count[c.id] > 1 and ids.index(c.id) == i:
            out.append((f"cities[{i}].id", f"Two cities share the id {c.id!r}."))
    for i, c in enumerate(cities):
        if not c.id or not c.id.strip() or c.id != c.id.strip():
            out.append((f"cities[{i}].id", f"City id {c.id!r} must be non-empty, without surrounding spaces."))
        if not c.name.strip():
            out.append((f"cities[{i}].name", f"City {c.id!r} needs a name."))
        if c.category not in CATEGORIES:
            out.append((f"cities[{i}].category", f"City {c.id!r} has category {c.category!r}; it must be one of {', '.join(CATEGORIES)}."))
    names = [c.name.strip().casefold() for c in cities]
    name_count = Counter(n for n in names if n)
    for i, n in enumerate(names):
        if n and name_count[n] > 1 and names.index(n) == i:
            out.append((f"cities[{i}].name", f"Two cities share the name {n!r}."))
    present = {c.category for c in cities}
    missing = [CATEGORIES[k] for k in CATEGORIES if k not in present]
    if cities and missing:
        out.append(("cities", f"Every category has at least one city; missing: {', '.join(missing)}."))
    known = set(ids)
    seen: set[tuple[str, str]] = set()
    for j, (a, b) in enumerate(lines):
        if a not in known or b not in known:
            out.append((f"lines[{j}]", f"The line {a}–{b} names a city that is not on the map."))
            continue
        if a == b:
            out.append((f"lines[{j}]", f"A line joins two different cities, not {a} to itself."))
            continue
        key = (min(a, b), max(a, b))
        if key in seen:
            out.append((f"lines[{j}]", f"The line {key[0]}–{key[1]} is entered twice."))
        seen.add(key)
    if not out and cities:
        adj: dict[str, set[str]] = {i: set() for i in ids}
        for a, b in seen:
            adj[a].add(b)
            adj[b].add(a)
        for i, c in enumerate(cities):
            if not adj[c.id]:
                out.append((f"cities[{i}]", f"City {c.name!r} has no line: every city is connected to another."))
        reach = {ids[0]}
        todo = [ids[0]]
        while todo:
            for n in adj[todo.pop()]:
                if n not in reach:
                    reach.add(n)
                    todo.append(n)
        if len(reach) != len(ids) and not any("has no line" in p for _, p in out):
            out.append(("lines", "The map falls apart in pieces: every city must be reachable from every other along lines."))
    return out


def make_map(
    map_id: str,
    name: str,
    cities: Iterable[City],
    lines: Iterable[tuple[str, str]],
    *,
    placeholder: bool = False,
    note: str = "",
) -> MapSpec:
    """Validate and build a :class:`MapSpec`; raises :class:`MapError` naming every problem."""
    cities = tuple(cities)
    lines = [tuple(l) for l in lines]
    problems = problems_of(cities, lines)  # type: ignore[arg-type]
    if not map_id.strip():
        problems.insert(0, "A map needs an id (the file it is saved under).")
    if problems:
        raise MapError(problems)
    return _spec(map_id, name, cities, lines, placeholder, note)  # type: ignore[arg-type]


def _spec(map_id: str, name: str, cities: tuple[City, ...], lines: list[tuple[str, str]], placeholder: bool, note: str) -> MapSpec:
    canon = sorted({(min(a, b), max(a, b)) for a, b in lines})
    return MapSpec(map_id, name or map_id, cities, Graph([c.id for c in cities], lines=canon), placeholder, note)


def parse_map(data: Any, source: str = "map data") -> MapSpec:
    """Read a map from JSON data (as :func:`dump_map` writes it); :class:`MapError` names
    ``source`` and each problem's place in the data.

    >>> parse_map({"id": "ours", "cities": [], "lines": 5}, "our-map.json")
    Traceback (most recent call last):
    ...
    rules.liberation.mapdata.MapError: our-map.json: lines: must be a list of lines (pairs of city ids), not a number
    """
    p = Problems(source)
    data = p.top(data, MapError, "A map is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        p.add("format", f"Unknown map format {short(data.get('format'))}; expected {FORMAT!r}.")
    map_id = p.text(data.get("id", ""), "id", empty=True)
    if map_id is not None and not map_id.strip():
        p.add("id", "A map needs an id (the file it is saved under).")
    name = p.text(data.get("name", ""), "name", empty=True)
    placeholder = p.flag(data.get("placeholder", False), "placeholder")
    note = p.text(data.get("note", ""), "note", empty=True)
    known = len(p.items)  # problems that do not stop the cities and lines being checked
    raw_cities = p.listing(data.get("cities"), "cities", "a list of cities")
    raw_lines = p.listing(data.get("lines"), "lines", "a list of lines (pairs of city ids)")
    cities: list[City] = []
    for i, c in enumerate(raw_cities or ()):
        where = f"cities[{i}]"
        if not isinstance(c, dict):
            p.add(where, f"City #{i + 1} is an object with a text 'id', 'name' and 'category', not {kind(c)}.")
            continue
        fields = [p.text(c.get(k), f"{where}.{k}", empty=True) for k in ("id", "name", "category")]
        card = p.text(c.get("map_card", ""), f"{where}.map_card", empty=True)
        if None not in fields and card is not None:
            cities.append(City(fields[0], fields[1], fields[2], card))  # type: ignore[arg-type]
    lines: list[tuple[str, str]] = []
    for i, l in enumerate(raw_lines or ()):
        if not isinstance(l, list) or len(l) != 2 or not all(isinstance(x, str) for x in l):
            p.add(f"lines[{i}]", f"Line #{i + 1} must be a pair of city ids, not {short(l)}.")
            continue
        lines.append((l[0], l[1]))
    if len(p.items) > known:  # cities or lines unreadable: their own checks would mislead
        p.raise_if_any(MapError)
    for path, text in _problems(cities, lines):
        p.add(path, text)
    p.raise_if_any(MapError)
    return _spec(map_id or "", name or "", tuple(cities), lines, bool(placeholder), note or "")


@lru_cache(maxsize=64)
def _parse_text(text: str) -> MapSpec:
    return parse_map(json.loads(text))


def parse_map_cached(data: Any) -> MapSpec:
    """:func:`parse_map` memoised on the data's JSON text: game states parse their map
    option every time they are rebuilt."""
    try:
        text = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # not JSON data, or nested too deep: parse_map says where
        return parse_map(data)
    return _parse_text(text)


def dump_map(spec: MapSpec) -> dict[str, Any]:
    """JSON data for a map; :func:`parse_map` reads it back."""
    out: dict[str, Any] = {"format": FORMAT, "id": spec.id, "name": spec.name}
    if spec.placeholder:
        out["placeholder"] = True
    if spec.note:
        out["note"] = spec.note
    out["cities"] = [
        {"id": c.id, "name": c.name, "category": c.category, **({"map_card": c.map_card} if c.map_card else {})}
        for c in spec.cities
    ]
    out["lines"] = [list(l) for l in spec.lines]
    return out


def placeholder_data() -> dict[str, Any]:
    """The shipped placeholder map as JSON data (a fresh copy)."""
    text = resources.files("rules.liberation").joinpath("data/placeholder_map.json").read_text(encoding="utf-8")
    return json.loads(text)


def placeholder_map() -> MapSpec:
    """The shipped, clearly labelled placeholder map."""
    return parse_map(placeholder_data(), "placeholder_map.json")
