"""firmware_bridge.events: round trips through dicts and JSON, source strings, field checks."""
from __future__ import annotations

import dataclasses
import doctest
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import events as ev

EXAMPLES: list[ev.Event] = [
    ev.DeviceOnline(device="hub1", kind="hub", uid="e66038b7134f2a2b", boot_id=7,
                    firmware="0.1.0", protocol="1.0", faces=(6, 6), t=1.0),
    ev.DeviceOffline(device="hub1", reason="unplugged", t=2.0),
    ev.DieMotion(device="hub1", die=1, state="handling", counter=4, boot_id=7, t=3.0),
    ev.DieRolled(device="hub1", die=1, value=6, outcome="crooked", confidence=0.87,
                 counter=4, boot_id=7, t=3.5),
    ev.DieRolled(device="sim", die=0, value=20, outcome="onFace", confidence=1.0,
                 counter=None, faces=20, t=3.5),
    ev.TokenPlaced(device="gpio", slot=3, t=4.0),
    ev.TokenRemoved(device="hub1", slot=0, counter=65535, t=4.1),
    ev.ButtonPressed(device="gpio", button="end-turn", t=5.0),
    ev.ButtonHeld(device="gpio", button="seat-2", t=6.0),
    ev.ButtonReleased(device="hub1", button="3", counter=9, t=6.5),
    ev.KeypadValue(device="gpio", value=6, t=7.0),
    ev.KeypadValue(device="gpio", value=1, seat=0, counter=2, t=7.0),
    ev.BatteryLevel(device="hub1", percent=55, millivolts=3800, t=8.0),
    ev.ThrowsMissed(device="hub1", die=1, count=3, counter=44, boot_id=7, t=9.0),
]

SOURCES = [
    "device:hub1", "device:hub1", "die:hub1/1", "die:hub1/1", "die:sim/0", "slot:gpio/3",
    "slot:hub1/0", "button:gpio/end-turn", "button:gpio/seat-2", "button:hub1/3",
    "keypad:gpio", "keypad:gpio/0", "battery:hub1", "die:hub1/1",
]


def test_every_event_type_has_an_example() -> None:
    assert {type(e).__name__ for e in EXAMPLES} == set(ev.EVENT_TYPES)


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: type(e).__name__)
def test_round_trip_through_json(event: ev.Event) -> None:
    data = json.loads(json.dumps(event.to_dict()))
    back = ev.parse_event(data)
    assert back == event and type(back) is type(event)
    assert type(event).from_dict(data) == event


def test_source_strings_are_stable() -> None:
    assert [e.source for e in EXAMPLES] == SOURCES


def test_events_are_frozen_slotted_and_hashable() -> None:
    e = EXAMPLES[3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.value = 1  # type: ignore[misc]
    assert not hasattr(e, "__dict__")
    assert len({e, dataclasses.replace(e)}) == 1


def test_duplicate_rolls_share_a_key_and_different_boots_do_not() -> None:
    a = EXAMPLES[3]
    resent = dataclasses.replace(a, t=a.t + 0.2)
    rebooted = dataclasses.replace(a, boot_id=8)
    assert a.key == resent.key
    assert a.key != rebooted.key


def test_unknown_keys_are_ignored_missing_ones_rejected() -> None:
    data = EXAMPLES[5].to_dict() | {"added_in_v2": 1}
    assert ev.parse_event(data) == EXAMPLES[5]
    del data["slot"]
    with pytest.raises(ev.EventError, match="slot"):
        ev.parse_event(data)


@pytest.mark.parametrize("bad", [
    {"type": 3}, {}, {"type": "Event"}, {"type": "_SlotEvent", "device": "x", "slot": 1, "t": 0},
])
def test_not_an_event(bad: dict) -> None:
    with pytest.raises(ev.EventError):
        ev.parse_event(bad)


def test_from_dict_of_the_wrong_class() -> None:
    with pytest.raises(ev.EventError, match="expected a TokenRemoved"):
        ev.TokenRemoved.from_dict(EXAMPLES[5].to_dict())


@pytest.mark.parametrize("make", [
    lambda: ev.DieRolled(device="d", die=0, value=0, outcome="rolled", confidence=1.0, counter=1, t=0),
    lambda: ev.DieRolled(device="d", die=0, value=3, outcome="landed", confidence=1.0, counter=1, t=0),
    lambda: ev.DieRolled(device="d", die=0, value=3, outcome="rolled", confidence=1.5, counter=1, t=0),
    lambda: ev.DieRolled(device="d", die=-1, value=3, outcome="rolled", confidence=1.0, counter=1, t=0),
    lambda: ev.DieMotion(device="d", die=0, state="rolled", t=0),
    lambda: ev.TokenPlaced(device="d", slot=1, t=float("nan")),
    lambda: ev.TokenPlaced(device="d", slot=1, counter=-1, t=0),
    lambda: ev.ButtonPressed(device="d", button="", t=0),
    lambda: ev.ButtonPressed(device="d", button="a/b", t=0),
    lambda: ev.KeypadValue(device="d", value=0, t=0),
    lambda: ev.KeypadValue(device="d", value=True, t=0),
    lambda: ev.BatteryLevel(device="d", percent=101, t=0),
    lambda: ev.DeviceOnline(device="d", kind="", t=0),
    lambda: ev.DeviceOffline(device="", reason="closed", t=0),
    lambda: ev.TokenPlaced(device="hub/1", slot=0, t=0),
    lambda: ev.BatteryLevel(device=None, percent=5, t=0),  # type: ignore[arg-type]
])
def test_impossible_values_are_rejected(make) -> None:
    with pytest.raises(ev.EventError) as info:
        make()
    assert isinstance(info.value, ValueError)


@given(device=st.text(min_size=1, max_size=8).filter(lambda s: "/" not in s),
       die=st.integers(0, 15), faces=st.integers(2, 100), data=st.data(),
       counter=st.one_of(st.none(), st.integers(0, 65535)),
       t=st.floats(0, 1e9, allow_nan=False))
def test_roll_round_trip_property(device: str, die: int, faces: int, data: st.DataObject,
                                  counter: int | None, t: float) -> None:
    e = ev.DieRolled(device=device, die=die, faces=faces,
                     value=data.draw(st.integers(1, faces)),
                     outcome=data.draw(st.sampled_from(ev.ROLL_OUTCOMES)),
                     confidence=data.draw(st.floats(-1, 1)), counter=counter, t=t)
    assert ev.parse_event(json.loads(json.dumps(e.to_dict()))) == e
    assert e.source == "die:%s/%d" % (device, die)


def test_doctests() -> None:
    result = doctest.testmod(ev, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
