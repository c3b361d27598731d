#!/usr/bin/env python3
"""Write hardware/protocol/vectors.json: the protocol's test vectors.

    python hardware/protocol/make_vectors.py [--check]

Each valid vector is a message with its decoded meaning (header and payload fields) and
its exact wire bytes; each invalid one is wire bytes with the reason a receiver drops
them. The wire bytes are produced by the codec (firmware_bridge/shared/codec.py); the
host tests then check every vector against an independent implementation (binascii's
CRC, a separate COBS) and against the codec on CPython and on MicroPython, so the file
pins the byte layout for both ends. ``--check`` exits 1 if the file is out of date.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vectors_check  # noqa: E402

from firmware_bridge.shared import codec as c  # noqa: E402

OUT = Path(__file__).resolve().parent / "vectors.json"

# (description, type, seq, src, fields): fields in the shape codec.unpack_payload gives,
# with bytes as hex strings. Every message type at least once.
MESSAGES: list[tuple[str, int, int, int, Any]] = [
    ("IDENT of a hub with two d6 at boot", c.IDENT, 0, c.SRC_HUB,
     {"major": 2, "minor": 0, "version": "0.1.0", "uid": "e66038b7136b2a2f",
      "boot_id": 0x12345678, "caps": 31, "tokens": 6, "buttons": 4, "faces": [6, 6]}),
    ("IDENT of a one-d20 hub, firmware 1.2.3, no tokens or buttons", c.IDENT, 17, c.SRC_HUB,
     {"major": 2, "minor": 0, "version": "1.2.3", "uid": "0000000000000001",
      "boot_id": 0, "caps": 1 | 8 | 16, "tokens": 0, "buttons": 0, "faces": [20]}),
    ("ROLL_STATE: die 0 rolled, face index 3", c.ROLL_STATE, 5, 0,
     {"state": 1, "face": 3, "confidence": 998, "t_ms": 123456, "counter": 7}),
    ("ROLL_STATE: die 1 picked up (handling)", c.ROLL_STATE, 6, 1,
     {"state": 2, "face": 3, "confidence": 0, "t_ms": 4294967295, "counter": 65535}),
    ("ROLL_STATE: die 1 rolling", c.ROLL_STATE, 7, 1,
     {"state": 3, "face": 0, "confidence": 0, "t_ms": 130010, "counter": 0}),
    ("ROLL_STATE: die 0 crooked, leaning 30 degrees", c.ROLL_STATE, 8, 0,
     {"state": 4, "face": 5, "confidence": 866, "t_ms": 130500, "counter": 8}),
    ("ROLL_STATE: die 0 put down by hand (onFace), negative confidence", c.ROLL_STATE, 9, 0,
     {"state": 5, "face": 2, "confidence": -12, "t_ms": 1, "counter": 9}),
    ("ROLL_STATE at boot: unknown", c.ROLL_STATE, 1, 0,
     {"state": 0, "face": 0, "confidence": 0, "t_ms": 0, "counter": 0}),
    ("REPLAY: die 1's result from the hub's queue, resent before a SNAPSHOT", c.REPLAY, 25, 1,
     {"state": 1, "face": 5, "confidence": 991, "t_ms": 98765, "counter": 12}),
    ("TOKEN: slot 2 placed", c.TOKEN, 10, c.SRC_TOKENS,
     {"index": 2, "active": True, "bits": 0b100, "t_ms": 5000, "counter": 1}),
    ("TOKEN: slot 2 removed", c.TOKEN, 11, c.SRC_TOKENS,
     {"index": 2, "active": False, "bits": 0, "t_ms": 7000, "counter": 2}),
    ("BUTTON: button 3 pressed", c.BUTTON, 12, c.SRC_BUTTONS,
     {"index": 3, "active": True, "bits": 0b1000, "t_ms": 8000, "counter": 1}),
    ("HEARTBEAT with every counter", c.HEARTBEAT, 13, c.SRC_HUB,
     {"uptime_ms": 61000, "counters": {"rx_frames": 12, "rx_bad": 1, "tx_frames": 140,
                                       "commands": 12, "naks": 0, "sensor_errors": 0,
                                       "fifo_overruns": 0, "rolls": 4, "tokens": 2,
                                       "buttons": 1}}),
    ("HEARTBEAT of an older firmware with three counters", c.HEARTBEAT, 14, c.SRC_HUB,
     {"uptime_ms": 1000, "counters": {"rx_frames": 0, "rx_bad": 0, "tx_frames": 3}}),
    ("BATTERY: 3.71 V, 64 %, not charging", c.BATTERY, 15, c.SRC_HUB,
     {"millivolts": 3712, "percent": 64, "charging": False}),
    ("BATTERY: no fuel gauge, charging", c.BATTERY, 16, c.SRC_HUB,
     {"millivolts": 4150, "percent": None, "charging": True}),
    ("SNAPSHOT of two dice, a token and no button", c.SNAPSHOT, 18, c.SRC_HUB,
     {"t_ms": 200000, "tokens": 0b100, "buttons": 0,
      "dice": [{"state": 1, "face": 3, "confidence": 998, "counter": 7, "cal_revision": 2,
                "calibrated": True},
               {"state": 5, "face": 0, "confidence": 1000, "counter": 0, "cal_revision": 0,
                "calibrated": False}]}),
    ("SNAPSHOT of a hub without dice", c.SNAPSHOT, 19, c.SRC_HUB,
     {"t_ms": 0, "tokens": 0, "buttons": 0, "dice": []}),
    ("TELEMETRY: six raw samples of die 0", c.TELEMETRY, 20, 0,
     {"samples": [[1000, 12, -3, 1002], [1010, 9, -1, 998], [1020, -2500, 1200, 300],
                  [1030, 0, 0, 0], [1040, -32768, 32767, -1], [1050, 1, 2, 3]]}),
    ("LOG warning", c.LOG, 21, c.SRC_HUB,
     {"level": 2, "text": "die 0: calibration missing, canonical normals"}),
    ("LOG of the longest text (57 bytes, a 58-byte payload)", c.LOG, 255, c.SRC_HUB,
     {"level": 3, "text": "x" * 57}),
    ("ACK: PING seq 4 ok", c.ACK, 22, c.SRC_HUB,
     {"type": c.PING, "seq": 4, "status": 0, "detail": 0, "value": 0}),
    ("ACK: CALIBRATE_FACE done, 3 faces, confidence 997", c.ACK, 23, 0,
     {"type": c.CALIBRATE_FACE, "seq": 9, "status": 0, "detail": 3, "value": 997}),
    ("ACK: SET_CONFIG refused, out of range", c.ACK, 24, 0,
     {"type": c.SET_CONFIG, "seq": 10, "status": 4, "detail": 0, "value": 0}),
    ("HELLO from the host", c.HELLO, 0, c.SRC_HUB, None),
    ("REQUEST_STATE", c.REQUEST_STATE, 1, c.SRC_HUB, None),
    ("PING", c.PING, 2, c.SRC_HUB, None),
    ("SET_CONFIG: settle_ms (key 11) = 600 on every die", c.SET_CONFIG, 3, c.SRC_ALL,
     {"key": 11, "value": 600}),
    ("SET_CONFIG: a negative value on die 1", c.SET_CONFIG, 4, 1,
     {"key": 7, "value": -45}),
    ("CALIBRATE_FACE: die 0, face index 2, three-face step", c.CALIBRATE_FACE, 5, 0,
     {"face": 2, "mode": 0}),
    ("CALIBRATE_FACE: die 1, single face 4", c.CALIBRATE_FACE, 6, 1,
     {"face": 4, "mode": 1}),
    ("SET_TELEMETRY: die 0 at 100 Hz", c.SET_TELEMETRY, 7, 0, {"rate_hz": 100}),
    ("SET_TELEMETRY: off for every die", c.SET_TELEMETRY, 8, c.SRC_ALL, {"rate_hz": 0}),
    ("REBOOT to the REPL", c.REBOOT, 9, c.SRC_HUB, {"mode": 1}),
    ("REBOOT normal", c.REBOOT, 10, c.SRC_HUB, {"mode": 0}),
]

# Raw frames: header and payload bytes without a meaning (framing edge cases).
RAW: list[tuple[str, int, int, int, str]] = [
    ("an unknown type is delivered (receivers ignore it)", 0x42, 3, 2, "0102030003"),
    ("a 58-byte payload of zeros: every byte a COBS code", c.LOG, 9, c.SRC_HUB, "00" * 58),
    ("a 58-byte payload of 0xff (an unknown type: no length rule)", 0x42, 200, c.SRC_ALL, "ff" * 58),
    ("a payload 0..57 (a HEARTBEAT with 27 counters of a newer minor)", c.HEARTBEAT, 7, c.SRC_TOKENS, bytes(range(58)).hex()),
]


def unhex(s: str) -> bytes:
    return bytes.fromhex(s)


def pack(kind: int, fields: Any) -> bytes:
    """Payload bytes from a vector's fields (the inverse of codec.unpack_payload)."""
    return vectors_check.pack_fields(c, kind, fields)


