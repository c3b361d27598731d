"""The catalogue: catalog.json's facts are each engine's own, listing the games imports no
engine (the home screen and the setup wizard list them), and an unknown or missing engine
is refused with UnknownGame."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rules
from rules import registry
from rules.core import UnknownGame


@pytest.mark.parametrize("info", [registry.info(g) for g in ("dicetopia", "liberation", "tyranny")], ids=lambda i: i.id)
def test_catalog_facts_are_the_engines_own(info):
    game = rules.load(info.id)
    assert (game.id, game.title, game.min_seats, game.max_seats, tuple(game.factions)) == \
        (info.id, info.title, info.min_seats, info.max_seats, info.factions)


def test_every_game_with_a_package_is_in_the_catalogue():
    from pathlib import Path

    packages = {p.parent.name for p in Path(rules.__file__).parent.glob("*/game.py")} - {"core"}
    data = json.loads(registry.CATALOG_FILE.read_text(encoding="utf-8"))
    assert packages == set(data["games"]) == {g.id for g in registry.catalog() if g.id in data["games"]}


def test_listing_the_games_imports_no_engine_and_not_the_kernel():
    code = ("import sys, rules; titles = [g.title for g in rules.catalog()]; "
            "print(titles, sorted(m for m in sys.modules if m.startswith('rules.') and m != 'rules.registry'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    games = json.loads(registry.CATALOG_FILE.read_text(encoding="utf-8"))["games"]
    titles = [games[g]["title"] for g in sorted(games)]
    assert "Tyranny" in titles and out == f"{titles} []"


def test_unknown_and_uninstalled_engines(monkeypatch):
    with pytest.raises(UnknownGame):
        rules.load("chess")
    with pytest.raises(UnknownGame):
        registry.info("chess")
    monkeypatch.setitem(registry._ENGINES, "tyranny", "rules.not_here:GAME")
    with pytest.raises(UnknownGame, match="not installed"):
        registry.info("tyranny")
    assert "tyranny" not in [g.id for g in registry.catalog()]


def test_a_registered_engine_is_listed_from_its_own_facts(monkeypatch):
    monkeypatch.setitem(registry._ENGINES, "mini-duel", "tests.rules.core.minigames:DUEL")
    listed = {g.id: g for g in registry.catalog()}
    duel = rules.load("mini-duel")
    assert listed["mini-duel"].title == duel.title


def test_the_catalogue_file_names_an_engine_for_every_game():
    data = json.loads(registry.CATALOG_FILE.read_text(encoding="utf-8"))
    assert all(":" in g["engine"] for g in data["games"].values())
