"""The protocol codec (firmware_bridge/shared/codec.py) against its test vectors, an
independent implementation (binascii's CRC, a separate COBS), property tests, fuzzing
and exhaustive single- and double-bit corruption of every valid vector frame."""
from __future__ import annotations

import binascii
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared import codec as c

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "hardware" / "protocol"
sys.path.insert(0, str(PROTOCOL))
import vectors_check  # noqa: E402

VECTORS: dict[str, Any] = json.loads((PROTOCOL / "vectors.json").read_text())
VALID = [bytes.fromhex(f["wire"]) for f in VECTORS["frames"]]


def ref_cobs_decode(enc: bytes) -> bytes:
    """COBS decoding written the other way round (by splitting at the code positions),
    to check the codec's bytes independently."""
    out, pos = [], 0
    while pos < len(enc):
        code = enc[pos]
        assert code != 0
        out.append(enc[pos + 1:pos + code])
        pos += code
        if code == 0xFF:
            out.append(None)  # no zero after a full block
    assert pos == len(enc)
    joined = b""
    for i, block in enumerate(out):
        if block is None:
            continue
        joined += block
        if i + 1 < len(out) and out[i + 1] is not None:
            joined += b"\x00"
    return joined


# -- vectors ------------------------------------------------------------------------

def test_vectors_hold_with_both_crc_paths() -> None:
    assert vectors_check.check(c, VECTORS)["failures"] == []
    assert vectors_check.check(c, VECTORS, table_only=True)["failures"] == []


def test_vectors_file_is_up_to_date() -> None:
    """vectors.json is what make_vectors.py writes (edit the script, not the file)."""
    proc = subprocess.run([sys.executable, str(PROTOCOL / "make_vectors.py"), "--check"])
    assert proc.returncode == 0, "run: python hardware/protocol/make_vectors.py"


@pytest.mark.parametrize("vector", VECTORS["frames"], ids=lambda v: v["name"])
def test_each_frame_by_an_independent_implementation(vector: dict[str, Any]) -> None:
    wire = bytes.fromhex(vector["wire"])
    assert wire[-1] == 0 and 0 not in wire[:-1]
    enc, check = wire[:-4], wire[-4:-1]
    # The check: 10hhhhhh 10mmmmmm 1100llll, the CRC of the encoded bytes.
    assert [check[0] >> 6, check[1] >> 6, check[2] >> 4] == [2, 2, 12]
    crc = (check[0] & 0x3F) << 10 | (check[1] & 0x3F) << 4 | check[2] & 0x0F
    assert crc == binascii.crc_hqx(enc, 0xFFFF)
    body = ref_cobs_decode(enc)
    assert body[:4] == bytes([2, vector["type_id"], vector["seq"], vector["src"]])
    assert body[4:].hex() == vector["payload"]
    assert len(wire) == len(body) + 5  # one COBS code, the check, the delimiter


def test_every_message_type_has_a_vector() -> None:
    assert {f["type"] for f in VECTORS["frames"]} >= set(c.TYPE_NAMES.values())
    assert {i["reason"] for i in VECTORS["invalid"]} == set(c.DROP_REASONS)


def test_roll_state_is_19_bytes_on_the_wire() -> None:
    """REFERENCE.md section 1's figure for the commonest frame."""
    assert len(c.encode_frame(c.ROLL_STATE, 1, 0, c.pack_roll_state(1, 3, 998, 5, 7))) == 19


def test_crc_check_value_and_paths() -> None:
    assert c.crc16(b"123456789") == c.crc16_table(b"123456789") == 0x29B1


# -- properties ---------------------------------------------------------------------

@given(st.binary(max_size=600))
def test_crc_table_matches_binascii(data: bytes) -> None:
    assert c.crc16_table(data) == binascii.crc_hqx(data, 0xFFFF) == c.crc16(data)


@given(st.binary(max_size=600))
def test_cobs_round_trip(data: bytes) -> None:
    enc = c.cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + 1 + len(data) // 254
    assert c.cobs_decode(enc) == data
    if len(data) < 254:
        assert ref_cobs_decode(enc) == data


# Any header and payload whose length fits its type (the Decoder drops the rest, DROP_LENGTH).
frames_st = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                      st.binary(max_size=c.MAX_PAYLOAD)).filter(lambda f: c.payload_fits(f[0], f[3]))


