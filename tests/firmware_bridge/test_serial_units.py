"""The serial source's pure parts: doctests, back-off, discovery with a fake port list,
the session's rules frame by frame."""
from __future__ import annotations

import doctest
import importlib
import json
from types import SimpleNamespace

import pytest

from firmware_bridge import events as E
from firmware_bridge.serial import (Backoff, HubNotFoundError, HubSession, ProtocolVersionError,
                                    find_hub, find_hubs, hub_ids, list_ports)
from firmware_bridge.serial.discovery import _parse_ids
from firmware_bridge.shared import codec

MODULES = ["firmware_bridge.errors", "firmware_bridge.__main__"] + ["firmware_bridge.serial." + m for m in (
    "backoff", "counters", "discovery", "errors", "messages", "session", "connection")]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_layer_imports_no_game_code() -> None:
    import subprocess
    import sys

    code = ("import sys, firmware_bridge.serial, firmware_bridge.__main__; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('rules', 'companion', 'kivy')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def _port(device: str, vid: int | None = None, pid: int | None = None, sn: str | None = None):
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=sn, description="d",
                           manufacturer=None, product=None, location=None)


PORTS = [_port("/dev/ttyS0"), _port("/dev/ttyACM1", 0x2E8A, 0x0005, "E66038B7134F2A2B"),
         _port("/dev/ttyACM0", 0x2E8A, 0x0005, "E660AAAA00000001"),
         _port("/dev/ttyUSB0", 0x10C4, 0xEA60, "0001"), _port("/dev/ttyUSB1", 0x0403, 0x6001, "FT1")]


def test_discovery_by_vid_pid_and_serial_number() -> None:
    comports = lambda: PORTS  # noqa: E731
    assert [p.device for p in list_ports(comports)][0] == "/dev/ttyACM0"
    assert [p.device for p in find_hubs(comports=comports)] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0"]
    assert [p.device for p in find_hubs(comports=comports, include_bridges=False)] == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_hub("e66038b7134f2a2b", comports=comports).device == "/dev/ttyACM1"
    with pytest.raises(HubNotFoundError, match="3 hubs found"):
        find_hub(comports=comports)
    with pytest.raises(HubNotFoundError, match="serial number NOPE"):
        find_hub("NOPE", comports=comports)
    with pytest.raises(LookupError):
        find_hub(comports=lambda: [])


def test_hub_id_file_is_the_documented_one() -> None:
    ids = {h.usb_id: h.kind for h in hub_ids()}
    assert ids["2E8A:0005"] == "native"  # hardware/README.md: the Pico shows 2E8A:0005
    with pytest.raises(ValueError):
        _parse_ids({"format": "tabletop-companion hub usb ids 1", "ids": [{"vid": "zz"}]})
    with pytest.raises(ValueError):
        _parse_ids(json.loads('{"format": "other"}'))


def test_list_ports_on_this_machine_does_not_fail() -> None:
    for p in list_ports():
        assert p.device


def test_back_off_validation() -> None:
    with pytest.raises(ValueError):
        Backoff(first=2.0, limit=1.0)


# -- the session, frame by frame --------------------------------------------------------

def _f(kind: int, seq: int, src: int = codec.SRC_HUB, payload: bytes = b"") -> codec.Frame:
    return codec.Frame(kind, seq, src, payload)


def _ident(boot: int = 1, major: int = codec.PROTOCOL_MAJOR, faces=(6,)) -> bytes:
    return codec.pack_ident("0.1.0", b"12345678", boot, 31, list(faces), major=major,
                            tokens=8, buttons=4)


def test_session_counts_gaps_modulo_256_and_wants_a_resync() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 250, payload=_ident()), 0.0)
    s.resync_sent()
    s.push(_f(codec.HEARTBEAT, 251, payload=codec.pack_heartbeat(0, [])), 0.0)
    assert not s.wants_resync
    s.push(_f(codec.HEARTBEAT, 3, payload=codec.pack_heartbeat(0, [])), 0.0)  # 252..2 lost
    assert s.tally.value().frames_lost == 7 and s.wants_resync


