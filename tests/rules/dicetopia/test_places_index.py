"""The state's index of places (every neighbourhood and faction board by name, and where
each swapping action looks) is made once and must keep seeing the very cells the rules
move: after random legal play, through copies and saved games, it agrees with a fresh
index made from the cells, and a swap found through it is one the rules allow."""
from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import Seat
from rules.dicetopia import GAME
from rules.dicetopia.scoring import DICE
from rules.dicetopia.state import DicetopiaState

from .helpers import set_board, started

FACTIONS = ("banxa", "bingmai", "centauri", "dangmer", "ewo", "hollows", "roamers", "shakra", "perceptioneers", "tuulu")


def assert_index_fresh(s: DicetopiaState) -> None:
    """The kept index is the cells themselves: the same list objects as ``city`` and
    ``boards`` (so a piece moved is seen through both), nothing else, and the swaps'
    sources are those lists in board order and play order."""
    assert set(s.places) == set(s.city) | set(s.boards) and not set(s.city) & set(s.boards)
    for where, cells in [*s.city.items(), *s.boards.items()]:
        assert s.places[where] is cells, where
    city = [(h, s.city[h]) for h in s.city]
    boards = [(p, s.boards[p]) for p in s.order]
    want = {"agent-die": ((city, s.agent_cells), (city, DICE)), "die-die": ((city, DICE), (city, DICE)),
            "city-board": ((city, DICE), (boards, DICE)), "board-board": ((boards, DICE), (boards, DICE))}
    assert s.swap_sources.keys() == want.keys()
    for kind, sources in s.swap_sources.items():
        for (places, holds), (want_places, want_holds) in zip(sources, want[kind]):
            assert holds == want_holds and [w for w, _ in places] == [w for w, _ in want_places]
            assert all(cells is s.places[w] for w, cells in places), kind
    for where, cells in s.places.items():
        assert [s.cell(where, i) for i in range(len(cells))] == cells


# A quarter of the profile's examples (25 by default, 500 with --long): each plays up to 140 plies.
@settings(max_examples=settings.default.max_examples // 4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), plies=st.integers(0, 140),
       copy_at=st.integers(0, 140), advanced=st.booleans())
def test_the_places_index_stays_the_cells_after_random_legal_play(seed: int, n: int, plies: int, copy_at: int,
                                                                   advanced: bool) -> None:
    rng = random.Random(seed)
    factions = rng.sample(FACTIONS, n)
    seats = [Seat(f"p{i + 1}", f, f"P{i + 1}") for i, f in enumerate(factions)]
    s = GAME.new(seats, {"first": "p1", "advanced": advanced}, seed)
    for ply in range(plies):
        if s.result is not None:
            break
        if ply == copy_at:
            # A copy (the harness's, the undo's) and a saved game reloaded: each its own cells.
            s = copy.deepcopy(s) if seed % 2 else GAME.state_from_data(GAME.state_to_data(s))
        actions = list(GAME.legal_actions(s)) or [GAME.sample(s)]
        GAME.push(s, rng.choice(actions))
        assert_index_fresh(s)
        if s.act_hood and s.phase == "act":
            kind = s.t.hood_actions[s.act_hood]
            for a, ai, b, bi in GAME._swaps(s, kind) if kind in s.swap_sources else ():
                assert GAME._swap_ok(s, kind, a, ai, b, bi) is None
    other = copy.deepcopy(s)
    assert_index_fresh(other)
    assert all(other.places[w] is not s.places[w] for w in s.places)  # the copy moves its own pieces


def test_a_board_replaced_by_hand_is_indexed_again():
    s = started("ewo", "banxa")
    set_board(s, "p2", ["t5", "p1", "@", "@", "@", "@"])  # a new list, then changed()
    assert_index_fresh(s)
    assert s.cell("p2", 0) == "t5"
