"""Input routing: every rejection code, duplicates, several dice, crooked dice, keypad,
tokens and buttons; a rejection changes nothing and is published."""
from __future__ import annotations

import pytest
from firmware_bridge.events import (
    BatteryLevel, ButtonPressed, ButtonReleased, DeviceOnline, DieRolled, KeypadValue, TokenPlaced, TokenRemoved,
)

from companion import Journal, Table, TableError
from companion.routing import ROLL_WINDOW_S, MappingError, check_mapping, load_mapping
from rules.core import Roll

from .table_helpers import new_table, seats_for

DEVICES = {"die:hub1/0": "cops-1", "die:hub1/1": "criminals-2"}
_counter = iter(range(1, 10**6))


def die(d=0, value=4, outcome="rolled", t=0.0, device="hub1", faces=6, counter=None, boot=7):
    return DieRolled(device=device, die=d, value=value, outcome=outcome, confidence=0.99 if outcome != "crooked" else 0.8,
                     counter=next(_counter) if counter is None else counter, t=t, boot_id=boot, faces=faces)


@pytest.fixture
def table():
    t = new_table(Journal.open(":memory:"), "tyranny", seed=1, devices=DEVICES)
    assert t.prompt.actors == {"cops-1"} and t.prompt.awaiting.count == 1
    return t


def rejected(t, event, code):
    before, ply = t.view(), t.ply
    changes = []
    unsub = t.subscribe(changes.append)
    r = t.route(event)
    unsub()
    assert r.accepted is None and r.rejected is not None, r
    assert r.rejected.code == code and r.rejected.message
    assert t.view() == before and t.ply == ply
    # One channel: subscribers hear of the refusal once, with the event it answers.
    assert [c.kind for c in changes] == ["routed"]
    assert changes[0].detail.event is event and changes[0].detail.result is r
    return r.rejected


def accepted(t, event):
    changes = []
    unsub = t.subscribe(changes.append)
    r = t.route(event)
    unsub()
    assert r.accepted is not None and r.rejected is None, r
    # The action it became is announced once, then the result, last.
    kinds = [c.kind for c in changes]
    assert kinds.count("action") == 1 and kinds.count("routed") == 1 and kinds[-1] == "routed", kinds
    assert changes[-1].detail.result is r and changes[-1].detail.event is event
    return r.accepted


def test_roll_from_the_assigned_die(table):
    acc = accepted(table, die(0, 5))
    assert acc.action == Roll("cops-1", (5,)) and acc.action.source == "die:hub1/0"
    assert table.journal.actions(table.key)[0].source == "die:hub1/0"


def test_a_die_given_to_nobody_is_the_tables_and_throws_for_the_roller(table):
    # Dice belong to the table (issue 32): other dice being given to players does not
    # make this one nobody's.
    assert accepted(table, die(2, 4)).action == Roll("cops-1", (4,))


def test_die_of_another_seat(table):
    assert table.seat_name("criminals-2") in rejected(table, die(1), "die-wrong-seat").message


def test_die_with_the_wrong_faces(table):
    rejected(table, die(0, 7, faces=8), "wrong-die-faces")


def test_roll_nobody_asked_for(table):
    accepted(table, die(0, 1))
    assert table.prompt.awaiting.kinds == ("move",)
    rejected(table, die(0, 3), "roll-not-awaited")
    rejected(table, KeypadValue(device="gpio", value=3, t=1.0), "roll-not-awaited")


def test_duplicate_roll_is_ignored(table):
    e = die(0, 5, counter=41)
    accepted(table, e)
    ply = table.ply
    again = table.route(e)
    assert again.ignored and "duplicate" in again.ignored and table.ply == ply
    # the same counter after a reboot (new boot id) is a new roll (here: not awaited)
    assert table.route(die(0, 5, counter=41, boot=8)).rejected.code == "roll-not-awaited"


