"""Liberation's public position (issue 14): round trips at every turn start, the private
part (base, hands) entered by its holders and never written, and named bad fields."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings, strategies as st

from rules.core import InvalidSetup, NoPositions, Rng
from rules.core.playout import random_playout
from rules.liberation import GAME

SEATS = GAME.default_seats()
DYN = next(s.id for s in SEATS if s.faction == "dynasty")
LIB = next(s.id for s in SEATS if s.faction == "liberation")


def public(state) -> dict:
    view = GAME.render(state, "public")
    view.pop("events")  # recent history, not part of a position
    return view


def start_of(seed: int):
    """A reachable turn start, its position and its private part."""
    seats, options = GAME.random_setup(Rng(seed))
    found = []

    def record(state, action) -> None:
        if state.phase == "step1" and state.result is None:
            found.append(copy.deepcopy(state))

    random_playout(GAME, seed=seed, max_plies=200, seats=seats, options=options, on_step=record)
    return seats, options, found


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_every_turn_start_round_trips(seed: int) -> None:
    seats, options, starts = start_of(seed)
    for s in starts:
        p = GAME.position(s)
        # The public position never writes the secret base or a hand card.
        written = set(p["occupied"]) | set(p["exploited"]) | {str(v) for v in p.values()}
        assert "private" not in p and s.base not in written and not written & set(s.hands[LIB].cards)
        entered = dict(p, private={LIB: {"base": s.base, "hand": list(s.hands[LIB].cards)},
                                   DYN: {"hand": list(s.hands[DYN].cards)}})
        t = GAME.new(seats, options, seed + 1, position=entered)
        assert GAME.position(t) == p
        assert public(t) == public(s)
        assert t.base == s.base and t.hands[LIB].cards == s.hands[LIB].cards
        assert list(GAME.problems(t)) == []
        # Without the hands, they are dealt from what no one placed.
        u = GAME.new(seats, options, seed, position=dict(p, private={LIB: {"base": s.base}}))
        assert GAME.position(u) == p and list(GAME.problems(u)) == []


def _valid():
    _, _, starts = start_of(4)
    s = starts[0]
    return s, dict(GAME.position(s), private={LIB: {"base": s.base}})


@pytest.mark.parametrize("mutate,words", [
    (lambda p, s: p.update(act=4), "position.act"),
    (lambda p, s: p.update(active="x"), "position.active: no seat 'x'"),
    (lambda p, s: p["occupied"].append("nowhere"), "position.occupied."),
    (lambda p, s: p["exploited"].append("nowhere"), "position.exploited."),
    (lambda p, s: p.update(deck=p["deck"] + 1), "position.deck: the deck and discard hold"),
    (lambda p, s: p["hands"].update({DYN: 4}), f"position.hands.{DYN}"),
    (lambda p, s: p.update(base=False), "position.base"),
    (lambda p, s: p.update(private={}), f"position.private.{LIB}.base: missing"),
    (lambda p, s: p["private"][LIB].update(base=p["occupied"][0]), f"position.private.{LIB}.base"),
    (lambda p, s: p["private"].update({DYN: {"base": "x"}}), f"position.private.{DYN}.base: not a field"),
])
def test_every_bad_field_is_named(mutate, words) -> None:
    s, p = _valid()
    mutate(p, s)
    with pytest.raises(InvalidSetup) as e:
        GAME.new(SEATS, {}, 0, position=p)
    assert words in str(e.value)


def test_mid_turn_has_no_position() -> None:
    with pytest.raises(NoPositions):
        GAME.position(GAME.new(SEATS))  # still in setup
