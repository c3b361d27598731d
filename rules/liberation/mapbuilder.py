"""Entering a table's map: the non-UI model behind the map-entry screen.

The table names its 14 cities (and their categories), then taps two cities to add the
line between them, or taps both ends of an existing line to remove it. The builder keeps
the half-entered map, says what is still wrong (:meth:`MapBuilder.problems`), and builds a
:class:`~rules.liberation.mapdata.MapSpec` once the map is playable.

>>> b = MapBuilder.from_spec(placeholder_map())
>>> b.tap("city-a"), b.selected
('selected', 'city-a')
>>> b.tap("city-d")                 # no line a–d yet: tapping the pair adds it
'added'
>>> b.has_line("city-d", "city-a")
True
>>> b.tap("city-a"); b.tap("city-d")  # the same pair again removes it
'selected'
'removed'
>>> b.build().lines == placeholder_map().lines   # back where we started
True
>>> blank = MapBuilder.blank("our-table", "Our galaxy")
>>> len(blank.problems()) > 0, blank.ready
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.datafile import short

from .mapdata import CATEGORIES, CITY_COUNT, City, MapError, MapSpec, make_map, placeholder_map, problems_of


@dataclass
class MapBuilder:
    """A map being entered. Cities keep their ids (``city-01``…) while names change, so
    lines stay attached when a city is renamed."""

    map_id: str
    name: str
    cities: list[City] = field(default_factory=list)
    lines: set[tuple[str, str]] = field(default_factory=set)
    selected: str | None = None

    @classmethod
    def blank(cls, map_id: str, name: str = "") -> "MapBuilder":
        """Fourteen unnamed cities (``city-01`` … ``city-14``) and no lines."""
        cats = list(CATEGORIES)
        cities = [City(f"city-{i:02d}", "", cats[(i - 1) % len(cats)]) for i in range(1, CITY_COUNT + 1)]
        return cls(map_id, name or map_id, cities)

    @classmethod
    def from_spec(cls, spec: MapSpec) -> "MapBuilder":
        """Start from an existing map (to correct it, or from the placeholder)."""
        return cls(spec.id, spec.name, list(spec.cities), set(spec.lines))

    # ----------------------------------------------------------------- cities

    def set_city(self, city_id: str, *, name: str | None = None, category: str | None = None, map_card: str | None = None) -> None:
        """Rename a city, or change its category or map card."""
        i = self._index(city_id)
        c = self.cities[i]
        for field_name, value in (("name", name), ("category", category), ("map_card", map_card)):
            if value is not None and not isinstance(value, str):
                raise MapError([f"{field_name}: a city's {field_name} is text, not {short(value)}."])
        if category is not None and category not in CATEGORIES:
            raise MapError([f"Category {category!r} must be one of {', '.join(CATEGORIES)}."])
        self.cities[i] = City(
            c.id,
            c.name if name is None else name.strip(),
            c.category if category is None else category,
            c.map_card if map_card is None else map_card,
        )

    def _index(self, city_id: str) -> int:
        for i, c in enumerate(self.cities):
            if c.id == city_id:
                return i
        raise MapError([f"There is no city {city_id!r} on this map."])

    # ------------------------------------------------------------------ lines

    @staticmethod
    def _key(a: str, b: str) -> tuple[str, str]:
        return (a, b) if a <= b else (b, a)

    def has_line(self, a: str, b: str) -> bool:
        return self._key(a, b) in self.lines

    def add_line(self, a: str, b: str) -> None:
        self._index(a), self._index(b)
        if a == b:
            raise MapError([f"A line joins two different cities, not {a} to itself."])
        self.lines.add(self._key(a, b))

    def remove_line(self, a: str, b: str) -> None:
        self.lines.discard(self._key(a, b))

    def toggle_line(self, a: str, b: str) -> bool:
        """Add the line if it is missing, remove it if present; return whether it exists now."""
        if self.has_line(a, b):
            self.remove_line(a, b)
            return False
        self.add_line(a, b)
        return True

    def tap(self, city_id: str) -> str:
        """One tap on a city: ``'selected'`` (first end chosen), ``'cleared'`` (the same
        city tapped again), ``'added'`` or ``'removed'`` (second end: the line toggled)."""
        self._index(city_id)
        if self.selected is None:
            self.selected = city_id
            return "selected"
        first, self.selected = self.selected, None
        if first == city_id:
            return "cleared"
        return "added" if self.toggle_line(first, city_id) else "removed"

    def degree(self, city_id: str) -> int:
        return sum(1 for l in self.lines if city_id in l)

    # ------------------------------------------------------------------ build

    def problems(self) -> list[str]:
        """What still stops this map from being played (empty when it is ready)."""
        out = [] if self.map_id.strip() else ["A map needs an id (the file it is saved under)."]
        return out + problems_of(self.cities, sorted(self.lines))

    @property
    def ready(self) -> bool:
        return not self.problems()

    def build(self) -> MapSpec:
        """The finished map; raises :class:`MapError` naming every remaining problem."""
        return make_map(self.map_id, self.name, self.cities, sorted(self.lines))


__all__ = ["MapBuilder", "placeholder_map"]