def _raw_wire(body: bytes, crc: int | None = None) -> bytes:
    """A body framed by hand, with its own check or a given (wrong) CRC."""
    enc = c.cobs_encode(body)
    crc = c.crc16(enc) if crc is None else crc
    return enc + c.pack_check(crc) + b"\x00"


def _major1_wire(body: bytes) -> bytes:
    """A frame as protocol major 1 framed it: COBS(body + CRC of the body, low byte first)."""
    crc = c.crc16(body)
    return c.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00"


def invalid() -> list[dict[str, str]]:
    ping = c.encode_frame(c.PING, 4, c.SRC_HUB)
    roll = c.encode_frame(c.ROLL_STATE, 5, 0, c.pack_roll_state(1, 3, 998, 123456, 7))
    body = bytearray([c.PROTOCOL_MAJOR, c.ROLL_STATE, 5, 0]) + c.pack_roll_state(1, 3, 998, 123456, 7)
    good_crc = c.crc16(c.cobs_encode(bytes(body)))
    flipped = bytearray(body)
    flipped[5] ^= 0x01  # face index 3 -> 2, CRC of the original
    banner = (b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n"
              b"Type \"help()\" for more information.\r\n>>> ")
    check = c.pack_check(good_crc)
    cases = [
        ("a payload bit flipped (face 3 read as 2): CRC mismatch", _raw_wire(bytes(flipped), good_crc), c.DROP_CRC),
        ("the CRC's high bits damaged", _raw_wire(bytes(body), good_crc ^ 0x0400), c.DROP_CRC),
        ("the check's last byte not of the form 1100xxxx",
         c.cobs_encode(bytes(body)) + check[:2] + bytes([check[2] & 0x8F]) + b"\x00", c.DROP_CRC),
        ("a ROLL_STATE cut after 9 of its 19 bytes", roll[:9] + b"\x00", c.DROP_CRC),
        ("a ROLL_STATE cut after 14 of its 19 bytes", roll[:14] + b"\x00", c.DROP_CRC),
        ("a PING cut after its first 4 bytes", ping[:4] + b"\x00", c.DROP_SHORT),
        ("a well-formed frame of protocol major 3", _raw_wire(bytes([3, c.PING, 0, c.SRC_HUB])), c.DROP_VERSION),
        ("protocol major 0", _raw_wire(bytes([0, c.IDENT, 0, c.SRC_HUB])), c.DROP_VERSION),
        ("a PING of protocol major 1 (the CRC of the decoded body)",
         _major1_wire(bytes([1, c.PING, 2, c.SRC_HUB])), c.DROP_VERSION),
        ("an IDENT of protocol major 1",
         _major1_wire(bytes([1, c.IDENT, 0, c.SRC_HUB, 1, 0, 0, 1, 0]) + bytes(8) + bytes([1, 2, 3, 4, 31, 0, 1, 6])),
         c.DROP_VERSION),
        ("a CRC-valid COBS chain broken inside",
         bytes([9, 2, 0x87, 1, 0xFE]) + c.pack_check(c.crc16(bytes([9, 2, 0x87, 1, 0xFE]))) + b"\x00", c.DROP_COBS),
        ("the check alone and a header byte: less than a header", bytes([2, 2]) + c.pack_check(c.crc16(bytes([2, 2]))) + b"\x00", c.DROP_SHORT),
        ("a lone byte", b"\x01\x00", c.DROP_SHORT),
        ("a stray Ctrl-C", b"\x03\x00", c.DROP_SHORT),
        ("a ROLL_STATE with two bytes too many (major 1's appended fields)",
         _raw_wire(bytes(body) + b"\x00\xaa"), c.DROP_LENGTH),
        ("a SNAPSHOT announcing two dice and carrying one",
         _raw_wire(bytes([2, c.SNAPSHOT, 3, c.SRC_HUB]) + c.pack_snapshot(0, [(1, 2, 900, 4, 0, True)], 0, 0)[:12]
                   + bytes([2]) + c.pack_snapshot(0, [(1, 2, 900, 4, 0, True)], 0, 0)[13:]), c.DROP_LENGTH),
        ("a 59-byte payload with a valid CRC: longer than any frame",
         _raw_wire(bytes([2, c.LOG, 0, c.SRC_HUB]) + b"y" * 59), c.DROP_OVERSIZE),
        ("70 bytes of line noise without a delimiter, then one", bytes(range(1, 71)) + b"\x00", c.DROP_OVERSIZE),
        ("the MicroPython boot banner and prompt", banner + b"\x00", c.DROP_TEXT),
        ("a REPL prompt glued to the front of a PING", b">>> " + ping, c.DROP_TEXT),
        ("a traceback line", b"Traceback (most recent call last):\r\n\x00", c.DROP_TEXT),
    ]
    return [{"name": n, "wire": w.hex(), "reason": r} for n, w, r in cases]


