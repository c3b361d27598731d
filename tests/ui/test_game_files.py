"""A game's UI data files are its own (position_form.json, palette.json, tour.json in its UI
package; mappings.json in its engine's data), and a game without one gets a default, not a
gap."""
from __future__ import annotations

import json

import pytest

import rules
from companion.routing import load_mapping
from companion.ui.gamefiles import game_file
from companion.ui.presenters.palette import load_palette, palette_names
from companion.ui.presenters.tour import DEFAULT, TourModel
from rules import facts, registry


@pytest.fixture
def bare_game():
    """A game with an engine and nothing else (no UI package, no data files)."""
    registry.register("mini-duel", "tests.rules.core.minigames:DUEL")
    yield rules.load("mini-duel")
    registry.unregister("mini-duel")


def test_games_sharing_a_colour_key_agree_on_its_colour():
    for name, _ in palette_names():
        seen: dict[str, tuple[str, str]] = {}
        for g in rules.catalog():
            path = game_file(g.id, "palette.json")
            own = json.loads(path.read_text(encoding="utf-8"))["colours"][name] if path else {}
            for key, colour in own.items():
                assert seen.setdefault(key, (g.id, colour))[1] == colour, (name, key, seen[key][0], g.id)


def test_a_game_without_a_palette_gets_the_palettes_series_in_its_factions_order(bare_game):
    from companion.ui.presenters import palette

    # The little duel's factions ("red", "blue") have no colour key of any other game's.
    assert bare_game.factions == ("red", "blue") and facts.factions("mini-duel") == {}
    for name, _ in palette_names():
        series = json.loads(palette.DATA.read_text(encoding="utf-8"))["palettes"][name]["series"]
        assert [load_palette(name).factions[f] for f in bare_game.factions] == series[:2]


def test_a_game_without_a_tour_gets_the_shared_parts_tour(bare_game):
    default = json.loads(DEFAULT.read_text(encoding="utf-8"))["steps"]
    assert [s.target for s in TourModel.for_game("mini-duel").steps] == [s["target"] for s in default]
    assert {s["target"] for s in default} == {"prompt", "dice", "clocks", "topbar"}


def test_a_game_with_a_tour_gets_its_own():
    for g in rules.catalog():
        path = game_file(g.id, "tour.json")
        if path is not None:
            own = json.loads(path.read_text(encoding="utf-8"))["steps"]
            assert [s.title for s in TourModel.for_game(g.id).steps] == [s["title"] for s in own]


def test_a_game_without_mappings_maps_nothing(bare_game):
    assert load_mapping("mini-duel") == {"game": "mini-duel", "slots": {}, "buttons": {}}
    assert bare_game.id == "mini-duel" and game_file("mini-duel", "position_form.json") is None
