"""HubConnection against the simulated hub over a real pty: the same code path as a hub
on USB (pyserial on a tty device, exclusive lock, EIO when the cable goes), with the
firmware's own hub logic on the other end.

The simulated hub runs its device clock at ``SPEED`` times real time, so a throw (about
3 s of device time) takes a fraction of a second. Waits are correctness waits with
generous bounds; no test asserts how long anything took.
"""
from __future__ import annotations

import os
import statistics
import time

import pytest
import serial

from firmware_bridge import events as E
from firmware_bridge.serial import Backoff, HubConnection, PortBusyError
from firmware_bridge.shared import codec

from .serial_helpers import Collector, wait_until

sim = pytest.importorskip("firmware_bridge.simulated.hub")

SPEED = 40
# Short back-off for the tests (the default 0.5 s floor would make 100 replug cycles
# take a minute); the default's own doubling is tested on loop://.
FAST = dict(backoff=Backoff(0.02, 0.2), poll_s=0.02)


@pytest.fixture()
def hub():
    h = sim.SimulatedHub(dice=[6, 6], seed=7, speed=SPEED).start()
    yield h
    h.stop()


def _connect(hub, **kw) -> tuple[HubConnection, Collector]:
    got = Collector()
    settings = dict(FAST)
    settings.update(kw)
    return HubConnection(hub.port, got, **settings).connect(), got


def _hub_results(hub, die: int) -> list[tuple[int, int]]:
    """(counter, face value) of every roll result the hub produced for ``die`` in its
    current boot, boot-time settle (counter 0) excepted: the ground truth."""
    return [(r["counter"], r["face"] + 1) for r in hub.results[die] if r["counter"] > 0]


def test_handshake_over_a_pty(hub) -> None:
    conn, got = _connect(hub)
    try:
        online = got.wait_count(E.DeviceOnline, 1)[0]
        assert online.uid == hub.uid.hex() and online.boot_id == hub.boot_id
        assert online.faces == (6, 6) and online.protocol == "%d.%d" % (codec.PROTOCOL_MAJOR, codec.PROTOCOL_MINOR)
        assert wait_until(lambda: conn.counters().resyncs == 1 and conn.tokens() == 0)
    finally:
        conn.close()
    assert got.events[-1] == E.DeviceOffline(device="hub1", reason="closed", t=got.events[-1].t)


def test_the_port_is_opened_exclusively(hub) -> None:
    conn, _ = _connect(hub)
    try:
        with pytest.raises(PortBusyError) as info:
            HubConnection(hub.port, **FAST).connect()
        assert info.value.code == "port-busy"
    finally:
        conn.close()
    other = serial.serial_for_url(hub.port, exclusive=True)  # released on close
    other.close()


def test_rolls_tokens_and_buttons_arrive_as_events(hub) -> None:
    conn, got = _connect(hub)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.roll(0, value=4)
        rolled = got.wait_count(E.DieRolled, 1)
        assert (rolled[0].die, rolled[0].value, rolled[0].outcome) == (0, 4, "rolled")
        assert [m.state for m in got.of(E.DieMotion)][:2] == ["handling", "rolling"]
        hub.turn(1, value=6)
        turned = got.wait_count(E.DieRolled, 2)[1]
        assert (turned.die, turned.value, turned.outcome) == (1, 6, "onFace")
        hub.set_token(2, True)
        assert got.wait_count(E.TokenPlaced, 1)[0].slot == 2
        hub.press(1)
        assert got.wait_count(E.ButtonPressed, 1)[0].button == "1"
        hub.press(1, False)
        got.wait_count(E.ButtonReleased, 1)
        assert [(e.counter, e.value) for e in got.of(E.DieRolled) if e.die == 0] == _hub_results(hub, 0)
        c = conn.counters()
        assert c.frames_bad == 0 and c.frames_lost == 0 and c.duplicates == 0
    finally:
        conn.close()