@given(st.lists(frames_st, max_size=12), st.lists(st.integers(1, 40), min_size=1))
def test_frames_survive_any_chunking(frames: list[tuple[int, int, int, bytes]], cuts: list[int]) -> None:
    wire = b"".join(c.encode_frame(*f) for f in frames)
    d = c.Decoder()
    got, i, k = [], 0, 0
    while i < len(wire):
        n = cuts[k % len(cuts)]
        got += d.feed(wire[i:i + n])
        i, k = i + n, k + 1
    assert [g.as_tuple() for g in got] == [(c.PROTOCOL_MAJOR,) + f for f in frames]
    assert d.errors() == 0 and d.counts["frames"] == len(frames) and d.pending() == 0


def test_encode_refuses_what_does_not_fit() -> None:
    with pytest.raises(c.FrameError, match="at most 58") as e:
        c.encode_frame(c.LOG, 0, c.SRC_HUB, bytes(59))
    assert e.value.code == "size" and isinstance(e.value, ValueError)
    for bad in ((256, 0, 0), (0, -1, 0), (0, 0, 300)):
        with pytest.raises(c.FrameError, match="0..255"):
            c.encode_frame(*bad)


def test_short_payloads_are_refused_with_the_message_named() -> None:
    with pytest.raises(c.FrameError, match="ROLL_STATE payload of 3 bytes"):
        c.unpack_roll_state(b"\x01\x02\x03")
    with pytest.raises(c.FrameError, match="IDENT"):
        c.unpack_ident(c.pack_ident("1.0.0", b"12345678", 1, 1, [6, 6])[:-1])
    with pytest.raises(c.FrameError, match="SNAPSHOT"):
        c.unpack_snapshot(c.pack_snapshot(0, [(1, 2, 3, 4, 5, True)], 0, 0)[:-1])
    assert c.unpack_payload(0x42, b"anything") is None


def test_newer_fields_are_ignored_and_older_heartbeats_read() -> None:
    roll = c.pack_roll_state(1, 2, 999, 10, 3) + b"\xaa\xbb"
    assert c.unpack_roll_state(roll)["face"] == 2
    hb = c.unpack_heartbeat(c.pack_heartbeat(5, [1, 2]))
    assert hb["counters"] == {"rx_frames": 1, "rx_bad": 2}


def test_decoder_counts_each_reason_and_resynchronises() -> None:
    d = c.Decoder()
    good = c.encode_frame(c.PING, 1, 0)
    line = (b"Traceback (most recent call last):\r\n\x00" + good + b"\x03\x00" + good
            + bytes(range(1, 100)) + b"\x00" + good[:4] + b"\x00" + good + b"\x00\x00")
    got = d.feed(line)
    assert len(got) == 3 and all(f == c.decode_frame(good) for f in got)
    assert d.counts == {"frames": 3, "text": 1, "cobs": 0, "short": 2, "crc": 0, "version": 0,
                        "oversize": 1, "length": 0}
    assert d.errors() == 4 and d.last_error == "short"  # the cut frame: 4 bytes left
    d.feed(b"\x05\x01")
    assert d.pending() == 2
    d.reset()
    assert d.feed(good) == [c.decode_frame(good)] and d.pending() == 0


def test_oversize_skips_to_the_next_delimiter_only() -> None:
    d = c.Decoder()
    good = c.encode_frame(c.HELLO, 0, c.SRC_HUB)
    for _ in range(50):  # a long run fed in pieces counts once
        assert d.feed(b"\xff" * 7) == []
    assert d.counts["oversize"] == 1 and d.pending() == 0
    assert d.feed(b"\x00" + good) == [c.decode_frame(good)]
    assert d.dropped_bytes == 350


@given(st.lists(st.one_of(st.binary(max_size=80), frames_st.map(lambda f: c.encode_frame(*f))),
                max_size=8))
def test_the_decoder_judges_each_run_as_decode_frame_does(parts: list[bytes]) -> None:
    """What the bit-flip test relies on: feeding bytes and a delimiter yields exactly the
    zero-free runs that decode_frame accepts (runs up to the longest frame)."""
    data = b"".join(parts)
    expected = []
    for run in data.split(b"\x00"):
        if run and len(run) <= c.MAX_ENCODED:
            try:
                expected.append(c.decode_frame(run))
            except c.FrameError:
                pass
    assert c.Decoder().feed(data + b"\x00") == expected


