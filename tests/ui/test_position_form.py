"""The setup wizard's "game already under way" form, without a window (issue 16)."""
from __future__ import annotations

import json

import pytest

import rules
from companion import Journal, Table
from companion.positions import default_position
from companion.ui.presenters.position_form import PositionForm, form_specs
from companion.ui.presenters.setup import SetupModel

TY = [{"id": "cops-1", "faction": "cops", "name": "Ann"}, {"id": "criminals-1", "faction": "criminals", "name": "Bob"}]
LIB = [{"id": "dynasty-1", "faction": "dynasty", "name": "Dana"}, {"id": "liberation-1", "faction": "liberation", "name": "Lee"}]


@pytest.mark.parametrize("game_id,seats", [("tyranny", TY), ("liberation", LIB)])
def test_every_key_of_the_engines_position_has_a_field(game_id, seats):
    form = PositionForm(game_id, seats, {})
    assert form.uncovered() == []
    # ...and every field edits a key the engine's position has (no stale copy of it).
    keys = set(default_position(game_id, seats, {})) | {"private"}
    assert {spec["path"].split(".")[0] for spec in form_specs()[game_id]} <= keys


def test_a_removed_field_is_reported_as_uncovered(monkeypatch):
    specs = {k: [f for f in v if f["path"] != "tunnels"] for k, v in form_specs().items()}
    monkeypatch.setattr("companion.ui.presenters.position_form.form_specs", lambda: specs)
    assert PositionForm("tyranny", TY, {}).uncovered() == ["tunnels"]


def test_defaults_are_a_fresh_game_and_labels_use_names():
    form = PositionForm("tyranny", TY, {})
    assert form.ok and form.get("turn") == 1 and form.get("influence") == 500
    labels = [f.label for f in form.public_fields()]
    assert "Ann's piece is on" in labels and "Cards in Bob's hand" in labels
    assert not any("cops-1" in lbl or "criminals-1" in lbl for lbl in labels)
    # Escape numbers are asked only of a piece in custody.
    assert "pieces.criminals-1.escape_on" not in {f.path for f in form.public_fields()}
    form.set("pieces.criminals-1.custody", True)
    assert "pieces.criminals-1.escape_on" in {f.path for f in form.public_fields()}


def test_tyranny_turn_12_with_640_and_a_piece_in_custody_starts_a_table():
    form = PositionForm("tyranny", TY, {})
    for _ in range(11):
        form.step("turn", 1)
    form.step("round", 5)
    form.step("influence", 100)
    for _ in range(4):
        form.step("influence", 10)
    form.set("seat", "criminals-1")
    form.set("pieces.criminals-1.custody", True)
    assert not form.ok and form.public_problems()["pieces.criminals-1.escape_on"]
    form.toggle("pieces.criminals-1.escape_on", 6)
    form.set_owner("owners", "o-docks", "cops")
    form.toggle("tunnels", "tunnel-a")
    form.set_card_count("discards.gamble", "Gamble 3", 2)
    assert form.get("discards.gamble") == ["gamble-03a", "gamble-03b"]
    # Two cards discarded, so the draw pile must say 18: the engine says so, by the field.
    probs = form.public_problems()
    assert any("gamble" in m for m in probs.get("decks.gamble", []) + probs.get("", [])), probs
    form.step("decks.gamble", -2)
    assert form.ok, form.public_problems()
    summary = form.summary()
    assert "Turn number (this turn included): 12" in summary and "Criminals' influence: 640" in summary
    assert "Whose turn starts now: Bob" in summary
    t = Table.create(Journal.open(":memory:"), game_id="tyranny", seats=TY, seed=2, position=form.to_position())
    assert t.view()["influence"] == 640 and t.game.position(t.state) == form.to_position()


def test_problems_sit_beside_their_field_in_players_words():
    form = PositionForm("tyranny", TY, {})
    form.step("decks.gains", 3)
    probs = form.public_problems()
    assert "decks.gains" in probs
    text = json.dumps(probs)
    assert "position." not in text and "cops-1" not in text and "criminals-1" not in text
    form.set("seat", "nobody")
    assert any("nobody" in m for m in form.public_problems()["seat"])


