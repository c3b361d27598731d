"""Damaged board files and positions: any change gives a working value or the typed error
naming the field (BoardError, InvalidSetup), never a crash."""
from __future__ import annotations

import copy
import json

from hypothesis import given, settings, strategies as st

from rules.core import InvalidSetup
from rules.outrage import GAME
from rules.outrage.board import DATA, BoardError, parse_board

from .helpers import started

BOARD = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
POSITION = GAME.position(started(3))
SEATS = [{"id": "p1", "faction": "red", "name": "Ann"}, {"id": "p2", "faction": "blue", "name": "Bob"},
         {"id": "p3", "faction": "green", "name": "Cat"}]
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 80), st.text(max_size=6),
                 st.sampled_from(["w00", "t08", "orb", "case", "p2", "bloody", "file-1", "wall"]),
                 st.lists(st.integers(-1, 8), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list) and len(data) < 12:
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def mutate(data, muts):
    data = copy.deepcopy(data)
    paths = [q for q in _paths(data) if q]
    for pick, value in muts:
        path = paths[pick % len(paths)]
        node = data
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass
    return data


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10_000), LEAF), min_size=1, max_size=3))
def test_damaged_board_files_raise_only_board_error(muts):
    data = BOARD
    # Small, deep edits: one square's field, one arc, a place, a jewel.
    edited = copy.deepcopy(data)
    for pick, value in muts:
        target = [edited["squares"][pick % len(edited["squares"])], edited["places"], edited["jewels"][pick % 5],
                  edited["arcs"][pick % len(edited["arcs"])], edited["posts"]][pick % 5]
        if isinstance(target, dict):
            keys = sorted(target)
            target[keys[pick % len(keys)]] = value
        else:
            target[pick % len(target)] = value
    try:
        parse_board(edited, "fuzz.json")
    except BoardError as e:
        assert str(e).startswith("fuzz.json: ") and e.problems


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10_000), LEAF), min_size=1, max_size=4))
def test_mutated_positions_raise_only_invalid_setup(muts):
    p = mutate(POSITION, muts)
    try:
        s = GAME.new(SEATS, {}, 5, position=p)
    except InvalidSetup as e:
        assert all(v.code == "bad-position" and v.message.startswith("position.") for v in e.violations)
        return
    assert list(GAME.problems(s)) == []
    q = GAME.position(s)
    assert GAME.position(GAME.new(SEATS, {}, 6, position=copy.deepcopy(q))) == q
