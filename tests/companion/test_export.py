"""Exports: the JSON event log, the tracked-values CSV, the BG Stats link.

Export functions are pure over the GameRecord the Table gives them; the Table builds that
record from public data. These tests check that nothing else reaches an export (every
string written comes from the record or the format itself), that an unfinished game
withholds its seed and has no BG Stats link, and the formats themselves."""
from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
import time
from datetime import timedelta, timezone
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import export
from rules.core.harness import strings_in as harness_strings_in
from companion.export import (
    BGSTATS_PREFIX,
    ExportError,
    GameNotFinished,
    bgstats_link,
    bgstats_play,
    export_csv,
    export_data,
    export_json,
    parse_bgstats_link,
    tracked_table,
)
from companion.record import ActionRecord, GameRecord

T0 = 1_790_000_000.0  # 2026-09-21 14:13:20 UTC
SEATS = [
    {"id": "crim-1", "faction": "criminals", "name": "Ann & Zoë"},
    {"id": "cop-1", "faction": "cops", "name": "Bo"},
    {"id": "cop-2", "faction": "cops", "name": ""},
]
OUTCOME = {
    "winner": "criminals",
    "reason": "1000+ influence held for 3 turns",
    "scores": {"criminals": {"total": 1200, "breakdown": {"influence": 1200}}, "cops": {"total": 4, "breakdown": {}}},
    "winning_seats": ["crim-1"],
}


def actions():
    return [
        ActionRecord(ply=1, seat="crim-1", kind="roll", data={"dice": [3, 4]}, source="die:hub1/0", time=T0 + 10, undone=False),
        ActionRecord(ply=2, seat="crim-1", kind="move", data={"to": "B2"}, source="touch", time=T0 + 20, undone=True),
        ActionRecord(ply=3, seat="crim-1", kind="move", data={"to": "C3"}, source="touch", time=T0 + 25, undone=False),
        ActionRecord(ply=4, seat="cop-1", kind="end-turn", data={}, source="gpio:BTN2", time=T0 + 70, undone=False),
    ]


TRACKED = [
    {"ply": 0, "turn": 1, "values": {"influence": 0, "escalation": 0}},
    {"ply": 1, "turn": 1, "values": {"influence": 50, "escalation": 0}},
    {"ply": 3, "turn": 1, "values": {"influence": 120, "escalation": 1}},
    {"ply": 4, "turn": 2, "values": {"influence": 120, "escalation": 1, "cops": {"properties": 2}}},
]


def record(finished=True, game_id="tyranny", length=47 * 60 + 10, **over):
    kw = dict(
        game_id=game_id,
        key="g-42",
        seats=SEATS,
        options={"streak": 3},
        seed=987654321,
        started=T0,
        finished=T0 + length if finished else None,
        actions=actions(),
        outcome=OUTCOME if finished else None,
        tracked=TRACKED,
    )
    kw.update(over)
    return GameRecord(**kw)


# --- purity: an export holds nothing the record does not ---------------------------------
def strings_in(value) -> set[str]:
    return set(harness_strings_in(value))


@pytest.mark.parametrize("finished", [True, False])
def test_json_holds_only_what_the_record_holds(finished):
    rec = record(finished)
    data = export_data(rec)
    allowed = strings_in(rec) | {export.FORMAT, "finished", "in-progress", export.game_title(rec.game_id)}
    utc = {t["utc"] for t in [data["started"], data["finished"], *(a["time"] for a in data["actions"])] if t}
    leftover = strings_in(data) - allowed - utc
    # keys of the format itself are the only other strings
    assert leftover <= {"format", "version", "game", "id", "title", "key", "seats", "faction", "name", "options",
                        "streak", "seed", "seed_withheld", "started", "finished", "duration_s", "status", "outcome",
                        "actions", "ply", "seat", "kind", "data", "source", "time", "undone", "tracked", "turn",
                        "values", "epoch", "utc", "position"}


def test_exports_read_no_clock_and_no_database(monkeypatch):
    export.game_facts("tyranny")  # the packaged facts file may be read once, before
    rec = record()
    expected = (export_json(rec), export_csv(rec), bgstats_link(rec, tz=timezone.utc))

    def forbidden(*a, **k):
        raise AssertionError("an export must not read the clock or the journal")

    monkeypatch.setattr(time, "time", forbidden)
    monkeypatch.setattr(time, "monotonic", forbidden)
    monkeypatch.setattr(sqlite3, "connect", forbidden)
    assert (export_json(rec), export_csv(rec), bgstats_link(rec, tz=timezone.utc)) == expected


def test_an_unfinished_game_withholds_its_seed_and_has_no_link():
    rec = record(finished=False)
    text = export_json(rec)
    data = json.loads(text)
    assert data["seed"] is None and data["seed_withheld"] is True and data["status"] == "in-progress"
    assert str(rec.seed) not in text
    assert data["finished"] is None and data["duration_s"] is None and data["outcome"] is None
    with pytest.raises(GameNotFinished) as err:
        bgstats_link(rec)
    assert isinstance(err.value, ValueError) and "in progress" in str(err.value)


