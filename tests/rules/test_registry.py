"""The catalogue: games are found through the ``tabletop_companion.games`` entry points,
each game's card (plugin.json) states the engine's own facts, listing the games imports no
engine, and an unknown or missing engine is refused with UnknownGame."""
from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rules
from rules import registry
from rules.core import UnknownGame
from rules.core.errors import BadPluginCard

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
BUILT_IN = PYPROJECT["project"]["entry-points"][registry.GROUP]


@pytest.mark.parametrize("game_id", sorted(BUILT_IN))
def test_each_card_states_the_engines_own_facts(game_id):
    found = registry.plugin(game_id)
    game = rules.load(game_id)
    assert (game.id, game.title, game.min_seats, game.max_seats, tuple(game.factions)) == \
        (found.id, found.title, found.min_seats, found.max_seats, found.factions)


@pytest.mark.parametrize("game_id", sorted(BUILT_IN))
def test_each_card_names_parts_that_exist(game_id):
    import importlib.util

    found = registry.plugin(game_id)
    for target in filter(None, (found.screen, found.setup)):
        module, _, attr = target.partition(":")
        assert attr and importlib.util.find_spec(module) is not None, target
    assert found.ui == "" or importlib.util.find_spec(found.ui) is not None


def test_every_game_package_is_declared_and_installed():
    # A folder under rules/ with a game.py is a game: pyproject declares it, the installed
    # metadata (the editable install) carries the same entry points, and each is listed.
    packages = {p.parent.name for p in Path(rules.__file__).parent.glob("*/game.py")} - {"core"}
    assert set(BUILT_IN) == packages
    assert {k: v for k, v in BUILT_IN.items()} == {k: f"rules.{k}:GAME" for k in packages}
    installed = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=registry.GROUP)}
    assert installed.items() >= BUILT_IN.items(), "reinstall: pip install -e . (./dev does it when pyproject.toml changes)"
    assert set(BUILT_IN) <= {g.id for g in registry.catalog()}


def test_listing_the_games_imports_no_engine_and_not_the_kernel():
    code = ("import sys, rules; titles = [g.title for g in rules.catalog()]; "
            "print(titles, sorted(m for m in sys.modules if m.startswith('rules.') and m not in ('rules.registry', 'rules.plugins')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()
    titles = [json.loads((ROOT / "rules" / g / "plugin.json").read_text(encoding="utf-8"))["title"] for g in sorted(BUILT_IN)]
    assert "Tyranny" in titles and out == f"{titles} []"


def test_unknown_and_uninstalled_engines(monkeypatch):
    with pytest.raises(UnknownGame):
        rules.load("chess")
    with pytest.raises(UnknownGame):
        registry.info("chess")
    registry.register("ghost", "rules.not_here:GAME")
    try:
        with pytest.raises(UnknownGame, match="is installed"):
            registry.info("ghost")
        assert "ghost" not in [g.id for g in registry.catalog()]
    finally:
        registry.unregister("ghost")


def test_a_registered_engine_is_listed_from_its_own_facts():
    registry.register("mini-duel", "tests.rules.core.minigames:DUEL")
    try:
        listed = {g.id: g for g in registry.catalog()}
        duel = rules.load("mini-duel")
        assert listed["mini-duel"].title == duel.title
    finally:
        registry.unregister("mini-duel")
    assert "mini-duel" not in [g.id for g in registry.catalog()]


def test_a_broken_card_is_refused_naming_the_file_and_every_problem(tmp_path):
    from rules.plugins import read_card

    (tmp_path / "plugin.json").write_text('{"title": "X", "min_seats": "two", "factions": ["a"], "screen": 4}')
    with pytest.raises(BadPluginCard) as e:
        read_card("x", "x:GAME", tmp_path)
    text = str(e.value)
    assert str(tmp_path / "plugin.json") in text
    assert all(w in text for w in ("min_seats", "max_seats", "screen")) and "title" not in text
    (tmp_path / "plugin.json").write_text("{not json")
    with pytest.raises(BadPluginCard, match="not valid JSON"):
        read_card("x", "x:GAME", tmp_path)
    with pytest.raises(BadPluginCard, match="no plugin.json"):
        read_card("x", "x:GAME", tmp_path / "nowhere")


def test_a_card_without_bgstats_gets_the_default():
    from rules.plugins import DEFAULT_BGSTATS, plugin_from_card

    p = plugin_from_card("x", "x:GAME", {"title": "X", "min_seats": 1, "max_seats": 2, "factions": []}, "x")
    assert dict(p.bgstats) == dict(DEFAULT_BGSTATS) and DEFAULT_BGSTATS["bggId"] is None


def test_the_demo_game_is_the_first_card_that_offers_one():
    offering = [g for g in registry.catalog() if g.demo]
    assert offering and registry.demo_game() == offering[0]
    assert all(s["faction"] in offering[0].factions for s in offering[0].demo["seats"])


def test_a_game_whose_card_is_broken_is_left_out_and_named(tmp_path, monkeypatch):
    pkg = tmp_path / "broken_game_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("GAME = None\n", encoding="utf-8")
    (pkg / "plugin.json").write_text('{"title": "Broken", "min_seats": 2}', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register("broken-game", "broken_game_pkg:GAME")
    try:
        assert "broken-game" not in [g.id for g in registry.catalog()]
        assert set(BUILT_IN) <= {g.id for g in registry.catalog()}  # the others are still listed
        assert "max_seats" in registry.broken()["broken-game"] and "plugin.json" in registry.broken()["broken-game"]
        with pytest.raises(BadPluginCard, match="factions"):
            registry.plugin("broken-game")
    finally:
        registry.unregister("broken-game")
    assert registry.broken() == {}
