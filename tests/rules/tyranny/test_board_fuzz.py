"""Altered board files: only a BoardError (or a board) comes out, and its message names
the file and, for every problem, the field (issue 15)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from rules.core import RulesError
from rules.tyranny.board import Board, BoardError, board_for, default_board, load_board, parse_board
from tests.json_mutations import check_each, mutated, names_a_field, nest

SHIPPED: dict[str, Any] = json.loads(json.dumps(default_board().data))


def problem_has_a_path(problem: str) -> bool:
    path, sep, _ = problem.partition(": ")
    return bool(sep) and names_a_field(path)


@given(mutated(SHIPPED))
def test_altered_board_files_give_a_board_or_a_board_error(data: Any) -> None:
    try:
        board = parse_board(data, "our-board.json")
    except BoardError as e:
        assert str(e).startswith("our-board.json: ")
        assert e.problems and not check_each(e.problems, problem_has_a_path)
    else:
        assert isinstance(board, Board)


@given(mutated(SHIPPED))
def test_board_for_never_raises_anything_else(data: Any) -> None:
    try:
        board_for(data)
    except BoardError as e:
        assert e.problems and not check_each(e.problems, problem_has_a_path)


def altered(change: str) -> Any:
    ns = {"data": json.loads(json.dumps(SHIPPED)), "nest": nest}
    exec(change, ns)
    return ns["data"]


# The mutations the trial found raising TypeError/AttributeError/RecursionError.
CASES = [
    ("data = None", "(top)"),
    ("data['tiers'] = None", "tiers"),
    ("data['tiers']['outer'] = 5", "tiers.outer"),
    ("data['tiers']['outer'][3] = None", "tiers.outer[3]"),
    ("data['tiers']['outer'][3] = [1, 2]", "tiers.outer[3]"),
    ("data['tiers']['outer'][3]['range'] = None", "tiers.outer[3].range"),
    ("data['tiers']['outer'][3]['range'] = 5", "tiers.outer[3].range"),
    ("data['tiers']['outer'][3]['range'] = [2.5, 4]", "tiers.outer[3].range"),
    ("data['tiers']['outer'][3]['base'] = 10**30", "tiers.outer[3].base"),
    ("data['tiers']['outer'][3]['base'] = -1", "tiers.outer[3].base"),
    ("data['tiers']['outer'][3]['id'] = ['o-market']", "tiers.outer[3].id"),
    ("data['tiers']['outer'][3]['kind'] = {}", "tiers.outer[3].kind"),
    ("data['tiers']['outer'][3]['name'] = None", "tiers.outer[3].name"),
    ("data['homes'] = []", "homes"),
    ("data['homes']['cops'] = 'police-station'", "homes.cops"),
    ("data['homes']['cops'] = [['police-station'], 1]", "homes.cops"),
    ("data['tunnels'] = {}", "tunnels"),
    ("data['tunnels'][0] = 'tunnel-a'", "tunnels[0]"),
    ("data['tunnels'][0]['ends'] = None", "tunnels[0].ends"),
    ("data['tunnels'][0]['ends'] = [['o-tunnel-a'], 'i-tunnel-a']", "tunnels[0].ends"),
    ("data['tunnels'][0]['cost'] = float('nan')", "tunnels[0].cost"),
    ("data['tunnels'][0]['open'] = 'yes'", "tunnels[0].open"),
    ("data['tunnels'][0]['id'] = 7", "tunnels[0].id"),
    ("data['name'] = {'x': 1}", "name"),
    ("data['tiers']['outer'][3]['range'] = nest(1, 5000)", "tiers.outer[3].range"),
]


@pytest.mark.parametrize("change,path", CASES, ids=[c[0] for c in CASES])
def test_the_error_names_the_field(change: str, path: str) -> None:
    with pytest.raises(BoardError) as e:
        parse_board(altered(change), "our-board.json")
    assert isinstance(e.value, RulesError) and isinstance(e.value, ValueError)
    assert str(e.value).startswith("our-board.json: ")
    assert any(p.startswith(f"{path}: ") or p.startswith(f"{path}[") or p.startswith(f"{path}.") for p in e.value.problems), e.value.problems
    if altered(change) is not None:  # board_for(None) is the default board
        with pytest.raises(BoardError):
            board_for(altered(change))


def test_a_board_file_names_itself(tmp_path: Path) -> None:
    f = tmp_path / "printed.json"
    f.write_text(json.dumps(altered("data['tiers']['outer'][3]['range'] = [5, 9]")))
    with pytest.raises(BoardError, match=r"printed\.json: tiers\.outer\[3\]\.range: property o-market"):
        load_board(f)
    for bad in ("[" * 100_000 + "]" * 100_000, "{", "9" * 5000):
        f.write_text(bad)
        with pytest.raises(BoardError, match="printed.json"):
            load_board(f)
