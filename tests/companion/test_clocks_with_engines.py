"""The clocks driven the way the Table drives them: by the actors of a real engine's
prompt, through whole random games of every installed game."""
from __future__ import annotations

import random

import pytest

from companion.clocks import ClockConfig, ClockMode, ClockSet, EventKind
from rules.core.playout import random_playout
from rules.registry import catalog, load

from .clock_fakes import FakeTime

GAMES = [g.id for g in catalog()]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("mode", ["fischer", "hourglass", "byo-yomi"])
def test_whole_random_games_keep_the_clock_promises(game_id, mode, soak_factor):
    game = load(game_id)
    settings = {
        "fischer": dict(mode="fischer", main=600, increment=5, warning=60, turn_limit=45),
        "hourglass": dict(mode="hourglass", main=300, warning=30, overtime="none"),
        "byo-yomi": dict(mode="byo-yomi", main=120, periods=3, period=20, warning=40),
    }[mode]
    config = ClockConfig.from_data(settings)
    for seed in range(2 * soak_factor):
        rng = random.Random(seed)
        t = FakeTime()
        holder: dict[str, ClockSet] = {}
        busy = [0]
        events = []

        def on_step(state, action):
            cs = holder.get("cs")
            if cs is None:
                cs = holder["cs"] = ClockSet(config, [s.id for s in state.seats], clock=t.mono, wall=t.wall)
            actors = game.prompt(state).actors if state.result is None else frozenset()
            cs.switch_to(actors)
            ms = rng.randrange(0, 30_000)
            t.wait(ms / 1000)
            busy[0] += ms * len(actors)
            events.extend(cs.tick())

        play = random_playout(game, seed, max_plies=400, on_step=on_step)
        cs = holder["cs"]
        seats = [s.id for s in play.seats]
        assert sum(round(cs.used(s) * 1000) for s in seats) == busy[0]
        if mode == "fischer":
            for s in seats:
                st = cs.status(s)
                assert abs(st.main - (600 + 5 * st.moves - st.used)) < 1e-6
        if mode == "hourglass":
            assert abs(sum(cs.status(s).main for s in seats) - 300 * len(seats)) < 1e-6
        if mode == "byo-yomi":
            for s in seats:
                used = sum(1 for e in events if e.seat == s and e.kind is EventKind.PERIOD_USED)
                assert used == 3 - cs.status(s).periods_left
