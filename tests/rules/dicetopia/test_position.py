"""Dicetopia's public position (the start of a turn): the two position laws over reachable
turn starts, missions entered privately or dealt, and named bad fields."""
from __future__ import annotations

import copy

import pytest

from rules.core import PUBLIC, InvalidSetup, NoPositions, Rng
from rules.core.playout import random_playout
from rules.dicetopia import GAME


def public(state) -> dict:
    view = GAME.view(state, PUBLIC)
    for k in ("log", "ply"):
        view.pop(k)
    return view


def starts(seed: int):
    seats, options = GAME.random_setup(Rng(seed))
    found = []

    def record(state, action) -> None:
        try:
            found.append((GAME.position(state), copy.deepcopy(state)))
        except NoPositions:
            pass

    random_playout(GAME, seed=seed, max_plies=600, seats=seats, options=options, on_step=record)
    return seats, options, found


@pytest.mark.parametrize("seed", range(6))
def test_both_position_laws_at_every_turn_start(seed):
    seats, options, found = starts(seed)
    assert len(found) >= 10
    for p, s in found:
        assert "private" not in p and not any(c in str(p) for h in s.hands.values() for c in h.cards)
        entered = dict(p, private={x: {"missions": list(s.hands[x].cards)} for x in s.order})
        t = GAME.new(seats, options, seed + 1, position=entered)
        assert GAME.position(t) == p                     # law 1
        assert public(t) == public(s)                    # law 2
        assert {x: t.hands[x].cards for x in t.order} == {x: s.hands[x].cards for x in s.order}
        assert list(GAME.problems(t)) == []
        u = GAME.new(seats, options, seed, position=p)   # missions dealt from the rest of the deck
        assert GAME.position(u) == p and list(GAME.problems(u)) == []


def test_mid_turn_and_setup_have_no_position():
    seats, options = GAME.random_setup(Rng(3))
    s = GAME.new(seats, options, 3)
    with pytest.raises(NoPositions):
        GAME.position(s)


def test_bad_positions_name_their_fields():
    seats, options, found = starts(1)
    p = copy.deepcopy(found[3][0])
    first = p["order"][0]
    p["boards"][first] = ["@", "p1", "@", "@", "@", "@"]
    p["city"]["agency"][0] = "q9"
    p["turn"] = 0
    p["mystery"] = 1
    with pytest.raises(InvalidSetup) as e:
        GAME.new(seats, options, 1, position=p)
    text = str(e.value)
    for path in (f"position.boards.{first}", "position.city.agency[0]", "position.turn", "position.mystery"):
        assert path in text, path
