"""The card-set entry model (no Kivy), the turned layout of a composed map, and the
wizard's blockers: what the on-screen entry of a table's map cards does with each tap."""
from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

from companion.ui.games.liberation.mapfiles import load_card_set, saved_card_sets
from companion.ui.games.liberation import card_entry, layout
from companion.ui.games.liberation.card_entry import CardSetEntry
from companion.ui.games.liberation.layout import card_spots, card_turns, turned_spot
from companion.ui.games.liberation.map_cards import CardsChoice
from companion.ui.presenters.setup import SetupModel
from rules.liberation import MapError, placeholder_card_set, placeholder_map
from rules.liberation.mapcards import Arrangement, Placement, compose, dump_card_set, parse_card_set, shuffled


def test_doctests():
    assert doctest.testmod(card_entry).failed == 0
    assert doctest.testmod(layout).failed == 0


def _named(tmp_path) -> CardSetEntry:
    e = CardSetEntry.blank(tmp_path, "Kitchen cards")
    for i, c in enumerate(e.names.builder.cities):
        e.rename(c.id, f"Star {i + 1}")
    return e


def test_a_blank_set_lists_every_unnamed_city_and_a_named_one_is_valid(tmp_path):
    e = CardSetEntry.blank(tmp_path)
    assert sum("has no name yet" in p for p in e.problems()) == 14
    e = _named(tmp_path)
    assert e.problems() == [] and e.ready
    e.rename_set("Placeholder cards")  # would shadow the made-up set at setup
    assert e.problems()[0].startswith("Choose another name")


def test_the_rules_problems_come_in_the_players_words(tmp_path):
    e = _named(tmp_path)
    e.rename("city-06", "Star 1")  # a name already on card 1
    for c in e.cities_on("card-4"):
        e.card_of[c.id] = "card-3"  # card 4 left without a city
    problems = e.problems()
    assert "Map card 2, Star 1: the name 'Star 1' is already on Map card 1" in problems
    assert "Map card 4: A map card carries at least one city." in problems
    assert not any("cards[" in p or "city-0" in p for p in problems)
    with pytest.raises(MapError):
        e.save()
    assert saved_card_sets(tmp_path) == []


def test_lines_by_pairs_and_exits_by_a_city_then_an_edge(tmp_path):
    e = _named(tmp_path)
    e.set_mode("lines")
    e.tap("city-01")
    assert "line added" in e.tap("city-02")
    e.tap("city-02")
    assert "line removed" in e.tap("city-01")
    e.tap("city-01"), e.tap("city-03")
    assert e.lines() == [("city-01", "city-03")]
    e.set_mode("exits")
    e.tap("city-01")
    e.tap_edge("top-2")
    e.tap("city-02")
    msg = e.tap_edge("top-2")  # one line leaves at a position: the new one replaces it
    assert "instead of Star 1" in msg and e.exits() == {"top-2": "city-02"}
    e.tap("city-02")
    assert "removed" in e.tap_edge("top-2") and e.exits() == {}
    assert "Tap a city first" in e.tap_edge("left-1")
    e.show(side="b")
    assert e.lines() == [] and e.exits() == {}  # each side has its own lines and exits


def test_moving_a_city_to_another_card_takes_its_lines_and_exits_off_the_old_card(tmp_path):
    e = _named(tmp_path)
    e.set_mode("lines")
    e.tap("city-01"), e.tap("city-02")
    e.set_mode("exits")
    e.tap("city-01"), e.tap_edge("right-1")
    e.set_mode("cities")
    msg = e.cycle_card("city-01")
    assert e.card_of["city-01"] == "card-2" and e.card == "card-2" and "2 lines on Map card 1 removed" in msg
    assert e.stubs[("card-1", "a")] == {} and e.sides[("card-1", "a")].lines == set()


