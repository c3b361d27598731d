"""The hub's logic (firmware_bridge/shared/hubapp.py) with fake hardware and the real codec:
the protocol conversation a host has with the board, end to end."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import codec
from firmware_bridge.shared import detector as D
from firmware_bridge.shared import debounce
from firmware_bridge.simulated import traces as T
from hw_helpers import FIRMWARE

HERE = Path(__file__).resolve().parent


@pytest.fixture()
def hubapp(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(FIRMWARE))
    monkeypatch.syspath_prepend(str(HERE))
    before = set(sys.modules)
    from firmware_bridge.shared import hubapp as mod

    yield mod
    for name in set(sys.modules) - before:
        del sys.modules[name]


class Host:
    """The host's end of the line: sends commands, decodes what the hub says."""

    def __init__(self, hub: Any, link: Any, sensors: list[Any]) -> None:
        self.hub, self.link, self.sensors = hub, link, sensors
        self.decoder = codec.Decoder()
        self.seq = 0
        self.t = 0
        self.frames: list[Any] = []

    def send(self, kind: int, src: int, payload: bytes = b"") -> int:
        seq = self.seq
        self.link.inbox += codec.encode_frame(kind, seq, src, payload)
        self.seq = (self.seq + 1) & 0xFF
        return seq

    def run(self, ms: int) -> list[Any]:
        from hubfakes import run_until

        self.t = run_until(self.hub, self.sensors, self.t, self.t + ms)
        got = self.decoder.feed(self.link.take())
        self.frames += got
        return got

    def ack(self, hubapp: ModuleType, kind: int, src: int, payload: bytes = b"") -> tuple:
        seq = self.send(kind, src, payload)
        acks = [hubapp.unpack_ack(f.payload) for f in self.run(20) if f.type == codec.ACK]
        mine = [a for a in acks if a[0] == kind and a[1] == seq]
        assert len(mine) == 1, acks
        return mine[0]


def _hub(hubapp: ModuleType, tmp_path: Path, traces: list[list[tuple[int, int, int, int]]],
         **kw: Any) -> tuple[Host, Any, Any, Any, Any]:
    from hubfakes import make_hub

    hub, link, sensors, tokens, buttons, actions = make_hub(hubapp, traces, str(tmp_path), **kw)
    hub.announce()
    return Host(hub, link, sensors), tokens, buttons, actions, hub


def _of(frames: list[Any], kind: int) -> list[Any]:
    return [f for f in frames if f.type == kind]


def _rest(face: int, ms: int, mount: T.Mount, seed: int = 0, t0: int = 0) -> list[tuple[int, int, int, int]]:
    tr = T.rest(6, face, random.Random(seed), mount, seconds=ms / 1000)
    return [(t + t0, x, y, z) for t, x, y, z in tr.samples]


def test_boot_announces_itself(hubapp: ModuleType, tmp_path: Path) -> None:
    host, *_ = _hub(hubapp, tmp_path, [[], []])
    frames = host.run(10)
    ident = hubapp.unpack_ident(_of(frames, codec.IDENT)[0].payload)
    assert ident["uid"] == bytes(range(1, 9)) and ident["boot_id"] == 0x12345678
    assert ident["faces"] == [6, 6] and ident["version"] == "0.1.0"
    assert ident["major"] == codec.PROTOCOL_MAJOR
    logs = [f.payload[1:].decode() for f in _of(frames, codec.LOG)]
    assert logs == ["die 0: calibration missing, canonical normals",
                    "die 1: calibration missing, canonical normals"]
    assert [f.seq for f in frames] == list(range(len(frames)))  # sequenced from 0


