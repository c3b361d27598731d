"""BleDiceSource on bleak's real front end over a fake radio (``firmware_bridge.ble.fake``):
fake Pixels and GoDice speaking the real byte protocols. Notifications, writes and their
replies, disconnects, reboots, a legacy Pixel, a refused Pixel, a GoDice in the wrong
shell, a die held by another host."""
from __future__ import annotations

import pytest

from firmware_bridge import events as E
from firmware_bridge.ble.errors import (BleBridgeError, ConnectionClosedError, DieNotFoundError,
                                        PixelsApiVersionError, WrongDieError)
from firmware_bridge.ble.fake import FakeGoDice, FakePixel

from .ble_helpers import WAIT, drain, online, radio, rolls, settled, source, take  # noqa: F401

PX = "C0:FF:EE:00:00:01"
GD = "C0:FF:EE:00:00:02"


# -- Pixels -----------------------------------------------------------------------------

def test_pixel_connects_identifies_asks_its_state_and_rolls(radio, source):
    px = radio.add(FakePixel(PX, pixel_id=0xCAFE0001, die_type="d20", face=5, battery=64))
    dev = source.add_pixel(PX, device="px1")
    hello = online(source, dev)
    assert (hello.kind, hello.uid, hello.faces, hello.protocol) == ("pixels", "cafe0001", (20,), "pixels 1.0")
    first = settled(source, px, 1)
    assert px.writes[:2] == [b"\x01", b"\x17"]  # WhoAreYou, then RequestRollState
    assert [e.percent for e in first if isinstance(e, E.BatteryLevel)] == [64]
    assert rolls(first) == []  # where the die lies at connect is state, not news
    px.roll(17)
    seen: list = []
    r = take(source, lambda e: isinstance(e, E.DieRolled), seen=seen)
    assert [e.state for e in seen if isinstance(e, E.DieMotion)] == ["handling", "rolling"]
    assert (r.value, r.outcome, r.faces, r.counter, r.source) == (17, "rolled", 20, 1, "die:px1/0")
    assert source.status(dev).label == "17"


def test_only_rolled_is_a_roll_handling_and_on_face_are_motion(radio, source):
    px = radio.add(FakePixel(PX, die_type="d6", face=1))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    px.turn(4)
    out = drain(source)
    assert rolls(out) == []
    assert [e.state for e in out if isinstance(e, E.DieMotion)] == ["handling", "handling"]
    px.roll(4)  # thrown onto the face it was turned to: a roll all the same
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 4
    assert source.status(dev).value == 4


def test_crooked_is_flagged_and_old_six_led_firmware_is_read_flat(radio, source):
    px = radio.add(FakePixel(PX, die_type="d20"))
    source.add_pixel(PX)
    settled(source, px, 1)
    px.roll(9, crooked=True)
    r = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (r.outcome, r.value, r.confidence) == ("crooked", 9, 0.0)
    old = radio.add(FakePixel("C0:FF:EE:00:00:09", pixel_id=9, die_type="d6",
                              build_timestamp=1710000000))
    source.add_pixel(old.address)
    settled(source, old, 1)
    old.roll(3, crooked=True)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).outcome == "rolled"


def test_a_legacy_layout_pixel(radio, source):
    px = radio.add(FakePixel(PX, pixel_id=0x0BADF00D, die_type="d12", legacy=True, face=7))
    dev = source.add_pixel(PX)
    hello = online(source, dev)
    assert (hello.uid, hello.protocol, hello.faces) == ("0badf00d", "pixels 1.0 (legacy)", (12,))
    settled(source, px, 1)
    px.roll(11)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 11


def test_an_incompatible_api_is_refused_with_the_fix_named(radio, source):
    px = radio.add(FakePixel(PX, api=0x200, compat=0x200))
    dev = source.add_pixel(PX)
    assert px.wait_for(lambda p: p.connections >= 2, WAIT)  # refused, and tried again
    assert not source.is_online(dev)
    assert isinstance(source.last_error(dev), PixelsApiVersionError)
    assert "update the app" in source.status(dev).warning
    assert source.counters(dev).refused >= 1
    assert not any(isinstance(e, E.DeviceOnline) for e in drain(source))


