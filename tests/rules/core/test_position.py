"""The kernel's positions (issue 14) on the mini-games: Game.new(position=...) and
Game.position round-trip at every turn start, a bad field is an InvalidSetup naming its
path, and a game without positions says so with a typed error."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings, strategies as st

from rules.core import InvalidSetup, NoPositions, RulesError, Rng
from rules.core.playout import random_playout

from .minigames import DOUBLES, DUEL, RAID


def board(game, state) -> dict:
    view = game.render(state, "public")
    # Raid's view still shows the last round's dice at a round's start; they are no part of the board.
    view.pop("pool", None), view.pop("bonus", None)
    return view


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
@pytest.mark.parametrize("game", [DOUBLES, RAID], ids=lambda g: g.id)
def test_every_turn_start_round_trips(game, seed: int) -> None:
    seats, options = game.random_setup(Rng(seed))
    starts: list[tuple[dict, dict]] = []

    def record(state, action) -> None:
        try:
            starts.append((game.position(state), board(game, state)))
        except NoPositions:
            pass

    random_playout(game, seed=seed, max_plies=120, seats=seats, options=options, on_step=record)
    for p, view in starts:
        t = game.new(seats, options, seed + 1, position=copy.deepcopy(p))
        assert game.position(t) == p
        assert board(game, t) == view
        assert list(game.prompt(t).seats()) == [p["seat"]]


@pytest.mark.parametrize("game,position,words", [
    (DOUBLES, {"seat": "red-1", "scores": {"red-1": 31, "blue-2": 0}}, "position.scores.red-1: must be a whole number from 0 to 29"),
    (DOUBLES, {"seat": "x", "scores": {"red-1": 0, "blue-2": 0}}, "position.seat: no seat 'x'"),
    (DOUBLES, {"seat": "red-1", "scores": {"red-1": 0}}, "position.scores.blue-2: missing"),
    (RAID, {"seat": "red-1", "round": 6, "scores": {"red-1": 0, "blue-2": 0}, "tokens": {"red-1": 6, "blue-2": 6}, "blocks": {"red-1": 1, "blue-2": 1}}, "position.round"),
    (RAID, {"seat": "red-1", "round": 0, "scores": {"red-1": 0, "blue-2": 0}, "tokens": {"red-1": 7, "blue-2": 6}, "blocks": {"red-1": 1, "blue-2": 2}, "x": 1}, "position.tokens.red-1"),
])
def test_a_bad_field_is_named(game, position, words) -> None:
    with pytest.raises(InvalidSetup) as e:
        game.new(game.default_seats(), {}, 0, position=position)
    assert words in str(e.value)


def test_every_problem_is_reported_at_once() -> None:
    bad = {"seat": "red-1", "round": 0, "scores": {"red-1": 0, "blue-2": 0}, "tokens": {"red-1": 7, "blue-2": 6}, "blocks": {"red-1": 1, "blue-2": 2}, "x": 1}
    with pytest.raises(InvalidSetup) as e:
        RAID.new(RAID.default_seats(), {}, 0, position=bad)
    assert len(e.value.violations) == 3


def test_a_game_without_positions_raises_a_typed_error() -> None:
    with pytest.raises(NoPositions) as e:
        DUEL.new(DUEL.default_seats(), {}, 0, position={})
    assert isinstance(e.value, RulesError) and "Duel cannot start from a position" in str(e.value)
    with pytest.raises(NoPositions):
        DUEL.position(DUEL.new(DUEL.default_seats()))


def test_a_position_that_is_not_an_object_is_invalid() -> None:
    with pytest.raises(InvalidSetup, match="must be a JSON object"):
        DOUBLES.new(DOUBLES.default_seats(), position=[1, 2])  # type: ignore[arg-type]