def test_line_faults_are_dropped_and_counted_with_no_event(hub) -> None:
    conn, got = _connect(hub)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        assert wait_until(lambda: conn.counters().frames_good >= 4)  # heartbeats flowing
        n_events = len(got.events)
        faults = [
            lambda: hub.inject_garbage(),
            lambda: hub.inject_garbage(b">>> \r\n>>> "),
            lambda: hub.inject_repl_traceback(terminate=True),
            lambda: hub.inject_repl_traceback(terminate=False),  # takes the next frame down
            lambda: hub.send_truncated(2),
            lambda: hub.flip_bits(1),
            lambda: hub.flip_bits(2),
        ]
        for fault in faults:
            bad = conn.counters().frames_bad
            fault()
            assert wait_until(lambda: conn.counters().frames_bad > bad), fault
            # Let a good frame through before the next fault, so that two faults never
            # land on one frame (a truncated frame glued to a traceback is one loss).
            good = conn.counters().frames_good
            assert wait_until(lambda: conn.counters().frames_good > good + 1)
        # Each gap shows when the next good frame arrives: 1 frame glued to the traceback,
        # 2 truncated, 2 flipped; everything else was noise between frames.
        assert conn.counters().frames_lost == 5, conn.counters()
        assert len(got.events) == n_events  # nothing made of the junk
        assert conn.is_online and conn.counters().offline == 0
        assert wait_until(lambda: conn.counters().resyncs > 1)  # the gaps asked for state
        hub.roll(1, value=3)  # and the link still works
        assert got.wait_count(E.DieRolled, 1)[0].value == 3
    finally:
        conn.close()


def test_silence_takes_the_link_down_and_it_comes_back(hub) -> None:
    conn, got = _connect(hub, silence_s=0.5)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.go_silent(1.5)
        off = got.wait_count(E.DeviceOffline, 1)
        assert off[0].reason == "silent"
        got.wait_count(E.DeviceOnline, 2, timeout=10)
        assert conn.counters().reconnects == 1
        hub.roll(0, value=2)
        assert got.wait_count(E.DieRolled, 1)[0].value == 2
    finally:
        conn.close()


def test_reboot_is_detected_and_resynced(hub) -> None:
    conn, got = _connect(hub)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.roll(0, value=5)
        got.wait_count(E.DieRolled, 1)
        old = hub.boot_id
        resyncs = conn.counters().resyncs
        hub.reboot()
        onlines = got.wait_count(E.DeviceOnline, 2)
        assert onlines[1].boot_id == hub.boot_id != old
        assert wait_until(lambda: conn.counters().resyncs > resyncs)
        hub.roll(0, value=1)
        r = got.wait_count(E.DieRolled, 2)[1]
        assert (r.boot_id, r.counter, r.value) == (hub.boot_id, 1, 1)  # counter 1 again: new key
        assert got.of(E.DeviceOffline) == []
        assert conn.counters().frames_lost == 0
    finally:
        conn.close()


def test_a_resent_roll_frame_is_ignored(hub) -> None:
    conn, got = _connect(hub)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.roll(0, value=6)
        first = got.wait_count(E.DieRolled, 1)[0]
        result = [f for f in hub.frames() if f.type == codec.ROLL_STATE and f.src == 0][-1]
        wire = codec.encode_frame(result.type, result.seq, result.src, result.payload)
        hub.inject_garbage(wire, terminate=False)  # the very frame, again
        hub.inject_garbage(wire, terminate=False)
        assert wait_until(lambda: conn.counters().duplicates >= 2)
        assert got.of(E.DieRolled) == [first]
        assert conn.counters().frames_lost == 0  # a repeat is no loss
    finally:
        conn.close()


def test_a_hub_crashed_to_the_repl_goes_offline(hub) -> None:
    conn, got = _connect(hub, silence_s=0.5)
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.crash_to_repl()
        assert got.wait_count(E.DeviceOffline, 1)[0].reason == "silent"
        assert wait_until(lambda: conn.last_error is not None and "IDENT" in str(conn.last_error))
        hub.reboot()
        online = got.wait_count(E.DeviceOnline, 2, timeout=10)[1]
        assert online.boot_id == hub.boot_id
        assert conn.counters().frames_bad >= 1  # the traceback
    finally:
        conn.close()


