"""Games joined in progress (issue 16): a Table made from a position journals it, and resume,
replay, undo to ply 0, the log, the exports and the end screen's history start from it.
A Liberation position's private part (the base, the hands) never reaches a public output."""
from __future__ import annotations

import json
import sqlite3

import pytest

import rules
from companion import Journal, Table
from companion import schema
from companion.positions import (PositionRefused, check_position, default_position, has_positions, player_words,
                                 public_position)
from rules import PUBLIC
from rules.core import Rng
from rules.core.jsondata import to_data
from rules.liberation.actions import Pass

from .table_helpers import line, play

TY_SEATS = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]
LIB_SEATS = [{"id": "dynasty-1", "faction": "dynasty", "name": "Dana"},
             {"id": "liberation-1", "faction": "liberation", "name": "Lee"}]


def tyranny_position() -> dict:
    """Turn 12, influence 640, Bob's criminal in custody (escapes on a 6), a property and a
    tunnel taken, two cards discarded, one in Ann's hand."""
    p = default_position("tyranny", TY_SEATS, {})
    p.update(seat="criminals-1", turn=12, round=6, influence=640, streaks={"criminals": 0, "cops": 1})
    p["pieces"]["cops-1"] = {"tile": "o-docks", "custody": False, "escape_on": []}
    p["pieces"]["criminals-1"] = {"tile": "police-station", "custody": True, "escape_on": [6]}
    p["owners"] = {"o-docks": "cops"}
    p["tunnels"] = ["tunnel-a"]
    p["discards"] = {"gamble": ["gamble-01a", "gamble-02a"], "gains": []}
    p["decks"] = {"gamble": 17, "gains": 20}
    p["hands"] = {"cops-1": 1, "criminals-1": 0}
    return p


def liberation_position() -> dict:
    """ACT II, turn 9: two occupied Cities (one exploited), the base on City K, both hands given."""
    p = default_position("liberation", LIB_SEATS, {})
    p.update(act=2, turn=9, active="dynasty-1", occupied=["city-a", "city-b"], exploited=["city-b"],
             hands={"dynasty-1": 2, "liberation-1": 1}, deck=5, discard=3)
    p["private"] = {"liberation-1": {"base": "city-k", "hand": ["city-m"]}, "dynasty-1": {"hand": ["city-c", "city-d"]}}
    return p


def test_both_games_have_positions_and_a_fresh_default():
    assert has_positions("tyranny") and has_positions("liberation")
    p = default_position("liberation", LIB_SEATS, {})
    assert p["act"] == 1 and p["base"] is True and "private" not in p