def test_request_state_replays_the_kept_results_before_the_snapshot(
        hubapp: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The result queue (PROTOCOL.md §2): REQUEST_STATE is answered by a REPLAY of each
    kept roll result, oldest first, with its counter and device time, then SNAPSHOT;
    the queue keeps the last RESULT_QUEUE results only."""
    rng = random.Random(1)
    mount = T.Mount()
    tr = T.clean_roll(6, 4, rng, mount, start_face=0)
    host, *_ = _hub(hubapp, tmp_path, [tr.samples])
    host.run(tr.samples[-1][0] + 20)
    results = [hubapp.unpack_roll_state(f.payload) for f in _of(host.frames, codec.ROLL_STATE)
               if f.payload[0] in (D.ROLLED, D.CROOKED, D.ON_FACE)]
    assert [(r["state"], r["counter"]) for r in results] == [(D.ON_FACE, 0), (D.ROLLED, 1)]
    host.send(codec.REQUEST_STATE, hubapp.SRC_HUB)
    answer = [f for f in host.run(20) if f.type in (codec.REPLAY, codec.SNAPSHOT)]
    assert [f.type for f in answer] == [codec.REPLAY, codec.REPLAY, codec.SNAPSHOT]
    assert [hubapp.unpack_roll_state(f.payload) for f in answer[:2]] == results
    assert all(f.src == 0 for f in answer[:2])
    monkeypatch.setattr(hubapp, "RESULT_QUEUE", 1)
    host.hub.results = host.hub.results[:1]  # as if the queue had always been this short
    host.hub._keep_result(0, D.RollEvent(D.ROLLED, 2, 990, 99999, 2, 300))
    host.send(codec.REQUEST_STATE, hubapp.SRC_HUB)
    replays = [hubapp.unpack_roll_state(f.payload) for f in host.run(20) if f.type == codec.REPLAY]
    assert [(r["face"], r["counter"]) for r in replays] == [(2, 2)]


def test_hello_ping_and_unknown_commands(hubapp: ModuleType, tmp_path: Path) -> None:
    host, *_ = _hub(hubapp, tmp_path, [[]])
    host.run(10)
    host.send(codec.HELLO, hubapp.SRC_HUB)
    assert len(_of(host.run(20), codec.IDENT)) == 1
    assert host.ack(hubapp, codec.PING, hubapp.SRC_HUB)[2] == hubapp.OK
    assert host.ack(hubapp, 0x7E, hubapp.SRC_HUB)[2] == hubapp.E_UNKNOWN


def test_a_roll_becomes_roll_state_frames(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(1)
    mount = T.Mount()  # sensor axes = die axes: canonical normals are right
    tr = T.clean_roll(6, 4, rng, mount, start_face=0)
    host, *_ = _hub(hubapp, tmp_path, [tr.samples])
    host.run(tr.samples[-1][0] + 20)
    states = [hubapp.unpack_roll_state(f.payload) for f in host.frames if f.type == codec.ROLL_STATE]
    assert [(D.STATE_NAMES[s["state"]], s["face"], s["counter"]) for s in states] == [
        ("onFace", 0, 0), ("handling", 0, 1), ("rolling", 0, 1), ("rolled", 4, 1)]
    assert all(f.src == 0 for f in _of(host.frames, codec.ROLL_STATE))
    # The device time of the result is the sample time the detector decided on.
    expect = D.run(D.Detector(mount.normals(6)), tr.samples)
    assert [s["t_ms"] for s in states] == [e.t_ms for e in expect]


def test_two_dice_roll_together(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(2)
    a = T.clean_roll(6, 1, rng, T.Mount(), start_face=3)
    b = T.clean_roll(6, 5, rng, T.Mount(), start_face=3)
    host, *_ = _hub(hubapp, tmp_path, [a.samples, b.samples])
    host.run(max(a.samples[-1][0], b.samples[-1][0]) + 20)
    final = {}
    for f in _of(host.frames, codec.ROLL_STATE):
        s = hubapp.unpack_roll_state(f.payload)
        final[f.src] = (D.STATE_NAMES[s["state"]], s["face"])
    assert final == {0: ("rolled", 1), 1: ("rolled", 5)}


def test_snapshot_and_heartbeat(hubapp: ModuleType, tmp_path: Path) -> None:
    host, tokens, buttons, _, _ = _hub(hubapp, tmp_path, [_rest(2, 3000, T.Mount())])
    tokens.levels[1] = True
    host.run(2000)
    host.send(codec.REQUEST_STATE, hubapp.SRC_HUB)
    snap = hubapp.unpack_snapshot(_of(host.run(20), codec.SNAPSHOT)[0].payload)
    assert snap["tokens"] == 0b10 and snap["buttons"] == 0
    assert snap["dice"] == [{"state": D.ON_FACE, "face": 2, "confidence": 1000, "counter": 0,
                             "cal_revision": 0, "calibrated": False}]
    beats = [hubapp.unpack_heartbeat(f.payload) for f in _of(host.frames, codec.HEARTBEAT)]
    assert [b["uptime_ms"] for b in beats] == [0, 1000, 2000]
    assert beats[1]["counters"]["rx_frames"] == 0 and beats[-1]["counters"]["rx_frames"] == 1
    assert beats[-1]["counters"]["tx_frames"] > beats[1]["counters"]["tx_frames"] > 2


def test_tokens_and_buttons_are_debounced(hubapp: ModuleType, tmp_path: Path) -> None:
    host, tokens, buttons, _, _ = _hub(hubapp, tmp_path, [[]])
    host.run(100)
    for level in (True, False, True, False, True):  # a reed chattering as a token lands
        tokens.levels[3] = level
        host.run(10)
    host.run(100)
    buttons.levels[0] = True
    host.run(10)
    buttons.levels[0] = False  # shorter than the debounce time: never seen
    host.run(100)
    buttons.levels[2] = True
    host.run(100)
    toks = [hubapp.unpack_switch(f.payload) for f in _of(host.frames, codec.TOKEN)]
    btns = [hubapp.unpack_switch(f.payload) for f in _of(host.frames, codec.BUTTON)]
    assert [(t["index"], t["active"], t["bits"], t["counter"]) for t in toks] == [(3, True, 0b1000, 1)]
    assert [(b["index"], b["active"], b["bits"]) for b in btns] == [(2, True, 0b100)]
    assert all(f.src == hubapp.SRC_TOKENS for f in _of(host.frames, codec.TOKEN))


def test_set_config_applies_persists_and_refuses(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(3)
    tr = T.clean_roll(6, 2, rng, T.Mount(), start_face=0)
    host, _, _, _, hub = _hub(hubapp, tmp_path, [[(t + 100, x, y, z) for t, x, y, z in tr.samples]])
    assert host.ack(hubapp, codec.SET_CONFIG, hubapp.SRC_ALL, bytes([11]) + (600).to_bytes(4, "little"))[2] == hubapp.OK
    host.run(tr.samples[-1][0] + 200)
    res = [hubapp.unpack_roll_state(f.payload) for f in _of(host.frames, codec.ROLL_STATE)]
    assert res[-1]["state"] == D.ROLLED and res[-1]["face"] == 2
    assert hub.dice[0].detector.config.settle_ms == 600
    assert host.ack(hubapp, codec.SET_CONFIG, 0, bytes([11]) + (1).to_bytes(4, "little"))[2] == hubapp.E_OUT_OF_RANGE
    assert host.ack(hubapp, codec.SET_CONFIG, 0, bytes([99]) + (1).to_bytes(4, "little"))[2] == hubapp.E_OUT_OF_RANGE
    assert host.ack(hubapp, codec.SET_CONFIG, 0, b"\x0b")[2] == hubapp.E_BAD_PAYLOAD
    assert host.ack(hubapp, codec.SET_CONFIG, 9, bytes([11]) + (600).to_bytes(4, "little"))[2] == hubapp.E_NO_SUCH_SOURCE
    # A new boot keeps the setting.
    host2, _, _, _, hub2 = _hub(hubapp, tmp_path, [[]])
    assert hub2.dice[0].detector.config.settle_ms == 600
    # Per die: die 1's own setting survives a reboot too, die 0's is untouched by it.
    host2.run(10)
    assert host2.ack(hubapp, codec.SET_CONFIG, 1, bytes([12]) + (30).to_bytes(4, "little"))[2] == hubapp.E_NO_SUCH_SOURCE
    host3, _, _, _, hub3 = _hub(hubapp, tmp_path, [[], []])
    assert host3.ack(hubapp, codec.SET_CONFIG, 1, bytes([12]) + (30).to_bytes(4, "little"))[2] == hubapp.OK
    _, _, _, _, hub4 = _hub(hubapp, tmp_path, [[], []])
    assert [d.detector.config.flat_deg for d in hub4.dice] == [25, 30]
    assert [d.detector.config.settle_ms for d in hub4.dice] == [600, 280]  # set before die 1 existed
    # A damaged config file is ignored, not fatal.
    (tmp_path / "detector.cfg").write_bytes(b"TCFG\x00\x0b\x00\x00\x00\x00\x00\x00")
    _, _, _, _, hub5 = _hub(hubapp, tmp_path, [[]])
    assert hub5.dice[0].detector.config.settle_ms == D.Config().settle_ms


def test_three_face_calibration_over_the_protocol(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(4)
    mount = T.Mount.random(rng)
    samples = _rest(0, 1000, mount, 1) + _rest(1, 1000, mount, 2, 1000) + _rest(2, 1000, mount, 3, 2000)
    roll = T.clean_roll(6, 5, rng, mount, start_face=2)
    samples += [(t + 3000, x, y, z) for t, x, y, z in roll.samples]
    host, _, _, _, hub = _hub(hubapp, tmp_path, [samples])
    host.run(100)
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([0, 0]))[2] == hubapp.E_NOT_STILL
    host.run(800)
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([0, 0]))[2:4] == (hubapp.OK, 1)
    host.run(1000 - 20)
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([1, 0]))[2:4] == (hubapp.OK, 2)
    host.run(1000 - 20)
    kind, seq, status, detail, conf = host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([2, 0]))
    assert (status, detail) == (hubapp.OK, 3) and conf > 990
    cal, why = C.load(str(tmp_path / "cal0.bin"), 6)
    assert why is None and cal.method == C.METHOD_THREE_FACE and cal.revision == 1
    assert hub.dice[0].detector.normals == cal.normals
    host.run(roll.samples[-1][0] + 100)
    res = [hubapp.unpack_roll_state(f.payload) for f in _of(host.frames, codec.ROLL_STATE)]
    assert (res[-1]["state"], res[-1]["face"]) == (D.ROLLED, 5)
    # A new boot loads it.
    _, _, _, _, hub2 = _hub(hubapp, tmp_path, [[]])
    assert hub2.dice[0].cal == cal and hub2.dice[0].cal_status is None


def test_calibration_refusals_single_face_and_reset(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(5)
    mount = T.Mount()
    samples = _rest(0, 1000, mount, 1) + _rest(5, 1000, mount, 2, 1000) + _rest(3, 1000, mount, 3, 2000)
    host, _, _, _, hub = _hub(hubapp, tmp_path, [samples])
    host.run(900)
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([0, 0]))[2] == hubapp.OK
    host.run(1000 - 20)
    # Face 6 (index 5) is up but the user says index 1: geometry refuses it.
    kind, seq, status, detail, _ = host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([1, 0]))
    assert status == hubapp.OK  # two faces so far: judged when the third arrives
    host.run(1000 - 20)
    kind, seq, status, detail, _ = host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([2, 0]))
    assert status == hubapp.E_CALIBRATION and hubapp.CAL_ERRORS[detail] == "geometry"
    # Single-face: index 3 is up and nearest its canonical normal.
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([3, 1]))[2:4] == (hubapp.OK, 3)
    assert hub.dice[0].cal.method == C.METHOD_SINGLE
    kind, seq, status, detail, _ = host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([4, 1]))
    assert status == hubapp.E_CALIBRATION and hubapp.CAL_ERRORS[detail] == "wrong-face"
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([9, 0]))[2] == hubapp.E_OUT_OF_RANGE
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 3, bytes([0, 0]))[2] == hubapp.E_NO_SUCH_SOURCE
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, b"")[2] == hubapp.E_BAD_PAYLOAD
    assert host.ack(hubapp, codec.CALIBRATE_FACE, 0, bytes([0, 2]))[2] == hubapp.OK
    assert hub.dice[0].cal == C.default(6)


def test_telemetry_streams_the_raw_samples(hubapp: ModuleType, tmp_path: Path) -> None:
    rng = random.Random(6)
    tr = T.clean_roll(6, 3, rng, T.Mount())
    host, _, _, _, _ = _hub(hubapp, tmp_path, [tr.samples])
    assert host.ack(hubapp, codec.SET_TELEMETRY, 0, (100).to_bytes(2, "little"))[2] == hubapp.OK
    host.run(1000)
    assert host.ack(hubapp, codec.SET_TELEMETRY, 0, (50).to_bytes(2, "little"))[2] == hubapp.OK
    host.run(600)
    assert host.ack(hubapp, codec.SET_TELEMETRY, 0, (0).to_bytes(2, "little"))[2] == hubapp.OK
    host.run(500)
    got = []
    for f in _of(host.frames, codec.TELEMETRY):
        assert f.src == 0 and len(f.payload) <= 58
        got += hubapp.unpack_telemetry_payload(f.payload)
    by_t = {s[0]: s for s in tr.samples}
    assert got and all(by_t[s[0]] == s for s in got)  # exact samples, device time
    fast = [s for s in got if s[0] < 1000]
    slow = [s for s in got if 1040 <= s[0] < 1580]
    assert len(fast) >= 90 and all(b[0] - a[0] == 10 for a, b in zip(fast, fast[1:]))
    assert all(b[0] - a[0] == 20 for a, b in zip(slow, slow[1:]))
    assert max(s[0] for s in got) < 1640  # off means off
    assert host.ack(hubapp, codec.SET_TELEMETRY, 7, (10).to_bytes(2, "little"))[2] == hubapp.E_NO_SUCH_SOURCE


@pytest.mark.parametrize("mode,action", [(0, "reset"), (1, "repl"), (2, "bootloader")])
def test_reboot_acks_first_then_acts(hubapp: ModuleType, tmp_path: Path, mode: int, action: str) -> None:
    host, _, _, actions, _ = _hub(hubapp, tmp_path, [[]])
    seq = host.send(codec.REBOOT, hubapp.SRC_HUB, bytes([mode]))
    host.hub.step(0)
    assert actions.done == []  # the ACK goes out before the board goes away
    acks = [hubapp.unpack_ack(f.payload) for f in host.decoder.feed(host.link.take()) if f.type == codec.ACK]
    assert acks == [(codec.REBOOT, seq, hubapp.OK, 0, 0)]
    host.hub.step(10)
    assert actions.done == [action]


def test_garbage_on_the_line_is_counted_not_fatal(hubapp: ModuleType, tmp_path: Path) -> None:
    host, _, _, _, hub = _hub(hubapp, tmp_path, [[]])
    host.link.inbox += b"Traceback (most recent call last):\r\n>>> \x03\x00\x00\xff\xfe\x00"
    frame = codec.encode_frame(codec.PING, 9, hubapp.SRC_HUB, b"")
    host.link.inbox += frame[: len(frame) // 2] + b"\x00"  # a frame cut short
    host.run(20)
    assert host.ack(hubapp, codec.PING, hubapp.SRC_HUB)[2] == hubapp.OK
    assert hub.counters["rx_bad"] >= 2 and hub.counters["rx_frames"] == 1


def test_a_pulled_cable_is_counted(hubapp: ModuleType, tmp_path: Path) -> None:
    host, _, _, _, hub = _hub(hubapp, tmp_path, [_rest(1, 3000, T.Mount())])
    host.sensors[0].fail = True
    host.run(1100)
    beats = [hubapp.unpack_heartbeat(f.payload) for f in _of(host.frames, codec.HEARTBEAT)]
    assert beats[-1]["counters"]["sensor_errors"] >= 100
    host.sensors[0].fail = False
    host.run(500)
    assert any(hubapp.unpack_roll_state(f.payload)["state"] == D.ON_FACE
               for f in _of(host.frames, codec.ROLL_STATE))


def test_damaged_calibration_file_falls_back_and_says_so(hubapp: ModuleType, tmp_path: Path) -> None:
    good = C.Calibration(6, C.canonical(6)[::-1], 1000, 999, C.METHOD_THREE_FACE, 3)
    data = bytearray(C.encode(good))
    data[20] ^= 1
    (tmp_path / "cal0.bin").write_bytes(bytes(data))
    C.save(str(tmp_path / "cal1.bin"), good)
    host, _, _, _, hub = _hub(hubapp, tmp_path, [[], []])
    logs = [f.payload[1:].decode() for f in _of(host.run(10), codec.LOG)]
    assert logs == ["die 0: calibration crc, canonical normals"]
    assert hub.dice[0].cal == C.default(6) and hub.dice[1].cal == good


# The same scripted session on CPython and on MicroPython: the bytes the hub sends must
# be identical, so the board's interpreter runs this logic exactly as the tests do.
SESSION = """
def session(codec, hubapp, hubfakes, folder, samples):
    hub, link, sensors, tokens, buttons, actions = hubfakes.make_hub(hubapp, [samples], folder)
    hub.announce()
    seq = [0]

    def send(kind, src, payload):
        link.inbox += codec.encode_frame(kind, seq[0], src, payload)
        seq[0] += 1

    t = 0
    send(codec.HELLO, hubapp.SRC_HUB, b"")
    send(codec.SET_TELEMETRY, 0, bytes([100, 0]))
    t = hubfakes.run_until(hub, sensors, t, 500)
    send(codec.SET_TELEMETRY, 0, bytes([0, 0]))
    send(codec.SET_CONFIG, hubapp.SRC_ALL, bytes([11, 44, 1, 0, 0]))
    link.inbox += b"garbage>>> \\x03\\x00"
    tokens.levels[2] = True
    t = hubfakes.run_until(hub, sensors, t, 700)
    send(codec.CALIBRATE_FACE, 0, bytes([0, 0]))
    send(codec.REQUEST_STATE, hubapp.SRC_HUB, b"")
    t = hubfakes.run_until(hub, sensors, t, samples[-1][0] + 50)
    send(codec.REQUEST_STATE, hubapp.SRC_HUB, b"")
    send(codec.REBOOT, hubapp.SRC_HUB, bytes([1]))
    t = hubfakes.run_until(hub, sensors, t, t + 30)
    return link.take(), actions.done, hub.counter_values()
"""


def test_hub_session_is_byte_identical_on_micropython(hubapp: ModuleType, tmp_path: Path, mpy: Any) -> None:
    import hubfakes

    text = (HERE / "traces" / "d6-clean-roll-face3.csv").read_text()
    samples = T.parse_trace(text.splitlines()).samples
    ns: dict[str, Any] = {}
    exec(SESSION, ns)
    out, done, counters = ns["session"](codec, hubapp, hubfakes, str(tmp_path), samples)
    frames = codec.Decoder().feed(out)
    kinds = {f.type for f in frames}
    assert {codec.IDENT, codec.TELEMETRY, codec.ROLL_STATE, codec.TOKEN, codec.SNAPSHOT,
            codec.HEARTBEAT, codec.ACK} <= kinds
    assert done == ["repl"]
    program = ("import json, codec, hubapp, hubfakes, os\n"
               "os.mkdir('/store')\n"
               "SAMPLES = %r\n" % samples + SESSION +
               "out, done, counters = session(codec, hubapp, hubfakes, '/store', SAMPLES)\n"
               "print(json.dumps({'out': ''.join('%02x' % b for b in out), 'done': done,"
               " 'counters': counters}))\n")
    files = {p.name: p.read_text() for p in FIRMWARE.glob("*.py")}
    for mod in (codec, D, C, debounce, hubapp):
        files[Path(mod.__file__).name] = Path(mod.__file__).read_text()
    files["hubfakes.py"] = (HERE / "hubfakes.py").read_text()
    import json

    board = json.loads(mpy(program, files))
    assert board == {"out": out.hex(), "done": done, "counters": counters}
