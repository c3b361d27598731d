"""Map cards (RULINGS L-15): the card-set format, arrangements, composing them into the
game's map, the typed errors, and a game played on a composed map."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.liberation import CATEGORIES, GAME, MapError, dump_map, parse_map
from rules.liberation.mapcards import (
    EDGES, QUADRANTS, SIDES, TURNS, Arrangement, ArrangementError, CardSetError, Placement, compose,
    dump_arrangement, dump_card_set, parse_arrangement, parse_card_set, placeholder_card_set, rotated, shuffled,
    stub_links, turned,
)

from .helpers import SEATS

# ------------------------------------------------------------------ strategies


@st.composite
def card_sets(draw: st.DrawFn, connected: bool = True) -> dict:
    """Valid card-set data. With ``connected``, every side reaches all its cities by its own
    lines and has a stub at the middle of each edge (so every arrangement joins all four
    cards); the other stubs are anywhere free."""
    slots = draw(st.sampled_from([1, 3, 5]))
    cuts = sorted(draw(st.lists(st.integers(1, 13), min_size=3, max_size=3, unique=True)))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, 14])]
    cats = list(CATEGORIES)
    ids = [f"c{i:02d}" for i in range(14)]
    cards, k = [], 0
    for n, size in enumerate(sizes):
        mine = ids[k:k + size]
        k += size
        cities = [{"id": c, "name": f"Name {c}", "category": cats[int(c[1:]) % 5]} for c in mine]
        sides = {}
        for s in SIDES:
            order = draw(st.permutations(mine))
            lines = [[order[i], order[i + 1]] for i in range(len(order) - 1)] if connected else []
            positions = [f"{e}-{j}" for e in EDGES for j in range(1, slots + 1)]
            middle = [f"{e}-{(slots + 1) // 2}" for e in EDGES]
            others = [p for p in positions if p not in middle] if connected else positions
            extra = draw(st.lists(st.sampled_from(others), unique=True, max_size=4)) if others else []
            at = (middle if connected else []) + extra
            stubs = [{"city": draw(st.sampled_from(mine)), "at": p} for p in at]
            sides[s] = {"lines": lines, "stubs": stubs}
        cards.append({"id": f"card-{n + 1}", "name": f"Card {n + 1}", "cities": cities, "sides": sides})
    return {"id": "generated", "name": "Generated", "slots": slots, "cards": cards}


@st.composite
def arrangements(draw: st.DrawFn, card_ids: list[str]) -> Arrangement:
    order = draw(st.permutations(card_ids))
    return Arrangement(tuple(Placement(q, c, draw(st.sampled_from(SIDES)), draw(st.sampled_from(TURNS)))
                             for q, c in zip(QUADRANTS, order)))


def _same_map(a, b) -> bool:
    """The same cities and lines (the quadrant labels differ when the layout turns)."""
    return set(a.city_ids) == set(b.city_ids) and a.lines == b.lines


# ------------------------------------------------------------------ properties


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_any_arrangement_of_a_valid_card_set_is_a_valid_map_with_every_city(data):
    raw = data.draw(card_sets())
    cs = parse_card_set(raw)
    arr = data.draw(arrangements([c.id for c in cs.cards]))
    m = compose(cs, arr)
    assert len(m.cities) == sum(len(c["cities"]) for c in raw["cards"]) == 14
    assert parse_map(dump_map(m)) == m  # a valid map, as the game option carries it
    assert all(m.distance(m.city_ids[0], x) is not None for x in m.city_ids)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_turning_the_whole_layout_keeps_the_map(data):
    cs = parse_card_set(data.draw(card_sets()))
    arr = data.draw(arrangements([c.id for c in cs.cards]))
    once = rotated(arr)
    assert once != arr and _same_map(compose(cs, once), compose(cs, arr))
    assert compose(cs, rotated(rotated(rotated(once)))) == compose(cs, arr)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_two_stubs_join_exactly_when_their_turned_positions_meet(data):
    """An independent oracle: put every stub's end on the table as a point (the quadrant's
    offset plus the turned position); two stubs join iff their points coincide."""
    cs = parse_card_set(data.draw(card_sets(connected=data.draw(st.booleans()))))
    arr = data.draw(arrangements([c.id for c in cs.cards]))
    w = cs.slots + 1
    ends = []
    for p in arr.placements:
        col, row = QUADRANTS.index(p.quadrant) % 2, QUADRANTS.index(p.quadrant) // 2
        for s in cs.card(p.card).sides[p.side].stubs:
            edge, _, n = turned(s.at, p.turn, cs.slots).rpartition("-")
            x, y = {"top": (int(n), 0), "bottom": (int(n), w), "left": (0, int(n)), "right": (w, int(n))}[edge]
            ends.append(((col * w + x, row * w + y), p.card, s.city))
    expect = sorted(tuple(sorted((a[2], b[2]))) for i, a in enumerate(ends) for b in ends[i + 1:]
                    if a[0] == b[0] and a[1] != b[1])
    assert sorted(tuple(sorted(l)) for l in stub_links(cs, arr)) == expect


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_arrangement_of_the_placeholder_set_is_playable(data):
    cs = placeholder_card_set()
    m = compose(cs, data.draw(arrangements([c.id for c in cs.cards])))
    assert m.placeholder and len(m.cities) == 14


def test_turning_a_position_four_times_comes_back():
    for slots in (1, 3, 4):
        for e in EDGES:
            for n in range(1, slots + 1):
                p = f"{e}-{n}"
                assert turned(turned(turned(turned(p, 90, slots), 90, slots), 90, slots), 90, slots) == p
                assert turned(p, 180, slots) == turned(turned(p, 90, slots), 90, slots)


# ------------------------------------------------------------------ examples


def test_the_placeholder_set_is_labelled_made_up():
    cs = placeholder_card_set()
    assert cs.placeholder and "NOT the printed" in cs.name and cs.note.startswith("PLACEHOLDER")
    assert parse_card_set(dump_card_set(cs)) == cs


def test_a_turned_card_meets_its_neighbour_where_the_turn_puts_its_stub():
    cs = placeholder_card_set()
    straight = Arrangement.in_order(cs)
    # Card 1 side a: city-b leaves at right-2 and meets card 2's left-2 (city-e).
    assert ("city-b", "city-e") in stub_links(cs, straight)
    # Turned 180°, card 1's left-2 (city-c) is on its right edge at 2: city-c meets city-e.
    half = Arrangement((Placement("top-left", "card-1", "a", 180), *straight.placements[1:]))
    links = stub_links(cs, half)
    assert ("city-c", "city-e") in links and ("city-b", "city-e") not in links


def test_a_stub_meeting_nothing_joins_nothing():
    cs = placeholder_card_set()
    links = stub_links(cs, Arrangement.in_order(cs))
    # Card 1 side a: city-a leaves at top-2, the galaxy's outer edge; city-b's right-1 faces
    # card 2's left-1, where no line leaves.
    assert all("city-a" not in l for l in links)
    assert sum(1 for l in links if l[0] == "city-b") == 1


def test_card_set_errors_name_the_field():
    data = dump_card_set(placeholder_card_set())
    data["cards"][0]["sides"]["a"]["stubs"][0]["at"] = "top-4"
    data["cards"][1]["cities"][0]["id"] = "city-a"
    data["cards"][3]["sides"]["b"]["stubs"].append({"city": "city-l", "at": "right-2"})
    with pytest.raises(CardSetError) as e:
        parse_card_set(data, "ours.json")
    assert isinstance(e.value, MapError) and e.value.source == "ours.json"
    text = "\n".join(e.value.problems)
    assert "cards[0].sides.a.stubs[0].at: 'top-4' is not an edge position" in text
    assert "cards[1].cities[0].id: the city 'city-a' is already on cards[0]" in text
    assert "cards[3].sides.b.stubs[5].at: two lines leave at right-2" in text


def test_a_card_set_needs_four_cards_and_fourteen_cities():
    data = dump_card_set(placeholder_card_set())
    data["cards"][3]["cities"].pop()
    data["cards"][3]["sides"]["a"]["lines"] = [["city-l", "city-m"]]
    data["cards"][3]["sides"]["a"]["stubs"] = []
    data["cards"][3]["sides"]["b"] = {"lines": [], "stubs": []}
    with pytest.raises(CardSetError, match=r"cards: The four map cards carry 14 cities .* not 13"):
        parse_card_set(data)
    with pytest.raises(CardSetError, match=r"cards: Liberation has 4 map cards, not 3"):
        parse_card_set({**data, "cards": data["cards"][:3]})


def test_arrangement_errors_name_the_field():
    cs = placeholder_card_set()
    good = dump_arrangement(Arrangement.in_order(cs))
    assert parse_arrangement(good, cs) == Arrangement.in_order(cs)
    twice = {"quadrants": [*good["quadrants"][:3], {**good["quadrants"][0], "card": "card-4"}]}
    with pytest.raises(ArrangementError, match=r"quadrants\[3\]\.quadrant: top-left is used twice") as e:
        parse_arrangement(twice, cs)
    assert "quadrants: every quadrant holds a card; empty: bottom-right" in e.value.problems
    with pytest.raises(ArrangementError, match=r"quadrants\[0\]\.card: 'card-9' is not a card"):
        parse_arrangement({"quadrants": [{**good["quadrants"][0], "card": "card-9"}, *good["quadrants"][1:]]}, cs)


def test_an_arrangement_that_cuts_a_card_off_is_refused():
    data = dump_card_set(placeholder_card_set())
    for side in data["cards"][0]["sides"].values():
        side["stubs"] = []  # card 1 has no line leaving it
    cs = parse_card_set(data)
    with pytest.raises(ArrangementError, match="the map these cards make cannot be played: .*falls apart"):
        compose(cs, Arrangement.in_order(cs))


def test_a_game_on_a_shuffled_arrangement_checks_adjacency_against_it():
    cs = placeholder_card_set()
    arr = shuffled(cs, random.Random(5))
    m = compose(cs, arr)
    s = GAME.new(SEATS, {"map": dump_map(m)}, seed=3)
    assert GAME.map_of(s) == m
    a, b = stub_links(cs, arr)[0]
    assert GAME.adjacent(s, a, b) and m.city(a).map_card != m.city(b).map_card
