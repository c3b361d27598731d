"""HubConnection against a scripted hub on pyserial's loop:// port: handshake, events,
garbage, watchdog, reboot and resync, duplicates, version mismatch, reconnect, commands."""
from __future__ import annotations

import queue
import threading

import pytest

from firmware_bridge import events as E
from firmware_bridge.serial import (Backoff, BridgeError, ConnectionClosedError, Counters,
                                    HandshakeTimeout, HubConnection, PortOpenError,
                                    ProtocolVersionError, WrongHubError)
from firmware_bridge.shared import codec

from .serial_helpers import Collector, FakeClock, HubState, drain, wait_until

FAST = dict(backoff=Backoff(0.01, 0.05), handshake_wait_s=0.1, poll_s=0.01)


def _connect(hub: HubState, **kw) -> tuple[HubConnection, Collector]:
    got = Collector()
    settings = dict(FAST)
    settings.update(kw)
    conn = HubConnection("loop://", got, open_port=hub.open_port, **settings).connect()
    return conn, got


@pytest.fixture()
def hub() -> HubState:
    return HubState()


def _resynced(conn: HubConnection, n: int = 1) -> bool:
    return wait_until(lambda: conn.counters().resyncs >= n)


def test_handshake_announces_the_hub_and_asks_for_its_state(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        online = got.wait_count(E.DeviceOnline, 1)[0]
        assert online.device == "hub1" and online.kind == "hub"
        assert online.boot_id == hub.boot_id and online.faces == (6, 6)
        assert online.uid == "e66038b7134f2a2b" and online.protocol == "2.0"
        assert online.firmware == "0.3.0"
        assert wait_until(lambda: hub.heard(codec.REQUEST_STATE) == 1)
        assert hub.heard(codec.HELLO) >= 1
        assert conn.is_online and conn.ident is not None and conn.ident.boot_id == hub.boot_id
    finally:
        conn.close()
    assert isinstance(got.events[-1], E.DeviceOffline) and got.events[-1].reason == "closed"
    assert not conn.is_running


def test_rolls_tokens_and_buttons_become_events(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        hub.send(codec.ROLL_STATE, 1, codec.pack_roll_state(3, 0, 0, 0, 1))  # rolling
        hub.roll(1, face=4)
        hub.roll(0, face=0, state=4, confidence=850)  # crooked
        hub.token(3, True)
        hub.send(codec.BUTTON, codec.SRC_BUTTONS, codec.pack_switch(1, True, 0b10, 0, 1))
        hub.send(codec.BATTERY, codec.SRC_HUB, codec.pack_battery(3900, 76, False))
        got.wait_count(E.BatteryLevel, 1)
        motion = got.of(E.DieMotion)[0]
        assert (motion.die, motion.state) == (1, "rolling")
        r1, r0 = got.of(E.DieRolled)
        assert (r1.die, r1.value, r1.outcome, r1.counter, r1.boot_id) == (1, 5, "rolled", 1, hub.boot_id)
        assert r1.confidence == pytest.approx(0.99) and r1.source == "die:hub1/1"
        assert (r0.die, r0.value, r0.outcome) == (0, 1, "crooked")
        assert [(e.slot, e.counter) for e in got.of(E.TokenPlaced)] == [(3, 1)]
        assert [e.button for e in got.of(E.ButtonPressed)] == ["1"]
        assert got.of(E.BatteryLevel)[0].percent == 76
        assert conn.tokens() == 0b1000
        c = conn.counters()
        assert c.frames_bad == 0 and c.frames_lost == 0 and c.duplicates == 0
        assert c.frames_good >= 8
    finally:
        conn.close()


def test_queue_delivery_when_no_callback_is_given(hub: HubState) -> None:
    conn = HubConnection("loop://", open_port=hub.open_port, **FAST).connect()
    try:
        assert _resynced(conn)
        hub.roll(0, face=2)
        assert wait_until(lambda: conn.queue.qsize() >= 2)  # type: ignore[union-attr]
    finally:
        conn.close()
    kinds = [type(e).__name__ for e in drain(conn.queue)]  # type: ignore[arg-type]
    assert kinds == ["DeviceOnline", "DieRolled", "DeviceOffline"]


def test_a_given_queue_receives_the_events(hub: HubState) -> None:
    q: queue.Queue = queue.Queue()
    conn = HubConnection("loop://", q, open_port=hub.open_port, **FAST).connect()
    conn.close()
    assert [type(e).__name__ for e in drain(q)] == ["DeviceOnline", "DeviceOffline"]


@pytest.mark.parametrize("junk", [
    b">>> ",  # a REPL prompt
    b'Traceback (most recent call last):\r\n  File "main.py", line 7, in <module>\r\n'
    b"OSError: [Errno 5] EIO\r\nMicroPython v1.27.0 on 2026-01-01; Raspberry Pi Pico\r\n"
    b'Type "help()" for more information.\r\n>>> \x00',
    b"\x03\x03\x04\x00",  # Ctrl-C, Ctrl-D
    b"\xff\xfe\x13\x37\x42\x00",  # line noise
])
def test_garbage_is_dropped_and_counted_without_an_event(hub: HubState, junk: bytes) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        assert wait_until(lambda: conn.counters().frames_good >= 2)  # IDENT, SNAPSHOT
        before = len(got.events)
        hub.raw(junk)
        hub.raw(b"\x00")  # ends the junk, as the next frame's delimiter would
        hub.roll(0, face=5)
        rolled = got.wait_count(E.DieRolled, 1)
        assert rolled[0].value == 6
        assert len(got.events) == before + 1  # the roll, nothing made of the junk
        c = conn.counters()
        assert c.frames_bad >= 1 and c.frames_lost == 0
    finally:
        conn.close()


def test_truncated_and_bit_flipped_frames_are_dropped_lost_and_resynced(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        good = hub.frame(codec.ROLL_STATE, 0, codec.pack_roll_state(1, 2, 990, 0, 7))
        hub.raw(good[: len(good) // 2] + b"\x00")  # truncated
        flipped = bytearray(hub.frame(codec.ROLL_STATE, 0, codec.pack_roll_state(1, 2, 990, 0, 8)))
        flipped[5] ^= 0x10
        hub.raw(bytes(flipped))
        hub.send(codec.HEARTBEAT, codec.SRC_HUB, codec.pack_heartbeat(1000, [1, 2, 3]))
        assert wait_until(lambda: conn.counters().resyncs >= 2)
        c = conn.counters()
        assert c.frames_bad == 2
        assert c.frames_lost == 2  # their sequence numbers never arrived intact
        drops = conn.drop_reasons()
        assert sum(drops.values()) == 2 and drops["crc"] + drops["cobs"] + drops["short"] == 2
        assert got.of(E.DieRolled) == []  # neither corrupted roll became an event
        assert conn.hub_counters() is not None and conn.hub_counters().counter("rx_bad") == 2
    finally:
        conn.close()


def test_a_sequence_gap_triggers_a_resync_that_recovers_the_missed_roll(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        assert wait_until(lambda: conn.counters().frames_good >= 2)
        # The hub rolls; that frame is lost on the line (we skip its seq), then a heartbeat.
        with hub.lock:
            hub.dice[0] = [1, 3, 995, 1]
            hub.seq += 1
        hub.send(codec.HEARTBEAT, codec.SRC_HUB, codec.pack_heartbeat(1000, []))
        rolled = got.wait_count(E.DieRolled, 1)
        assert (rolled[0].value, rolled[0].counter) == (4, 1)
        c = conn.counters()
        assert c.frames_lost == 1 and c.resyncs == 2
    finally:
        conn.close()


def test_duplicate_roll_results_are_delivered_once(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        hub.roll(0, face=1)
        hub.resend_roll(0)
        hub.resend_roll(0)
        hub.roll(0, face=2)
        rolled = got.wait_count(E.DieRolled, 2)
        assert wait_until(lambda: conn.counters().duplicates == 2)
        assert [(e.value, e.counter) for e in rolled] == [(2, 1), (3, 2)]
        assert len({e.key for e in rolled}) == 2
    finally:
        conn.close()


def test_first_snapshot_is_state_not_news(hub: HubState) -> None:
    hub.dice[0] = [1, 3, 990, 41]  # rolled long before we connected
    hub.tokens = 0b11
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        assert wait_until(lambda: conn.tokens() == 0b11)
        assert got.of(E.DieRolled) == [] and got.of(E.TokenPlaced) == []
        hub.roll(0, face=0)
        rolled = got.wait_count(E.DieRolled, 1)
        assert rolled[0].counter == 42
    finally:
        conn.close()


def test_reboot_announces_a_new_boot_and_resyncs(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        hub.roll(0, face=1)
        got.wait_count(E.DieRolled, 1)
        hub.reboot(0x0BADF00D)
        onlines = got.wait_count(E.DeviceOnline, 2)
        assert onlines[1].boot_id == 0x0BADF00D
        assert wait_until(lambda: conn.counters().resyncs >= 2)
        hub.roll(0, face=4)  # counter 1 again, but a new boot: a new roll
        rolled = got.wait_count(E.DieRolled, 2)
        assert (rolled[1].counter, rolled[1].boot_id, rolled[1].value) == (1, 0x0BADF00D, 5)
        c = conn.counters()
        assert c.frames_lost == 0 and c.duplicates == 0 and c.reconnects == 0
        assert got.of(E.DeviceOffline) == []  # a reboot seen on a live line is no outage
    finally:
        conn.close()


def test_silence_takes_the_link_down_then_it_comes_back(hub: HubState) -> None:
    clock = FakeClock()
    conn, got = _connect(hub, clock=clock)
    try:
        assert _resynced(conn)
        # The SNAPSHOT answering the resync read first: read after the jump it would
        # restart the silence, and the alarm would take 3 s more of real time.
        assert wait_until(lambda: conn.counters().frames_good >= 2)  # IDENT, SNAPSHOT
        clock.jump(3.5)  # three and a half seconds without a frame
        off = got.wait_count(E.DeviceOffline, 1)
        assert off[0].reason == "silent"
        got.wait_count(E.DeviceOnline, 2)  # the hub still answers HELLO: back online
        c = conn.counters()
        assert c.offline == 1 and c.reconnects == 1
    finally:
        conn.close()


def test_no_silence_alarm_while_heartbeats_arrive(hub: HubState) -> None:
    clock = FakeClock()
    conn, got = _connect(hub, clock=clock)
    try:
        assert _resynced(conn)
        for _ in range(8):
            clock.jump(1.0)
            n = conn.counters().frames_good
            hub.send(codec.HEARTBEAT, codec.SRC_HUB, codec.pack_heartbeat(0, []))
            # Each heartbeat read before the next second jumps by. (The count used to be
            # taken after the send, so this wait passed at once: eight seconds could jump
            # by while the reader was between an empty read and its clock, and a link
            # with a heartbeat every second went "silent".)
            assert wait_until(lambda: conn.counters().frames_good > n)
            assert conn.hub_counters() is not None
        assert got.of(E.DeviceOffline) == []
    finally:
        conn.close()


def test_unplug_reconnects_and_recovers_the_roll_made_meanwhile(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        hub.roll(0, face=0)
        got.wait_count(E.DieRolled, 1)
        hub.unplug()
        off = got.wait_count(E.DeviceOffline, 1)
        assert off[0].reason == "unplugged"
        hub.roll(0, face=5)  # rolled while the cable was out
        hub.token(2, True)
        hub.plug()
        got.wait_count(E.DeviceOnline, 2)
        rolled = got.wait_count(E.DieRolled, 2)
        assert (rolled[1].value, rolled[1].counter) == (6, 2)
        assert [e.slot for e in got.wait_count(E.TokenPlaced, 1)] == [2]
        assert wait_until(lambda: conn.counters().resyncs >= 2)
        c = conn.counters()
        assert c.reconnects == 1 and c.offline == 1 and c.duplicates == 0
    finally:
        conn.close()


def test_back_off_doubles_to_its_limit_while_the_hub_is_away(hub: HubState) -> None:
    waits: list[float] = []
    gate = threading.Event()

    def sleep(s: float) -> None:
        waits.append(s)
        if len(waits) >= 7:
            gate.set()

    conn, got = _connect(hub, sleep=sleep, backoff=Backoff())
    try:
        hub.unplug()
        assert gate.wait(5)
        assert waits[:7] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
        hub.plug()
        got.wait_count(E.DeviceOnline, 2)
        n = len(waits)
        hub.unplug()
        assert wait_until(lambda: len(waits) > n)
        assert waits[n] == 0.5  # a connection that worked resets the back-off
    finally:
        conn.close()


def test_version_mismatch_in_ident_is_a_typed_error(hub: HubState) -> None:
    hub.major = 3
    with pytest.raises(ProtocolVersionError) as info:
        _connect(hub)
    assert info.value.hub_major == 3 and info.value.host_major == codec.PROTOCOL_MAJOR
    assert isinstance(info.value, ValueError) and isinstance(info.value, BridgeError)
    assert "3.x" in str(info.value) and info.value.code == "protocol-version"


def test_frames_of_another_major_are_dropped_and_named_in_the_error(hub: HubState) -> None:
    hub.frame_version = 3
    hub.major = 3
    with pytest.raises(ProtocolVersionError) as info:
        _connect(hub)
    assert info.value.hub_major == 3


def test_a_hub_with_major_1_firmware_is_told_to_update(hub: HubState) -> None:
    """Major 1 put the CRC of the decoded body inside the COBS; its frames fail major 2's
    check, but the decoder recognises them and the handshake names the old major."""
    hub.major1_framing = True
    hub.major = 1
    with pytest.raises(ProtocolVersionError) as info:
        _connect(hub)
    assert info.value.hub_major == 1 and "protocol 1.x" in str(info.value)
    assert "update the hub's firmware" in str(info.value)


def test_a_silent_device_is_a_handshake_timeout(hub: HubState) -> None:
    hub.answer_hello = False
    with pytest.raises(HandshakeTimeout) as info:
        _connect(hub)
    assert isinstance(info.value, TimeoutError)
    assert hub.heard(codec.HELLO) == 3


def test_a_missing_port_is_a_port_open_error(hub: HubState) -> None:
    hub.unplug()
    with pytest.raises(PortOpenError) as info:
        _connect(hub)
    assert isinstance(info.value, OSError)


def test_a_real_missing_device_path_fails_to_open() -> None:
    with pytest.raises(PortOpenError):
        HubConnection("/dev/tc-no-such-hub", **FAST).connect()


def test_start_keeps_trying_until_the_hub_appears(hub: HubState) -> None:
    hub.unplug()
    got = Collector()
    conn = HubConnection("loop://", got, open_port=hub.open_port, **FAST).start()
    try:
        assert wait_until(lambda: isinstance(conn.last_error, PortOpenError))
        hub.plug()
        got.wait_count(E.DeviceOnline, 1)
        assert conn.counters().reconnects == 0  # the first connection is no reconnect
    finally:
        conn.close()


def test_ping_is_acknowledged(hub: HubState) -> None:
    conn, _ = _connect(hub)
    try:
        ack = conn.ping()
        assert ack.ok and ack.kind == codec.PING
    finally:
        conn.close()
    with pytest.raises(ConnectionClosedError):
        conn.ping()


def test_a_callback_that_raises_is_counted_not_fatal(hub: HubState) -> None:
    seen: list[E.Event] = []

    def bad(e: E.Event) -> None:
        seen.append(e)
        if isinstance(e, E.DieRolled):
            raise RuntimeError("UI bug")

    conn = HubConnection("loop://", bad, open_port=hub.open_port, **FAST).connect()
    try:
        assert _resynced(conn)
        hub.roll(0, face=1)
        hub.roll(0, face=2)
        assert wait_until(lambda: conn.counters().callback_errors == 2)
        assert conn.is_online
    finally:
        conn.close()


def test_counters_are_a_frozen_value() -> None:
    c = Counters()
    with pytest.raises(AttributeError):
        c.frames_good = 3  # type: ignore[misc]


def test_a_hub_that_lost_power_while_unplugged_starts_a_new_boot(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert _resynced(conn)
        hub.roll(0, face=2)
        got.wait_count(E.DieRolled, 1)
        hub.unplug()
        got.wait_count(E.DeviceOffline, 1)
        hub.reboot(0x5EED)  # no power, no host: its IDENT goes nowhere
        with hub.lock:
            hub.dice[1] = [5, 3, 1000, 0]  # settled at boot: a face, but no roll yet
        hub.plug()
        onlines = got.wait_count(E.DeviceOnline, 2)
        assert onlines[1].boot_id == 0x5EED
        assert wait_until(lambda: conn.counters().resyncs >= 2)
        hub.roll(0, face=3)  # roll counter 1 again, in the new boot: news, not a duplicate
        rolled = got.wait_count(E.DieRolled, 2)
        assert [(e.boot_id, e.counter, e.value) for e in rolled] == [
            (0x1234ABCD, 1, 3), (0x5EED, 1, 4)]
        assert conn.counters().duplicates == 0
    finally:
        conn.close()


def test_another_board_on_the_same_path_is_refused_until_ours_returns(hub: HubState) -> None:
    conn, got = _connect(hub)
    try:
        assert conn.uid == hub.uid  # pinned by the first answer
        hub.unplug()
        got.wait_count(E.DeviceOffline, 1)
        ours = hub.uid
        hub.uid = bytes(range(8))  # a different hub appears on that path
        hub.plug()
        assert wait_until(lambda: isinstance(conn.last_error, WrongHubError))
        assert conn.last_error.code == "wrong-hub" and "0001020304050607" in str(conn.last_error)
        assert len(got.of(E.DeviceOnline)) == 1 and not conn.is_online
        hub.uid = ours  # ours is back
        got.wait_count(E.DeviceOnline, 2)
    finally:
        conn.close()


def test_uid_can_be_given_or_not_pinned(hub: HubState) -> None:
    with pytest.raises(WrongHubError):
        _connect(hub, uid="0001020304050607")
    conn, got = _connect(hub, uid=hub.uid.hex())
    conn.close()
    conn, got = _connect(hub, pin_uid=False)
    try:
        hub.unplug()
        got.wait_count(E.DeviceOffline, 1)
        hub.uid = bytes(range(8))
        hub.plug()
        assert got.wait_count(E.DeviceOnline, 2)[1].uid == "0001020304050607"
    finally:
        conn.close()


def test_frames_read_together_with_the_ident_are_not_lost(hub: HubState) -> None:
    hub.after_ident = [(codec.HEARTBEAT, codec.SRC_HUB, codec.pack_heartbeat(5, [1])),
                       (codec.TOKEN, codec.SRC_TOKENS, codec.pack_switch(1, True, 0b10, 0, 1))]
    conn, got = _connect(hub)
    try:
        assert got.wait_count(E.TokenPlaced, 1)[0].slot == 1
        assert conn.hub_counters() is not None and conn.hub_counters().uptime_ms == 5
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        assert conn.counters().frames_lost == 0
    finally:
        conn.close()


def test_last_error_names_why_the_link_went_down(hub: HubState) -> None:
    from firmware_bridge.serial import LinkLostError

    conn, got = _connect(hub, backoff=Backoff(5.0, 5.0))  # no retry within the test
    try:
        hub.unplug()
        got.wait_count(E.DeviceOffline, 1)
        err = conn.last_error  # the next attempt is 5 s away
        assert isinstance(err, LinkLostError) and err.reason == "unplugged"
        assert err.code == "link-lost" and "hub1 went offline: unplugged" == str(err)
    finally:
        conn.close()


def test_a_device_name_that_would_break_event_sources_is_refused() -> None:
    with pytest.raises(ValueError, match="without '/'"):
        HubConnection("loop://", device="hub/1")


def test_start_again_after_close(hub: HubState) -> None:
    conn, got = _connect(hub)
    conn.close()
    conn.start()
    try:
        got.wait_count(E.DeviceOnline, 2)
        assert conn.counters().reconnects == 1
    finally:
        conn.close()


def test_a_hub_found_by_serial_number_is_looked_up_before_each_attempt(
        hub: HubState, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    import serial.tools.list_ports as lp

    from firmware_bridge.serial import HubNotFoundError

    present = [SimpleNamespace(device="/dev/ttyACM7", vid=0x2E8A, pid=0x0005, serial_number="E660AB",
                               description="", manufacturer=None, product=None, location=None)]
    monkeypatch.setattr(lp, "comports", lambda: list(present))
    opened: list[str] = []

    def open_port(url: str, **kw):
        opened.append(url)
        return hub.open_port(url, **kw)

    got = Collector()
    conn = HubConnection.for_serial_number("e660ab", got, open_port=open_port, **FAST).connect()
    try:
        assert opened == ["/dev/ttyACM7"]
        hub.unplug()
        present.clear()  # the device is gone from the system's list
        got.wait_count(E.DeviceOffline, 1)
        assert wait_until(lambda: isinstance(conn.last_error, HubNotFoundError))
        present.append(SimpleNamespace(device="/dev/ttyACM3", vid=0x2E8A, pid=0x0005, serial_number="E660AB",
                                       description="", manufacturer=None, product=None, location=None))
        hub.plug()
        got.wait_count(E.DeviceOnline, 2)
        assert opened[-1] == "/dev/ttyACM3"  # back on another path, found by its serial number
    finally:
        conn.close()
    monkeypatch.setattr(lp, "comports", lambda: [])
    with pytest.raises(HubNotFoundError):
        HubConnection.for_serial_number("E660AB", open_port=open_port, **FAST).connect()