def test_a_reconnect_landing_on_another_pixel_is_refused(radio, source):
    mine = radio.add(FakePixel(PX, pixel_id=0x11111111))
    dev = source.add_pixel(PX)
    settled(source, mine, 1)
    radio.remove(PX)
    other = radio.add(FakePixel(PX, pixel_id=0x22222222))  # same address, another die
    take(source, lambda e: isinstance(e, E.DeviceOffline))
    assert other.wait_for(lambda p: p.connections >= 2, WAIT)
    err = source.last_error(dev)
    assert isinstance(err, WrongDieError) and "22222222" in str(err)
    assert not source.is_online(dev)
    radio.remove(PX)
    radio.add(mine)
    assert online(source, dev).uid == "11111111"


def test_a_roll_made_while_away_is_reported_after_the_reconnect(radio, source):
    px = radio.add(FakePixel(PX, die_type="d20", face=5))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    px.drop()
    px.roll(12)  # nobody hears it
    assert take(source, lambda e: isinstance(e, E.DeviceOffline)).reason == "disconnected"
    out = settled(source, px, 2)
    assert rolls(out) == [("rolled", 12)]
    # the same face again while away: the die's report repeats what we know
    px.drop()
    out = settled(source, px, 3)
    assert rolls(out) == [] and source.counters(dev).duplicates == 1
    assert source.counters(dev).reconnects == 2


def test_a_drop_mid_throw_delivers_the_throw_even_on_the_same_face(radio, source):
    px = radio.add(FakePixel(PX, die_type="d6", face=2))
    source.add_pixel(PX)
    settled(source, px, 1)
    px.roll(2, drop_after="rolling")
    out = settled(source, px, 2)
    assert rolls(out) == [("rolled", 2)]


def test_a_die_that_reboots(radio, source):
    px = radio.add(FakePixel(PX, die_type="d8", face=3))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    px.roll(6)
    take(source, lambda e: isinstance(e, E.DieRolled))
    px.reboot()
    out = settled(source, px, 2)
    kinds = [type(e).__name__ for e in out]
    assert "DeviceOffline" in kinds and "DeviceOnline" in kinds
    assert rolls(out) == []  # back on the face it rolled: nothing new
    px.roll(1)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).counter == 2  # never reused
    assert source.counters(dev).rolls == 2


def test_blink_battery_and_low_battery(radio, source):
    px = radio.add(FakePixel(PX))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    source.blink(dev)
    assert px.blinks == 1
    px.set_battery(9, "low")
    assert take(source, lambda e: isinstance(e, E.BatteryLevel)).percent == 9
    source.barrier()
    assert source.status(dev).battery_low
    px.set_battery(90, "charging")
    take(source, lambda e: isinstance(e, E.BatteryLevel))
    source.barrier()
    st = source.status(dev)
    assert st.charging and not st.battery_low


def test_a_die_held_by_another_host_is_reported_plainly(radio, source):
    px = radio.add(FakePixel(PX))
    px.other_host = True
    dev = source.add_pixel(PX, name="Red d20")
    err = None
    for _ in range(200):
        err = source.last_error(dev)
        if err is not None:
            break
        source.barrier()
    assert isinstance(err, DieNotFoundError) and isinstance(err, LookupError)
    assert "connected to another phone or app" in source.status(dev).warning
    assert "Red d20" in str(err)
    assert [d.address for d in source.scan(0.01)] == []  # not advertising: not listed
    px.other_host = False
    online(source, dev)
    assert source.status(dev).warning == ""


def test_scan_lists_dice_with_type_and_name(radio, source):
    radio.add(FakePixel(PX, pixel_id=0xABCDEF01, die_type="d10", face=10, name="Blue d10"))
    radio.add(FakeGoDice(GD))
    found = {d.kind: d for d in source.scan(0.01)}
    assert (found["pixels"].name, found["pixels"].die_type, found["pixels"].uid, found["pixels"].face) == (
        "Blue d10", "d10", "abcdef01", "0")
    assert found["godice"].name.startswith("GoDice_")


