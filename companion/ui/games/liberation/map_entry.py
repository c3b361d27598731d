"""Entering a table's own Liberation map, without Kivy: the model behind the map-entry
screen and the map choice at setup (unit-tested without a window).

The table names the 14 cities and their categories, then taps two cities to add the line
between them (tapping both ends of a line again removes it) — the rules package's
:class:`~rules.liberation.MapBuilder` does the bookkeeping and lists what is still wrong.
A finished map is saved as JSON in the app's user-data folder (``liberation-maps/``) and
offered at setup next time, beside the labelled placeholder map.

>>> import tempfile
>>> entry = MapEntry.blank(tempfile.mkdtemp(), "Our table")
>>> entry.mode = "lines"
>>> entry.tap("city-01"), entry.tap("city-02")
('City 1 selected: tap another city to add or remove the line between them.', 'Line added: City 1 – City 2.')
>>> entry.ready
False
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.liberation import CATEGORIES, MapBuilder, MapError, MapSpec, dump_map, placeholder_map

from companion.ui.games.liberation.mapfiles import map_path, save_map, saved_maps

FOLDER = "liberation-maps"
COLS = 4  # cities are placed on a fixed grid while entering, so they never jump as lines change


def maps_folder(user_data: str | Path) -> Path:
    """Where saved maps live inside the app's user-data folder."""
    return Path(user_data) / FOLDER


@dataclass(frozen=True)
class EntryCell:
    """One city in the entry map (the same shape the map widget draws)."""

    id: str
    label: str
    state: str
    x: float
    y: float
    selected: bool = False
    target: bool = False


@dataclass(frozen=True)
class MapChoice:
    """A map offered at setup: a saved map or the labelled placeholder."""

    id: str
    label: str
    spec: MapSpec

    @property
    def option(self) -> dict[str, Any]:
        """The engine's ``map`` option for this map."""
        return dump_map(self.spec)


def map_choices(folder: str | Path) -> list[MapChoice]:
    """Every map a game can start with: the table's saved maps, then the placeholder."""
    out = [MapChoice(m.id, f"▦ {m.name}  ({len(m.lines)} lines)", m) for m in saved_maps(folder) if not m.placeholder]
    ph = placeholder_map()
    out.append(MapChoice(ph.id, f"⚠ {ph.name}", ph))
    return out


def default_choice(folder: str | Path) -> MapChoice:
    """The map a new game starts with: the table's most recently saved map, so that once
    the printed map is entered every later game plays on it without asking; the labelled
    placeholder until then.

    >>> import tempfile
    >>> default_choice(tempfile.mkdtemp()).spec.placeholder
    True
    """
    saved = [c for c in map_choices(folder) if not c.spec.placeholder]
    if not saved:
        return map_choices(folder)[-1]

    def saved_at(c: MapChoice) -> float:
        try:
            return map_path(folder, c.id).stat().st_mtime
        except OSError:
            return 0.0

    return max(saved, key=saved_at)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "our-map"


class MapEntry:
    """A map being entered; ``mode`` is ``names`` (a tap picks the city to edit) or
    ``lines`` (taps pair cities)."""

    def __init__(self, folder: str | Path, builder: MapBuilder) -> None:
        self.folder = Path(folder)
        self.builder = builder
        self.mode = "names"
        self.editing = builder.cities[0].id if builder.cities else ""
        self.message = ""

    @classmethod
    def blank(cls, folder: str | Path, name: str = "Our map") -> "MapEntry":
        return cls(folder, MapBuilder.blank(_slug(name), name))

    @classmethod
    def from_spec(cls, folder: str | Path, spec: MapSpec, name: str | None = None) -> "MapEntry":
        """Start from a saved map (to correct it) or from the placeholder (as a copy under
        a new name: the placeholder itself is never overwritten)."""
        b = MapBuilder.from_spec(spec)
        if spec.placeholder or name:
            b.name = name or "Our map"
            b.map_id = _slug(b.name)
        return cls(folder, b)

    # ------------------------------------------------------------ naming

    def label(self, city_id: str) -> str:
        c = next(c for c in self.builder.cities if c.id == city_id)
        if c.name:
            return c.name
        tail = city_id.rsplit("-", 1)[-1]
        return f"City {int(tail)}" if tail.isdigit() else city_id  # unnamed yet: "City 1"…

    def rename_map(self, name: str) -> None:
        self.builder.name = name.strip()
        self.builder.map_id = _slug(name)

    def rename(self, city_id: str, name: str) -> None:
        self.builder.set_city(city_id, name=name)

    def cycle_category(self, city_id: str) -> str:
        """The next of the five categories for ``city_id``; returns its display name."""
        cats = list(CATEGORIES)
        c = next(c for c in self.builder.cities if c.id == city_id)
        nxt = cats[(cats.index(c.category) + 1) % len(cats)]
        self.builder.set_city(city_id, category=nxt)
        return CATEGORIES[nxt]

    def city(self, city_id: str) -> Any:
        return next(c for c in self.builder.cities if c.id == city_id)

    # ------------------------------------------------------------ taps

    def tap(self, city_id: str) -> str:
        """A tap on the map; returns (and keeps in :attr:`message`) what happened."""
        if self.mode == "names":
            self.editing = city_id
            self.message = f"Editing {self.label(city_id)}: type its name, tap its category to change it."
            return self.message
        first = self.builder.selected
        what = self.builder.tap(city_id)
        if what == "selected":
            self.message = f"{self.label(city_id)} selected: tap another city to add or remove the line between them."
        elif what == "cleared":
            self.message = f"{self.label(city_id)} unselected."
        else:
            pair = f"{self.label(first or '')} – {self.label(city_id)}"
            self.message = f"Line {'added' if what == 'added' else 'removed'}: {pair}."
        return self.message

    # ------------------------------------------------------------ view

    def cells(self) -> list[EntryCell]:
        cities = self.builder.cities
        rows = (len(cities) + COLS - 1) // COLS
        out = []
        for i, c in enumerate(cities):
            col, row = i % COLS, i // COLS
            # Odd rows are shifted half a column, so lines between rows rarely pass through a city.
            x = (col + (0.5 if row % 2 else 0.0)) / (COLS - 0.5)
            y = 1.0 - row / max(1, rows - 1)
            n = self.builder.degree(c.id)
            name, cat = self.label(c.id), CATEGORIES[c.category]
            name = name[: -len(cat) - 3] if name.endswith(f" ({cat})") else name  # the category has its own line
            label = f"{name}\n{cat}\n{n} line{'s' if n != 1 else ''}"
            sel = c.id == self.builder.selected if self.mode == "lines" else c.id == self.editing
            out.append(EntryCell(c.id, label, "free", x, y, selected=sel))
        return out

    def lines(self) -> list[tuple[str, str]]:
        return sorted(self.builder.lines)

    def problems(self) -> list[str]:
        return self.builder.problems()

    @property
    def ready(self) -> bool:
        return self.builder.ready

    # ------------------------------------------------------------ saving

    def save(self) -> Path:
        """Save the finished map for reuse; :class:`MapError` lists what is still wrong."""
        if not self.builder.name:
            raise MapError(["Give the map a name."])
        spec = self.builder.build()
        path = save_map(spec, self.folder)
        self.message = f"Saved “{spec.name}” ({len(spec.lines)} lines): it is offered at setup."
        return path