@pytest.mark.timeout(1800)  # --long: 2,000 cycles take about ten minutes
def test_unplug_replug_cycles(hub, soak_factor: int, caplog: pytest.LogCaptureFixture) -> None:
    """50 cycles (x20 with --long): each cycle a die is rolled while plugged in, the
    cable is pulled, the other die is rolled meanwhile, the cable goes back. Every cycle
    must reconnect, and every roll must arrive exactly once (the unplugged one through
    the resync). The back-off is the real one (0.5 s → 8 s): every reconnect is the
    replug watch's doing, never a back-off step that happened to come round. Reconnect
    times are printed, not asserted."""
    cycles = 50 * soak_factor
    # The port is looked up before each attempt (as for_serial_number does): the
    # simulated hub's stable symlink dangles while unplugged, and on a busy machine its
    # old /dev/pts number can be reused by another process's pty meanwhile (the uid
    # pinning would refuse that board, but we would still have opened it).
    got = Collector()
    caplog.set_level("INFO", logger="firmware_bridge.serial")
    conn = HubConnection(lambda: hub.pty_path or "/dev/tc-unplugged", got, poll_s=0.02).connect()
    reconnect_s: list[float] = []
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        for i in range(cycles):
            n0 = len(got.of(E.DieRolled))
            hub.roll(0)
            got.wait_count(E.DieRolled, n0 + 1)
            offline = len(got.of(E.DeviceOffline))
            hub.unplug()
            got.wait_count(E.DeviceOffline, offline + 1)
            hub.roll(1, wait=True)  # lands while nobody listens
            onlines = len(got.of(E.DeviceOnline))
            t = time.monotonic()
            hub.replug()
            got.wait_count(E.DeviceOnline, onlines + 1)
            reconnect_s.append(conn.connect_times()[-1] - t)
            got.wait_count(E.DieRolled, n0 + 2)  # the roll made while unplugged
        rolled = got.of(E.DieRolled)
        for die in (0, 1):
            mine = [(e.counter, e.value) for e in rolled if e.die == die]
            assert mine == _hub_results(hub, die), die  # none lost, none twice, in order
        assert len({e.key for e in rolled}) == len(rolled) == 2 * cycles
        c = conn.counters()
        assert c.reconnects == cycles and c.offline == cycles and c.rolls_missed == 0
        assert all(e.reason == "unplugged" for e in got.of(E.DeviceOffline))
        assert sum("the port is back" in r.getMessage() for r in caplog.records) == cycles
    finally:
        conn.close()
    q = statistics.quantiles(reconnect_s, n=100)
    print("\n%d unplug/replug cycles: reconnect after replug p50 %.1f ms, p99 %.1f ms, max %.1f ms "
          "(back-off %s)" % (cycles, 1000 * statistics.median(reconnect_s), 1000 * q[98],
                              1000 * max(reconnect_s), conn.backoff))


def test_a_long_unplug_reconnects_on_the_replug_not_the_next_back_off_step(hub, caplog: pytest.LogCaptureFixture) -> None:
    """Away 2 s with the real back-off: tries at 0.5 s and 1.5 s fail, the next is due at
    3.5 s; the replug watch tries as soon as the port is back instead."""
    caplog.set_level("INFO", logger="firmware_bridge.serial")
    got = Collector()
    conn = HubConnection(lambda: hub.pty_path or "/dev/tc-unplugged", got, poll_s=0.02).connect()
    try:
        hub.unplug()
        got.wait_count(E.DeviceOffline, 1)
        assert wait_until(lambda: conn.last_error is not None and "tc-unplugged" in str(conn.last_error), 5)
        time.sleep(1.6)  # past the second failed try (0.5 s, then 1 s later)
        t = time.monotonic()
        hub.replug()
        got.wait_count(E.DeviceOnline, 2)
        assert any("the port is back" in r.getMessage() for r in caplog.records)
        print("\nreconnect %.0f ms after a 2 s unplug (next back-off step was due ~1.9 s later)"
              % (1000 * (conn.connect_times()[-1] - t)))
    finally:
        conn.close()


