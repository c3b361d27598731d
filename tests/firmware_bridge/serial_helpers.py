"""Fakes for the serial-source tests: a scripted hub on pyserial's ``loop://`` port, a
clock the test can jump, and an event collector.

``LoopHub`` is pyserial's loop:// port with the hub's side grafted on: what the host
writes is decoded as commands and answered (HELLO → IDENT, REQUEST_STATE → SNAPSHOT,
PING → ACK) into the loop, and the test pushes whatever else the hub should say. Its
``plug``/``unplug`` make the port fail as a pulled USB cable does (reads raise
``SerialException``, opening raises), so the connection's reconnect path runs for real.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable

import serial
from serial.urlhandler.protocol_loop import Serial as LoopSerial

from firmware_bridge import events as E
from firmware_bridge.shared import codec


class FakeClock:
    """Real monotonic time plus an offset the test can jump (to make 3 s of silence pass
    at once while the connection's own reads and waits run in real time)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def jump(self, seconds: float) -> None:
        self.offset += seconds


class HubState:
    """What the fake hub is and knows; shared by every port object opened on it."""

    def __init__(self, faces: tuple[int, ...] = (6, 6), boot_id: int = 0x1234ABCD,
                 major: int = codec.PROTOCOL_MAJOR, frame_version: int = codec.PROTOCOL_MAJOR,
                 answer_hello: bool = True, tokens: int = 8, buttons: int = 4) -> None:
        self.faces = faces
        self.boot_id = boot_id
        self.major = major
        self.frame_version = frame_version
        self.answer_hello = answer_hello
        self.token_count = tokens  # what IDENT announces
        self.button_count = buttons
        self.major1_framing = False  # frames as protocol major 1 framed them (old firmware)
        self.uid = b"\xe6\x60\x38\xb7\x13\x4f\x2a\x2b"
        self.seq = 0
        self.dice = [[0, 0, 1000, 0] for _ in faces]  # state, face, confidence, counter
        self.tokens = 0
        self.buttons = 0
        self.plugged = True
        self.port: "LoopHub | None" = None
        self.commands: list[codec.Frame] = []
        self.lock = threading.RLock()
        self.opened = 0
        self.after_ident: list[tuple[int, int, bytes]] = []

    # -- what the hub says -----------------------------------------------------------------

    def frame(self, kind: int, src: int, payload: bytes = b"", seq: int | None = None) -> bytes:
        with self.lock:
            if seq is None:
                seq = self.seq
                self.seq = (self.seq + 1) & 0xFF
            if self.major1_framing:
                body = bytes([1, kind, seq, src]) + payload
                crc = codec.crc16(body)
                return codec.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00"
            return codec.encode_frame(kind, seq, src, payload, version=self.frame_version)

    def send(self, kind: int, src: int, payload: bytes = b"", seq: int | None = None) -> bytes:
        data = self.frame(kind, src, payload, seq)
        self.raw(data)
        return data

    def raw(self, data: bytes) -> None:
        with self.lock:
            if self.port is not None and self.port.is_open and self.plugged:
                LoopSerial.write(self.port, data)

    def ident_payload(self) -> bytes:
        return codec.pack_ident("0.3.0", self.uid, self.boot_id,
                                31, list(self.faces), major=self.major,
                                tokens=self.token_count, buttons=self.button_count)

    def roll(self, die: int, face: int, state: int = 1, confidence: int = 990) -> int:
        """A finished roll of ``die``: bumps its counter and sends ROLL_STATE (unless
        unplugged: then only the state changes, as a hub rolling with no host)."""
        with self.lock:
            d = self.dice[die]
            d[3] = (d[3] + 1) & 0xFFFF
            d[0], d[1], d[2] = state, face, confidence
            if self.plugged:
                self.send(codec.ROLL_STATE, die, codec.pack_roll_state(state, face, confidence, 0, d[3]))
            return d[3]

    def resend_roll(self, die: int) -> None:
        d = self.dice[die]
        self.send(codec.ROLL_STATE, die, codec.pack_roll_state(d[0], d[1], d[2], 0, d[3]))

    def token(self, index: int, on: bool) -> None:
        with self.lock:
            self.tokens = self.tokens | (1 << index) if on else self.tokens & ~(1 << index)
            if self.plugged:
                self.send(codec.TOKEN, codec.SRC_TOKENS, codec.pack_switch(index, on, self.tokens, 0, 1))

    def snapshot_payload(self) -> bytes:
        return codec.pack_snapshot(0, [(d[0], d[1], d[2], d[3], 1, True) for d in self.dice],
                                   self.tokens, self.buttons)

    def reboot(self, boot_id: int) -> None:
        """A new boot: fresh counters and sequence, IDENT announced unasked."""
        with self.lock:
            self.boot_id = boot_id
            self.seq = 0
            self.dice = [[0, 0, 1000, 0] for _ in self.faces]
            self.send(codec.IDENT, codec.SRC_HUB, self.ident_payload())

    # -- what the hub hears ----------------------------------------------------------------

    def hear(self, frame: codec.Frame) -> None:
        with self.lock:
            self.commands.append(frame)
            if frame.type == codec.HELLO and self.answer_hello:
                # The IDENT and whatever the hub says next, in one write: the host
                # reads them in one chunk.
                data = self.frame(codec.IDENT, codec.SRC_HUB, self.ident_payload())
                for kind, src, payload in self.after_ident:
                    data += self.frame(kind, src, payload)
                self.raw(data)
            elif frame.type == codec.REQUEST_STATE:
                self.send(codec.SNAPSHOT, codec.SRC_HUB, self.snapshot_payload())
            elif frame.type == codec.PING:
                self.send(codec.ACK, frame.src, codec.pack_ack(frame.type, frame.seq, codec.OK))

    def heard(self, kind: int) -> int:
        with self.lock:
            return sum(1 for f in self.commands if f.type == kind)

    # -- the cable -------------------------------------------------------------------------

    def unplug(self) -> None:
        with self.lock:
            self.plugged = False

    def plug(self) -> None:
        with self.lock:
            self.plugged = True

    def open_port(self, url: str, **settings: Any) -> "LoopHub":
        """The ``open_port`` to give HubConnection."""
        with self.lock:
            if not self.plugged:
                raise serial.SerialException("[Errno 2] could not open port %s: No such file" % url)
            port = LoopHub(self, "loop://", **settings)
            self.port = port
            self.opened += 1
            return port


class LoopHub(LoopSerial):
    """A loop:// port whose far end is ``HubState``."""

    def __init__(self, hub: HubState, *args: Any, **kw: Any) -> None:
        self.hub = hub
        self.decoder = codec.Decoder()
        kw.pop("exclusive", None)
        super().__init__(*args, **kw)

    def write(self, data: bytes) -> int:
        if not self.hub.plugged:
            raise serial.SerialException("write failed: [Errno 5] Input/output error")
        for frame in self.decoder.feed(bytes(data)):
            self.hub.hear(frame)
        return len(data)

    def read(self, size: int = 1) -> bytes:
        if not self.hub.plugged:
            time.sleep(0.001)
            raise serial.SerialException("device reports readiness to read but returned no data")
        return super().read(size)

    @property
    def in_waiting(self) -> int:
        if not self.hub.plugged:
            raise serial.SerialException("[Errno 5] Input/output error")
        return super().in_waiting


class Collector:
    """``on_event`` that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[E.Event] = []
        self.cond = threading.Condition()

    def __call__(self, event: E.Event) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def of(self, cls: type) -> list[Any]:
        with self.cond:
            return [e for e in self.events if isinstance(e, cls)]

    def wait_for(self, pred: Callable[[list[E.Event]], bool], timeout: float = 5.0) -> bool:
        end = time.monotonic() + timeout
        with self.cond:
            while not pred(self.events):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return True

    def wait_count(self, cls: type, n: int, timeout: float = 5.0) -> list[Any]:
        ok = self.wait_for(lambda evs: sum(isinstance(e, cls) for e in evs) >= n, timeout)
        got = self.of(cls)
        assert ok, "waited for %d %s, got %d: %r" % (n, cls.__name__, len(got), self.events[-10:])
        return got


def wait_until(pred: Callable[[], bool], timeout: float = 5.0, step: float = 0.005) -> bool:
    """Poll ``pred`` until true (a correctness wait with a generous bound, not a timing
    assertion: the test fails only if it never happens)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


def drain(q: "queue.Queue[Any]") -> list[Any]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out