def test_session_reconnect_does_not_count_the_dead_time_as_lost() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    s.connected()
    out = s.push(_f(codec.IDENT, 90, payload=_ident()), 1.0)
    assert [type(e) for e in out] == [E.DeviceOnline]  # announced again on the new link
    assert s.tally.value().frames_lost == 0


def test_session_roll_counter_wraps_and_jumps_count_missed_rolls() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    roll = lambda seq, c: _f(codec.ROLL_STATE, seq, 0, codec.pack_roll_state(5, 0, 1000, 0, c))  # noqa: E731
    assert [e.counter for e in s.push(roll(1, 65535), 0.0)] == [65535]
    assert [e.counter for e in s.push(roll(2, 0), 0.0)] == [0]  # wrapped: newer
    assert s.push(roll(3, 65535), 0.0) == []  # older: a duplicate
    s.resync_sent()
    # 1 and 2 never arrived: 3 waits for the replay the session asks for.
    assert s.push(roll(4, 3), 0.0) == [] and s.wants_resync
    replay = lambda seq, c: _f(codec.REPLAY, seq, 0, codec.pack_roll_state(5, 0, 1000, 0, c))  # noqa: E731
    # The hub's queue had lost 1 (more throws than it keeps): exactly one throw missed.
    out = s.push(replay(5, 2), 0.0) + s.push(replay(6, 3), 0.0)
    assert [(type(e).__name__, e.counter) for e in out] == [
        ("ThrowsMissed", 2), ("DieRolled", 2), ("DieRolled", 3)]
    assert out[0].count == 1 and out[0].source == "die:h/0"  # type: ignore[union-attr]
    v = s.tally.value()
    assert v.duplicates == 1 and v.rolls_missed == 1


def test_a_held_result_asks_again_when_its_resync_is_lost() -> None:
    """A live result whose counter skipped waits for the replay; if the REQUEST_STATE
    (or its answer) is lost, the session asks again after two heartbeats, and stops
    asking once a SNAPSHOT came."""
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    s.push(_f(codec.SNAPSHOT, 1, payload=codec.pack_snapshot(0, [(1, 0, 1000, 1, 0, True)], 0, 0)), 0.0)
    s.resync_sent()
    beat = lambda seq: _f(codec.HEARTBEAT, seq, payload=codec.pack_heartbeat(0, []))  # noqa: E731
    assert s.push(_f(codec.ROLL_STATE, 2, 0, codec.pack_roll_state(1, 3, 990, 0, 3)), 0.0) == []
    assert s.wants_resync
    s.resync_sent()  # ... and the request is lost on the line
    s.push(beat(3), 0.0)
    assert not s.wants_resync
    s.push(beat(4), 0.0)
    assert s.wants_resync
    s.resync_sent()
    out = []
    for seq, c in ((5, 2), (6, 3)):
        out += s.push(_f(codec.REPLAY, seq, 0, codec.pack_roll_state(1, c, 990, 0, c)), 0.0)
    out += s.push(_f(codec.SNAPSHOT, 7, payload=codec.pack_snapshot(0, [(1, 3, 990, 3, 0, True)], 0, 0)), 0.0)
    assert [(e.counter, e.value) for e in out] == [(2, 3), (3, 4)]
    s.push(beat(8), 0.0)
    s.push(beat(9), 0.0)
    s.push(beat(10), 0.0)
    assert not s.wants_resync


