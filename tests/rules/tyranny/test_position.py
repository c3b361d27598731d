"""Tyranny's public position (issue 14): round trips from reachable states, and every bad
field a typed InvalidSetup naming its path."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings, strategies as st

from rules.core import InvalidSetup, NoPositions, Rng
from rules.core.playout import random_playout
from rules.tyranny import Tyranny

GAME = Tyranny()
SEATS = [("cop-1", "cops"), ("crim-1", "criminals"), ("cop-2", "cops"), ("crim-2", "criminals")]


def public(state) -> dict:
    view = GAME.render(state, "public")
    view.pop("influence_history")  # the chart's past turns are not part of a position
    return view


def test_opening_round_trips() -> None:
    s = GAME.new(SEATS, seed=3)
    p = GAME.position(s)
    assert GAME.position(GAME.new(SEATS, seed=9, position=p)) == p
    assert public(GAME.new(SEATS, seed=9, position=p)) == public(s)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_every_turn_start_of_a_random_game_round_trips(seed: int) -> None:
    seats, options = GAME.random_setup(Rng(seed))
    starts: list[tuple[dict, dict]] = []

    def record(state, action) -> None:
        try:
            starts.append((GAME.position(state), public(state)))
        except NoPositions:
            pass  # mid-turn or over: positions describe a turn's start

    random_playout(GAME, seed=seed, max_plies=300, seats=seats, options=options, on_step=record)
    assert starts
    for p, view in starts:
        t = GAME.new(seats, options, seed + 1, position=copy.deepcopy(p))
        assert GAME.position(t) == p
        assert public(t) == view
        assert list(GAME.problems(t)) == []


def test_mid_turn_has_no_position() -> None:
    s = GAME.new(SEATS, seed=1)
    GAME.push(s, next(iter(GAME.legal_actions(s).of_kind("roll"))))
    if s.phase not in ("start", "custody"):
        with pytest.raises(NoPositions):
            GAME.position(s)


BAD = [
    (lambda p: p["pieces"]["cop-1"].update(tile="x"), "pieces.cop-1.tile: no tile 'x'"),
    (lambda p: p["pieces"].pop("crim-1"), "pieces.crim-1: missing"),
    (lambda p: p["pieces"]["crim-1"].update(custody=True), "pieces.crim-1.escape_on"),
    (lambda p: p["pieces"]["crim-1"].update(escape_on=[6]), "only a piece in custody"),
    (lambda p: p["owners"].update({"x": "cops"}), "owners.x: no property 'x'"),
    (lambda p: p.update(tunnels=["nope"]), "tunnels.0: no tunnel 'nope'"),
    (lambda p: p.update(seat="ghost"), "seat: no seat 'ghost'"),
    (lambda p: p.update(turn=0), "turn: must be a whole number"),
    (lambda p: p.update(influence=-5), "influence: must be"),
    (lambda p: p["streaks"].update(cops=3), "streaks.cops"),
    (lambda p: p["misses"].update({"cop-1": 0}), "misses.cop-1"),
    (lambda p: p["hands"].update({"cop-1": 99}), "hands: the hands hold 99"),
    (lambda p: p["decks"].update(gains=99), "decks.gains: the gains deck has"),
    (lambda p: p["decks"].update(gamble=-1), "decks.gamble: must be"),
    (lambda p: p["discards"]["gamble"].append("nope"), "discards.gamble.0: no card 'nope'"),
    (lambda p: p.update(extra=1), "position.extra: not a field"),
    (lambda p: p.pop("influence"), "position.influence: missing"),
]


@pytest.mark.parametrize("mutate,words", BAD)
def test_every_bad_field_is_named(mutate, words) -> None:
    p = GAME.position(GAME.new(SEATS, seed=2))
    mutate(p)
    with pytest.raises(InvalidSetup) as e:
        GAME.new(SEATS, seed=2, position=p)
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


def _mutations():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 1500), st.text(max_size=6), st.lists(st.integers(-1, 8), max_size=3))
    return st.lists(st.tuples(st.integers(0, 10_000), leaf), min_size=1, max_size=4)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))


@settings(max_examples=150, deadline=None)
@given(_mutations())
def test_mutated_positions_raise_only_invalid_setup(muts) -> None:
    p = GAME.position(GAME.new(SEATS, seed=5))
    for pick, value in muts:
        paths = [q for q in _paths(p) if q]
        path = paths[pick % len(paths)]
        node = p
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    try:
        s = GAME.new(SEATS, seed=5, position=copy.deepcopy(p))
    except InvalidSetup:
        return
    # A mutation that is still valid starts a sound game whose position is stable.
    assert list(GAME.problems(s)) == []
    q = GAME.position(s)
    assert GAME.position(GAME.new(SEATS, seed=6, position=copy.deepcopy(q))) == q