def test_a_finished_game_needs_an_outcome_for_bgstats():
    rec = record(finished=True, outcome=None)
    with pytest.raises(GameNotFinished):
        bgstats_play(rec)
    assert json.loads(export_json(rec))["seed"] is None


def test_bgstats_carries_no_action_data():
    secret_like = "the-secret-base-is-Ostrava"
    acts = actions() + [ActionRecord(ply=5, seat="cop-2", kind="note", data={"x": secret_like}, source="touch",
                                     time=T0 + 80, undone=False)]
    link = bgstats_link(record(actions=acts), tz=timezone.utc)
    assert secret_like not in unquote(link)


# --- JSON ---------------------------------------------------------------------------------
def test_json_has_the_whole_event_log_with_undone_actions_flagged():
    data = json.loads(export_json(record()))
    assert (data["format"], data["version"]) == ("tabletop-companion/game-log", 1)
    assert data["game"] == {"id": "tyranny", "title": "Tyranny", "key": "g-42"}
    assert data["seats"] == SEATS and data["options"] == {"streak": 3}
    assert data["seed"] == 987654321 and data["seed_withheld"] is False
    assert [(a["ply"], a["kind"], a["undone"]) for a in data["actions"]] == [
        (1, "roll", False), (2, "move", True), (3, "move", False), (4, "end-turn", False)]
    assert data["actions"][0] == {
        "ply": 1, "seat": "crim-1", "kind": "roll", "data": {"dice": [3, 4]}, "source": "die:hub1/0",
        "time": {"epoch": T0 + 10, "utc": "2026-09-21T14:13:30.000+00:00"}, "undone": False}
    assert data["duration_s"] == 47 * 60 + 10 and data["status"] == "finished"
    assert data["outcome"] == OUTCOME and data["tracked"] == TRACKED
    assert "Zoë" in export_json(record())  # UTF-8 kept readable


def test_json_refuses_data_that_is_not_plain():
    bad = [ActionRecord(ply=1, seat="a", kind="x", data={"s": {1, 2}}, source="touch", time=T0, undone=False)]
    with pytest.raises(ExportError):
        export_json(record(actions=bad))
    with pytest.raises(ExportError):
        export_json(record(tracked=[{"ply": 1, "turn": 1, "values": {"v": math.nan}}]))


def test_unknown_game_id_keeps_its_id_as_title():
    assert json.loads(export_json(record(game_id="homebrew")))["game"]["title"] == "homebrew"


# --- CSV ----------------------------------------------------------------------------------
def test_csv_has_one_row_per_turn_and_one_column_per_value():
    text = export_csv(record())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [
        ["turn", "ply", "influence", "escalation", "cops.properties"],
        ["1", "3", "120", "1", ""],
        ["2", "4", "120", "1", "2"],
    ]
    assert text.endswith("\r\n")


def test_csv_of_a_game_without_tracked_values_is_just_the_header():
    assert export_csv(record(tracked=[])) == "turn,ply\r\n"


@given(st.lists(st.tuples(st.integers(1, 30), st.dictionaries(st.sampled_from(["a", "b", "c,d", 'e"f']),
                                                              st.integers(-10**6, 10**6), max_size=4)), max_size=40))
def test_csv_round_trips_through_the_csv_module(entries):
    tracked = [{"ply": i, "turn": turn, "values": values} for i, (turn, values) in enumerate(entries)]
    rec = record(tracked=tracked)
    header, rows = tracked_table(rec)
    parsed = list(csv.reader(io.StringIO(export_csv(rec))))
    assert parsed[0] == header
    assert len(parsed) - 1 == len({t for t, _ in entries})
    for row, want in zip(parsed[1:], rows):
        assert row == [str(v) for v in want]
    for turn in {t for t, _ in entries}:  # each turn's row is its last entry
        last = [e for e in tracked if e["turn"] == turn][-1]
        row = next(r for r in rows if r[0] == turn)
        assert row[1] == last["ply"]
        for k, v in last["values"].items():
            assert row[header.index(k)] == v


# --- BG Stats -----------------------------------------------------------------------------
def test_bgstats_link_carries_the_documented_json():
    link = bgstats_link(record(), tz=timezone(timedelta(hours=2)), location="Club", comments="")
    assert link.startswith(BGSTATS_PREFIX)
    assert not set(link[len(BGSTATS_PREFIX):]) & set(" &#?\"{}")  # fully url-encoded
    play = parse_bgstats_link(link)
    assert set(play) == {"game", "players", "durationMin", "playDate", "location", "comments", "sourceName",
                         "sourcePlayId"}
    assert play["game"] == {"name": "Tyranny", "highestWins": True, "noPoints": True, "sourceGameId": "tyranny"}
    assert play["durationMin"] == 47
    assert play["playDate"] == "2026-09-21 16:13:20"
    assert (play["location"], play["comments"]) == ("Club", "")
    assert (play["sourceName"], play["sourcePlayId"]) == ("Tabletop Companion", "g-42")
    assert play["players"] == [
        {"name": "Ann & Zoë", "winner": True, "rank": 1, "startPlayer": True, "role": "criminals",
         "sourcePlayerId": "crim-1"},
        {"name": "Bo", "winner": False, "rank": 2, "startPlayer": False, "role": "cops", "sourcePlayerId": "cop-1"},
        {"name": "cop-2", "winner": False, "rank": 2, "startPlayer": False, "role": "cops",
         "sourcePlayerId": "cop-2"},
    ]