def test_inputs_the_ident_did_not_announce_are_dropped_and_counted() -> None:
    """"die 200" on a two-die hub, token slot 9 on an eight-slot one, button 4 of four,
    a snapshot with a third die and bits past the bank: no event, one unknown_inputs
    each, and the announced inputs still work."""
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident(faces=(6, 6))), 0.0)
    snap = codec.pack_snapshot(0, [(5, 0, 1000, 0, 0, True)] * 2, 0, 0)
    s.push(_f(codec.SNAPSHOT, 1, payload=snap), 0.0)
    assert s.push(_f(codec.ROLL_STATE, 2, 200, codec.pack_roll_state(1, 3, 990, 0, 1)), 0.0) == []
    assert s.push(_f(codec.ROLL_STATE, 3, 2, codec.pack_roll_state(3, 0, 0, 0, 1)), 0.0) == []
    assert s.push(_f(codec.REPLAY, 4, 2, codec.pack_roll_state(1, 3, 990, 0, 1)), 0.0) == []
    assert s.push(_f(codec.TOKEN, 5, codec.SRC_TOKENS, codec.pack_switch(9, True, 1 << 9, 0, 1)), 0.0) == []
    assert s.push(_f(codec.BUTTON, 6, codec.SRC_BUTTONS, codec.pack_switch(4, True, 1 << 4, 0, 1)), 0.0) == []
    snap3 = codec.pack_snapshot(0, [(5, 0, 1000, 0, 0, True)] * 2 + [(1, 3, 990, 7, 0, True)],
                                0b1_0000_0001, 0)
    out = s.push(_f(codec.SNAPSHOT, 7, payload=snap3), 0.0)
    assert [(type(e).__name__, getattr(e, "slot", None)) for e in out] == [("TokenPlaced", 0)]
    assert s.tally.value().unknown_inputs == 7
    out = s.push(_f(codec.ROLL_STATE, 8, 1, codec.pack_roll_state(1, 3, 990, 0, 1)), 0.0)
    assert [(e.die, e.value) for e in out] == [(1, 4)]
    assert s.tally.value().unknown_inputs == 7


def test_session_bad_payloads_are_counted_not_raised() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident(faces=(6,))), 0.0)
    assert s.push(_f(codec.ROLL_STATE, 1, 0, b"\x01"), 0.0) == []  # short
    assert s.push(_f(codec.ROLL_STATE, 2, 0, codec.pack_roll_state(1, 9, 990, 0, 1)), 0.0) == []  # face 10 on a d6
    assert s.tally.value().frames_bad == 2


def test_session_ident_of_another_major_raises() -> None:
    s = HubSession("h")
    with pytest.raises(ProtocolVersionError):
        s.push(_f(codec.IDENT, 0, payload=_ident(major=3)), 0.0)
    with pytest.raises(ProtocolVersionError):
        s.push(_f(codec.IDENT, 0, payload=b"\x03"), 0.0)  # even a short one names its major


def test_session_ignores_our_own_commands_echoed_back() -> None:
    s = HubSession("h")
    assert s.push(_f(codec.HELLO, 0), 0.0) == []
    assert s.tally.value().frames_lost == 0


def test_session_token_change_already_known_from_a_snapshot_is_a_duplicate() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    s.push(_f(codec.SNAPSHOT, 1, payload=codec.pack_snapshot(0, [(0, 0, 0, 0, 0, True)], 0, 0)), 0.0)
    out = s.push(_f(codec.SNAPSHOT, 2, payload=codec.pack_snapshot(0, [(0, 0, 0, 0, 0, True)], 0b101, 0)), 0.0)
    assert sorted(e.slot for e in out) == [0, 2]
    assert s.push(_f(codec.TOKEN, 3, codec.SRC_TOKENS, codec.pack_switch(2, True, 0b101, 0, 2)), 0.0) == []
    assert s.tally.value().duplicates == 1
    out = s.push(_f(codec.TOKEN, 4, codec.SRC_TOKENS, codec.pack_switch(0, False, 0b100, 0, 3)), 0.0)
    assert [(type(e).__name__, e.slot, e.counter) for e in out] == [("TokenRemoved", 0, 3)]


