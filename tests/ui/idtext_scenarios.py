"""Every text the app shows, in a real window, after a short game of each of the five games
(issue 32, item 11): the setup wizard's pages, the table screen after a few actions, the end
screen after a loss on time, home's history and statistics, and the devices panel (demo
mode: the simulated hub). The texts are handed to the test (tests/ui/test_ids_in_text.py),
which looks for ids, exit statuses and ruling codes in them."""
from __future__ import annotations

import json
from typing import Any, Iterator

from rules.core import Rng
from rules.core.playout import choose

from .scenarios import _wait_for, settle

GAMES = ("tyranny", "liberation", "outrage", "dicetopia", "against_all_tyrants")
NAMES = ("Ann", "Bob", "Cem", "Dee", "Eve", "Fay")
ACTIONS = 6


def _collect(d: Any, where: str, seen: dict[str, list[str]], root: Any = None) -> None:
    for text in d.texts(root):
        seen.setdefault(text, [])
        if where not in seen[text]:
            seen[text].append(where)


def five_games(d: Any) -> Iterator[float]:
    import rules
    from companion.clocks import ClockConfig, ClockMode

    seen: dict[str, list[str]] = {}
    seats_by_game: dict[str, list[str]] = {}
    yield from settle(d)
    for gid in GAMES:
        # The setup wizard's every page for this game (Liberation's map page among them).
        setup = d.app.go("setup")
        yield 0.1
        setup._pick_game(gid)
        for i in range(len(setup.model.steps())):
            setup.show_step(i)
            yield 0.05
            _collect(d, f"{gid} setup page {i}", seen, setup)
        d.shot(f"idtext-{gid}-setup")
        # A short game, lost on time by whoever must act after a few actions.
        game = rules.load(gid)
        seats = [{"id": s.id, "faction": s.faction, "name": name} for s, name in zip(game.default_seats(), NAMES)]
        seats_by_game[gid] = [s["id"] for s in seats]
        d.app.new_game(gid, seats, {}, seed=5, clocks=ClockConfig(ClockMode.SUDDEN_DEATH, main=600))
        yield from settle(d)
        table = d.app.table
        rng = Rng(2)
        played = 0
        # A few actions, and on until a seat's clock runs (a setup step may be the table's,
        # with every clock stopped).
        while played < ACTIONS or not table.clocks.running and played < 10 * ACTIONS:
            legal = list(table.legal_actions())
            if table.is_over() or not legal:
                break
            table.submit(choose(rng, legal))
            played += 1
            if played <= ACTIONS or table.clocks.running:
                yield from settle(d)
        _collect(d, f"{gid} table", seen, d.app.sm.current_screen)
        d.shot(f"idtext-{gid}-table")
        running = sorted(table.clocks.running)
        d.check(running, f"{gid}: a clock runs")
        table.adjust_clock(running[0], -700, "for the test: the flag falls")
        table.tick()
        yield from _wait_for(lambda: d.app.sm.current == "end", 5)
        if d.app.sm.current != "end":
            d.app.show_end()
        yield from settle(d)
        d.check(table.is_over(), f"{gid}: lost on time")
        _collect(d, f"{gid} end screen", seen, d.app.sm.get_screen("end"))
        d.shot(f"idtext-{gid}-end")
    d.app.close_table()
    d.app.go("home")
    yield from settle(d)
    _collect(d, "home", seen, d.app.sm.get_screen("home"))
    d.shot("idtext-home")
    d.app.go("devices")
    yield from settle(d, extra=0.5)
    _collect(d, "devices", seen, d.app.sm.get_screen("devices"))
    d.shot("idtext-devices")
    d.note(json.dumps({"texts": seen, "seats": seats_by_game,
                       "devices": sorted(d.app.devices.devices) if d.app.devices is not None else []}))
