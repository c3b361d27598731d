"""The map: parsing, validation, the placeholder, the tap-pairs builder, saving, and a
game on a table's own map."""
from __future__ import annotations

import json

import pytest

from rules.core import IllegalAction
from rules.liberation import (
    CATEGORIES, GAME, MapBuilder, MapError, Occupy, Pass, dump_map, parse_map, placeholder_data,
    placeholder_map,
)
from companion.ui.games.liberation.mapfiles import load_map, map_path, save_map, saved_maps

from .helpers import D, c, start


def test_placeholder_is_labelled_connected_and_plausible():
    m = placeholder_map()
    assert m.placeholder and "placeholder" in m.name.lower() and "PLACEHOLDER" in m.note
    assert len(m.cities) == 14 and len({x.name for x in m.cities}) == 14
    assert all(x.name.startswith("City ") and x.category_name in x.name for x in m.cities)
    degrees = [len(m.neighbours(x)) for x in m.city_ids]
    assert min(degrees) >= 2 and max(degrees) <= 4
    assert all(m.distance(m.city_ids[0], x) is not None for x in m.city_ids)
    counts = sorted(sum(1 for x in m.cities if x.category == k) for k in CATEGORIES)
    assert counts == [2, 3, 3, 3, 3]
    assert sorted({x.map_card for x in m.cities}) and len({x.map_card for x in m.cities}) == 4


def test_graph_helpers():
    m = placeholder_map()
    assert m.adjacent("city-d", "city-f") and m.adjacent("city-f", "city-d")
    assert not m.adjacent("city-a", "city-a")
    assert m.neighbours("city-m") == {"city-f", "city-j", "city-l", "city-n"}
    assert m.reachable("city-a", 0) == {"city-a"}
    assert m.reachable("city-a", 2) == {"city-a", "city-b", "city-c", "city-d", "city-e", "city-h"}
    assert m.distance("city-a", "city-f") == 3
    assert GAME.reachable(start(), "city-f") == {"city-d", "city-e", "city-f", "city-g", "city-m"}


def test_round_trip_and_canonical_lines():
    data = placeholder_data()
    data["lines"] = [list(reversed(l)) for l in reversed(data["lines"])]
    assert parse_map(data) == placeholder_map()
    assert parse_map(json.loads(json.dumps(dump_map(placeholder_map())))) == placeholder_map()


def broken(**change):
    data = placeholder_data()
    for k, v in change.items():
        data[k] = v(data[k]) if callable(v) else v
    with pytest.raises(MapError) as e:
        parse_map(data)
    return " ".join(e.value.problems)


def test_validation_names_every_problem():
    assert "14 cities" in broken(cities=lambda cs: cs[:13], lines=lambda ls: [l for l in ls if "city-n" not in l])
    assert "share the name" in broken(cities=lambda cs: [*cs[:-1], {**cs[-1], "name": cs[0]["name"].upper()}])
    assert "share the id" in broken(cities=lambda cs: [*cs[:-1], {**cs[-1], "id": "city-a"}])
    assert "missing: Underworld" in broken(
        cities=lambda cs: [{**x, "category": "shipyard"} if x["category"] == "underworld" else x for x in cs])
    assert "must be one of" in broken(cities=lambda cs: [{**cs[0], "category": "castle"}, *cs[1:]])
    assert "not on the map" in broken(lines=lambda ls: [*ls, ["city-a", "city-zz"]])
    assert "to itself" in broken(lines=lambda ls: [*ls, ["city-a", "city-a"]])
    assert "entered twice" in broken(lines=lambda ls: [*ls, ["city-b", "city-a"]])
    assert "has no line" in broken(lines=lambda ls: [l for l in ls if "city-n" not in l])
    assert "pieces" in broken(lines=lambda ls: [l for l in ls if l not in (["city-f", "city-m"], ["city-j", "city-m"], ["city-g", "city-l"], ["city-k", "city-n"])])
    assert "pair of city ids" in broken(lines=lambda ls: [*ls, ["city-a"]])
    assert "format" in broken(format="liberation-map/9")
    with pytest.raises(MapError):
        parse_map([1, 2])


def test_builder_taps_pairs_to_add_and_remove_lines():
    b = MapBuilder.blank("our-table", "Our galaxy")
    assert [x.id for x in b.cities][:2] == ["city-01", "city-02"] and not b.lines
    assert any("needs a name" in p for p in b.problems())
    names = ["Aurum", "Brask", "Cyra", "Dovo", "Elm", "Fenn", "Gorr", "Hale", "Ivo", "Jarn", "Kest", "Lumo", "Mire", "Nox"]
    for x, name in zip(list(b.cities), names):
        b.set_city(x.id, name=name)
    ids = [x.id for x in b.cities]
    assert not b.ready and any("no line" in p for p in b.problems())
    assert b.tap(ids[0]) == "selected" and b.tap(ids[0]) == "cleared" and b.selected is None
    for a, z in zip(ids, ids[1:]):           # a chain through all 14
        b.tap(a)
        assert b.tap(z) == "added"
    assert b.ready and b.degree(ids[1]) == 2
    b.tap(ids[1])
    assert b.tap(ids[0]) == "removed" and not b.has_line(ids[0], ids[1])
    assert any("no line" in p for p in b.problems())
    with pytest.raises(MapError):
        b.build()
    b.toggle_line(ids[0], ids[1])
    b.set_city(ids[0], category="underworld")
    with pytest.raises(MapError):
        b.set_city(ids[0], category="moon")
    with pytest.raises(MapError):
        b.tap("city-99")
    with pytest.raises(MapError):
        b.add_line(ids[2], ids[2])
    spec = b.build()
    assert spec.id == "our-table" and spec.city(ids[0]).name == "Aurum" and not spec.placeholder
    assert MapBuilder.from_spec(spec).build() == spec


def test_save_load_and_list_in_the_callers_folder(tmp_path):
    spec = placeholder_map()
    path = save_map(spec, tmp_path / "maps")
    assert path == map_path(tmp_path / "maps", "placeholder") and load_map(path) == spec
    (tmp_path / "maps" / "broken.json").write_text("{not json", encoding="utf-8")
    assert [m.id for m in saved_maps(tmp_path / "maps")] == ["placeholder"]
    with pytest.raises(MapError, match="not valid JSON"):
        load_map(tmp_path / "maps" / "broken.json")
    assert saved_maps(tmp_path / "nowhere") == []
    assert map_path(tmp_path, "../etc/x y").parent == tmp_path


def test_a_game_checks_adjacency_against_the_map_in_use():
    # The table's map joins a and d directly (not so on the placeholder).
    data = placeholder_data()
    data["id"], data["placeholder"] = "ours", False
    data["lines"].append(["city-a", "city-d"])
    s = start(options={"map": data})
    GAME.push(s, Pass(D))
    GAME.push(s, Occupy(D, c("a"), c("d")))
    assert c("d") in s.occupied and GAME.map_of(s).id == "ours"
    assert GAME.view(s)["map"] == {"id": "ours", "name": data["name"], "placeholder": False}
    p = start()
    GAME.push(p, Pass(D))
    with pytest.raises(IllegalAction):
        GAME.push(p, Occupy(D, c("a"), c("d")))
    # and a saved game replays with its map
    assert GAME.state_from_data(GAME.state_to_data(s)) == s


def test_every_option_names_a_ruling_that_exists():
    from importlib import resources

    text = resources.files("rules.liberation").joinpath("RULINGS.md").read_text(encoding="utf-8")
    for option in GAME.options:
        assert option.ruling and f"## {option.ruling} " in text, option.name
