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


# ------------------------------------------------------------------ the three new games
OU = [{"id": "red-1", "faction": "red", "name": "Ann"}, {"id": "blue-1", "faction": "blue", "name": "Bob"}]
DT = [{"id": "banxa-1", "faction": "banxa", "name": "Ann"}, {"id": "bingmai-1", "faction": "bingmai", "name": "Bob"}]


def _public_text(form: PositionForm) -> str:
    """Everything the shared screen may show of a form: fields, values, problems, summary."""
    said = [f.label + " " + form.say(f) for f in form.public_fields()]
    shown = [said, list(form.public_problems().values()), form.problem_lines(), form.summary()]
    return json.dumps(shown, ensure_ascii=False)


def _round_trip(game_id: str, seats: list, form: PositionForm, options: dict | None = None) -> None:
    """form → position → engine → position: the engine writes back what the form said."""
    assert form.ok, form.public_problems()
    pos = form.to_position()
    t = Table.create(Journal.open(":memory:"), game_id=game_id, seats=seats, options=options, seed=5, position=pos)
    back = t.game.position(t.state)
    assert back == {k: v for k, v in pos.items() if k != "private"}
    assert "private" not in back


@pytest.mark.parametrize("game_id,seats", [("outrage", OU), ("dicetopia", DT)])
def test_the_new_games_forms_cover_the_engines_position_in_players_words(game_id, seats):
    form = PositionForm(game_id, seats, {})
    assert form.uncovered() == []
    keys = set(default_position(game_id, seats, {})) | {"private"}
    assert {spec["path"].split(".")[0] for spec in form_specs()[game_id]} <= keys
    assert SetupModel.for_game(game_id).can_join()
    shown = _public_text(form)
    assert not any(s["id"] in shown for s in seats), "a seat id on the shared screen"
    # Ids the engine uses are never what a player reads: squares, dice, spaces.
    for ident in ("w00", '"p4"', "agency.0", "bloody-tower", "sword"):
        assert ident not in shown, ident


def test_outrage_a_game_under_way_round_trips_with_its_hands_entered_behind_the_gate():
    form = PositionForm("outrage", OU, {})
    names = dict(form.choices(form.field("pieces.red-1.square")))
    assert names["w00"] == "Start" and len(set(names.values())) == len(names)  # each square its own name
    assert "Miss a turn — 2nd of 2 on The Wall Walk" in names.values()
    assert form.secret_seats() == ["red-1", "blue-1"] and not form.ok
    assert form.public_problems()["private.hands.red-1"] == ["Ann: enter this behind the privacy gate."]
    for _ in range(6):
        form.step("turn", 1)
    form.step("round", 1)
    form.set("seat", "blue-1")
    # Ann is in the Bowyer Tower with one turn served; Bob carries the Orb.
    form.set("pieces.red-1.held", True)
    form.set("pieces.red-1.held.place", "bowyer")
    form.step("pieces.red-1.held.served", 1)
    by_name = {n: v for v, n in names.items()}
    form.set("pieces.red-1.square", by_name["Bowyer Tower"] if "Bowyer Tower" in by_name else "w47")
    form.set("pieces.blue-1.square", "t14")
    form.set("jewels.orb", "blue-1")
    form.set("pieces.blue-1.coin", True)
    form.step("mint", -1)
    tower = form.choices(form.secret_fields("red-1")[0])
    form.set_secret("private.hands.red-1", [c for c, _ in tower[:3]])
    form.set_secret("private.hands.blue-1", [c for c, _ in tower[3:6]])
    assert form.get("private.hands.blue-1") == [c for c, _ in tower[3:6]]
    assert "Where is the Orb: Bob" in form.summary()
    assert not any(n in _public_text(form) for _, n in tower[:6])
    _round_trip("outrage", OU, form)


def test_outrage_each_kind_of_bad_field_is_said_beside_it():
    form = PositionForm("outrage", OU, {})
    form.set("pieces.blue-1.held", True)  # held in the Bloody Tower, but standing on Start
    assert "stands on Bloody Tower, not 'Start'" in form.public_problems()["pieces.blue-1.square"][0]
    form.set("pieces.blue-1.held", False)
    assert form.get("pieces.blue-1.held") is None and "pieces.blue-1.square" not in form.public_problems()
    form.set("pieces.red-1.burglary", True)
    probs = form.public_problems()
    assert "at least one tool" in probs["pieces.red-1.burglary.tools"][0]
    assert "facing the case" in probs["pieces.red-1.burglary.jewel"][0]
    form.set("pieces.red-1.burglary", False)
    form.set("jewels.orb", "escaped")  # nobody has it in their escaped list
    assert "exactly one player's escaped list" in form.public_problems()["jewels.orb"][0]
    form.toggle("pieces.blue-1.escaped", "orb")
    assert "jewels.orb" not in form.public_problems()
    form.step("mint", 3)
    assert "from 0 to 2" in form.public_problems()["mint"][0]
    form.step("mint", -3)
    form.set("pieces.red-1.sanctuary", True)  # Ann's turn starts: her Sanctuary has ended
    assert "Sanctuary lasts one turn" in form.public_problems()["pieces.red-1.sanctuary"][0]
    # A hand that does not match its count: said to the shared screen without the cards.
    form.set_secret("private.hands.red-1", ["mace-1"])
    public = form.public_problems()["private.hands.red-1"]
    assert public == ["Ann's secret entry has a problem: Ann checks it behind the gate."]
    assert any("1 cards entered for a hand of 3" in m for m in form.secret_problems("red-1"))
    assert "Mace" not in json.dumps(form.public_problems())