def test_saved_then_read_back_and_corrected_from_the_file(tmp_path):
    e = _named(tmp_path)
    e.set_mode("lines")
    e.tap("city-01"), e.tap("city-02")
    e.set_mode("exits")
    e.tap("city-02"), e.tap_edge("right-2")
    path = e.save()
    cs = load_card_set(path)
    assert cs.name == "Kitchen cards" and cs.card("card-1").sides["a"].lines == (("city-01", "city-02"),)
    assert cs.card("card-1").sides["a"].stubs[0].at == "right-2"
    again = CardSetEntry.from_card_set(tmp_path, cs)
    assert parse_card_set(again.data()) == cs


def test_the_placeholder_set_round_trips_through_the_entry(tmp_path):
    cs = placeholder_card_set()
    data = CardSetEntry.from_card_set(tmp_path, cs).data()
    want = dump_card_set(cs)
    assert [c["cities"] for c in data["cards"]] == [c["cities"] for c in want["cards"]]
    back = parse_card_set(data)
    for a, b in zip(back.cards, cs.cards):
        for s in ("a", "b"):
            assert {tuple(sorted(l)) for l in a.sides[s].lines} == {tuple(sorted(l)) for l in b.sides[s].lines}
            assert set(a.sides[s].stubs) == set(b.sides[s].stubs)


def test_a_turned_card_draws_its_cities_turned():
    cs = placeholder_card_set()
    upright = compose(cs, Arrangement.in_order(cs))
    turned = compose(cs, Arrangement((Placement("top-left", "card-1", "a", 90),) + Arrangement.in_order(cs).placements[1:]))
    assert set(card_turns(turned).values()) == {0, 90} and set(card_turns(upright).values()) == {0}
    a, b = layout.layout(upright), layout.layout(turned)
    # Card 1's cities (a top left, b top right, c bottom left): a quarter turn clockwise
    # puts a top right, b bottom right, c top left.
    assert a["city-a"][0] < a["city-b"][0] and b["city-a"][0] > b["city-c"][0] and b["city-a"][1] > b["city-b"][1]
    assert {k: v for k, v in a.items() if k >= "city-e"} == {k: v for k, v in b.items() if k >= "city-e"}
    assert card_turns(placeholder_map()) == {}  # a map without map cards has no turns
    for n in range(1, 8):
        for turn in (0, 90, 180, 270):
            assert all(0 < x < 1 and 0 < y < 1 for x, y in (turned_spot(p, turn) for p in card_spots(n)))


def _stranding_set() -> Any:
    """The placeholder set, but on card 4's side B City M keeps only a line leaving at the
    right edge, top: most layouts with that side up leave it without a line."""
    data = dump_card_set(placeholder_card_set())
    side = data["cards"][3]["sides"]["b"]
    side["lines"] = [l for l in side["lines"] if "city-m" not in l]
    side["stubs"] = [s for s in side["stubs"] if s["city"] != "city-m"] + [{"city": "city-m", "at": "right-1"}]
    return parse_card_set(dict(data, placeholder=False, id="ours", name="Ours"))


def test_an_unplayable_layout_blocks_the_wizard_with_the_reason():
    choice = CardsChoice([_stranding_set()])
    assert choice.problems() == []
    choice.flip("bottom-right")
    problems = choice.problems()
    assert problems and all("cities[" not in p and "cannot be played:" not in p for p in problems)
    assert any("City M (Underworld)" in p for p in problems)
    m = SetupModel.for_game("liberation")
    assert m.check() == []
    m.blockers = ["These map cards laid out this way make no playable map: " + problems[0]]
    assert m.check() == m.blockers


def test_the_apps_shuffle_deals_a_playable_layout_when_some_are_not():
    choice = CardsChoice([_stranding_set()])
    plain = random.Random(5)
    unplayable = 0
    for _ in range(20):  # without retrying, many of the app's layouts would strand City M
        choice.arrangement = shuffled(choice.card_set, plain)
        unplayable += bool(choice.problems())
    assert unplayable > 0
    rng = random.Random(5)
    for _ in range(20):
        choice.shuffle(rng)
        assert choice.problems() == [] and choice.shuffled_by_app
