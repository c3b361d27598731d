"""Issue 32, item 11: no text the app shows names a seat, faction or device by its id, a
process's exit status or a ruling code. A real window at 800x480 with 160 % text, in demo
mode, after a short game of each of the five games (tests/ui/idtext_scenarios.py)."""
from __future__ import annotations

import json

from rules import catalog, facts

from .ids_in_text import leaks


def test_the_checker_finds_what_the_game_night_read() -> None:
    """The words the issue quotes are each found (the check can fail)."""
    quoted = ["Criminals-1 ran out of time", "sim/0", "won by the bingmai", "link opener stopped with status 3",
              "… lines (RULINGS L-01)"]
    found = leaks(quoted, seats={"criminals-1"}, factions={"bingmai": "Bingmai Gamblers"})
    assert [text for _what, text in found] == quoted


def test_no_screen_of_the_five_games_shows_an_id_a_status_or_a_ruling_code(run_app, tmp_path) -> None:
    from tests.ui.conftest import toured_settings

    settings = toured_settings(tmp_path)
    from companion.ui.presenters.settings import Settings

    Settings.load(str(settings)).with_changes(text_scale=1.6).save(str(settings))
    r = run_app("idtext_scenarios:five_games", demo=True, settings=settings)
    seen = json.loads(r["notes"][-1])
    texts = seen["texts"]
    assert any("end screen" in w for where in texts.values() for w in where)
    assert seen["devices"], "the demo's hub is on the devices panel"
    seats = {s for ids in seen["seats"].values() for s in ids}
    factions = {f.id: f.name for g in catalog() for f in facts.factions(g.id).values()}
    found = [(what, text[:160], where[:3]) for what, text in leaks(texts, seats, factions)
             for where in [texts[text]]]
    assert not found, "\n".join(map(str, found))


def test_home_history_stats_and_the_link_opener_speak_names() -> None:
    """What a window reaches only with a finished game won by a faction, or a link opener
    that fails: home's history and statistics, the end screen's link line (presenters)."""
    import sys
    from types import SimpleNamespace as NS

    from companion.ui.presenters.home import rows, stats_lines
    from companion.ui.presenters.opener import open_link

    players = [{"id": "p1", "faction": "bingmai", "name": "Ann"}, {"id": "p2", "faction": "ewo", "name": "Bob"}]
    won = NS(key="k1", game_id="dicetopia", players=players, started=0, duration_s=600, result="bingmai won",
             winner="bingmai")
    drawn = NS(key="k2", game_id="tyranny", started=0, duration_s=60, winner=None,
               players=[{"id": "cops-1", "faction": "cops", "name": "Cy"}, {"id": "criminals-2", "faction": "criminals", "name": "Di"}],
               result="draw: criminals-2 ran out of time")
    history = [r.line for r in rows([won, drawn])]
    assert history[0].endswith("won by Ann (Bingmai Gamblers)") and history[1].endswith("draw: Di ran out of time")
    stats = stats_lines(NS(plays=2, average_duration_s=330, wins_by_faction={"bingmai": 1, "perceptioneers": 1},
                           wins_by_player={"Ann": 1}))
    failed = open_link("https://example.org", command=[sys.executable, "-c", "raise SystemExit(3)"])
    seats = {"p1", "p2", "cops-1", "criminals-2"}
    factions = {f.id: f.name for g in catalog() for f in facts.factions(g.id).values()}
    assert not failed.opened
    assert leaks(history + stats + [failed.detail], seats, factions) == []