def test_bgstats_scores_for_a_game_with_points_and_team_wins():
    outcome = {"winner": "cops", "reason": "all criminals captured",
               "scores": {"criminals": 3, "cops": {"total": 9}}, "winning_seats": []}
    play = bgstats_play(record(game_id="homebrew", outcome=outcome), tz=timezone.utc)
    assert play["game"]["noPoints"] is False and "bggId" not in play["game"]
    assert [(p["sourcePlayerId"], p["score"], p["winner"], p["rank"]) for p in play["players"]] == [
        ("crim-1", 3, False, 2), ("cop-1", 9, True, 1), ("cop-2", 9, True, 1)]
    assert play["comments"] == "all criminals captured"


def test_bgstats_draw_and_short_game():
    outcome = {"winner": None, "reason": "agreed draw", "scores": {}, "winning_seats": []}
    play = bgstats_play(record(outcome=outcome, length=5), tz=timezone.utc)
    assert all(p["winner"] is False and p["rank"] == 1 for p in play["players"])
    assert play["durationMin"] == 1  # a play is at least a minute long in BG Stats
    assert all("score" not in p for p in play["players"])


def test_bgstats_start_player_skips_undone_and_seatless_actions():
    acts = [ActionRecord(ply=1, seat=None, kind="setup", data={}, source="app", time=T0, undone=False),
            ActionRecord(ply=2, seat="cop-1", kind="move", data={}, source="touch", time=T0 + 1, undone=True),
            ActionRecord(ply=3, seat="cop-2", kind="move", data={}, source="touch", time=T0 + 2, undone=False)]
    play = bgstats_play(record(actions=acts), tz=timezone.utc)
    assert [p["startPlayer"] for p in play["players"]] == [False, False, True]


def test_parse_refuses_other_links():
    with pytest.raises(ExportError):
        parse_bgstats_link("https://example.org/?data={}")


def test_bgstats_reads_scores_from_the_engines_tagged_outcome_data():
    from rules.core.outcome import Outcome, Score
    from rules.core.jsondata import to_data

    outcome = to_data(Outcome("cops", "captured", {"cops": Score(7, {"p": 7}), "criminals": Score(2)}, ("cop-1",)))
    play = bgstats_play(record(game_id="homebrew", outcome=outcome), tz=timezone.utc)
    assert [(p["sourcePlayerId"], p["score"], p["winner"]) for p in play["players"]] == [
        ("crim-1", 2, False), ("cop-1", 7, True), ("cop-2", 7, True)]


@pytest.mark.parametrize("seed", range(3))
def test_exports_of_a_real_finished_game_hold_no_secret(seed):
    """A whole random Liberation game, recorded the way the Table records it (seats,
    public tracked values, outcome): the BG Stats link and the CSV name nothing still hidden
    at the end, and the in-progress JSON of the same game at half time names nothing hidden
    then."""
    from rules.core import PUBLIC
    from rules.core.playout import random_playout
    from rules.core.jsondata import to_data
    from rules.liberation import GAME

    tracked, secrets_by_step = [], []

    def on_step(state, action):
        tracked.append({"ply": state.ply, "turn": state.ply, "values": GAME.tracked(state)})
        secrets_by_step.append({s for s in GAME.secrets(state, PUBLIC) if len(s) >= 3})

    play = random_playout(GAME, seed, max_plies=2000, on_step=on_step)
    assert play.finished
    seats = [{"id": s.id, "faction": s.faction, "name": f"Player {i}"} for i, s in enumerate(play.seats)]
    common = dict(game_id="liberation", key=f"lib-{seed}", seats=seats, options=play.options, seed=seed,
                  started=T0, actions=[])
    done = GameRecord(finished=T0 + 1800, outcome=to_data(play.state.result), tracked=tracked, **common)
    half = len(tracked) // 2
    midgame = GameRecord(finished=None, outcome=None, tracked=tracked[:half], **common)
    at_end, at_half = secrets_by_step[-1], secrets_by_step[half - 1]
    assert at_half  # mid-game there was hidden information to leak (at the end all is shown)
    for text, secrets in [(unquote(bgstats_link(done, tz=timezone.utc)), at_end), (export_csv(done), at_end),
                          (export_json(midgame), at_half)]:
        assert not [s for s in secrets if s in text]
