"""Palettes and glyphs, read from ``companion/ui/data/palettes.json``; a faction's glyph
and name are its game's (``rules/<game>/data/factions.json`` through :mod:`rules.facts`).

Colour is never the only cue: every faction, tile kind and state has a glyph and a name.

>>> p = load_palette("okabe-ito")
>>> p.faction("cops"), p.glyph("cops"), p.label("cops")
('#56b4e9', '▲', '▲ Cops')
>>> rgba("#ff0000")
(1.0, 0.0, 0.0, 1.0)
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules import facts

DATA = Path(__file__).resolve().parent.parent / "data" / "palettes.json"


class UnknownPalette(ValueError):
    """A palette name that ``palettes.json`` does not define."""


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def palette_names() -> list[tuple[str, str]]:
    """``(name, title)`` of every palette, the default first."""
    d = _data()
    names = sorted(d["palettes"], key=lambda n: n != d["default"])
    return [(n, d["palettes"][n]["title"]) for n in names]


def default_palette() -> str:
    return str(_data()["default"])


def rgba(hex_colour: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """``#rrggbb`` → an RGBA tuple of floats (what Kivy's colour properties take)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (round(r, 4), round(g, 4), round(b, 4), alpha)


@dataclass(frozen=True)
class Palette:
    name: str
    title: str
    colours: dict[str, str]
    factions: dict[str, str]
    glyphs: dict[str, dict[str, str]] = field(default_factory=dict)

    def colour(self, role: str) -> str:
        return self.colours[role]

    def faction(self, faction: str) -> str:
        return self.factions.get(faction, self.factions.get("neutral", "#888888"))

    def glyph(self, faction: str) -> str:
        found = facts.any_faction(faction)
        return found.glyph if found else self.glyphs["factions"].get(faction, "○")

    def tile_glyph(self, kind: str) -> str:
        return self.glyphs["tiles"].get(kind, "·")

    def state_glyph(self, state: str) -> str:
        return self.glyphs["states"].get(state, "")

    def label(self, faction: str) -> str:
        """Glyph and name together: what every faction marker shows besides its colour."""
        found = facts.any_faction(faction)
        return found.title if found else f"{self.glyph(faction)} {faction.replace('-', ' ').title()}"


def load_palette(name: str | None = None) -> Palette:
    d = _data()
    name = name or d["default"]
    if name not in d["palettes"]:
        raise UnknownPalette(f"no palette {name!r}; choose one of {', '.join(d['palettes'])}")
    raw = dict(d["palettes"][name])
    factions = raw.pop("factions")
    title = raw.pop("title")
    return Palette(name, title, raw, factions, d["glyphs"])