def test_liberation_secrets_are_asked_behind_the_gate_and_never_quoted_in_public():
    form = PositionForm("liberation", LIB, {})
    assert form.secret_seats() == ["dynasty-1", "liberation-1"]
    assert {f.path for f in form.secret_fields("liberation-1")} == {"private.liberation-1.base", "private.liberation-1.hand"}
    assert not any(f.secret for f in form.public_fields())
    assert not form.ok  # the base is still to enter
    assert "Lee: enter this behind the privacy gate." in form.public_problems()["private.liberation-1.base"]
    form.set("act", 2)
    form.toggle("occupied", "city-a")
    form.toggle("occupied", "city-b")
    form.toggle("exploited", "city-b")
    assert [v for v, _ in form.choices(form.field("exploited"))] == ["city-a", "city-b", "city-g"]  # among the occupied
    form.toggle("occupied", "city-b")  # no longer occupied: no longer exploited either
    assert form.get("exploited") == []
    form.toggle("occupied", "city-b")
    form.toggle("exploited", "city-b")
    # The base on an occupied City: the engine refuses; the shared screen does not say which.
    form.set_secret("private.liberation-1.base", "city-a")
    public = json.dumps(form.public_problems())
    assert "City A" not in public and "city-a" not in public
    assert "Lee's secret entry has a problem" in public
    assert any("City A" in m for m in form.secret_problems("liberation-1"))
    form.set_secret("private.liberation-1.base", "city-k")
    for seat, n in (("dynasty-1", 2), ("liberation-1", 2)):
        hand = [c for c in ("city-c", "city-d", "city-e", "city-f") if c not in sum((form.get(f"private.{s}.hand") or [] for s in ("dynasty-1", "liberation-1")), [])][:n]
        form.set_secret(f"private.{seat}.hand", hand)
    # A fresh game's piles with two more Cities occupied: the deck is 2 short of what it said.
    probs = form.public_problems()
    assert "deck" in probs or "" in probs
    form.step("deck", -1)
    form.step("discard", -1)
    assert form.ok, form.public_problems()
    assert any(line.startswith("Lee's secret entries: entered") for line in form.summary())
    assert not any("City K" in line for line in form.summary() + form.problem_lines())
    pos = form.to_position()
    t = Table.create(Journal.open(":memory:"), game_id="liberation", seats=LIB, seed=3, position=pos)
    assert t.state.base == "city-k" and t.view()["act"] == 2


def test_setup_model_adds_the_position_step_only_for_a_game_under_way():
    m = SetupModel.for_game("tyranny")
    assert "position" not in m.steps() and m.position() is None and m.can_join()
    m.joining = True
    assert m.steps()[3] == "position" and m.step_title(3) == "4 · The game so far"
    assert m.check() == []
    m.position_form().set("influence", -1)
    assert m.check() and all("cops-" not in p for p in m.check())
    m.rename(0, "Zed")  # a name changes: the form is made afresh, with the new name
    assert any("Zed" in f.label for f in m.position_form().public_fields())
    assert any("A game already under way" in line for line in m.summary())


def test_a_table_map_names_the_cities_of_that_map():
    m = SetupModel.for_game("liberation")
    m.joining = True
    names = [n for _, n in m.position_form().choices(m.position_form().field("occupied"))]
    spec_names = [c["name"] for c in rules.load("liberation").resolve_options({})["map"]["cities"]]
    assert names == spec_names


def test_a_game_with_positions_but_no_form_is_not_offered_to_join(monkeypatch) -> None:
    # The engine can start from a position, but the app has no page asking for one: the
    # wizard must not offer "already under way" with nothing to fill in.
    from companion.ui.presenters import position_form

    forms = dict(position_form.form_specs())
    forms.pop("tyranny")
    monkeypatch.setattr(position_form, "form_specs", lambda: forms)
    assert not SetupModel.for_game("tyranny").can_join()
    assert SetupModel.for_game("liberation").can_join()
