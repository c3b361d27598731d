"""The table's dice (issue 32, item 1): a die given to nobody throws for whoever must
throw now; when several seats must throw (Outrage!'s "decide who starts"), the throws are
collected in turn; dice of different kinds (the demo hub's, a Bluetooth die) make up one
throw; a die given to a seat throws only for that seat; an engine that says a die is a
particular seat's is respected (rules/README.md, "Prompts": a Die's owner is a seat, or
POOL for the table's dice). No refusal names a device id."""
from __future__ import annotations

import itertools

import pytest
from firmware_bridge.events import DieRolled, KeypadValue

from companion import Journal
from companion.routing import RouteView, Router, in_turn
from rules.core import Die, Prompt, Roll, RollRequest

from .table_helpers import new_table

_counter = itertools.count(1)


def die(device: str, value: int, t: float, index: int = 0) -> DieRolled:
    return DieRolled(device=device, die=index, value=value, outcome="rolled", confidence=0.99,
                     counter=next(_counter), t=t, boot_id=7)


def outrage_who_starts(devices: dict[str, str] | None = None):
    """An Outrage! table of two at "decide who starts" (Setup: each throws 2d6), its
    Tower cards dealt by the app."""
    t = new_table(Journal.open(":memory:"), "outrage", seed=1, devices=devices or {})
    while "decide who starts" not in str(t.prompt):
        t.submit(t.game.sample(t._state))
    assert t.prompt.actors == {"red-1", "blue-2"} and [s["id"] for s in t.seats] == ["red-1", "blue-2"]
    return t


def no_device_ids(message: str) -> None:
    for word in ("sim/", "pixels-", "hub1", "die:"):
        assert word not in message, message


def test_the_demo_die_throws_for_the_roller_when_a_bluetooth_die_is_given_to_a_player():
    # The table: a Pixel given to Ann, the demo hub's two dice given to nobody.
    t = outrage_who_starts({"die:pixels-1/0": "red-1"})
    r = t.route(die("sim", 3, 10.0))
    assert r.rejected is None and r.collecting == (3,), r
    r = t.route(die("sim", 4, 10.3, index=1))
    assert r.accepted is not None and r.accepted.action == Roll("red-1", (3, 4)), r


def test_who_starts_collects_each_seats_throw_in_turn_with_the_tables_dice():
    t = outrage_who_starts()
    assert t.route(die("sim", 2, 1.0)).collecting == (2,)
    first = t.route(die("sim", 5, 1.2, index=1)).accepted
    assert first.action == Roll("red-1", (2, 5))  # the first seat in seat order
    assert t.prompt.actors == {"blue-2"}
    assert t.route(die("sim", 6, 9.0)).collecting == (6,)
    second = t.route(die("sim", 6, 9.1, index=1)).accepted
    assert second.action == Roll("blue-2", (6, 6))


def test_a_hub_die_and_a_bluetooth_die_make_up_one_throw():
    t = outrage_who_starts({"die:pixels-1/0": "red-1"})
    assert t.route(die("pixels-1", 6, 3.0)).collecting == (6,)
    acc = t.route(die("sim", 1, 3.4)).accepted
    assert acc is not None and acc.action == Roll("red-1", (6, 1))
    assert acc.action.source == "die:pixels-1/0,die:sim/0"


def test_a_seats_own_die_does_not_spoil_another_seats_throw_being_collected():
    t = outrage_who_starts({"die:pixels-1/0": "blue-2"})
    assert t.route(die("sim", 3, 1.0)).collecting == (3,)            # the table's die: Ann's throw
    assert t.route(die("pixels-1", 4, 1.1)).collecting == (4,)       # Bob's own die: Bob's throw
    assert t.route(die("sim", 5, 1.2, index=1)).accepted.action == Roll("red-1", (3, 5))
    assert t.route(die("sim", 2, 1.3)).accepted.action == Roll("blue-2", (4, 2))


