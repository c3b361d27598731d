"""Golden playthroughs: recorded action lists (tests/rules/liberation/golden/*.json) replayed
through the checked path, with the expected public state at checkpoints worked out by hand
from the rulebook."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import PUBLIC, dumps, parse_action
from rules.liberation import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def check(state, expect, where):
    pub = GAME.view(state, PUBLIC)
    for key, want in expect.items():
        if key in ("turn", "active", "act", "deck", "discard", "phase", "claim"):
            got = pub[key]
        elif key == "occupied":
            got = [o["city"] for o in pub["occupied"]]
        elif key == "exploited":
            got = [o["city"] for o in pub["occupied"] if o["exploited"]]
        elif key == "hands":
            got = {s: h["count"] for s, h in pub["hands"].items()}
        elif key == "last_event":
            e = pub["events"][-1]
            got = [e["kind"], e["city"], e["result"]]
        elif key == "base_for_liberation":
            got = GAME.view(state, state.liberation)["base"]["city"]
            assert want not in json.dumps(pub) and want not in json.dumps(GAME.view(state, state.dynasty)), where
        elif key == "winner":
            got = state.result.winner if state.result else None
        elif key == "base_history":
            got = [[x["from"], x["to"]] for x in pub["audit"]["base_history"]]
        else:
            raise KeyError(key)
        assert got == want, f"{where}: {key} is {got!r}, expected {want!r}"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_playthrough(path):
    g = json.loads(path.read_text(encoding="utf-8"))
    actions = [parse_action(a) for a in g["actions"]]
    state = GAME.new(g["seats"], g["options"], g["seed"])
    points = {cp["after"]: cp for cp in g["checkpoints"] if "after" in cp}
    act_turns = {}
    for i, action in enumerate(actions, 1):
        GAME.push(state, action)
        act_turns.setdefault(str(state.act), state.turn)
        if i in points:
            check(state, points[i]["expect"], f"{path.stem} after action {i} ({points[i]['note']})")
    for cp in g["checkpoints"]:
        for act, turn in cp.get("act_begins_on_turn", {}).items():
            assert act_turns[act] == turn, f"ACT {act} began on turn {act_turns[act]}, expected {turn}"
    assert state.result is not None and not list(GAME.problems(state))
    assert dumps(GAME.replay(g["seats"], g["options"], g["seed"], actions)) == dumps(state)


def test_there_are_golden_games_for_both_winners():
    winners = {json.loads(p.read_text())["checkpoints"][-1]["expect"]["winner"] for p in GOLDEN}
    assert winners == {"dynasty", "liberation"}
