"""Palettes and glyphs, read from ``companion/ui/data/palettes.json``; a faction's glyph
and name are its game's (``rules/<game>/data/factions.json`` through :mod:`rules.facts`), and
so are its colours: ``palette.json`` in the game's UI package, one set per palette name (a
game without one gets the palette's ``series``, in its factions' order).

Colour is never the only cue: every faction, tile kind and state has a glyph and a name.

>>> p = load_palette("okabe-ito")
>>> p.faction("cops"), p.glyph("cops"), p.label("cops")
('#56b4e9', '▲', '▲ Cops')

A faction's colour is the palette's entry under the colour key its game gives it
(``factions.json``'s ``colour``), not under its id: Outrage's red piece is ``piece-red``,
Against All Tyrants' attacker borrows ``cops``. A key the palette lacks is neutral.

>>> colour_key("red"), p.faction("red") == p.faction("piece-red"), p.faction("attacker") == p.faction("cops")
('piece-red', True, True)
>>> p.faction_colour("no-such-faction"), p.faction("no-such-faction") == p.faction("neutral")
(None, True)
>>> rgba("#ff0000")
(1.0, 0.0, 0.0, 1.0)
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import rules
from rules import facts

from ...errors import CompanionError
from ..gamefiles import game_file

DATA = Path(__file__).resolve().parent.parent / "data" / "palettes.json"


class UnknownPalette(CompanionError, ValueError):
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


# Faction id → its colour key, filled as factions are found: a board redraw asks for every
# piece's colour, and finding a faction walks the catalogue's facts. Only found factions
# are kept (a game registered later may name one not found before).
_KEYS: dict[str, str] = {}


def colour_key(faction: str) -> str:
    """The palette key of ``faction``'s colour: its game's ``colour`` (:mod:`rules.facts`),
    or the id itself when no installed game has that faction (a role such as ``neutral``,
    or a key passed as it is)."""
    key = _KEYS.get(faction)
    if key is None:
        found = facts.any_faction(faction)
        if found is None:
            return faction
        key = _KEYS[faction] = found.colour
    return key


@dataclass(frozen=True)
class Palette:
    name: str
    title: str
    colours: dict[str, str]
    factions: dict[str, str]
    glyphs: dict[str, dict[str, str]] = field(default_factory=dict)

    def colour(self, role: str) -> str:
        return self.colours[role]

    def faction_colour(self, faction: str) -> str | None:
        """``faction``'s colour in this palette, or None if the palette has none for it."""
        return self.factions.get(colour_key(faction))

    def faction(self, faction: str) -> str:
        """``faction``'s colour; neutral for a faction this palette does not colour."""
        found = self.faction_colour(faction)
        return found if found is not None else self.factions.get("neutral", "#888888")

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
    raw.pop("series", None)
    games = tuple(g.id for g in rules.catalog())  # a game installed since is coloured too
    return Palette(name, title, raw, {**factions, **_game_colours(name, games)}, {**d["glyphs"], "tiles": _tile_glyphs(games)})


def _game_palette(game_id: str) -> dict[str, Any]:
    path = game_file(game_id, "palette.json")
    return json.loads(path.read_text(encoding="utf-8")) if path is not None else {}


@lru_cache(maxsize=None)
def _game_colours(name: str, games: tuple[str, ...]) -> dict[str, str]:
    """Colour key → colour in palette ``name``, from every installed game: its own
    palette.json's, else the palette's series in its factions' order. A key two games
    share (Against All Tyrants borrows Tyranny's) keeps the first game's colour."""
    series = _data()["palettes"][name].get("series") or ["#888888"]
    out: dict[str, str] = {}
    for g in map(rules.plugin, games):
        own = _game_palette(g.id).get("colours", {}).get(name)
        if own is None:
            keys = [facts.factions(g.id)[f].colour if f in facts.factions(g.id) else f for f in g.factions]
            own = {k: series[i % len(series)] for i, k in enumerate(dict.fromkeys(keys))}
        for key, colour in own.items():
            out.setdefault(key, colour)
    return out


@lru_cache(maxsize=None)
def _tile_glyphs(games: tuple[str, ...]) -> dict[str, str]:
    """The glyphs of board tiles by kind, from the games that draw tiles (palette.json's
    ``tile_glyphs``)."""
    out: dict[str, str] = {}
    for game_id in games:
        out.update({k: v for k, v in _game_palette(game_id).get("tile_glyphs", {}).items() if k not in out})
    return out
