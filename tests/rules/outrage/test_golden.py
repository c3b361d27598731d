"""Golden playthroughs for 2, 4 (teams, all jewels) and 6 seats: recorded guided games
(``record_golden.py``) replayed through the checked ``push``, with the expected state at
checkpoints and the expected outcome; and guided whole games checked ply by ply."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import PUBLIC, NoPositions, dumps, from_data, parse_action, to_data
from rules.core.harness import strings_in
from rules.outrage import GAME

from .guided import guided_game
from .record_golden import checkpoint, seats_for

FILES = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path):
    data = json.loads(path.read_text())
    seats = [from_data(s) for s in data["seats"]]
    state = GAME.new(seats, data["options"], data["seed"])
    actions = [parse_action(a) for a in data["actions"]]
    expected = {c["ply"]: c for c in data["checkpoints"]}
    seen = set()
    for a in [None, *actions]:
        if a is not None:
            GAME.push(state, a)
        want = expected.get(state.ply)
        if want is not None:
            assert checkpoint(state) == want, f"{path.stem} ply {state.ply}"
            seen.add(state.ply)
    assert seen == set(expected)
    assert to_data(state.result) == data["outcome"]


def test_goldens_cover_2_4_6_seats_both_endgames_and_the_game_flow():
    seen_seats, endgames, kinds = set(), set(), set()
    for p in FILES:
        d = json.loads(p.read_text())
        seen_seats.add(len(d["seats"]))
        endgames.add(d["options"]["endgame"])
        kinds |= {a["$"].split(".")[-1] for a in d["actions"]}
        assert d["outcome"] is not None
    assert seen_seats == {2, 4, 6} and endgames == {"first-escape", "all-jewels"}
    assert {"attack", "arm", "burgle", "surrender", "challenge", "split", "play", "change"} <= kinds


@pytest.mark.parametrize("n, endgame, teams", [(3, "first-escape", False), (5, "all-jewels", False), (6, "all-jewels", True)])
def test_guided_whole_games_keep_every_invariant(n, endgame, teams, soak_factor):
    for k in range(soak_factor):
        seed = 1000 + 17 * k + n
        seats = seats_for(n, teams)
        options = {"endgame": endgame, "teams": teams, "own_pieces": n > 4}  # RULINGS S-04
        final, actions = guided_game(seed, seats, options, max_plies=5000)
        assert final.result is not None
        state = GAME.new(seats, options, seed)
        for i, a in enumerate(actions):
            GAME.push(state, a)
            assert list(GAME.problems(state)) == [], (seed, i)
            if i % 40 == 0:
                hidden = set(GAME.secrets(state, PUBLIC))
                assert not hidden & set(strings_in(GAME.view(state, PUBLIC)))
                try:
                    p = GAME.position(state)
                except NoPositions:
                    continue
                assert GAME.position(GAME.new(seats, options, seed + 1, position=p)) == p
        assert dumps(state) == dumps(final)
        assert sum(s.total for s in state.result.scores.values()) > 0
