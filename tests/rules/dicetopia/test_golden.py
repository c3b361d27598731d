"""Golden games at 2, 3 and 4 players (recorded by record_golden.py, every once-per-game
ability of each table used): replayed through the checked path, the final position and
tally compared, and loot and domination re-derived here from the final board by plain
arithmetic (§6: 5 + leftover dice, ties share rounded up)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import PUBLIC, dumps, parse_action
from rules.dicetopia import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def rederive(view) -> dict[str, dict[str, int]]:
    """Each seat's loot and domination points from a final public view."""
    out = {s: {"loot": 0, "domination": 0} for s in view["order"]}
    for s, board in view["boards"].items():
        out[s]["loot"] = sum(int(c[1]) for c in board)
    for hood, cells in view["city"].items():
        agents = [c[1:] for c in cells if c.startswith("@")]
        if not agents:
            continue
        best = max(agents.count(s) for s in set(agents))
        top = [s for s in set(agents) if agents.count(s) == best]
        if len(top) > 1 and hood in view["end"]["rigged"]:
            top = [view["end"]["rigged"][hood]]
        pot = 5 + sum(int(c[1]) for c in cells if c[:1] in ("p", "t", "w"))
        for s in top:
            out[s]["domination"] += -(-pot // len(top))
    return out


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game(path):
    g = json.loads(path.read_text(encoding="utf-8"))
    actions = [parse_action(a) for a in g["actions"]]
    state = GAME.new(g["seats"], g["options"], g["seed"])
    for a in actions:
        GAME.push(state, a)
        assert not list(GAME.problems(state)) or state.cloned
    view = GAME.view(state, PUBLIC)
    final = g["final"]
    assert state.result is not None
    assert (view["city"], view["boards"], view["tally"]) == (final["city"], final["boards"], final["tally"])
    assert list(state.result.winning_seats) == final["winning_seats"] and state.result.reason == final["reason"]
    derived = rederive(view)
    for seat, lines in view["tally"].items():
        assert sum(p for what, _, p in lines if what == "loot") == derived[seat]["loot"]
        assert sum(p for what, _, p in lines if what == "domination") == derived[seat]["domination"]
        assert state.result.scores[seat].total == sum(p for _, _, p in lines)
    assert all(state.flipped[s] for s in state.order if state.faction[s] not in ("hollows", "centauri"))
    assert dumps(GAME.replay(g["seats"], g["options"], g["seed"], actions)) == dumps(state)


def test_golden_games_at_two_three_and_four_players():
    assert sorted(len(json.loads(p.read_text())["seats"]) for p in GOLDEN) == [2, 3, 4]
