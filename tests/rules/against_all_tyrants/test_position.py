"""Against All Tyrants' public position: the two laws at every reachable turn start, the
private part (hands, Special Forces) entered by its holders and never written, and named
bad fields."""
from __future__ import annotations

import copy

import pytest

from rules.core import InvalidSetup, NoPositions, Rng
from rules.core.playout import random_playout
from rules.against_all_tyrants import GAME

from .helpers import ATT, DEF, fresh


def public(state) -> dict:
    return GAME.render(state, "public")


def starts(seed: int):
    seats, options = GAME.random_setup(Rng(seed))
    found = []

    def record(state, action) -> None:
        if state.phase == "draw" and not state.pending and state.result is None:
            found.append(copy.deepcopy(state))

    random_playout(GAME, seed=seed, max_plies=250, seats=seats, options=options, on_step=record)
    return seats, options, found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_turn_start_round_trips(seed):
    seats, options, found = starts(seed)
    assert found
    for s in found[::3]:
        p = GAME.position(s)
        text = str(p)
        assert "private" not in p
        for side in s.sides.values():
            assert not any(c in text for c in side.hand.cards + side.deck.cards + side.special_forces)
        entered = dict(p, private={seat: {"hand": list(s.sides[seat].hand.cards), "special_forces": list(s.sides[seat].special_forces)}
                                   for seat in s.sides})
        t = GAME.new(seats, options, seed + 1, position=entered)
        assert GAME.position(t) == p
        assert public(t) == public(s)
        assert list(GAME.problems(t)) == []
        assert t.sides[ATT].hand.cards == s.sides[ATT].hand.cards
        # Without the private part, hands and Special Forces are dealt from what is unplaced.
        u = GAME.new(seats, options, seed, position=p)
        assert GAME.position(u) == p and public(u) == public(s) and list(GAME.problems(u)) == []


def test_no_position_mid_turn():
    s = fresh()
    GAME.push(s, GAME.sample(s))
    with pytest.raises(NoPositions):
        GAME.position(s)


def _valid():
    s = fresh()
    return s, GAME.position(s)


@pytest.mark.parametrize("mutate,words", [
    (lambda p: p.update(turn=0), "position.turn"),
    (lambda p: p.update(active="x"), "position.active: no seat 'x'"),
    (lambda p: p["escalation"].update(level=6), "position.escalation.level"),
    (lambda p: p["pieces"][0].update(theater="moon"), "position.pieces.0.theater"),
    (lambda p: p["pieces"][0].update(id="A:no-such#1"), "position.pieces.0.id"),
    (lambda p: p["pieces"][0]["tokens"].update(Incident=1), "not a token placed on cards"),
    (lambda p: p["sides"][DEF].update(deck=3), "position.sides.def.deck"),
    (lambda p: p["sides"][DEF]["discard"].append(next(q["id"] for q in p["pieces"] if q["owner"] == DEF)), "already at"),
    (lambda p: p.update(extra=1), "position.extra: not a field"),
    (lambda p: p.update(private={DEF: {"hand": ["D:ff-hidden-citadel#1"]}}), "position.private.def.hand.0"),
])
def test_bad_positions_name_the_field(mutate, words):
    s, p = _valid()
    bad = copy.deepcopy(p)
    mutate(bad)
    with pytest.raises(InvalidSetup) as e:
        GAME.new(s.seats, s.options, 1, position=bad)
    assert words in str(e.value)
