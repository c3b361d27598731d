"""Map entry and the map layout without a window: naming, categories, lines by tapping
pairs, the problems list, saving for reuse, the choices offered at setup."""
from __future__ import annotations

import doctest

import pytest

from companion.ui.games.liberation.mapfiles import saved_maps
from rules.liberation import CATEGORIES, GAME, MapError, placeholder_map

from companion.ui.games.liberation import layout as layout_module, map_entry as map_entry_module
from companion.ui.games.liberation.layout import layout
from companion.ui.games.liberation.map_entry import MapEntry, map_choices, maps_folder

SEATS = [{"id": "dyn", "faction": "dynasty", "name": "Dana"}, {"id": "lib", "faction": "liberation", "name": "Lee"}]


@pytest.mark.parametrize("module", [layout_module, map_entry_module])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def _ring(entry: MapEntry) -> None:
    """Name every city and join them in a ring by taps."""
    ids = [c.id for c in entry.builder.cities]
    for i, cid in enumerate(ids):
        entry.rename(cid, f"Planet {i + 1}")
    entry.mode = "lines"
    for a, b in zip(ids, ids[1:] + ids[:1]):
        entry.tap(a)
        entry.tap(b)


def test_a_blank_map_lists_every_problem_until_it_is_entered(tmp_path):
    e = MapEntry.blank(tmp_path, "Our table")
    assert not e.ready and any("needs a name" in p for p in e.problems())
    _ring(e)
    assert e.ready, e.problems()
    assert len(e.lines()) == 14 and all(len(c.label.split("\n")) == 3 for c in e.cells())
    assert e.cells()[0].label == "Planet 1\nPolitical Center\n2 lines"


def test_names_mode_edits_a_city_and_lines_mode_toggles_pairs(tmp_path):
    e = MapEntry.from_spec(tmp_path, placeholder_map())
    assert e.builder.name == "Our map" and e.builder.map_id == "our-map"  # a copy, never the placeholder
    e.tap("city-b")
    assert e.editing == "city-b" and e.builder.selected is None
    e.rename("city-b", "Hoth")
    assert e.cycle_category("city-b") == "Shipyard" and e.city("city-b").category == "shipyard"
    e.mode = "lines"
    assert e.tap("city-a").startswith("City A (Political Center) selected")
    assert e.tap("city-b") == "Line removed: City A (Political Center) – Hoth."
    assert e.tap("city-a") and e.tap("city-a") == "City A (Political Center) unselected."
    assert e.tap("city-a") and e.tap("city-n") == "Line added: City A (Political Center) – City N (Weapons Factory)."
    assert [c.selected for c in e.cells()].count(True) == 0
    e.tap("city-a")
    assert [c.id for c in e.cells() if c.selected] == ["city-a"]


def test_an_unplayable_map_is_not_saved_and_a_playable_one_is_offered_at_setup(tmp_path):
    folder = maps_folder(tmp_path)
    e = MapEntry.from_spec(folder, placeholder_map(), name="Kitchen table")
    e.mode = "lines"
    for a, b in (("city-a", "city-b"), ("city-a", "city-c")):
        e.tap(a)
        e.tap(b)
    assert any("City A (Political Center)" in p for p in e.problems())
    with pytest.raises(MapError):
        e.save()
    assert saved_maps(folder) == []
    e.tap("city-a")
    e.tap("city-d")
    path = e.save()
    assert path.parent == folder and e.message.startswith("Saved “Kitchen table”")
    choices = map_choices(folder)
    assert [c.id for c in choices] == ["kitchen-table", "placeholder"]
    assert choices[0].label == "▦ Kitchen table  (20 lines)" and choices[1].label.startswith("⚠ Placeholder map")
    state = GAME.new(SEATS, {"map": choices[0].option}, seed=1)
    assert GAME.map_of(state).adjacent("city-a", "city-d") and not GAME.map_of(state).adjacent("city-a", "city-b")


def test_every_category_can_be_reached_by_cycling(tmp_path):
    e = MapEntry.blank(tmp_path)
    seen = {e.cycle_category("city-01") for _ in CATEGORIES}
    assert seen == set(CATEGORIES.values())


def test_the_layout_keeps_cities_apart():
    pos = layout(placeholder_map())
    pts = list(pos.values())
    assert min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for i, a in enumerate(pts) for b in pts[i + 1:]) > 0.1

    class Spec:  # a map without map cards: the spring layout
        cities = tuple(c.__class__(c.id, c.name, c.category, "") for c in placeholder_map().cities)
        lines = placeholder_map().lines

    pos = layout(Spec)
    assert len(pos) == 14 and all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pos.values())
    pts = list(pos.values())
    assert min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for i, a in enumerate(pts) for b in pts[i + 1:]) > 0.05