def test_malformed_notifications_are_dropped_and_counted(radio, source):
    px = radio.add(FakePixel(PX, die_type="d20"))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    px.notify(b"\x03\x01")          # RollState cut short
    px.notify(b"\x03\x01\x63")      # face index 99 on a d20
    px.notify(b"\x02\x20\x01")      # an IAmADie whose first chunk (32 bytes) is not there
    px.roll(20)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 20
    c = source.counters(dev)
    assert c.bad_messages == 3 and dict(c.bad_reasons) == {"short": 1, "face": 1, "chunk": 1}


def test_close_says_closed_and_commands_after_it_refuse(radio, source):
    px = radio.add(FakePixel(PX))
    dev = source.add_pixel(PX)
    settled(source, px, 1)
    source.close()
    out = drain_after_close(source)
    assert out[-1] == E.DeviceOffline(device=dev, reason="closed", t=out[-1].t)
    with pytest.raises((ConnectionClosedError, KeyError)):
        source.blink(dev)


def drain_after_close(source):
    q = source.queue
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_a_callback_that_raises_is_counted_not_fatal(radio):
    from firmware_bridge.ble.source import BleDiceSource
    got = []

    def handler(e):
        got.append(e)
        if isinstance(e, E.BatteryLevel):
            raise RuntimeError("a bug in the app")

    px = radio.add(FakePixel(PX))
    s = BleDiceSource(handler, factory=radio.factory(), backoff_first=0.005, backoff_limit=0.02)
    try:
        dev = s.add_pixel(PX)
        assert px.wait_for(lambda p: b"\x17" in p.writes, WAIT)
        px.roll(3)
        for _ in range(200):
            s.barrier()
            if any(isinstance(e, E.DieRolled) for e in got):
                break
        assert any(isinstance(e, E.DieRolled) for e in got)
        assert s.counters(dev).callback_errors == 1
    finally:
        s.close()


# -- GoDice -----------------------------------------------------------------------------

def test_godice_rolls_and_what_is_not_a_roll(radio, source):
    gd = radio.add(FakeGoDice(GD, shell="D6", face=3, battery=70))
    dev = source.add_godice(GD, shell="D6", device="gd1")
    hello = online(source, dev)
    assert (hello.kind, hello.faces) == ("godice", (6,))
    first = settled(source, gd, 1)  # the init message: Bat, the face it lies on, Char
    assert rolls(first) == [] and [e.percent for e in first if isinstance(e, E.BatteryLevel)] == [70]
    gd.roll(4)
    r = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (r.value, r.outcome, r.confidence, r.source) == (4, "rolled", 1.0, "die:gd1/0")
    gd.turn(2)       # MS: turned by hand
    gd.fake_roll(5)  # FS: a fake roll
    out = drain(source)
    assert rolls(out) == []
    assert [e.state for e in out if isinstance(e, E.DieMotion)] == ["handling", "rolling", "handling"]
    assert source.status(dev).value == 5
    gd.roll(6, tilted=True)  # TS: at rest, not flat: re-roll or accept
    r = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (r.outcome, r.value) == ("crooked", 6) and r.confidence < 0.97
    source.blink(dev)
    assert gd.wait_for(lambda p: p.pulses == 1, WAIT)
    assert source.status(dev).color == "blue"


def test_godice_after_a_reconnect_uses_the_init_report(radio, source):
    gd = radio.add(FakeGoDice(GD, shell="D20", face=7))
    dev = source.add_godice(GD, shell="D20")
    settled(source, gd, 1)
    gd.drop()
    out = settled(source, gd, 2)  # lying where it was: nothing
    assert rolls(out) == [] and not [e for e in out if isinstance(e, E.ThrowsMissed)]
    gd.drop()
    gd.face = 13  # thrown or turned while away: the die cannot say which
    out = settled(source, gd, 3)
    missed = [e for e in out if isinstance(e, E.ThrowsMissed)]
    assert rolls(out) == [] and len(missed) == 1 and missed[0].count == 1
    gd.roll(19, drop_after_start=True)  # R heard, then the link dropped before S
    out = settled(source, gd, 4)
    assert rolls(out) == [("rolled", 19)]
    assert source.counters(dev).changed_while_away == 1