def test_session_boot_settle_with_counter_zero_is_no_roll() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    assert s.push(_f(codec.ROLL_STATE, 1, 0, codec.pack_roll_state(5, 2, 1000, 0, 0)), 0.0) == []
    out = s.push(_f(codec.ROLL_STATE, 2, 0, codec.pack_roll_state(1, 2, 1000, 0, 1)), 0.0)
    assert [(e.outcome, e.counter) for e in out] == [("rolled", 1)]


def test_session_a_repeated_frame_is_no_loss_but_a_renumbered_hub_is_followed() -> None:
    s = HubSession("h")
    hb = codec.pack_heartbeat(0, [])
    s.push(_f(codec.IDENT, 0, payload=_ident()), 0.0)
    for seq in (1, 2, 3, 2, 4):  # 2 again: a repeat
        s.push(_f(codec.HEARTBEAT, seq, payload=hb), 0.0)
    assert s.tally.value().frames_lost == 0
    s.resync_sent()
    for seq in (0, 1, 2, 3):  # the hub restarted its numbering without an IDENT we saw
        s.push(_f(codec.HEARTBEAT, seq, payload=hb), 0.0)
    assert s.wants_resync and s.tally.value().frames_lost == 0
    s.push(_f(codec.HEARTBEAT, 5, payload=hb), 0.0)
    assert s.tally.value().frames_lost == 1  # followed: 4 is missing


# -- whatever a hub sends, the session never raises (but for another protocol major) ----

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_KINDS = [codec.IDENT, codec.ROLL_STATE, codec.REPLAY, codec.TOKEN, codec.BUTTON, codec.HEARTBEAT, codec.BATTERY,
          codec.SNAPSHOT, codec.TELEMETRY, codec.LOG, codec.ACK, codec.HELLO, 0x42]
_frames = st.lists(st.tuples(st.sampled_from(_KINDS), st.integers(0, 255), st.integers(0, 255),
                             st.binary(max_size=codec.MAX_PAYLOAD)), max_size=40)


@given(_frames)
def test_session_survives_any_frames(frames) -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident(faces=(6, 20))), 0.0)
    for kind, seq, src, payload in frames:
        if kind == codec.IDENT and payload[:1] not in (b"", bytes([codec.PROTOCOL_MAJOR])):
            with pytest.raises(ProtocolVersionError):
                s.push(_f(kind, seq, src, payload), 1.0)
            continue
        for e in s.push(_f(kind, seq, src, payload), 1.0):
            assert E.parse_event(e.to_dict()) == e  # every event is a valid one
    keys = [k for k in s._delivered]
    assert len(keys) == len(set(keys))


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 65535)), max_size=60))
def test_session_never_delivers_a_roll_key_twice(rolls) -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident(faces=(6, 6))), 0.0)
    seen = []
    for seq, (die, counter) in enumerate(rolls, start=1):
        seen += s.push(_f(codec.ROLL_STATE, seq & 0xFF, die, codec.pack_roll_state(1, 0, 1000, 0, counter)), 0.0)
    keys = [e.key for e in seen]
    assert len(keys) == len(set(keys))


def test_session_snapshot_with_one_impossible_die_still_updates_the_rest() -> None:
    s = HubSession("h")
    s.push(_f(codec.IDENT, 0, payload=_ident(faces=(6, 6))), 0.0)
    s.push(_f(codec.SNAPSHOT, 1, payload=codec.pack_snapshot(0, [(0, 0, 0, 0, 0, True)] * 2, 0, 0)), 0.0)
    snap = codec.pack_snapshot(0, [(1, 9, 990, 1, 0, True), (1, 2, 990, 1, 0, True)], 0b1, 0)
    out = s.push(_f(codec.SNAPSHOT, 2, payload=snap), 0.0)
    assert [(type(e).__name__, getattr(e, "die", None)) for e in out] == [("DieRolled", 1), ("TokenPlaced", None)]
    assert s.tally.value().frames_bad == 1 and s.tokens == 1
