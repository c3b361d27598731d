"""The map-cards setup model (no Kivy): swapping cards between quadrants, flipping, turning,
the app's shuffle, and the option it gives the game."""
from __future__ import annotations

import doctest
import random

from companion.ui.games.liberation.mapfiles import CARDS_FOLDER, save_card_set
from companion.ui.games.liberation import map_cards
from companion.ui.games.liberation.map_cards import CardsChoice, card_sets
from rules.liberation import GAME, parse_map, placeholder_card_set
from rules.liberation.mapcards import QUADRANTS, dump_card_set, parse_card_set


def test_doctests():
    assert doctest.testmod(map_cards).failed == 0


def test_a_card_lies_in_one_quadrant_whatever_is_tapped():
    c = CardsChoice([placeholder_card_set()])
    rng = random.Random(3)
    for _ in range(60):
        q = rng.choice(QUADRANTS)
        rng.choice([c.cycle_card, c.flip, c.turn])(q)
        assert sorted(p.card for p in c.arrangement.placements) == ["card-1", "card-2", "card-3", "card-4"]
        assert not c.problems()
    m = parse_map(c.option())
    assert GAME.new([{"id": "d", "faction": "dynasty", "name": "D"}, {"id": "l", "faction": "liberation", "name": "L"}],
                    {"map": c.option()}, seed=1).map == m


def test_shuffle_for_us_uses_the_rng_given_and_says_so():
    a, b = CardsChoice([placeholder_card_set()]), CardsChoice([placeholder_card_set()])
    a.shuffle(random.Random(9))
    b.shuffle(random.Random(9))
    assert a.arrangement == b.arrangement and a.shuffled_by_app
    a.flip("top-left")
    assert not a.shuffled_by_app  # the table corrected the app's layout


def test_saved_card_sets_are_offered_before_the_placeholder(tmp_path):
    data = dump_card_set(placeholder_card_set())
    data.update(id="kitchen", name="Kitchen cards", placeholder=False)
    save_card_set(parse_card_set(data), tmp_path / CARDS_FOLDER)
    assert [s.id for s in card_sets(tmp_path)] == ["kitchen", "placeholder-cards"]