def test_dicetopia_a_game_under_way_round_trips_with_missions_behind_the_gate():
    form = PositionForm("dicetopia", DT, {})
    assert form.secret_seats() == ["banxa-1", "bingmai-1"] and not form.ok
    space = form.field("city.agency.0")
    assert space.label == "The Agency, space 1"
    contents = dict(form.choices(space))
    assert contents["@banxa-1"] == "Ann's agent" and contents["x"] == "Exterminated" and contents["p4"] == "Purple 4"
    # Ann sent an agent to the Agency's first space, taking its die onto her board.
    die = form.get("city.agency.0")
    form.set("city.agency.0", "@banxa-1")
    probs = form.public_problems()
    assert any("Ann has 7 agents" in m for m in probs["boards.banxa-1.0"]), probs
    form.set("boards.banxa-1.0", die)
    form.set("current", "banxa-1")
    form.set("flipped.bingmai-1", True)
    form.step("turn", 1)
    missions = [m for m, _ in form.choices(form.secret_fields("banxa-1")[0])]
    form.set_secret("private.banxa-1.missions", missions[:2])
    form.set_secret("private.bingmai-1.missions", missions[2:4])
    assert form.ok, form.public_problems()
    names = dict(form.choices(form.secret_fields("banxa-1")[0]))
    assert not any(names[m] in _public_text(form) for m in missions[:4])
    _round_trip("dicetopia", DT, form)
    t_state_missions = form.get("private.banxa-1.missions")
    assert t_state_missions == missions[:2]


def test_dicetopia_each_kind_of_bad_field_is_said_beside_it():
    form = PositionForm("dicetopia", DT, {})
    form.set("boards.banxa-1.0", "w6")  # a die taken, but no agent sent out: 5 agents, and one die too many
    probs = form.public_problems()
    assert any("Ann has 5 agents" in m for m in probs["boards.banxa-1.0"]), probs
    assert any("white dice in play" in m for m in probs["city.agency.0"]), probs  # the whole city: its first field
    form.set("boards.banxa-1.0", "@")
    form.set("factions.bingmai-1", "banxa")
    assert "their own faction" in form.public_problems()["factions.banxa-1"][0]
    form.set("factions.bingmai-1", "bingmai")
    form.step("missions.banxa-1", 5)
    assert "from 2 to 3" in form.public_problems()["missions.banxa-1"][0]
    form.step("missions.banxa-1", -5)
    form.set_card_count("removed", "Teal 2", 1)
    assert form.get("removed") == ["t2"] and "city.agency.0" in form.public_problems()
    form.set_card_count("removed", "Teal 2", 0)
    form.set_secret("private.banxa-1.missions", ["cash-is-king"])
    assert form.public_problems()["private.banxa-1.missions"] == ["Ann's secret entry has a problem: Ann checks it behind the gate."]
    assert "Cash is King" not in json.dumps(form.public_problems()) + " ".join(form.summary())


AT = [{"id": "attacker-1", "faction": "attacker", "name": "Ann"}, {"id": "defender-1", "faction": "defender", "name": "Bob"}]


