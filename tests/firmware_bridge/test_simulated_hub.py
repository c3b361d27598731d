"""The simulated hub over a real pty, opened with pyserial as the app opens a hub, decoded
with the protocol codec: the handshake, rolls through the firmware's detector, tokens and
buttons, and every fault on demand. A fault may cost frames (dropped and counted by the
Decoder) but never yields a frame the hub did not send intact."""
from __future__ import annotations

import os
import time
from typing import Callable, Iterator

import pytest
import serial

from firmware_bridge.shared import codec as c
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated.hub import SimulatedHub, SimulatedHubError
from firmware_bridge.simulated.physics import PhysicsRoller
from firmware_bridge.simulated.rollers import RollOutcome, ScriptedRoller

SPEED = 20  # device time runs 20x: a throw takes about 0.15 s


class Host:
    """The app's end: pyserial on the hub's port, the codec's Decoder, commands."""

    def __init__(self, hub: SimulatedHub) -> None:
        self.hub = hub
        self.port = serial.serial_for_url(hub.port, timeout=0.02)
        self.decoder = c.Decoder()
        self.frames: list[c.Frame] = []
        self.seq = 0

    def close(self) -> None:
        self.port.close()

    def send(self, kind: int, src: int = c.SRC_HUB, payload: bytes = b"") -> int:
        seq = self.seq
        self.port.write(b"\x00" + c.encode_frame(kind, seq, src, payload))
        self.seq = (self.seq + 1) & 0xFF
        return seq

    def pump(self) -> list[c.Frame]:
        got = self.decoder.feed(self.port.read(4096))
        self.frames += got
        return got

    def until(self, done: Callable[[list[c.Frame]], bool], timeout: float = 10.0) -> list[c.Frame]:
        """Read until ``done(frames so far in this call)``; the timeout only guards
        against a hang (it fails the test, it measures nothing)."""
        got: list[c.Frame] = []
        end = time.monotonic() + timeout
        while not done(got):
            assert time.monotonic() < end, "no such frames: %r" % got[-5:]
            got += self.pump()
        return got

    def of(self, kind: int, frames: list[c.Frame] | None = None) -> list[c.Frame]:
        return [f for f in (self.frames if frames is None else frames) if f.type == kind]

    def ack(self, kind: int, src: int = c.SRC_HUB, payload: bytes = b"") -> tuple[int, ...]:
        seq = self.send(kind, src, payload)

        def mine(fs: list[c.Frame]) -> list[tuple[int, ...]]:
            return [a for a in (c.unpack_ack(f.payload) for f in fs if f.type == c.ACK)
                    if a[:2] == (kind, seq)]

        return mine(self.until(lambda fs: bool(mine(fs))))[0]

    def heartbeats(self, n: int) -> list[c.Frame]:
        return self.of(c.HEARTBEAT, self.until(lambda fs: len(self.of(c.HEARTBEAT, fs)) >= n))


@pytest.fixture()
def hub() -> Iterator[SimulatedHub]:
    h = SimulatedHub(dice=[6, 6], seed=11, speed=SPEED)
    h.start()
    yield h
    h.stop()


@pytest.fixture()
def host(hub: SimulatedHub) -> Iterator[Host]:
    h = Host(hub)
    yield h
    h.close()


def _intact(hub: SimulatedHub, host: Host) -> None:
    """Everything the host decoded is a frame the hub sent and did not corrupt."""
    sent = {(f.seq, f.type, f.src, f.payload) for f in hub.frames("sent")}
    bad = [f for f in host.frames if (f.seq, f.type, f.src, f.payload) not in sent]
    assert bad == []


# -- conversation ---------------------------------------------------------------------

