"""The data files: the space counts derived per player count (pinned), the ten factions,
the 40 missions with structured scoring, and the loader's typed errors naming file and field."""
from __future__ import annotations

import json
from importlib import resources

import pytest

from rules.dicetopia.tables import (
    MISSION_KINDS, DicetopiaDataError, parse_factions, parse_missions, parse_neighbourhoods, tables,
)


def _raw(name: str):
    return json.loads(resources.files("rules.dicetopia").joinpath("data", name).read_text(encoding="utf-8"))


def test_space_counts_per_player_count_are_pinned():
    t = tables()
    # §3 step 2: 30 dice at 4, 2 of each colour fewer per missing player; the spaces
    # marked 3 & 4 stay empty at 2 players, those marked 4 at 3 players.
    assert t.space_counts(2) == (3, 3, 3, 3, 3, 3)
    assert t.space_counts(3) == (4, 4, 4, 4, 4, 4)
    assert t.space_counts(4) == (5, 5, 5, 5, 5, 5)
    assert [t.dice_per_colour(n) for n in (2, 3, 4)] == [6, 8, 10]
    for n in (2, 3, 4):
        assert sum(t.space_counts(n)) == 3 * t.dice_per_colour(n)


def test_six_neighbourhoods_with_their_actions():
    t = tables()
    assert [(h.name, h.action) for h in t.hoods] == [
        ("The Agency", "agency"), ("The Gugu Airforce", "reroll"), ("Waste Management", "agent-die"),
        ("Twilight Congress", "die-die"), ("Observatory Bank", "city-board"), ("Nethal Syndicate", "board-board")]


def test_ten_factions_with_their_timing():
    f = tables().factions
    assert len(f) == 10
    once = {k for k, v in f.items() if v.once}
    assert once == {"banxa", "bingmai", "dangmer", "ewo", "roamers", "shakra", "perceptioneers", "tuulu"}
    assert f["hollows"].timing == "after-swapped" and f["dangmer"].timing == "end-start"


def test_forty_missions_every_kind_used():
    m = tables().missions
    assert len(m) == 40
    assert {s.kind for s in m.values()} == set(MISSION_KINDS)
    assert m["the-big-heist"].params == {"points": 25}
    assert m["king-of-the-hill"].params == {"points": 10, "agents": 3}


def test_loader_names_file_and_field():
    data = _raw("missions.json")
    data["missions"][3]["params"]["points"] = "nine"
    data["missions"][5]["kind"] = "smuggling"
    with pytest.raises(DicetopiaDataError) as e:
        parse_missions(data, "m.json")
    assert e.value.source == "m.json"
    assert "missions[3].params.points: must be a whole number from 1 to 99, not 'nine'" in e.value.problems
    assert any(p.startswith("missions[5].kind: must be one of") for p in e.value.problems)

    hoods = _raw("neighbourhoods.json")
    hoods["neighbourhoods"][0]["spaces"] = [2, 2, 2, 3, 4, 4]
    with pytest.raises(DicetopiaDataError) as e:
        parse_neighbourhoods(hoods, "n.json")
    assert e.value.problems == ("neighbourhoods: 31 spaces are used at 4 players but 30 dice are rolled",)

    fac = _raw("factions.json")
    fac["factions"]["ewo"]["once"] = "yes"
    with pytest.raises(DicetopiaDataError, match=r"f.json: factions.ewo.once: must be true or false"):
        parse_factions(fac, "f.json")
    deep: list = []
    for _ in range(40):
        deep = [deep]
    with pytest.raises(DicetopiaDataError, match="nests lists or objects too deep"):
        parse_missions({"missions": deep}, "deep.json")