def _fds_on(path: str) -> int:
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            n += os.path.realpath("/proc/self/fd/" + fd) == path
        except OSError:
            pass
    return n


def test_close_leaves_no_file_descriptor_on_the_pty(hub) -> None:
    before = _fds_on(hub.pty_path)  # the simulated hub's own slave end
    conn, _ = _connect(hub)
    assert _fds_on(hub.pty_path) == before + 1
    conn.close()
    assert _fds_on(hub.pty_path) == before


def _unplugged(hub, conn_got: Collector) -> None:
    offline = len(conn_got.of(E.DeviceOffline))
    hub.unplug()
    conn_got.wait_count(E.DeviceOffline, offline + 1)


def test_the_same_die_thrown_twice_while_unplugged_arrives_twice_in_order(hub) -> None:
    """PROTOCOL.md §2's promise: unplug, throw die 0 twice, replug: both throws arrive,
    in order, with their roll counters (the hub's queue replays them before the
    SNAPSHOT, which only knows the second), and nothing is reported missed."""
    got = Collector()
    conn = HubConnection(lambda: hub.pty_path or "/dev/tc-unplugged", got, poll_s=0.02).connect()
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.roll(0, value=2)
        got.wait_count(E.DieRolled, 1)
        _unplugged(hub, got)
        hub.roll(0, value=5, wait=True)
        hub.roll(0, value=3, wait=True)  # the re-roll a player could hide
        onlines = len(got.of(E.DeviceOnline))
        hub.replug()
        got.wait_count(E.DeviceOnline, onlines + 1)
        rolled = got.wait_count(E.DieRolled, 3)
        assert [(e.counter, e.value) for e in rolled] == _hub_results(hub, 0)
        assert [e.value for e in rolled] == [2, 5, 3]
        assert [e.counter for e in rolled] == [rolled[0].counter, rolled[0].counter + 1,
                                               rolled[0].counter + 2]
        assert got.of(E.ThrowsMissed) == [] and conn.counters().rolls_missed == 0
    finally:
        conn.close()


def test_more_throws_than_the_queue_keeps_are_reported_missed_exactly(hub) -> None:
    """Unplugged, die 1 is thrown RESULT_QUEUE + 3 times: the queue keeps the last
    RESULT_QUEUE results (every die together), so after the replug those arrive in order
    and a ThrowsMissed says exactly how many throws before them were lost: 3."""
    from firmware_bridge.shared import hubapp

    got = Collector()
    conn = HubConnection(lambda: hub.pty_path or "/dev/tc-unplugged", got, poll_s=0.02).connect()
    try:
        assert wait_until(lambda: conn.counters().resyncs >= 1)
        hub.roll(1, value=1)
        got.wait_count(E.DieRolled, 1)
        _unplugged(hub, got)
        for i in range(hubapp.RESULT_QUEUE + 3):
            hub.roll(1, value=1 + i % 6, wait=True)
        hub.replug()
        rolled = got.wait_count(E.DieRolled, 1 + hubapp.RESULT_QUEUE, timeout=15)
        truth = _hub_results(hub, 1)
        assert len(truth) == 1 + hubapp.RESULT_QUEUE + 3
        # The first throw, then the last RESULT_QUEUE: the 3 in between are gone...
        assert [(e.counter, e.value) for e in rolled] == truth[:1] + truth[4:]
        # ...and said so, once, just before the first result after the gap.
        missed = got.of(E.ThrowsMissed)
        assert [(m.die, m.count, m.counter) for m in missed] == [(1, 3, truth[4][0])]
        assert got.events.index(missed[0]) == got.events.index(rolled[1]) - 1
        assert conn.counters().rolls_missed == 3
    finally:
        conn.close()