def test_handshake_state_and_commands(hub: SimulatedHub, host: Host) -> None:
    host.send(c.HELLO)
    ident = host.of(c.IDENT, host.until(lambda fs: any(
        f.type == c.IDENT and c.unpack_ident(f.payload)["boot_id"] == hub.boot_id for f in fs)))
    info = c.unpack_ident(ident[-1].payload)
    assert info["faces"] == [6, 6] and info["uid"] == hub.uid and info["major"] == c.PROTOCOL_MAJOR
    assert info["caps"] & c.CAP_DICE
    host.send(c.REQUEST_STATE)
    snap = c.unpack_snapshot(host.of(c.SNAPSHOT, host.until(lambda fs: bool(host.of(c.SNAPSHOT, fs))))[0].payload)
    assert len(snap["dice"]) == 2 and all(d["calibrated"] for d in snap["dice"])
    assert host.ack(c.PING)[2] == c.OK
    assert host.ack(c.SET_CONFIG, c.SRC_ALL, c.pack_set_config(11, 300))[2] == c.OK
    assert host.ack(c.SET_CONFIG, 7, c.pack_set_config(11, 300))[2] == c.E_NO_SUCH_SOURCE
    assert host.ack(0x99)[2] == c.E_UNKNOWN
    beats = [c.unpack_heartbeat(f.payload) for f in host.heartbeats(3)]
    assert beats[-1]["uptime_ms"] > beats[0]["uptime_ms"]
    assert beats[-1]["counters"]["commands"] >= 5
    seqs = [f.seq for f in host.frames]
    assert all((b - a) & 0xFF == 1 for a, b in zip(seqs, seqs[1:]))  # nothing lost
    assert host.decoder.errors() == 0
    _intact(hub, host)


def _results(frames: list[c.Frame], die: int) -> list[dict[str, int]]:
    return [s for s in (c.unpack_roll_state(f.payload) for f in frames
                        if f.type == c.ROLL_STATE and f.src == die)
            if s["state"] in (D.ROLLED, D.ON_FACE, D.CROOKED)]


def test_rolls_pass_through_the_firmware_detector(hub: SimulatedHub, host: Host) -> None:
    _settle(host)  # past the power-on onFace
    for value in (1, 6, 3):
        before = len(host.frames)
        (out,) = hub.roll(0, value=value, wait=True)
        assert out == RollOutcome("rolled", value - 1, out.confidence, out.settle_ms)
        host.until(lambda fs: bool(_results(host.frames[before:], 0)))
        states = [D.STATE_NAMES[c.unpack_roll_state(f.payload)["state"]]
                  for f in host.frames[before:] if f.type == c.ROLL_STATE and f.src == 0]
        assert states == ["handling", "rolling", "rolled"]
        assert _results(host.frames[before:], 0)[-1]["face"] == value - 1
    counters = [r["counter"] for r in _results(host.frames, 0)]
    assert counters[-3:] == [1, 2, 3]


