"""The games' own naming hooks (``Game.names``, ``Game.choices``): the kernel's defaults,
a source no game offers refused by name, and every source a game's join form asks answered
by the game itself."""
from __future__ import annotations

import json

import pytest

import rules
from companion.ui.gamefiles import game_file
from rules.core.errors import UnknownSource
from rules.core.game import Game


def test_the_kernel_knows_seats_and_faces_and_refuses_the_rest():
    g = Game()
    assert g.names({}) == {}
    assert g.choices("seats", {}, [{"id": "a", "name": "Ann"}, {"id": "b"}]) == [("a", "Ann"), ("b", "b")]
    assert [v for v, _ in g.choices("faces", {}, [])] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(UnknownSource, match="'squares'"):
        g.choices("squares", {}, [])


def _sources(spec: dict) -> list[str]:
    return [s for s in (spec.get("source"), spec.get("each")) if s]


@pytest.mark.parametrize("game_id", [g.id for g in rules.catalog()])
def test_every_source_of_a_games_form_is_the_games_own(game_id):
    path = game_file(game_id, "position_form.json")
    if path is None:
        pytest.skip("no join form")
    game = rules.load(game_id)
    seats = [{"id": x.id, "faction": x.faction, "name": f"P{i}"} for i, x in enumerate(game.default_seats())]
    for spec in json.loads(path.read_text(encoding="utf-8"))["fields"]:
        for source in _sources(spec):
            source = source.replace("{seat}", seats[0]["id"]).replace("{item}", "")
            source = source.rstrip(":")
            # A live source reads the position being entered; an empty one offers nothing yet.
            got = game.choices(source, {}, seats, {"ask": {}})
            assert isinstance(got, list) and all(len(c) == 2 and isinstance(c[1], str) for c in got), source
    with pytest.raises(UnknownSource):
        game.choices("no-such-source", {}, seats)
