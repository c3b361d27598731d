"""Outrage!'s public position: the two laws (a position read back is written the same;
a state made from any reachable turn start's position looks the same in public), and
every bad field a typed InvalidSetup naming its path."""
from __future__ import annotations

import copy

import pytest

from rules.core import InvalidSetup, NoPositions, Rng, Roll
from rules.core.playout import random_playout
from rules.outrage import GAME

from .helpers import started

SEATS = [{"id": "p1", "faction": "red", "name": "Ann"}, {"id": "p2", "faction": "blue", "name": "Bob"},
         {"id": "p3", "faction": "green", "name": "Cat"}]
HISTORY = ("dice", "first_throws")  # the last throw on the tray and the opening throws: history, not position


def public(state) -> dict:
    view = GAME.render(state, "public")
    for k in HISTORY:
        view.pop(k)
    return view


def test_turn_start_round_trips():
    s = started(3)
    p = GAME.position(s)
    t = GAME.new(SEATS, {}, 9, position=copy.deepcopy(p))
    assert GAME.position(t) == p
    assert public(t) == public(s)


@pytest.mark.parametrize("seed", range(4))
def test_every_turn_start_of_a_random_game_round_trips(seed, soak_factor):
    for k in range(soak_factor):
        seats, options = GAME.random_setup(Rng(seed + 100 * k))
        starts: list[tuple[dict, dict]] = []

        def record(state, action) -> None:
            try:
                starts.append((GAME.position(state), public(state)))
            except NoPositions:
                pass

        random_playout(GAME, seed=seed + 100 * k, max_plies=200, seats=seats, options=options, on_step=record)
        assert starts
        for p, view in starts[::3]:
            t = GAME.new(seats, options, seed + 1, position=copy.deepcopy(p))
            assert GAME.position(t) == p
            assert public(t) == view
            assert list(GAME.problems(t)) == []


def test_mid_turn_and_setup_have_no_position():
    s = GAME.new(SEATS, {}, 1)
    with pytest.raises(NoPositions):
        GAME.position(s)
    s = started()
    GAME.push(s, Roll("p1", (1, 2)))
    with pytest.raises(NoPositions):
        GAME.position(s)


def test_private_hands_entered_by_the_players():
    p = GAME.position(started(3))
    p["private"] = {"hands": {"p1": ["key-1", "pistols-1", "pardon-2"]}}
    t = GAME.new(SEATS, {}, 4, position=p)
    assert t.hands["p1"].cards == ["key-1", "pistols-1", "pardon-2"]
    assert "private" not in GAME.position(t)


BAD = [
    (lambda p: p["pieces"]["p1"].update(square="moat"), "pieces.p1.square: no square 'moat'"),
    (lambda p: p["pieces"].pop("p2"), "pieces.p2: missing"),
    (lambda p: p["pieces"]["p2"].update(held={"place": "dungeon", "served": 0}), "pieces.p2.held.place"),
    (lambda p: p["pieces"]["p2"].update(held={"place": "bloody", "served": 1}), "a player held in bloody stands on bloody-tower"),
    (lambda p: p["pieces"]["p2"].update(coin=True), "mint: the Mint and the players hold one coin per player"),
    (lambda p: p["jewels"].update(orb="p9"), "jewels.orb: must be 'case', 'escaped' or a seat"),
    (lambda p: p["jewels"].update(orb="escaped"), "jewels.orb: an escaped jewel"),
    (lambda p: p["pieces"]["p2"].update(burglary={"jewel": "orb", "tools": ["file-1"], "attempts": 0}), "a burglar stands on the square facing"),
    (lambda p: p["pieces"]["p1"].update(sanctuary=True), "Sanctuary lasts one turn"),
    (lambda p: p["pieces"]["p2"].update(cards=99), "pieces.p2.cards"),
    (lambda p: p["warders"].pop("chapel"), "warders.chapel: missing"),
    (lambda p: p.update(seat="ghost"), "seat: no seat 'ghost'"),
    (lambda p: p.update(extra=1), "position.extra: not a field"),
    (lambda p: p.update(private={"hands": {"p1": ["mace-1"]}}), "private.hands.p1: 1 cards entered for a hand of 3"),
]


@pytest.mark.parametrize("mutate, words", BAD)
def test_every_bad_field_is_named(mutate, words):
    p = GAME.position(started(3))
    mutate(p)
    with pytest.raises(InvalidSetup) as e:
        GAME.new(SEATS, {}, 2, position=p)
    assert words in str(e.value)