def test_crooked_die_rerolled_or_accepted(table):
    r = rejected(table, die(0, 2, outcome="crooked"), "crooked-die")
    assert "re-roll" in r.message
    acc = table.accept_crooked()
    assert acc.action == Roll("cops-1", (2,))
    with pytest.raises(TableError):
        table.accept_crooked()


def test_crooked_die_then_reroll(table):
    rejected(table, die(0, 2, outcome="crooked"), "crooked-die")
    assert accepted(table, die(0, 6)).action.values == (6,)


def test_no_die_assigned_means_any_die_rolls_for_the_roller():
    t = new_table(Journal.open(":memory:"), "tyranny", seed=1)
    assert accepted(t, die(3, 2, device="sim")).action == Roll("cops-1", (2,))


def doubles(**kw):
    return Table.create(Journal.open(":memory:"), game_id="mini-doubles", seats=seats_for("mini-doubles"), seed=1, **kw)


def test_several_dice_are_collected_in_one_window():
    t = doubles()
    r = t.route(die(0, 3, t=10.0))
    assert r.collecting == (3,) and r.accepted is None and r.rejected is None and t.ply == 0
    acc = accepted(t, die(1, 5, t=10.5))
    assert acc.action.values == (3, 5) and acc.action.source == "die:hub1/0,die:hub1/1"


def test_one_die_twice_is_the_wrong_dice_count():
    t = doubles()
    t.route(die(0, 3, t=1.0))
    assert "twice" in rejected(t, die(0, 4, t=1.2), "wrong-dice-count").message
    # the window restarted: two fresh dice make a roll
    t.route(die(0, 2, t=3.0))
    assert accepted(t, die(1, 2, t=3.1)).action.values == (2, 2)


def test_too_few_dice_within_the_window_is_the_wrong_dice_count():
    t = doubles()
    t.route(die(0, 3, t=1.0))
    rejected(t, die(1, 4, t=1.0 + ROLL_WINDOW_S + 0.5), "wrong-dice-count")


def test_keypad_is_manual_die_entry(table):
    rejected(table, KeypadValue(device="gpio", value=4, seat=1, t=1.0), "keypad-wrong-seat")
    rejected(table, KeypadValue(device="gpio", value=4, seat=5, t=1.0), "keypad-wrong-seat")
    rejected(table, KeypadValue(device="gpio", value=9, t=1.0), "illegal")
    acc = accepted(table, KeypadValue(device="gpio", value=4, seat=0, t=1.0))
    assert acc.action == Roll("cops-1", (4,)) and acc.action.source == "keypad:gpio/0"


def test_keypad_collects_several_dice():
    t = doubles()
    assert t.route(KeypadValue(device="gpio", value=6, t=0.0)).collecting == (6,)
    assert accepted(t, KeypadValue(device="gpio", value=6, t=1.0)).action.values == (6, 6)


def test_token_on_a_mapped_slot_becomes_the_mapped_action(table):
    accepted(table, die(0, 1))
    (move,) = list(table.legal_actions())
    slot = next(k for k, m in load_mapping("tyranny")["slots"].items() if m["on_place"]["tile"] == move.tile)
    acc = accepted(table, TokenPlaced(device="gpio", slot=int(slot.split("/")[1]), t=2.0))
    assert acc.action == move and acc.action.source.startswith("slot:gpio/")


def test_token_on_a_mapped_slot_that_is_not_legal_names_the_rule(table):
    accepted(table, die(0, 1))
    (move,) = list(table.legal_actions())
    other = next(int(k.split("/")[1]) for k, m in load_mapping("tyranny")["slots"].items() if m["on_place"]["tile"] != move.tile)
    r = rejected(table, TokenPlaced(device="gpio", slot=other, t=2.0), "illegal")
    assert "move" in r.message and r.rule


