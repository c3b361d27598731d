"""The kernel's shortcuts for rolls and draws give the verdicts of the long way round.

``check`` accepts a roll of a request's precomputed shape in one pass, and a deck's
``take`` removes a checked card where ``can_draw`` found it; the die-by-die check and
``list.remove`` are what they must agree with, for any request, roll and pile.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from hypothesis import given, settings, strategies as st

from rules.core import Die, Game, Prompt, Roll, RollRequest, State, serializable


@serializable("test.ChanceState")
@dataclass(kw_only=True)
class ChanceState(State):
    pass


class OneRoll(Game[ChanceState]):
    """One seat awaits the request ``request`` (set per test)."""

    id = "test-one-roll"
    title = "One roll"
    factions = ("red", "blue")
    action_types = (Roll,)
    request: ClassVar[RollRequest]

    def setup(self, seats: Any, options: Any, rng: Any, seed: int) -> ChanceState:
        return ChanceState(seats=seats, options=options, seed=seed, rng=rng)

    def ask(self, state: ChanceState) -> Prompt:
        return Prompt.single(state.seats[0].id, self.request)


IDS = ("", "red", "blue")
dice = st.builds(Die, sides=st.sampled_from((2, 4, 6)), faces=st.sampled_from(((), (0, 1, 1, 2))),
                 id=st.sampled_from(IDS))
# Alike dice (named or not) as often as mixed ones: the shapes the fast path takes.
requests = st.one_of(
    st.lists(dice, max_size=6),
    st.tuples(dice, st.integers(1, 6), st.booleans()).map(
        lambda t: [Die(t[0].sides, faces=t[0].faces, id=f"d{i}" if t[2] else "") for i in range(t[1])]),
).map(lambda ds: RollRequest(tuple(ds), "test"))
values = st.lists(st.integers(-1, 7), max_size=7).map(tuple)
ids = st.one_of(st.just(()), st.lists(st.sampled_from(IDS + ("d0", "d1", "d2")), max_size=7).map(tuple))


@settings(max_examples=300, deadline=None)
@given(requests, values, ids)
def test_a_roll_is_judged_as_die_by_die(request: RollRequest, rolled: tuple[int, ...], named: tuple[str, ...]) -> None:
    game = OneRoll()
    game.request = request
    state = game.new(game.default_seats())
    roll = Roll(state.seats[0].id, rolled, named)
    by_die = tuple(game._check_roll(roll, request))
    assert game.check(state, roll) == by_die
    fits = request.fits(rolled, named)
    assert fits is None or fits == (not by_die)


def test_a_city_of_coloured_dice_has_a_shape() -> None:
    # Dicetopia's setup roll: 30 anonymous pool dice, each value given with its colour.
    req = RollRequest((Die(6, "pool"),) * 30, "city")
    assert req.shape is not None and req.shape[1] == ()
    assert req.fits((1,) * 30, ("p",) * 30) and not req.fits((1,) * 30, ("p",) * 29)
    assert RollRequest((Die(6), Die(8)), "mixed").shape is None
