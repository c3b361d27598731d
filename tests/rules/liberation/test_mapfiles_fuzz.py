"""Altered map and missions files: only a MapError / MissionsError (or a value) comes out,
and its message names the file and, for every problem, the field (issue 15)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given

from rules.core import InvalidSetup, RulesError
from companion.ui.games.liberation.mapfiles import load_map
from rules.liberation import GAME, MapBuilder, MapError, MapSpec, parse_map, placeholder_data, placeholder_map
from rules.liberation.missions import MissionsError, MissionTable, default_missions_data, parse_missions, parse_missions_cached
from tests.json_mutations import check_each, mutated, names_a_field, nest

MAP: dict[str, Any] = placeholder_data()
MISSIONS: dict[str, Any] = default_missions_data()


def problem_has_a_path(problem: str) -> bool:
    path, sep, _ = problem.partition(": ")
    return bool(sep) and names_a_field(path)


def test_the_errors_are_rules_errors() -> None:
    assert issubclass(MapError, RulesError) and issubclass(MissionsError, RulesError)
    assert issubclass(MapError, ValueError) and issubclass(MissionsError, ValueError)


@given(mutated(MAP))
def test_altered_maps_give_a_map_or_a_map_error(data: Any) -> None:
    try:
        spec = parse_map(data, "our-map.json")
    except MapError as e:
        assert str(e).startswith("our-map.json: ")
        assert e.problems and not check_each(e.problems, problem_has_a_path)
    else:
        assert isinstance(spec, MapSpec)


@given(mutated(MISSIONS))
def test_altered_missions_give_a_table_or_a_missions_error(data: Any) -> None:
    try:
        table = parse_missions(data, "our-missions.json")
    except MissionsError as e:
        assert str(e).startswith("our-missions.json: ")
        assert e.problems and not check_each(e.problems, problem_has_a_path)
    else:
        assert isinstance(table, MissionTable)


@given(mutated(MAP), mutated(MISSIONS))
def test_altered_options_are_a_setup_error(map_data: Any, missions: Any) -> None:
    # An option of the wrong type is the kernel's Option.check (rules/core), not a map file.
    assume(isinstance(map_data, dict) and isinstance(missions, dict))
    try:
        GAME.new(GAME.default_seats(), {"map": map_data, "missions": missions}, 1)
    except InvalidSetup as e:
        assert {v.code for v in e.violations} <= {"bad-map", "bad-missions", "bad-option"}


def altered(base: Any, change: str) -> Any:
    ns = {"data": json.loads(json.dumps(base)), "nest": nest}
    exec(change, ns)
    return ns["data"]


MAP_CASES = [
    ("data = []", "(top)"),
    ("data['cities'] = None", "cities"),
    ("data['cities'][3] = 'city-d'", "cities[3]"),
    ("data['cities'][3]['name'] = None", "cities[3].name"),
    ("data['cities'][3]['category'] = ['shipyard']", "cities[3].category"),
    ("data['cities'][3]['category'] = 'harbour'", "cities[3].category"),
    ("data['cities'][3]['map_card'] = 2", "cities[3].map_card"),
    ("data['lines'][5] = ['city-a']", "lines[5]"),
    ("data['lines'][5] = ['city-a', 'city-zz']", "lines[5]"),
    ("data['id'] = None", "id"),
    ("data['name'] = 5", "name"),
    ("data['placeholder'] = 'yes'", "placeholder"),
    ("data['note'] = {}", "note"),
    ("data['format'] = []", "format"),
    ("data['lines'] = nest([], 5000)", "lines"),
]


@pytest.mark.parametrize("change,path", MAP_CASES, ids=[c[0] for c in MAP_CASES])
def test_map_errors_name_the_field(change: str, path: str) -> None:
    with pytest.raises(MapError) as e:
        parse_map(altered(MAP, change), "our-map.json")
    assert str(e.value).startswith("our-map.json: ")
    assert any(p.split(": ", 1)[0].startswith(path) for p in e.value.problems), e.value.problems


MISSION_CASES = [
    ("data = None", "(top)"),
    ("data['categories'] = []", "categories"),
    ("data['categories']['shipyard'] = 'x'", "categories.shipyard"),
    ("data['categories']['shipyard']['dynasty'] = None", "categories.shipyard.dynasty"),
    ("data['categories']['shipyard']['dynasty']['name'] = 3", "categories.shipyard.dynasty.name"),
    ("data['categories']['shipyard']['dynasty']['cost'] = ['none']", "categories.shipyard.dynasty.cost"),
    ("data['categories']['research-station']['dynasty']['question'] = {'type': ['x']}", "categories.research-station.dynasty.question"),
    ("data['categories']['research-station']['dynasty']['question']['max_steps'] = 2.0", "categories.research-station.dynasty.question"),
    ("data['categories']['research-station']['dynasty']['question']['max_steps'] = 10**30", "categories.research-station.dynasty.question"),
    ("data['categories']['moon'] = {}", "categories.moon"),
    ("data['categories'] = nest({}, 5000)", "categories"),
]


@pytest.mark.parametrize("change,path", MISSION_CASES, ids=[c[0] for c in MISSION_CASES])
def test_missions_errors_name_the_field(change: str, path: str) -> None:
    data = altered(MISSIONS, change)
    with pytest.raises(MissionsError) as e:
        parse_missions(data, "our-missions.json")
    assert str(e.value).startswith("our-missions.json: ")
    assert any(p.split(": ", 1)[0].startswith(path) for p in e.value.problems), e.value.problems
    with pytest.raises(MissionsError):
        parse_missions_cached(data)


def test_a_saved_map_names_its_file(tmp_path: Path) -> None:
    f = tmp_path / "our-table.json"
    f.write_text(json.dumps(altered(MAP, "data['cities'][3]['name'] = None")))
    with pytest.raises(MapError, match=r"^our-table\.json: cities\[3\]\.name: "):
        load_map(f)
    for bad in (b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", b"9" * 5000, b"{"):
        f.write_bytes(bad)
        with pytest.raises(MapError, match="our-table.json"):
            load_map(f)


def test_the_map_builder_refuses_values_that_are_not_text() -> None:
    b = MapBuilder.from_spec(placeholder_map())
    for kw in ({"name": 5}, {"category": ["shipyard"]}, {"map_card": 2}):
        with pytest.raises(MapError):
            b.set_city("city-a", **kw)  # type: ignore[arg-type]
    assert b.build().cities == placeholder_map().cities  # nothing changed


def test_a_missing_id_does_not_hide_the_other_problems() -> None:
    with pytest.raises(MapError) as e:
        parse_map({"cities": [], "lines": []})
    assert [p.split(":")[0] for p in e.value.problems] == ["id", "cities"]