def test_token_on_an_unmapped_slot(table):
    rejected(table, TokenPlaced(device="gpio", slot=999, t=1.0), "slot-unmapped")
    rejected(table, TokenRemoved(device="gpio", slot=999, t=1.0), "slot-unmapped")
    assert "lifted" in table.route(TokenRemoved(device="gpio", slot=1, t=1.0)).ignored


def test_buttons(table):
    rejected(table, ButtonPressed(device="gpio", button="self-destruct", t=1.0), "button-unmapped")
    r = table.route(ButtonPressed(device="gpio", button="seat-1", t=1.0))
    assert r.ignored == "criminals-2 selected" and table.router.focus_seat == "criminals-2"
    rejected(table, ButtonPressed(device="gpio", button="seat-5", t=1.0), "button-unmapped")
    rejected(table, ButtonPressed(device="gpio", button="end-turn", t=1.0), "illegal")  # a roll is awaited
    rejected(table, ButtonPressed(device="gpio", button="undo", t=1.0), "nothing-to-undo")
    acc = accepted(table, ButtonPressed(device="gpio", button="roll", t=1.0))
    assert acc.action.source == "app" and acc.ply == 0


def test_ambiguous_template():
    mapping = check_mapping({"game": "tyranny", "slots": {"*/0": {"on_place": {"kind": "roll"}}}}, "tyranny")
    t = new_table(Journal.open(":memory:"), "tyranny", seed=1, mapping=mapping)
    rejected(t, TokenPlaced(device="gpio", slot=0, t=1.0), "ambiguous")


def test_events_that_are_not_game_input_are_ignored(table):
    for e in (DeviceOnline(device="hub1", kind="dice-hub", t=1.0), BatteryLevel(device="hub1", percent=50, t=1.0),
              ButtonReleased(device="gpio", button="end-turn", t=1.0)):
        r = table.route(e)
        assert r.ignored and r.accepted is None and r.rejected is None


def test_mapping_files_are_valid():
    for game in ("tyranny", "liberation"):
        m = load_mapping(game)
        assert m["slots"] and m["buttons"]
    assert load_mapping("mini-duel") == {"game": "mini-duel", "slots": {}, "buttons": {}}
    with pytest.raises(MappingError):
        check_mapping({"game": "tyranny", "buttons": {"*/x": {"does": "explode"}}}, "tyranny")
    with pytest.raises(MappingError):
        check_mapping({"game": "liberation"}, "tyranny")


def test_tyranny_slots_name_real_tiles():
    t = new_table(Journal.open(":memory:"), "tyranny")
    tiles = set(t.game.board(t.state).tiles)
    assert {m["on_place"]["tile"] for m in load_mapping("tyranny")["slots"].values()} == tiles


def test_liberation_slots_name_real_cities():
    t = new_table(Journal.open(":memory:"), "liberation")
    assert {m["on_place"]["city"] for m in load_mapping("liberation")["slots"].values()} == set(t.state.map.city_ids)


def test_a_die_given_mid_game_is_journaled_and_routes_the_same_after_a_resume(tmp_path):
    # A Bluetooth die paired at the table is given to a player after the game began: the
    # journal keeps it, so a resumed game (after a crash, on another launch) routes it so.
    j = Journal.open(tmp_path / "j.sqlite3")
    t = new_table(j, "tyranny", seed=1, devices=DEVICES)
    with pytest.raises(TableError, match="not a seat"):
        t.assign_devices({"die:pixels-1/0": "nobody"})
    assert "die:pixels-1/0" not in t.devices
    t.assign_devices({"die:pixels-1/0": "cops-1", "die:hub1/1": None})
    assert t.devices == {"die:hub1/0": "cops-1", "die:pixels-1/0": "cops-1"}
    key = t.key
    t.close()
    again = Table.resume(j, key)
    assert again.devices == {"die:hub1/0": "cops-1", "die:pixels-1/0": "cops-1"}
    acc = accepted(again, die(0, 5, device="pixels-1"))
    assert acc.action == Roll("cops-1", (5,)) and acc.action.source == "die:pixels-1/0"
