"""The hub's payloads as small typed host-side values. The byte layouts live once, in
the shared codec (``firmware_bridge.shared.codec.unpack_*``, the firmware's own); this
module only gives their plain dicts names and types. A payload too short for the fields
a message needs raises ``codec.FrameError`` (a ``ValueError``, code "payload"); extra
trailing bytes (a newer minor) are ignored.

>>> r = parse_roll_state(codec.pack_roll_state(1, 3, 987, 5000, 17))
>>> r.state_name, r.face, r.counter, r.is_result
('rolled', 3, 17, True)
>>> parse_roll_state(b"\\x01\\x03")
Traceback (most recent call last):
...
firmware_bridge.shared.codec.FrameError: ROLL_STATE payload of 2 bytes: needs at least 10
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.shared import codec

__all__ = [
    "Ident", "RollState", "SwitchChange", "Heartbeat", "DieSnapshot", "Snapshot", "Ack",
    "Battery", "parse_ident", "parse_roll_state", "parse_switch", "parse_heartbeat",
    "parse_snapshot", "parse_ack", "parse_battery", "parse_log", "STATE_NAMES",
    "RESULT_STATES",
]

STATE_NAMES = codec.STATE_NAMES
# rolled, crooked, onFace: a die at rest on a face (the other three: moving / not known)
RESULT_STATES = frozenset((1, 4, 5))


def _state_name(state: int) -> str:
    return STATE_NAMES[state] if state < len(STATE_NAMES) else "unknown"


class _DieState:
    """What a die's ``state`` byte means, shared by ROLL_STATE and a SNAPSHOT's dice."""

    __slots__ = ()
    state: int

    @property
    def state_name(self) -> str:
        return _state_name(self.state)

    @property
    def is_result(self) -> bool:
        return self.state in RESULT_STATES


@dataclass(frozen=True, slots=True)
class Ident:
    """IDENT: who the hub is. ``boot_id`` is random per boot: a new one means the hub
    restarted and its counters and sequence numbers began again.

    >>> i = parse_ident(codec.pack_ident("0.2.1", bytes(range(8)), 77, 31, [6, 20]))
    >>> (i.protocol, i.firmware, i.uid.hex(), i.boot_id, i.faces, i.tokens)
    ('2.0', '0.2.1', '0001020304050607', 77, (6, 20), 0)
    """

    major: int
    minor: int
    firmware: str
    uid: bytes
    boot_id: int
    capabilities: int
    faces: tuple[int, ...]
    tokens: int = 0  # token slots on the hub: indexes 0..tokens-1
    buttons: int = 0

    @property
    def protocol(self) -> str:
        return "%d.%d" % (self.major, self.minor)


def parse_ident(payload: bytes) -> Ident:
    d = codec.unpack_ident(payload)
    return Ident(d["major"], d["minor"], d["version"], d["uid"], d["boot_id"], d["caps"],
                 tuple(d["faces"]), d["tokens"], d["buttons"])


@dataclass(frozen=True, slots=True)
class RollState(_DieState):
    """ROLL_STATE of one die: ``face`` is an index (0..faces-1), never a face value."""

    state: int
    face: int
    confidence: int  # cosine x 1000
    t_ms: int
    counter: int


def parse_roll_state(payload: bytes) -> RollState:
    d = codec.unpack_roll_state(payload)
    return RollState(d["state"], d["face"], d["confidence"], d["t_ms"], d["counter"])


@dataclass(frozen=True, slots=True)
class SwitchChange:
    """TOKEN or BUTTON: one input changed; ``bits`` is every input of the bank now.

    >>> parse_switch(codec.pack_switch(2, True, 0b100, 10, 3))
    SwitchChange(index=2, active=True, bits=4, t_ms=10, counter=3)
    """

    index: int
    active: bool
    bits: int
    t_ms: int
    counter: int


def parse_switch(payload: bytes) -> SwitchChange:
    d = codec.unpack_switch(payload)
    return SwitchChange(d["index"], d["active"], d["bits"], d["t_ms"], d["counter"])


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """HEARTBEAT: the hub's uptime and its own counters (u16, wrapping), in wire order.

    >>> hb = parse_heartbeat(codec.pack_heartbeat(1500, [9, 1]))
    >>> hb.uptime_ms, hb.counter("rx_bad"), hb.counter("rolls")
    (1500, 1, None)
    """

    uptime_ms: int
    counters: tuple[tuple[str, int], ...]

    def counter(self, name: str) -> int | None:
        return dict(self.counters).get(name)


def parse_heartbeat(payload: bytes) -> Heartbeat:
    d = codec.unpack_heartbeat(payload)
    return Heartbeat(d["uptime_ms"], tuple((n, d["counters"][n]) for n in codec.COUNTER_NAMES
                                           if n in d["counters"]))


@dataclass(frozen=True, slots=True)
class DieSnapshot(_DieState):
    state: int
    face: int
    confidence: int
    counter: int
    cal_revision: int
    calibrated: bool


@dataclass(frozen=True, slots=True)
class Snapshot:
    """SNAPSHOT: the hub's whole state, the answer to REQUEST_STATE.

    >>> s = parse_snapshot(codec.pack_snapshot(9, [(1, 2, 999, 4, 1, True)], 1, 0))
    >>> s.tokens, s.dice[0].counter, s.dice[0].calibrated
    (1, 4, True)
    """

    t_ms: int
    tokens: int
    buttons: int
    dice: tuple[DieSnapshot, ...]


def parse_snapshot(payload: bytes) -> Snapshot:
    d = codec.unpack_snapshot(payload)
    dice = tuple(DieSnapshot(x["state"], x["face"], x["confidence"], x["counter"],
                             x["cal_revision"], x["calibrated"]) for x in d["dice"])
    return Snapshot(d["t_ms"], d["tokens"], d["buttons"], dice)


@dataclass(frozen=True, slots=True)
class Ack:
    """ACK: the command type and sequence number it answers, a status (0 ok; names in
    ``codec.STATUS_NAMES``), a detail byte and a value (meaning per command)."""

    kind: int
    seq: int
    status: int
    detail: int = 0
    value: int = 0

    @property
    def ok(self) -> bool:
        return self.status == codec.OK


def parse_ack(payload: bytes) -> Ack:
    return Ack(*codec.unpack_ack(payload))


@dataclass(frozen=True, slots=True)
class Battery:
    millivolts: int
    percent: int | None  # None: the hub has no fuel gauge
    charging: bool


def parse_battery(payload: bytes) -> Battery:
    d = codec.unpack_battery(payload)
    return Battery(d["millivolts"], d["percent"], d["charging"])


def parse_log(payload: bytes) -> tuple[int, str]:
    """(level, text): level 1 info, 2 warning, 3 error."""
    d = codec.unpack_log(payload)
    return d["level"], d["text"]
