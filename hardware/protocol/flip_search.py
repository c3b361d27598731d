#!/usr/bin/env python3
"""Search two-bit wire errors that turn a frame into a different valid message, under
protocol 1.0's framing (CRC of the decoded body, inside the COBS) and the current one
(CRC of the encoded bytes). The figures in PROTOCOL.md §1 ("Corruption") come from

    python hardware/protocol/flip_search.py 800 7      # messages, seed (about 10 min)

Only pairs that can change a frame's structure are tried: at least one bit in a COBS
code byte, in the delimiter, or in a byte that one flip turns to zero. Any other pair
leaves the framing as it was and is a two-bit error under the CRC, which a CRC-16 of
Hamming distance 4 always detects, so the count over these pairs is the count over all.
It prints each message that let an error through (the test MAJOR1_WEAK list in
tests/firmware_bridge/test_codec.py is the 1.0 output of the command above).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from firmware_bridge.shared import codec as c  # noqa: E402

Message = tuple[int, int, int, bytes]


def encode_major1(kind: int, seq: int, src: int, payload: bytes) -> bytes:
    body = bytes([1, kind, seq, src]) + payload
    crc = c.crc16(body)
    return c.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00"


def decode_major1(run: bytes) -> Message:
    raw = c.cobs_decode(run)
    if len(raw) < 6 or c.crc16(raw[:-2]) != raw[-2] | (raw[-1] << 8) or raw[0] != 1:
        raise c.FrameError(c.DROP_CRC, "not a 1.0 frame")
    return raw[1], raw[2], raw[3], raw[4:-2]


def decode_current(run: bytes) -> Message:
    f = c.decode_frame(run)
    return f.type, f.seq, f.src, f.payload


def messages(rng: random.Random, n: int) -> list[Message]:
    """Frames as a hub sends them: small counters, mostly-zero payloads."""
    out: list[Message] = []
    for _ in range(n):
        k = rng.choice("RRRRTSHIAX")
        seq = rng.randrange(256)
        if k == "R":
            out.append((c.ROLL_STATE, seq, rng.randrange(4), c.pack_roll_state(
                rng.choice([1, 2, 3, 4, 5]), rng.randrange(6),
                rng.choice([0, 1000, rng.randrange(-1000, 1000)]), rng.randrange(200000),
                rng.randrange(300))))
        elif k == "T":
            out.append((c.TOKEN, seq, c.SRC_TOKENS, c.pack_switch(
                rng.randrange(6), rng.random() < .5, rng.randrange(64), rng.randrange(100000),
                rng.randrange(50))))
        elif k == "S":
            count = rng.randrange(1, 4)
            t_ms = rng.randrange(100000)
            dice = [(1, rng.randrange(6), 1000, rng.randrange(20), rng.randrange(3), True)
                    for _ in range(count)]
            out.append((c.SNAPSHOT, seq, c.SRC_HUB, c.pack_snapshot(t_ms, dice, rng.randrange(8), 0)))
        elif k == "H":
            out.append((c.HEARTBEAT, seq, c.SRC_HUB, c.pack_heartbeat(
                rng.randrange(10 ** 6), [rng.randrange(3) for _ in range(10)])))
        elif k == "I":
            out.append((c.IDENT, seq, c.SRC_HUB, c.pack_ident(
                "0.1.0", bytes(8), rng.randrange(2 ** 32), 31, [6] * rng.randrange(1, 4),
                tokens=6, buttons=4)))
        elif k == "A":
            out.append((c.ACK, seq, rng.randrange(4), c.pack_ack(c.PING, rng.randrange(256), 0)))
        else:
            out.append((c.ROLL_STATE, seq, 0, c.pack_roll_state(1, 0, 0, 0, 0)))
    return out


def structural_pairs(wire: bytes, cobs_len: int) -> set[tuple[int, int]]:
    special = {len(wire) - 1}
    i = 0
    while i < cobs_len:  # the COBS code bytes
        special.add(i)
        i += wire[i]
    special |= {k for k, b in enumerate(wire) if b and b & (b - 1) == 0}
    bits = len(wire) * 8
    return {(min(x, y), max(x, y)) for k in special for x in range(k * 8, k * 8 + 8)
            for y in range(bits) if y != x}


def search(msgs: list[Message], encode: Callable[..., bytes], decode: Callable[[bytes], Message],
           check_len: int) -> tuple[int, int, list[Message]]:
    passed, total, weak = 0, 0, []
    for m in msgs:
        wire = encode(*m)
        sent = decode(wire[:-1])
        hit = False
        for i, j in structural_pairs(wire, len(wire) - 1 - check_len):
            g = bytearray(wire)
            g[i >> 3] ^= 1 << (i & 7)
            g[j >> 3] ^= 1 << (j & 7)
            total += 1
            for run in bytes(g).split(b"\x00"):
                if run and len(run) <= c.MAX_ENCODED:
                    try:
                        got = decode(run)
                    except c.FrameError:
                        continue
                    if got != sent:
                        passed += 1
                        hit = True
        if hit:
            weak.append(m)
    return passed, total, weak


def main(argv: list[str]) -> int:
    n, seed = (int(argv[0]), int(argv[1])) if len(argv) >= 2 else (800, 7)
    msgs = messages(random.Random(seed), n)
    for name, enc, dec, check_len in (
            ("1.0", encode_major1, decode_major1, 0),
            ("%d.%d" % (c.PROTOCOL_MAJOR, c.PROTOCOL_MINOR),
             lambda *m: c.encode_frame(*m), decode_current, c.CHECK_LEN)):
        t = time.monotonic()
        passed, total, weak = search(msgs, enc, dec, check_len)
        print("protocol %s: %d of %d structural two-bit flips of %d frames became another "
              "valid message (%.0f s)" % (name, passed, total, n, time.monotonic() - t), flush=True)
        for kind, seq, src, payload in weak:
            print("  (%d, %d, %d, %r)," % (kind, seq, src, payload.hex()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