def test_tyranny_joined_game_resumes_replays_and_starts_from_its_position(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal.open(path)
    pos = tyranny_position()
    t = Table.create(j, game_id="tyranny", seats=TY_SEATS, seed=5, position=pos)
    g = t.game
    assert g.position(t.state) == pos  # the table is where the players said it is
    v0 = t.view()
    assert v0["influence"] == 640 and v0["turn"] == 12
    start = to_data(t.state)
    play(t, Rng(4), 12)
    assert t.ply == 12
    view, key = t.view(), t.key
    t.close()
    j.close()

    j = Journal.open(path)
    t = Table.resume(j, key)
    assert t.position == pos and t.view() == view
    # Replay from the journal's own record equals the live state; ply 0 is the position.
    rebuilt = g.new(t.seats, t.options, t.seed, position=t.position)
    for a in line(t):
        g.push(rebuilt, a)
    assert to_data(rebuilt) == to_data(t.state)
    assert to_data(t._state_at(0)) == start
    # The end screen's history and the CSV begin at turn 12 with 640, not at 500.
    first = t.tracked_history()[0]
    assert first["turn"] == 12 and first["values"]["influence"] == 640
    data = json.loads(t.export_json())
    assert data["position"] == pos
    assert t.export_csv().splitlines()[1].startswith("12,")
    t.close()
    j.close()


def test_liberation_joined_game_undoes_to_ply_0_and_keeps_the_base_secret(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal.open(path)
    pos = liberation_position()
    t = Table.create(j, game_id="liberation", seats=LIB_SEATS, seed=9, position=pos)
    g = t.game
    assert t.state.base == "city-k" and t.state.hands["liberation-1"].cards == ["city-m"]
    assert g.position(t.state) == public_position(pos)
    start = to_data(t.state)
    t.submit(Pass(seat="dynasty-1"))  # step 1: neither draw nor unexploit
    assert t.ply == 1 and t.can_undo()
    t.undo()
    assert t.ply == 0 and to_data(t.state) == start  # undo back to the position itself
    play(t, Rng(2), 6)
    view, key = t.view(), t.key
    t.close()
    j.close()

    j = Journal.open(path)
    t = Table.resume(j, key)
    assert t.view() == view and t.state.base == "city-k"
    assert j.game(key).position["private"]["liberation-1"]["base"] == "city-k"  # the journal keeps it
    # ...and no public output holds the private part.
    assert t.public_position is not None and "private" not in t.public_position
    exported = t.export_json()
    assert "private" not in json.loads(exported)["position"]
    t.close()
    j.close()


def test_two_joined_games_differing_only_in_the_base_look_the_same_in_public():
    """The differential check: the base on City K or on City L, everything public equal:
    the public view, the log and the export are identical."""
    outs = []
    for base in ("city-k", "city-l"):
        pos = liberation_position()
        pos["private"]["liberation-1"]["base"] = base
        t = Table.create(Journal.open(":memory:"), game_id="liberation", seats=LIB_SEATS, seed=9, position=pos,
                         wall=lambda: 1_800_000_000.0)
        t.submit(Pass(seat="dynasty-1"))
        export = json.loads(t.export_json())
        export["game"].pop("key")
        outs.append((t.view(PUBLIC), [ln.text for ln in t.log(PUBLIC)], export))
        assert base in json.dumps(t.private_view("liberation-1"))  # the holder's own view has it
    assert outs[0] == outs[1]


def test_invalid_positions_are_refused_in_players_words():
    p = tyranny_position()
    p["pieces"]["cops-1"]["tile"] = "the-moon"
    p["pieces"]["criminals-1"]["escape_on"] = []
    p["influence"] = -5
    with pytest.raises(PositionRefused) as e:
        Table.create(Journal.open(":memory:"), game_id="tyranny", seats=TY_SEATS, seed=1, position=p)
    fields = {x.field for x in e.value.problems}
    assert {"pieces.cops-1.tile", "pieces.criminals-1.escape_on", "influence"} <= fields
    text = str(e.value)
    assert "Ann's piece" in text and "Bob's piece" in text
    assert "cops-1" not in text and "position." not in text
    assert isinstance(e.value, ValueError) and e.value.violations  # still the engine's InvalidSetup


def test_liberation_refusal_of_a_private_field_does_not_quote_the_secret():
    p = liberation_position()
    p["private"]["liberation-1"]["base"] = "city-a"  # occupied: the engine refuses it
    problems = check_position("liberation", LIB_SEATS, {}, p)
    base = [x for x in problems if x.field == "private.liberation-1.base"]
    assert base and "City A" in base[0].message  # behind the gate the holder reads which
    with pytest.raises(PositionRefused) as e:
        Table.create(Journal.open(":memory:"), game_id="liberation", seats=LIB_SEATS, seed=1, position=p)
    assert "City A" not in str(e.value) and "city-a" not in str(e.value)
    assert "Lee's secret entry" in str(e.value)


def test_player_words_names_ids_and_paths():
    names = {"cops-1": "Ann", "o-docks": "The Docks"}
    assert player_words("position.owners.o-docks: no property 'o-docks' on the X board.", names) == (
        "owners.o-docks", "owners — The Docks: no property 'The Docks' on the X board.")
    assert player_words("position.hands: holds 2 cards; hands.cops-1 says 3.", names)[1] == \
        "hands: holds 2 cards; Ann's hand says 3."


def test_a_version_3_journal_migrates_and_its_games_start_from_the_opening(tmp_path):
    p = tmp_path / "v3.sqlite3"
    db = sqlite3.connect(p, isolation_level=None)
    assert schema.migrate(db, target=3) == 3
    db.execute("INSERT INTO games (key, game_id, seats, options, seed, started) VALUES (?,?,?,?,?,?)",
               ("old3", "tyranny", json.dumps(TY_SEATS), json.dumps(rules.load("tyranny").resolve_options({})), 4, 1000.0))
    db.close()
    j = Journal.open(p)
    assert j.schema_version == schema.CURRENT >= 4
    assert j.game("old3").position is None
    t = Table.resume(j, "old3")
    assert t.view()["influence"] == 500 and t.public_position is None
    play(t, Rng(1), 4)
    assert json.loads(t.export_json())["position"] is None
    t.close()
    j.close()