def test_a_frame_of_another_major_counts_as_version_even_if_printable() -> None:
    body = bytes([0x41, 0x42, 0x43, 0x44])  # major 'A': every byte printable
    crc = c.crc16(body)
    d = c.Decoder()
    assert d.feed(c.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00") == []
    assert d.counts["version"] == 1 and d.counts["text"] == 0


# -- fuzz ---------------------------------------------------------------------------

def _accepted_frames_are_real(got: list[c.Frame], data: bytes) -> None:
    """A frame out of random bytes is only acceptable if those bytes hold it verbatim
    (it can arise, with probability about 2**-16 per chunk, only by being there)."""
    for f in got:
        assert c.encode_frame(f.type, f.seq, f.src, f.payload) in b"\x00" + data + b"\x00"


@given(st.lists(st.binary(max_size=90), max_size=20))
def test_no_exception_escapes_the_decoder(chunks: list[bytes]) -> None:
    d = c.Decoder()
    got = []
    for ch in chunks:
        got += d.feed(ch)
    _accepted_frames_are_real(got, b"".join(chunks))
    assert d.pending() <= c.MAX_ENCODED


@given(st.lists(st.one_of(frames_st.map(lambda f: (True, c.encode_frame(*f))),
                          st.binary(max_size=30).map(lambda b: (False, b)),
                          st.sampled_from([b">>> ", b"\r\n", b"\x03", b"\x00", b"\x04"]).map(
                              lambda b: (False, b))),
                max_size=25))
def test_frames_between_noise(parts: list[tuple[bool, bytes]]) -> None:
    """Every frame that starts the line or follows a zero byte is delivered, whatever
    noise came before; nothing is delivered that the line did not hold."""
    wire = b"".join(p for _, p in parts)
    got = c.Decoder().feed(wire)
    _accepted_frames_are_real(got, wire)
    got_wire = [c.encode_frame(f.type, f.seq, f.src, f.payload) for f in got]
    for i, (is_frame, p) in enumerate(parts):
        if is_frame and (i == 0 or parts[i - 1][1].endswith(b"\x00")):
            assert p in got_wire


def test_bounded_random_line(soak_factor: int) -> None:
    """Megabytes of a dirty line: frames, noise, REPL text, cut frames, flipped bits,
    fed in random chunks. Nothing raises; every frame sent whole after a delimiter and
    left intact arrives; nothing else does."""
    rng = random.Random(2026)
    d = c.Decoder()
    sent: list[bytes] = []
    got: list[c.Frame] = []
    buf = bytearray()
    for _ in range(4000 * soak_factor):
        kind = rng.random()
        if kind < 0.5:
            kind, payload = rng.randrange(256), rng.randbytes(rng.randrange(c.MAX_PAYLOAD + 1))
            while not c.payload_fits(kind, payload):
                kind = rng.randrange(256)
            f = c.encode_frame(kind, rng.randrange(256), rng.randrange(256), payload)
            buf += b"\x00" + f
            sent.append(f)
        elif kind < 0.65:
            buf += rng.randbytes(rng.randrange(1, 120))
        elif kind < 0.75:
            buf += b"Traceback (most recent call last):\r\n  File \"main.py\", line 3\r\n>>> "
        elif kind < 0.9:
            f = c.encode_frame(1, 2, 3, rng.randbytes(20))
            buf += b"\x00" + f[:rng.randrange(1, len(f) - 1)]
        else:
            f = bytearray(c.encode_frame(1, 2, 3, rng.randbytes(30)))
            f[rng.randrange(len(f) - 1)] ^= 1 << rng.randrange(8)
            buf += b"\x00" + bytes(f)
        if len(buf) > 4096:
            got += _feed_random(d, bytes(buf), rng)
            buf.clear()
    got += _feed_random(d, bytes(buf) + b"\x00", rng)
    got_wire = [c.encode_frame(f.type, f.seq, f.src, f.payload) for f in got]
    # Every whole frame followed a 0x00, so all arrive, in order; the cut and flipped
    # ones and the noise never yield a frame.
    assert got_wire == sent
    assert min(d.counts[r] for r in ("text", "short", "crc", "oversize")) > 0


def _feed_random(d: c.Decoder, data: bytes, rng: random.Random) -> list[c.Frame]:
    out, i = [], 0
    while i < len(data):
        n = rng.randrange(1, 300)
        out += d.feed(data[i:i + n])
        i += n
    return out


# -- corruption ---------------------------------------------------------------------

@pytest.mark.parametrize("wire", VALID, ids=[f["name"] for f in VECTORS["frames"]])
def test_every_single_and_double_bit_flip_is_rejected(wire: bytes) -> None:
    """Flip one bit, or two, anywhere in the frame (delimiter included) and feed it with
    a delimiter after: the Decoder yields nothing. Each variant is judged exactly as the
    Decoder judges a run between delimiters (decode_frame on each zero-free run), which
    keeps the 1.2 million double flips of the vector set fast."""
    bits = len(wire) * 8
    single = 0
    for i in range(bits):
        g = bytearray(wire)
        g[i >> 3] ^= 1 << (i & 7)
        d = c.Decoder()
        assert d.feed(bytes(g) + b"\x00") == [], (wire.hex(), i)
        single += 1
        for j in range(i + 1, bits):
            g[j >> 3] ^= 1 << (j & 7)
            for run in bytes(g).split(b"\x00"):
                if run:
                    with pytest.raises(c.FrameError):
                        c.decode_frame(run)
            g[j >> 3] ^= 1 << (j & 7)
    assert single == bits


# Messages a search found (hardware/protocol/PROTOCOL.md §1: every two-bit flip of 800
# realistic hub frames) for which protocol major 1 let a two-bit wire error through as a
# different CRC-valid message: a flipped COBS code byte moves the zeros the decoder puts
# back, which the CRC of the decoded body sees as a many-bit error. (type, seq, src,
# payload hex); all HEARTBEATs and SNAPSHOTs, whose payloads are mostly zeros.
MAJOR1_WEAK = [
    (5, 182, 254, "ba4c0c000100010000000000020001000000010002000100"),
    (7, 195, 254, "ac8001000200000000000000030100e80309000000010105e8030f000100010104e8030000020001"),
    (7, 55, 254, "497300000400000000000000030105e80304000100010102e8030b000000010105e8030600020001"),
    (5, 87, 254, "fa1003000200010000000000010002000000010000000000"),
    (7, 195, 254, "2adb00000100000000000000020100e8030d000000010105e8030800010001"),
    (7, 32, 254, "268c00000300000000000000030105e80302000200010100e8030c000100010104e8031200010001"),
    (7, 192, 254, "b38900000500000000000000010101e8031300000001"),
]


def _major1_wire(kind: int, seq: int, src: int, payload: bytes) -> bytes:
    """A frame as protocol major 1 framed it: COBS(body + CRC-16 of the body) + 0x00."""
    body = bytes([1, kind, seq, src]) + payload
    crc = binascii.crc_hqx(body, 0xFFFF)
    return c.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00"


def _major1_decode(run: bytes) -> tuple[int, int, int, bytes]:
    raw = c.cobs_decode(run)
    if len(raw) < 6 or binascii.crc_hqx(raw[:-2], 0xFFFF) != int.from_bytes(raw[-2:], "little"):
        raise c.FrameError("crc", "not a major-1 frame")
    return raw[1], raw[2], raw[3], raw[4:-2]


def _current_decode(run: bytes) -> tuple[int, int, int, bytes]:
    f = c.decode_frame(run)
    return f.type, f.seq, f.src, f.payload


def _double_flips_passing(wire: bytes, decode: Any) -> list[tuple[int, int]]:
    """Every pair of bit positions whose flip makes the line carry a valid message other
    than the one sent (each zero-free run judged as the Decoder judges it)."""
    sent = decode(wire[:-1])
    bits = len(wire) * 8
    passing = []
    for i in range(bits):
        for j in range(i + 1, bits):
            g = bytearray(wire)
            g[i >> 3] ^= 1 << (i & 7)
            g[j >> 3] ^= 1 << (j & 7)
            for run in bytes(g).split(b"\x00"):
                if run and len(run) <= c.MAX_ENCODED:
                    try:
                        got = decode(run)
                    except c.FrameError:
                        continue
                    if got != sent:
                        passing.append((i, j))
    return passing


@pytest.mark.parametrize("kind,seq,src,payload", MAJOR1_WEAK,
                         ids=["%s seq %d" % (c.TYPE_NAMES[m[0]], m[1]) for m in MAJOR1_WEAK])
def test_two_bit_flips_that_passed_major_1_fail_now(kind: int, seq: int, src: int, payload: str) -> None:
    """Exhaustively over every two-bit flip of the frame: under major 1's framing at least
    one became a different valid message; under the current framing (the CRC covers the
    bytes on the wire, COBS code bytes included) none does."""
    p = bytes.fromhex(payload)
    assert _double_flips_passing(_major1_wire(kind, seq, src, p), _major1_decode) != []
    assert _double_flips_passing(c.encode_frame(kind, seq, src, p), _current_decode) == []


@pytest.mark.parametrize("module", ["firmware_bridge.shared.codec", "firmware_bridge.simulated.rollers"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted >= 2