def test_against_all_tyrants_a_game_under_way_round_trips_with_hands_and_special_forces_behind_the_gate():
    form = PositionForm("against_all_tyrants", AT, {})
    assert form.uncovered() == [] and SetupModel.for_game("against_all_tyrants").can_join()
    assert form.secret_seats() == ["attacker-1", "defender-1"] and not form.ok
    planetside = "pieces.attacker-1.planetside"
    assert form.field(planetside).label.startswith("Ann's cards in play in Planetside")
    named = dict(form.choices(form.field(planetside)))
    assert named["A:nv-assault-walker#1"] == "Assault Walker"
    assert "A:nv-orbital-fortress#1" not in named  # a space base never stands planetside
    # An Assault Walker came into play planetside and took 2 damage; one card fewer in the deck.
    form.toggle(planetside, "A:nv-assault-walker#1")
    # Behind the gate Ann is offered only the cards not in play nor discarded.
    assert "A:nv-assault-walker#1" not in dict(form.choices(form.secret_fields("attacker-1")[0]))
    assert "A:nv-assault-walker#2" in dict(form.choices(form.secret_fields("attacker-1")[0]))
    # Tokens are asked only for the cards the table says carry some: at first the two
    # Infiltrate units deployed with a Stealth token each; then the Walker, picked.
    def asked() -> set[str]:
        return {f.label.split(":")[0] for f in form.public_fields() if f.label.endswith(" tokens")}

    assert form.get("ask.aat_tokens") == ["D:ff-infiltrator#1", "A:nv-spec-ops#1"]
    assert asked() == {"Infiltrator in Planetside", "Spec Ops in Planetside"}
    assert dict(form.choices(form.field("ask.aat_tokens")))["A:nv-assault-walker#1"] == "Assault Walker in Planetside — Ann"
    form.toggle("ask.aat_tokens", "A:nv-assault-walker#1")
    assert asked() == {"Infiltrator in Planetside", "Spec Ops in Planetside", "Assault Walker in Planetside"}
    walker = next(f for f in form.public_fields() if f.label == "Assault Walker in Planetside: Damage tokens")
    form.step(walker.path, 2)
    form.step("sides.attacker-1.deck", -1)
    form.step("escalation.level", 2)
    form.step("escalation.incidents", 1)
    form.step("turn", 4)
    for seat in ("attacker-1", "defender-1"):
        hand, sf = form.secret_fields(seat)
        placed = set(form.get(planetside)) | set(form.get(f"pieces.{seat}.space")) | set(form.get(f"pieces.{seat}.planetside"))
        free = [c for c, _ in form.choices(hand) if c not in placed]
        form.set_secret(hand.path, free[:form.get(f"sides.{seat}.hand")])
        free_sf = [c for c, _ in form.choices(sf) if c not in placed]
        form.set_secret(sf.path, free_sf[:form.get(f"sides.{seat}.special_forces")])
    assert form.ok, form.public_problems()
    hand_names = {n for c, n in form.choices(form.secret_fields("defender-1")[0]) if c in form.get("private.defender-1.hand")}
    assert "Ann's secret entries: entered" in form.summary()
    pos = form.to_position()
    _round_trip("against_all_tyrants", AT, form)
    t = Table.create(Journal.open(":memory:"), game_id="against_all_tyrants", seats=AT, seed=5, position=pos)
    assert t.state.escalation.level == 2 and t.state.pieces["A:nv-assault-walker#1"].tokens == {"Damage": 2}
    assert t.state.sides["defender-1"].hand.cards == pos["private"]["defender-1"]["hand"]
    assert not any(n in " ".join(form.summary() + form.problem_lines()) for n in hand_names)


def test_against_all_tyrants_each_kind_of_bad_field_is_said_beside_it():
    form = PositionForm("against_all_tyrants", AT, {})
    form.toggle("pieces.attacker-1.planetside", "A:nv-assault-walker#1")
    assert "29 main-deck cards" in form.public_problems()["sides.attacker-1.deck"][0]
    form.step("sides.attacker-1.deck", -1)
    form.toggle("ask.aat_tokens", "A:nv-assault-walker#1")
    damage = next(f.path for f in form.public_fields() if f.label == "Assault Walker in Planetside: Damage tokens")
    form.step(damage, 9)
    assert form.public_problems()[damage] == ["Assault Walker would be destroyed (9 damage, 5 health)."]
    form.step(damage, -9)
    assert form.get(damage.rsplit(".", 1)[0]) == {}  # no token left: none written
    # A card taken off the pick loses the tokens entered for it: nothing hidden stays.
    form.step(damage, 2)
    form.toggle("ask.aat_tokens", "A:nv-assault-walker#1")
    assert form.get(damage.rsplit(".", 1)[0]) == {} and not any(f.path == damage for f in form.public_fields())
    form.step("escalation.level", 7)
    assert "from 0 to 5" in form.public_problems()["escalation.level"][0]
    form.step("escalation.level", -7)
    # Ann's base taken out of play: said beside her cards in play (the first of them).
    form.toggle("pieces.attacker-1.space", "A:nv-orbital-fortress#1")
    assert any("Ann needs its base in play in space" in m for m in form.public_problems()["pieces.attacker-1.space"])
    form.toggle("pieces.attacker-1.space", "A:nv-orbital-fortress#1")
    # The same card in play and in hand: the shared screen says only whose entry it is.
    form.set_secret("private.attacker-1.hand", ["A:nv-assault-walker#1"])
    assert form.public_problems()["private.attacker-1.hand"] == ["Ann's secret entry has a problem: Ann checks it behind the gate."]
    assert any("already" in m for m in form.secret_problems("attacker-1"))
    assert "A:nv" not in json.dumps(list(form.public_problems().values()))


@pytest.mark.parametrize("game_id", ["dicetopia", "outrage"])
def test_a_full_table_s_fresh_form_starts_once_the_secrets_are_in(game_id):
    m = SetupModel.for_game(game_id)
    for o in m.seat_count_options():  # a house rule seating the most (Outrage!'s own pieces)
        m.set_option(o.name, True)
    m.set_seat_count(m.game.max_seats)
    seats = m.named_seats()
    form = PositionForm(game_id, seats, dict(m.options))
    assert form.uncovered() == [] and not form.ok
    used: set[str] = set()
    for seat in form.secret_seats():
        for f in form.secret_fields(seat):
            n = form.get(f.spec["count"])
            picks = [c for c, _ in form.choices(f) if c not in used][:n]
            used |= set(picks)
            form.set_secret(f.path, picks)
    assert form.ok, form.public_problems()
    _round_trip(game_id, seats, form, dict(m.options))