def build() -> dict[str, Any]:
    frames = []
    for name, kind, seq, src, fields in MESSAGES:
        payload = pack(kind, fields)
        frames.append({"name": name, "type": c.TYPE_NAMES[kind], "type_id": kind, "seq": seq,
                       "src": src, "payload": payload.hex(), "fields": fields,
                       "wire": c.encode_frame(kind, seq, src, payload).hex()})
    for name, kind, seq, src, payload_hex in RAW:
        frames.append({"name": name, "type": c.TYPE_NAMES.get(kind, "0x%02x" % kind),
                       "type_id": kind, "seq": seq, "src": src, "payload": payload_hex,
                       "fields": None if kind == 0x42 else c.unpack_payload(kind, unhex(payload_hex)),
                       "wire": c.encode_frame(kind, seq, src, unhex(payload_hex)).hex(),
                       "raw": True})
    for f in frames:
        if isinstance(f["fields"], dict) and isinstance(f["fields"].get("uid"), bytes):
            f["fields"]["uid"] = f["fields"]["uid"].hex()
    stream = b"".join(unhex(f["wire"]) + (b"Traceback\r\n>>> \x03\x00" if i % 3 == 0 else b"")
                      for i, f in enumerate(frames[:9]))
    return {
        "format": "tabletop-companion dice-hub protocol vectors 2",
        "protocol": {"major": c.PROTOCOL_MAJOR, "minor": c.PROTOCOL_MINOR,
                     "max_payload": c.MAX_PAYLOAD, "max_encoded": c.MAX_ENCODED},
        "types": {name: kind for kind, name in sorted(c.TYPE_NAMES.items())},
        "crc16": [{"data": d.hex(), "crc": c.crc16(d)} for d in
                  (b"123456789", b"", b"\x00", b"\xff" * 4, bytes(range(64)))],
        "cobs": [{"data": d.hex(), "encoded": c.cobs_encode(d).hex()} for d in
                 (b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", b"\x11\x00\x00\x00",
                  bytes(range(1, 64)), bytes(254), bytes(range(1, 255)) + b"\x01")],
        "frames": frames,
        "invalid": invalid(),
        "streams": [{"name": "nine frames with REPL text, a Ctrl-C and a delimiter between every third",
                     "wire": stream.hex(),
                     "frames": [f["wire"] for f in frames[:9]],
                     "drops": {"text": 3}}],
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="exit 1 if vectors.json is stale")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        return 0 if OUT.read_text() == text else 1
    OUT.write_text(text)
    print("wrote %s" % OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