def test_every_die_rolls_and_crooked_and_hand_turned_dice(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    outs = hub.roll(wait=True)
    assert [o.state for o in outs] == ["rolled", "rolled"]
    assert [r["face"] for r in (hub.results[0][-1], hub.results[1][-1])] == [o.face_index for o in outs]
    hub.set_crooked(1)
    out = hub.roll(1, value=2, wait=True)[0]
    assert (out.state, hub.results[1][-1]["state"], hub.results[1][-1]["face"]) == ("crooked", D.CROOKED, 1)
    assert hub.results[1][-1]["confidence"] < 906  # beyond 25 degrees from the face
    hub.set_crooked(1, False)
    out = hub.turn(0, value=5, wait=True)
    assert (out.state, hub.results[0][-1]["state"], hub.results[0][-1]["face"]) == ("onFace", D.ON_FACE, 4)
    host.until(lambda fs: len(_results(host.frames, 0)) >= 3 and len(_results(host.frames, 1)) >= 2)
    _intact(hub, host)


def test_scripted_and_physics_rollers() -> None:
    script = ScriptedRoller([2, RollOutcome("crooked", 4, 850), RollOutcome("onFace", 0)], then=None)
    with SimulatedHub(dice=[6], seed=2, speed=SPEED, roller=script) as hub:
        got = [hub.roll(0, wait=True)[0] for _ in range(3)]
        assert [(o.state, o.face_index) for o in got] == [("rolled", 2), ("crooked", 4), ("onFace", 0)]
        assert [(r["state"], r["face"]) for r in hub.results[0][-3:]] == [
            (D.ROLLED, 2), (D.CROOKED, 4), (D.ON_FACE, 0)]
        with pytest.raises(ValueError, match="exhausted"):
            hub.roll(0)
    with SimulatedHub(dice=[20], seed=3, speed=SPEED, roller=PhysicsRoller(mount_seed=3)) as hub:
        out = hub.roll(0, wait=True)[0]
        assert (out.state, out.face_index) == ("rolled", hub.results[0][-1]["face"])


def test_tokens_buttons_and_a_pulled_die_cable(hub: SimulatedHub, host: Host) -> None:
    _settle(host)  # what lies on the slots at power-on is state, not news
    hub.set_token(2, True)
    hub.press(1)
    got = host.until(lambda fs: bool(host.of(c.TOKEN, fs)) and bool(host.of(c.BUTTON, fs)))
    tok = c.unpack_switch(host.of(c.TOKEN, got)[0].payload)
    btn = c.unpack_switch(host.of(c.BUTTON, got)[0].payload)
    assert (tok["index"], tok["active"], tok["bits"]) == (2, True, 0b100)
    assert (btn["index"], btn["active"], btn["bits"]) == (1, True, 0b10)
    hub.pull_die_cable(0)

    def errors(fs: list[c.Frame]) -> bool:
        return any(c.unpack_heartbeat(f.payload)["counters"]["sensor_errors"] > 0
                   for f in host.of(c.HEARTBEAT, fs))

    host.until(errors)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(SimulatedHubError, match="no d7"):
        SimulatedHub(dice=[7])
    with pytest.raises(SimulatedHubError, match="1 to 16 dice"):
        SimulatedHub(count=0)
    h = SimulatedHub(count=1)
    with pytest.raises(SimulatedHubError, match="no die 1"):
        h.roll(1)
    with pytest.raises(SimulatedHubError, match="shows 1..6, not 7"):
        h.roll(0, value=7)
    with pytest.raises(SimulatedHubError, match="unplugged"):
        h.inject_garbage()  # never started: nothing plugged in
    h.stop()


# -- faults: frames lost and counted, never bogus --------------------------------------

def _settle(host: Host, beats: int = 2) -> None:
    """Read on until a few more heartbeats came through intact."""
    host.heartbeats(beats)


def test_garbage_is_dropped_and_counted(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    for _ in range(20):
        hub.inject_garbage()
    hub.inject_garbage(b">>> \x03\x04", terminate=True)
    _settle(host)
    assert host.decoder.errors() >= 20
    seqs = [f.seq for f in host.frames]
    assert all((b - a) & 0xFF == 1 for a, b in zip(seqs, seqs[1:]))  # terminated noise costs no frame
    _intact(hub, host)


def test_repl_traceback_costs_the_frame_it_glues_to(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    hub.inject_repl_traceback()
    _settle(host)
    assert host.decoder.counts["text"] == 1
    _intact(hub, host)
    # From the first frame the host saw (pyserial flushes what came before its open) to
    # the last, exactly one sent frame is missing: the one glued to the text.
    sent = [(f.seq, f.type) for f in hub.frames("sent")]
    first, last = sent.index((host.frames[0].seq, host.frames[0].type)), sent.index(
        (host.frames[-1].seq, host.frames[-1].type))
    assert len(host.frames) == last - first


@pytest.mark.parametrize("fault", ["truncated", "flipped"])
def test_truncated_and_bit_flipped_frames_never_arrive(hub: SimulatedHub, host: Host, fault: str) -> None:
    _settle(host)
    for i in range(30):
        if fault == "truncated":
            hub.send_truncated()
        else:
            hub.flip_bits(1 + i % 3)
        host.until(lambda fs: len(hub.frames(fault)) > i)
    _settle(host)
    assert len(hub.frames(fault)) == 30
    assert host.decoder.errors() >= 28  # two faults on adjacent frames can merge into one drop
    _intact(hub, host)
    damaged = {(f.seq, f.type, f.payload) for f in hub.frames(fault)}
    assert not any((f.seq, f.type, f.payload) in damaged for f in host.frames)


def test_unplug_and_replug(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    boot = hub.boot_id
    last_seq = host.frames[-1].seq
    hub.unplug()
    assert not os.path.exists(hub.port)  # the device is gone: the path does not resolve
    assert not os.readlink(hub.port).startswith("/dev/")  # nor can it reach a reused pty
    with pytest.raises(serial.SerialException):
        for _ in range(100):
            host.port.read(64)
    host.close()
    with pytest.raises(serial.SerialException):
        serial.serial_for_url(hub.port)
    hub.roll(0, value=2, wait=True)  # a roll while unplugged: the hub keeps it
    hub.replug()
    again = Host(hub)
    again.send(c.REQUEST_STATE)
    snap = c.unpack_snapshot(again.of(c.SNAPSHOT, again.until(lambda fs: bool(again.of(c.SNAPSHOT, fs))))[0].payload)
    assert snap["dice"][0]["face"] == 1 and snap["dice"][0]["state"] == D.ROLLED
    assert hub.boot_id == boot and again.frames[0].seq != (last_seq + 1) & 0xFF  # frames were lost
    assert hub.frames("unplugged")
    hub.unplug()
    hub.replug(reboot=True)
    again.close()
    third = Host(hub)
    third.send(c.HELLO)
    ident = third.until(lambda fs: bool(third.of(c.IDENT, fs)))
    assert c.unpack_ident(third.of(c.IDENT, ident)[0].payload)["boot_id"] == hub.boot_id != boot
    third.close()


def test_reboot_gives_a_new_boot_id_and_sequence(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    old = hub.boot_id
    hub.reboot()
    got = host.until(lambda fs: bool(host.of(c.IDENT, fs)))
    ident = host.of(c.IDENT, got)[0]
    assert ident.seq == 0 and c.unpack_ident(ident.payload)["boot_id"] == hub.boot_id != old
    _intact(hub, host)


def test_reboot_commands(hub: SimulatedHub, host: Host) -> None:
    _settle(host)
    assert host.ack(c.REBOOT, c.SRC_HUB, c.pack_reboot(c.REBOOT_REPL))[2] == c.OK
    host.until(lambda fs: host.decoder.counts["text"] >= 1)  # the REPL banner
    assert hub.mode == "repl"
    hub.reboot()
    host.until(lambda fs: bool(host.of(c.IDENT, fs)))
    assert host.ack(c.REBOOT, c.SRC_HUB, c.pack_reboot(c.REBOOT_BOOTLOADER))[2] == c.OK
    with pytest.raises(serial.SerialException):
        for _ in range(500):
            host.pump()
    assert hub.mode == "bootloader" and not hub.plugged
    hub.replug()
    assert hub.mode == "run"


def test_silence_stalls_the_loop_and_overruns_the_fifos(hub: SimulatedHub, host: Host) -> None:
    beats = host.heartbeats(2)
    hub.go_silent(0.3)
    seq = host.send(c.PING)  # waits in the stalled hub's buffer, answered afterwards
    got = host.until(lambda fs: any(c.unpack_ack(f.payload)[:2] == (c.PING, seq)
                                    for f in host.of(c.ACK, fs)))
    later = host.heartbeats(1)
    up = [c.unpack_heartbeat(f.payload) for f in beats + later]
    # Device time, not the test's clock: 0.3 s at 20x is 6 s without a heartbeat.
    assert up[-1]["uptime_ms"] - up[1]["uptime_ms"] >= 0.3 * SPEED * 1000 * 0.9
    assert up[-1]["counters"]["fifo_overruns"] > 0
    _intact(hub, host)
    assert got


def test_a_seed_repeats_the_dice_and_the_throws() -> None:
    def throws(seed: int) -> tuple[bytes, list[tuple[str, int]]]:
        h = SimulatedHub(dice=[6, 20], seed=seed)
        try:
            outs = [o for _ in range(4) for o in h.roll()]
            return h.uid, [(o.state, o.face_index) for o in outs]
        finally:
            h.stop()

    assert throws(5) == throws(5)
    assert throws(5) != throws(6)


def test_throws_in_quick_succession_queue_up(hub: SimulatedHub, host: Host) -> None:
    """A die thrown again while still rolling is picked up once it has come to rest:
    every throw is reported, in order."""
    _settle(host)
    hub.roll(0, value=2)
    hub.roll(0, value=5)
    hub.roll(0, value=3, wait=True)
    host.until(lambda fs: len(_results(host.frames, 0)) >= 4)
    assert [(r["face"], r["counter"]) for r in _results(host.frames, 0)[-3:]] == [(1, 1), (4, 2), (2, 3)]
