"""Saving and loading entered Liberation maps in a folder the caller chooses (the app
passes its user-data folder). The rules package stays free of I/O: it only turns plain
data into a map (:func:`rules.liberation.parse_map`) and back (``dump_map``); reading and
writing the files is the app's job, here.

>>> import tempfile, pathlib
>>> from rules.liberation import placeholder_map
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = save_map(placeholder_map(), folder)
>>> path.name, [m.id for m in saved_maps(folder)]
('placeholder.json', ['placeholder'])
>>> load_map(path) == placeholder_map()
True
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from companion.files import NotJson, parse_json, write_atomic
from rules.liberation.mapcards import CardSet, CardSetError, dump_card_set, parse_card_set
from rules.liberation.mapdata import MapError, MapSpec, dump_map, parse_map

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def map_path(folder: str | os.PathLike[str], map_id: str) -> Path:
    """Where the map ``map_id`` is saved in ``folder``."""
    stem = _SAFE.sub("-", map_id).strip(".-") or "map"
    return Path(folder) / f"{stem}.json"


def _write_json(data: object, path: Path) -> Path:
    return write_atomic(path, json.dumps(data, indent=1, ensure_ascii=False))


def save_map(spec: MapSpec, folder: str | os.PathLike[str]) -> Path:
    """Write ``spec`` to ``folder`` atomically."""
    return _write_json(dump_map(spec), map_path(folder, spec.id))


def load_map(path: str | os.PathLike[str]) -> MapSpec:
    """Read and validate a saved map; :class:`MapError` if it is broken or not JSON."""
    name = Path(path).name
    try:
        data = parse_json(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise MapError(["(top): cannot be read as a map (not text)."], name) from None
    except NotJson as e:  # damaged, a number too long, nested too deep: json's own reason
        raise MapError([f"(top): not valid JSON ({e})."], name) from None
    return parse_map(data, name)


def saved_maps(folder: str | os.PathLike[str]) -> list[MapSpec]:
    """Every valid map saved in ``folder``, by id; broken files are skipped."""
    out = []
    root = Path(folder)
    if not root.is_dir():
        return []
    for p in sorted(root.glob("*.json")):
        try:
            out.append(load_map(p))
        except (MapError, OSError):
            continue
    return sorted(out, key=lambda m: m.id)


# ------------------------------------------------------------ map cards (RULINGS L-15)

CARDS_FOLDER = "liberation-map-cards"
"""Card-set files (format ``liberation-map-cards/1``, see ``rules/liberation/mapcards.py``)
a table saves in the app's user-data folder, beside ``liberation-maps/``."""


def load_card_set(path: str | os.PathLike[str]) -> CardSet:
    """Read and validate a card-set file; :class:`CardSetError` (a ``MapError``) names the
    file and every problem."""
    name = Path(path).name
    try:
        data = parse_json(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise CardSetError(["(top): cannot be read as map cards (not text)."], name) from None
    except NotJson as e:
        raise CardSetError([f"(top): not valid JSON ({e})."], name) from None
    return parse_card_set(data, name)


def save_card_set(cs: CardSet, folder: str | os.PathLike[str]) -> Path:
    """Write ``cs`` to ``folder`` atomically."""
    return _write_json(dump_card_set(cs), map_path(folder, cs.id))


def saved_card_sets(folder: str | os.PathLike[str]) -> list[CardSet]:
    """Every valid card set in ``folder``, by id; broken files are skipped.

    >>> import tempfile, pathlib
    >>> from rules.liberation import placeholder_card_set
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = save_card_set(placeholder_card_set(), folder)
    >>> _ = (folder / "broken.json").write_text("{", encoding="utf-8")
    >>> [c.id for c in saved_card_sets(folder)], load_card_set(path) == placeholder_card_set()
    (['placeholder-cards'], True)
    """
    root = Path(folder)
    if not root.is_dir():
        return []
    out = []
    for p in sorted(root.glob("*.json")):
        try:
            out.append(load_card_set(p))
        except (MapError, OSError):
            continue
    return sorted(out, key=lambda c: c.id)
