"""What a game says about itself for shared screens, as plain data and without Kivy:
how its factions are shown, which seat counts it accepts (asked of the engine's own
``check_setup``, never copied), and which tracked values the end screen charts, with the
thresholds that win the game drawn as lines.

The display facts live in each game's ``data/factions.json``; the seat rules are the
engine's.

>>> game = "stepping_stones"
>>> facts = factions(game)
>>> facts["fox"].title, facts["hare"].colour
('✦ Fox', 'hare')
>>> faction_title(game, "hare"), faction_title(game, "neutral")
('✧ Hare', '○ Neutral')

Stepping Stones seats exactly two (its engine's minimum and maximum), refuses no count in
between, and charts nothing, so its end screen shows no chart:

>>> seat_counts(game), seat_refusals(game), charts(game)
([2], {}, [])
"""
from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from . import registry
from .datafile import DataFileError
from .core.seats import Seat


class FactsError(DataFileError):
    """A game's ``data/factions.json`` is missing a field or has one of the wrong type."""


@dataclass(frozen=True)
class Faction:
    id: str
    name: str  # in players' words: "Criminals"
    glyph: str  # shown beside the name and colour, so colour is never the only cue
    colour: str  # the key of its colour in the app's palettes

    @property
    def title(self) -> str:
        return f"{self.glyph} {self.name}"


@dataclass(frozen=True)
class Line:
    at: int
    label: str


@dataclass(frozen=True)
class Chart:
    series: str  # the key in ``Table.view()`` holding [[turn, value], …]
    label: str
    value: str  # the value's name for the axis ("influence")
    faction: str  # whose colour the series is drawn in
    lines: tuple[Line, ...]


def _need(data: Any, key: str, kind: type, where: str, source: str) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
        raise FactsError([f"{where}.{key}: must be a {kind.__name__}."], source)
    return data[key]


def _facts_file(game_id: str) -> tuple[str, Any]:
    """(the engine's module, its data/factions.json): found through the game's plugin,
    without importing the engine (a shared widget asking a faction's glyph at start-up
    cost the import of every game, 58 ms for Liberation)."""
    found = registry.plugin(game_id)
    folder = found.folder if found.folder is not None else Path(".")
    return found.module, folder / "data" / "factions.json"


@functools.cache
def _data(game_id: str) -> dict[str, Any]:
    # The data sits in the engine's own package, beside its other data files.
    engine, path = _facts_file(game_id)
    source = f"{engine.replace('.', '/')}/data/factions.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"factions": {}, "charts": []}
    except ValueError as e:
        raise FactsError([f"(top): not valid JSON ({e})."], source) from None
    out: dict[str, Any] = {"factions": {}, "charts": []}
    for fid, f in _need(data, "factions", dict, "(top)", source).items():
        where = f"factions.{fid}"
        out["factions"][fid] = Faction(fid, _need(f, "name", str, where, source), _need(f, "glyph", str, where, source), _need(f, "colour", str, where, source))
    for i, c in enumerate(_need(data, "charts", list, "(top)", source)):
        where = f"charts[{i}]"
        lines = tuple(Line(_need(ln, "at", int, f"{where}.lines[{j}]", source), _need(ln, "label", str, f"{where}.lines[{j}]", source))
                      for j, ln in enumerate(_need(c, "lines", list, where, source)))
        out["charts"].append(Chart(_need(c, "series", str, where, source), _need(c, "label", str, where, source),
                                   _need(c, "value", str, where, source), _need(c, "faction", str, where, source), lines))
    return out


def factions(game_id: str) -> dict[str, Faction]:
    """The game's factions as shown to players, by id."""
    return dict(_data(game_id)["factions"])


def faction_title(game_id: str, faction: str) -> str:
    """"◆ Criminals"; a faction the game does not describe gets a plain circle and its id in words."""
    f = _data(game_id)["factions"].get(faction)
    return f.title if f else f"○ {faction.replace('-', ' ').replace('_', ' ').title()}"


def charts(game_id: str) -> list[Chart]:
    """The tracked values the end screen charts (none: no chart)."""
    return list(_data(game_id)["charts"])


def _seating(game: Any, n: int) -> list[Seat]:
    factions_ = game.factions or ("player",)
    return [Seat(f"{f}-{i}", f) for i, f in zip(range(1, n + 1), itertools.cycle(factions_))]


def seat_refusals(game_id: str, options: Mapping[str, Any] | None = None) -> dict[int, str]:
    """Seat counts between the game's minimum and maximum that the engine refuses even
    seated at their best (factions alternating), with the engine's sentence, under
    ``options`` (the defaults for any not given: a house rule may seat more players)."""
    game = registry.load(game_id)
    chosen = {o.name: o.default for o in game.options} | dict(options or {})
    out = {}
    for n in range(game.min_seats, game.max_seats + 1):
        problems = list(game.check_setup(_seating(game, n), chosen))
        if problems:
            out[n] = problems[0].message
    return out


def seat_counts(game_id: str, options: Mapping[str, Any] | None = None) -> list[int]:
    """The seat counts the engine accepts under ``options`` (the defaults if None)."""
    game = registry.load(game_id)
    refused = seat_refusals(game_id, options)
    return [n for n in range(game.min_seats, game.max_seats + 1) if n not in refused]


def any_faction(faction: str) -> Faction | None:
    """The faction ``faction`` of whichever installed game has it (faction ids are unique
    across the catalogue: shared widgets that only know a seat's faction use this).

    >>> any_faction("fox").glyph, any_faction("neutral")
    ('✦', None)
    """
    for info in registry.catalog():
        found = _data(info.id)["factions"].get(faction)
        if found is not None:
            return found
    return None
