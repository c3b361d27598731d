"""Views, secrets, logs, tracked values, undo barriers, serialisation and the board file."""
from __future__ import annotations

import json

import pytest

from rules.core import PUBLIC, Draw, Roll, dumps, loads
from rules.core.harness import strings_in
from rules.tyranny import GAME, BoardError, PickCard, PlayCard, default_board, parse_board

from .helpers import draw, give, new, place, push, turn_of


def test_public_view_shows_the_table_but_no_hidden_card():
    s = new()
    give(s, "crim-1", "gains-10a")
    draw(s, "cop-1", "gamble-01a")  # shown and discarded: public
    view = GAME.view(s)
    assert view["influence"] == 400 and view["hands"]["crim-1"] == {"count": 1}
    assert view["decks"]["gamble"]["discard"] == ["gamble-01a"]
    assert view["decks"]["gamble"]["count"] == 19
    assert view["pieces"]["crim-1"]["tile"] == "hideout"
    assert view["streaks"] == {"criminals": 0, "cops": 0, "target": 3}
    for viewer in (PUBLIC, "cop-1", "crim-1"):
        hidden = set(GAME.secrets(s, viewer))
        assert not hidden & set(strings_in(GAME.view(s, viewer)))
    assert "gains-10a" in set(GAME.secrets(s, "cop-1")) and "gains-10a" not in set(GAME.secrets(s, "crim-1"))
    assert GAME.view(s, "crim-1")["my_cards"][0]["text"].startswith("Play this card: Choose an opponent")


def test_a_kept_draw_is_logged_privately():
    s = new()
    draw(s, "crim-1", "gamble-07a")
    public = [e["text"] for e in GAME.view(s)["log"]]
    mine = [e["text"] for e in GAME.view(s, "crim-1")["log"]]
    assert any("keeps it face down" in t for t in public)
    assert not any("Gamble 7" in t for t in public)
    assert any("You drew Gamble 7" in t for t in mine)


def test_tracked_values():
    s = new()
    s.owner.update({"o-docks": "cops", "i-bank": "criminals", "i-hotel": "criminals"})
    t = GAME.tracked(s)
    assert t["influence"] == 500 and t["criminal_properties"] == 2 and t["cop_properties"] == 1
    assert t["criminal_streak"] == 0 and t["cop_streak"] == 0


def test_influence_history_marks_each_turn():
    s = new()
    place(s, "cop-1", "o-scrapyard")
    s.owner["o-docks"] = "cops"
    push(s, Roll("cop-1", (2,)))
    from rules.tyranny import MoveTo
    push(s, MoveTo("cop-1", "o-docks"))
    assert s.influence.history == [(0, 500), (1, 450)]


def test_undo_barriers():
    s = new()
    assert GAME.undo_barrier(s, Roll("cop-1", (3,)))
    assert GAME.undo_barrier(s, PlayCard("cop-1", "gains-07a"))
    assert GAME.undo_barrier(s, PickCard("cop-1", "crim-1", 0))
    from rules.tyranny import MoveTo
    assert GAME.undo_barrier(s, MoveTo("cop-1", "o-docks")) is None


def test_state_round_trips_and_apply_leaves_the_original():
    s = new()
    give(s, "crim-1", "gains-07a")
    text = dumps(s)
    assert dumps(loads(text)) == text and loads(text) == s
    s2 = GAME.apply(s, Roll("cop-1", (2,)))
    assert dumps(s) == text and s2.phase == "move"


def test_the_default_board_is_labelled_and_valid():
    b = default_board()
    assert "default" in b.name.lower() and b.data["default"] is True
    assert len(b.tiers) == 2 and set(b.tunnels) == {"tunnel-a", "tunnel-b"}
    kinds = {t.kind for t in b.tiles.values()}
    assert {"property", "gamble", "gains", "tunnel", "safe", "hideout", "police-station"} <= kinds


def test_board_errors_name_every_problem():
    data = json.loads(json.dumps(default_board().data))
    data["tiers"]["outer"][1]["range"] = [5, 9]
    data["tunnels"][0]["cost"] = -1
    data["homes"]["cops"] = ["police-station"]
    with pytest.raises(BoardError) as e:
        parse_board(data)
    msg = str(e.value)
    assert "o-docks" in msg and "tunnel-a" in msg and "homes.cops" in msg


def test_a_table_plays_on_its_own_board():
    data = json.loads(json.dumps(default_board().data))
    data["name"] = "Our printed board"
    data["tiers"]["outer"][1]["range"] = [6, 6]
    s = GAME.new([("cop-1", "cops"), ("crim-1", "criminals")], {"board": data}, seed=1)
    place(s, "cop-1", "o-docks")
    from rules.tyranny import Capture
    push(s, Capture("cop-1"), Roll("cop-1", (3,)))
    assert s.owner == {}  # the table's range 6-6, not the default's 1-3
    assert GAME.view(s)["board"] == "Our printed board"
    assert loads(dumps(s)) == s


def test_a_broken_board_is_a_setup_error():
    from rules.core import InvalidSetup
    with pytest.raises(InvalidSetup) as e:
        GAME.new([("cop-1", "cops"), ("crim-1", "criminals")], {"board": {"tiers": {}}})
    assert e.value.violations[0].code == "bad-board"


def test_sample_draws_the_top_card():
    s = new()
    place(s, "cop-1", "o-docks")
    push(s, Roll("cop-1", (1,)))
    from rules.tyranny import MoveTo
    push(s, MoveTo("cop-1", "o-gamble-1"))
    a = GAME.sample(s)
    assert isinstance(a, Draw) and a.card == s.decks["gamble"].cards[0]