def test_a_die_given_to_a_player_throws_for_that_player_only_and_the_refusal_names_people():
    t = outrage_who_starts({"die:pixels-1/0": "blue-2"})
    t.route(die("sim", 1, 1.0))
    t.route(die("sim", 2, 1.1, index=1))  # Ann has thrown: only Bob throws now
    assert t.route(die("pixels-1", 3, 5.0)).collecting == (3,)
    assert t.route(die("sim", 4, 5.1)).accepted.action == Roll("blue-2", (3, 4))
    # Later Ann's turn: Bob's die is refused, in names.
    while "red-1" not in t.prompt.actors or "roll" not in str(t.prompt):
        t.submit(t.game.sample(t._state) or next(iter(t.game.legal_actions(t._state))))
    r = t.route(die("pixels-1", 3, 50.0))
    assert r.rejected is not None and r.rejected.code == "die-wrong-seat"
    assert "Player 1's" in r.rejected.message and "Player 0's throw" in r.rejected.message
    no_device_ids(r.rejected.message)


def test_the_tables_keypad_enters_the_throw_of_the_seat_in_turn():
    t = outrage_who_starts()
    assert t.route(KeypadValue(device="gpio", value=6, t=1.0)).collecting == (6,)
    assert t.route(KeypadValue(device="gpio", value=5, t=1.5)).accepted.action == Roll("red-1", (6, 5))


# ---------------------------------------------------------------- an engine's own dice

def view(prompt: Prompt, seats=("a", "b")) -> RouteView:
    return RouteView(prompt=prompt, seats=seats, names={"a": "Ann", "b": "Bob"}, title="Test", ply=0, over=False,
                     legal_of_kind=lambda kind: (), check=lambda action: (), action_types=(), sample=lambda: None,
                     undo_refusal=lambda: None)


BOBS_DIE = Prompt.single("a", RollRequest((Die(6, owner="b"),), "reroll Bob's die"))


@pytest.mark.parametrize("devices, verdict", [
    ({}, "a"),                                  # Bob has no die of his own: the table's throws it
    ({"die:hub1/1": "b"}, "die-wrong-seat"),    # Bob has his own: the table's die is not his
    ({"die:sim/0": "a"}, "die-wrong-seat"),     # Ann's die is not Bob's
])
def test_a_die_the_engine_says_is_a_seats_is_thrown_with_that_seats_die(devices, verdict):
    routed = Router(devices, {}).route(die("sim", 4, 1.0), view(BOBS_DIE))
    if verdict == "a":
        assert routed.action == Roll("a", (4,))
    else:
        r = routed.result.rejected
        assert r is not None and r.code == verdict and "Bob" in r.message, routed
        no_device_ids(r.message)


def test_pool_dice_are_the_tables():
    pool = Prompt.single("b", RollRequest((Die(6, owner="pool"),) * 2, "the city"))
    r = Router({"die:hub1/1": "a"}, {})
    assert r.route(die("sim", 4, 1.0), view(pool)).result.collecting == (4,)
    assert r.route(die("sim", 2, 1.1, index=1), view(pool)).action == Roll("b", (4, 2))


def test_in_turn_puts_the_seat_being_collected_first():
    assert in_turn({"b", "a"}, ("a", "b")) == ("a", "b")
    assert in_turn({"b", "a"}, ("a", "b"), collecting="b") == ("b", "a")


def test_a_throw_entered_by_hand_drops_the_dice_collected_for_it():
    # Ann's first die came to rest, then the table entered her throw by hand: the next
    # throw of hers starts afresh instead of being refused as a throw that took too long.
    t = outrage_who_starts()
    assert t.route(die("sim", 3, 1.0)).collecting == (3,)
    t.submit(Roll("red-1", (6, 6)))
    t.submit(Roll("blue-2", (1, 2)))
    while not (isinstance(t.prompt.of("red-1"), RollRequest) and t.prompt.of("red-1").count == 2):
        t.submit(t.game.sample(t._state))
    r = t.route(die("sim", 4, 60.0))
    assert r.rejected is None and r.collecting == (4,), r