def test_a_godice_in_the_wrong_shell(radio, source):
    gd = radio.add(FakeGoDice(GD, shell="D20", face=1))  # wears a D20 shell ...
    dev = source.add_godice(GD, shell="D6")                # ... the panel says D6
    settled(source, gd, 1)
    gd.roll(2)  # face 2 of the D20 table fits no D6 face
    out = drain(source)
    assert rolls(out) == []
    assert source.counters(dev).wrong_shell >= 1
    assert "reads like a D20" in source.status(dev).warning
    source.set_shell(dev, "D20")
    gd.roll(14)
    r = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (r.value, r.faces) == (14, 20)
    assert source.status(dev).warning == ""


def test_godice_malformed_notifications_are_dropped(radio, source):
    gd = radio.add(FakeGoDice(GD))
    dev = source.add_godice(GD)
    settled(source, gd, 1)
    for junk in (b"S\x40", b"Bat\xc8", b"Col\x09", b"\xff\xfe", b""):
        gd.notify(junk)
    gd.roll(5)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 5
    assert source.counters(dev).bad_messages == 5


def test_errors_are_bridge_errors():
    assert issubclass(DieNotFoundError, BleBridgeError)
    assert issubclass(WrongDieError, BleBridgeError)


def test_status_changes_reach_on_status(radio):
    from firmware_bridge.ble.source import BleDiceSource
    seen = []
    gd = radio.add(FakeGoDice(GD, shell="D20", face=1))
    s = BleDiceSource(None, factory=radio.factory(), on_status=seen.append,
                      backoff_first=0.005, backoff_limit=0.02)
    try:
        dev = s.add_godice(GD, shell="D6")
        assert gd.wait_for(lambda p: any(w[:1] == b"\x19" for w in p.writes), WAIT)
        gd.roll(2)
        gd.set_battery(12)
        for _ in range(200):
            s.barrier()
            if seen and seen[-1].battery == 12:
                break
        assert any(st.online for st in seen)
        assert any("reads like a D20" in st.warning for st in seen)
        assert seen[-1].battery == 12 and seen[-1].battery_low and seen[-1].device == dev
    finally:
        s.close()


def _first_error(s, dev):
    for _ in range(500):
        err = s.last_error(dev)
        if err is not None:
            return err
        s.barrier()
    return None


def test_no_bluetooth_here_is_a_plain_unavailable_error():
    from bleak.exc import BleakBluetoothNotAvailableError, BleakBluetoothNotAvailableReason

    from firmware_bridge.ble.errors import BleUnavailableError
    from firmware_bridge.ble.source import BleDiceSource

    class NoRadio:
        async def connect(self):
            raise BleakBluetoothNotAvailableError("no Bluetooth adapter found",
                                                  BleakBluetoothNotAvailableReason.NO_BLUETOOTH)

        async def disconnect(self):
            return None

    class NoRadioFactory:
        def client(self, address, *, disconnected_callback, timeout):
            return NoRadio()

        def scanner(self, detection_callback, passive=False):
            raise FileNotFoundError(2, "No such file or directory")  # no system D-Bus socket

    s = BleDiceSource(None, factory=NoRadioFactory(), backoff_first=0.005, backoff_limit=0.02)
    try:
        dev = s.add_pixel(PX)
        err = _first_error(s, dev)
        assert isinstance(err, BleUnavailableError) and "no Bluetooth adapter" in str(err)
        assert not s.is_online(dev)
        with pytest.raises(BleUnavailableError, match="cannot be reached"):
            s.scan(0.01)
    finally:
        s.close()


def test_a_device_without_the_dice_service_is_not_a_die(radio, source):
    from firmware_bridge.ble.errors import NotADieError
    from firmware_bridge.ble.fake import FakePeripheral

    class HeartRateBelt(FakePeripheral):
        services = {"0000180d-0000-1000-8000-00805f9b34fb": ["00002a37-0000-1000-8000-00805f9b34fb"]}

        def on_write(self, data):
            pass

    radio.add(HeartRateBelt(PX, "Polar H10"))
    dev = source.add_pixel(PX)
    assert isinstance(_first_error(source, dev), NotADieError)
