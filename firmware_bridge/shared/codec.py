"""The dice-hub wire protocol: framing, checksums and message payloads.

One source for both ends of the USB line: the host imports it as
``firmware_bridge.shared.codec`` and the hub's firmware image carries a byte-for-byte copy
as the top-level module ``codec`` (hardware/deploy.py). So it is written in the Python
subset CPython and MicroPython share: no dataclasses, no typing, no enum, no f-strings,
integer maths; ``struct`` and bytes only. The byte layout is pinned by
hardware/protocol/vectors.json and documented in hardware/protocol/PROTOCOL.md.

A frame on the wire (protocol major 2)::

    COBS(body) + check + 0x00
    body  = ver u8, type u8, seq u8, src u8, payload (0..58 bytes)
    check = CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of COBS(body), the bytes as
            they go on the wire, in three zero-free bytes: 10hhhhhh 10mmmmmm 1100llll

COBS removes every zero byte from the frame, so 0x00 only ever delimits frames and a
receiver that lost its place (REPL text, a truncated frame, line noise) finds the next
frame at the next zero. The CRC covers the encoded bytes, not the decoded body, so a
flipped COBS code byte (which moves the zeros the decoder puts back) is a one-bit error
under the CRC like any other: major 1 checked the decoded body, and two flipped bits
there could become a different CRC-valid frame (hardware/protocol/PROTOCOL.md §1).

>>> encode_frame(PING, 7, SRC_HUB).hex()  # ver 2, PING, seq 7, src 0xFE
'05028707febdabcf00'
"""

import struct

try:  # CPython: under the bridge's root error (firmware_bridge.errors)
    from firmware_bridge.errors import BridgeValueError as _ValueError
except ImportError:  # the hub's image has no firmware_bridge package
    _ValueError = ValueError

try:  # CPython: the C implementation of the same CRC; MicroPython has none
    from binascii import crc_hqx as _crc_hqx
except ImportError:
    _crc_hqx = None

# -- protocol constants --------------------------------------------------------------

PROTOCOL_MAJOR = 2  # a receiver drops (and counts) frames of any other major
PROTOCOL_MINOR = 0  # bumped for new message types or HEARTBEAT counters
OLD_MAJOR = 1  # major 1's frames (CRC of the decoded body) are recognised, as "version"

HEADER_LEN = 4
CHECK_LEN = 3  # the CRC-16 in three zero-free bytes
MAX_PAYLOAD = 58
MAX_BODY = HEADER_LEN + MAX_PAYLOAD  # 62
MAX_ENCODED = MAX_BODY + 1 + CHECK_LEN  # 66: COBS adds one byte per 254, ours are shorter
MIN_ENCODED = HEADER_LEN + 1 + CHECK_LEN  # 8

# Message types. Device -> host have the high bit clear, host -> device have it set, so a
# frame that went the wrong way (a loopback, an echoing terminal) is recognisable.
IDENT = 0x01
ROLL_STATE = 0x02
TOKEN = 0x03
BUTTON = 0x04
HEARTBEAT = 0x05
BATTERY = 0x06
SNAPSHOT = 0x07
TELEMETRY = 0x08
LOG = 0x09
ACK = 0x0A
REPLAY = 0x0B  # a roll result from the hub's queue, resent before a SNAPSHOT

HELLO = 0x81
REQUEST_STATE = 0x82
SET_CONFIG = 0x83
CALIBRATE_FACE = 0x84
SET_TELEMETRY = 0x85
REBOOT = 0x86
PING = 0x87

TYPE_NAMES = {
    IDENT: "IDENT", ROLL_STATE: "ROLL_STATE", TOKEN: "TOKEN", BUTTON: "BUTTON",
    HEARTBEAT: "HEARTBEAT", BATTERY: "BATTERY", SNAPSHOT: "SNAPSHOT",
    TELEMETRY: "TELEMETRY", LOG: "LOG", ACK: "ACK", REPLAY: "REPLAY", HELLO: "HELLO",
    REQUEST_STATE: "REQUEST_STATE", SET_CONFIG: "SET_CONFIG",
    CALIBRATE_FACE: "CALIBRATE_FACE", SET_TELEMETRY: "SET_TELEMETRY", REBOOT: "REBOOT",
    PING: "PING",
}

# Sources (a frame's src byte): dice are 0..15.
SRC_TOKENS = 0x40
SRC_BUTTONS = 0x41
SRC_HUB = 0xFE
SRC_ALL = 0xFF  # in a command: every die
MAX_DICE = 16

# Why the Decoder dropped bytes; each has its counter in Decoder.counts.
DROP_TEXT = "text"  # printable text: a REPL prompt, a traceback, a boot banner
DROP_COBS = "cobs"  # not a COBS frame (line noise, a frame's tail after a lost byte)
DROP_SHORT = "short"  # decodes to fewer bytes than a header and a CRC (truncated)
DROP_CRC = "crc"  # checksum mismatch (corrupted or truncated)
DROP_VERSION = "version"  # a well-formed frame of another protocol major
DROP_OVERSIZE = "oversize"  # more bytes than the longest frame before a delimiter
DROP_LENGTH = "length"  # a payload whose length does not fit its message type
DROP_REASONS = (DROP_TEXT, DROP_COBS, DROP_SHORT, DROP_CRC, DROP_VERSION, DROP_OVERSIZE,
                DROP_LENGTH)


class FrameError(_ValueError):
    """A frame or payload that cannot be encoded or decoded; ``code`` says why, and
    ``major`` is the other side's protocol major when that is why (DROP_VERSION)."""

    def __init__(self, code, message, major=None):
        super().__init__(message)
        self.code = code
        self.major = major


# -- CRC-16/CCITT-FALSE --------------------------------------------------------------

def _make_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            if c & 0x8000:
                c = ((c << 1) ^ 0x1021) & 0xFFFF
            else:
                c = (c << 1) & 0xFFFF
        table.append(c)
    return tuple(table)


_TABLE = _make_table()


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` with the 256-entry table (the board's path).

    >>> hex(crc16_table(b"123456789"))
    '0x29b1'
    """
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[(crc >> 8) ^ b]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor):
    binascii.crc_hqx where the port has it, else the table. Both give the same value.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_table(data, crc)


# -- COBS ----------------------------------------------------------------------------

def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` without its zero bytes, one byte
    longer per started run of 254 (no delimiter added).

    >>> cobs_encode(b"\\x11\\x00\\x22").hex()
    '02110222'
    """
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data):
    """The inverse of cobs_encode; raises FrameError("cobs") on anything cobs_encode
    cannot have produced (a zero byte, a block running past the end).

    >>> cobs_decode(bytes.fromhex("02110222"))
    b'\\x11\\x00"'
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    if data.find(b"\x00") >= 0:  # (MicroPython has no ``int in bytes``)
        raise FrameError(DROP_COBS, "zero byte inside a COBS frame")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            raise FrameError(DROP_COBS, "a COBS block runs past the end")
        out += data[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# -- frames --------------------------------------------------------------------------

class Frame:
    """One decoded frame: ``type``, ``seq``, ``src``, ``payload`` (bytes), ``version``."""

    def __init__(self, kind, seq, src, payload=b"", version=PROTOCOL_MAJOR):
        self.type = kind
        self.seq = seq
        self.src = src
        self.payload = bytes(payload)
        self.version = version

    def name(self):
        """The message type's name (``"0x42"`` for a type this codec does not know)."""
        return TYPE_NAMES.get(self.type, "0x%02x" % self.type)

    def as_tuple(self):
        return (self.version, self.type, self.seq, self.src, self.payload)

    def __eq__(self, other):
        return isinstance(other, Frame) and self.as_tuple() == other.as_tuple()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.as_tuple())

    def __repr__(self):
        return "Frame(%s, seq=%d, src=0x%02x, payload=%r)" % (
            self.name(), self.seq, self.src, self.payload)


def _u8(name, value):
    if not isinstance(value, int) or value < 0 or value > 255:
        raise FrameError("field", "%s must be 0..255, not %r" % (name, value))


def pack_check(crc):
    """The CRC-16 as the three bytes that end a frame: 10hhhhhh 10mmmmmm 1100llll. None is
    zero (a frame stays zero-free), and the last has both top bits set, which neither
    of the others nor a byte with a single bit set has: a frame cut short or glued to
    a stray byte does not end like one.

    >>> pack_check(0xFFFF).hex(), pack_check(0).hex()
    ('bfbfcf', '8080c0')
    """
    return bytes([0x80 | (crc >> 10), 0x80 | ((crc >> 4) & 0x3F), 0xC0 | (crc & 0x0F)])


def unpack_check(data):
    """The CRC-16 in three check bytes, or None when they are not in that form."""
    a, b, c = data[0], data[1], data[2]
    if a & 0xC0 != 0x80 or b & 0xC0 != 0x80 or c & 0xF0 != 0xC0:
        return None
    return ((a & 0x3F) << 10) | ((b & 0x3F) << 4) | (c & 0x0F)


def encode_frame(kind, seq, src, payload=b"", version=PROTOCOL_MAJOR):
    """The bytes to write for one frame, trailing 0x00 delimiter included.

    >>> encode_frame(HELLO, 0, SRC_HUB).hex()  # seq 0: a COBS code stands in for it
    '03028102fe9da6cf00'
    """
    _u8("type", kind)
    _u8("seq", seq)
    _u8("src", src)
    _u8("version", version)
    if len(payload) > MAX_PAYLOAD:
        raise FrameError("size", "payload of %d bytes: at most %d fit in a frame"
                         % (len(payload), MAX_PAYLOAD))
    enc = cobs_encode(bytes([version, kind, seq, src]) + bytes(payload))
    return enc + pack_check(crc16(enc)) + b"\x00"


def _old_major(data):
    """The major of a run that is a CRC-valid frame of major 1 (the CRC of the decoded
    body, COBS over body and CRC), else None: a hub with old firmware is told apart
    from a noisy line."""
    try:
        raw = cobs_decode(data)
    except FrameError:
        return None
    if len(raw) < HEADER_LEN + 2:
        return None
    n = len(raw) - 2
    if crc16(raw[:n]) != raw[n] | (raw[n + 1] << 8) or raw[0] == PROTOCOL_MAJOR:
        return None
    return raw[0]


def decode_frame(data):
    """One frame from its wire bytes (without or with the trailing 0x00); raises
    FrameError whose ``code`` is one of DROP_REASONS.

    >>> decode_frame(encode_frame(PING, 7, SRC_HUB))
    Frame(PING, seq=7, src=0xfe, payload=b'')
    """
    if len(data) and data[len(data) - 1] == 0:
        data = data[:len(data) - 1]
    if len(data) > MAX_ENCODED:
        raise FrameError(DROP_OVERSIZE, "longer than any frame")
    if len(data) < MIN_ENCODED:
        major = _old_major(data)
        if major is not None:
            raise FrameError(DROP_VERSION, "a frame of protocol major %d" % major, major)
        raise FrameError(DROP_SHORT, "shorter than a header and a check")
    n = len(data) - CHECK_LEN
    crc = unpack_check(data[n:])
    if crc is None or crc16(data[:n]) != crc:
        major = _old_major(data)
        if major is not None:
            raise FrameError(DROP_VERSION, "protocol major %d, not %d" % (major, PROTOCOL_MAJOR),
                             major)
        raise FrameError(DROP_CRC, "CRC mismatch")
    body = cobs_decode(data[:n])
    if len(body) < HEADER_LEN:
        raise FrameError(DROP_SHORT, "shorter than a header")
    if body[0] != PROTOCOL_MAJOR:
        raise FrameError(DROP_VERSION, "protocol major %d, not %d" % (body[0], PROTOCOL_MAJOR),
                         body[0])
    payload = body[HEADER_LEN:]
    if not payload_fits(body[1], payload):
        raise FrameError(DROP_LENGTH, "%s payload of %d bytes does not fit its layout"
                         % (TYPE_NAMES.get(body[1], "0x%02x" % body[1]), len(payload)))
    return Frame(body[1], body[2], body[3], payload, body[0])


def _is_text(data):
    """Whether a dropped run starts like what a MicroPython REPL prints (a prompt, a
    traceback, the boot banner): two printable ASCII characters. A frame of this
    protocol never does: its second byte is the major (0x01), which is not printable."""
    if len(data) < 2:
        return False
    for i in (0, 1):
        b = data[i]
        if (b < 0x20 or b > 0x7E) and b not in (0x09, 0x0A, 0x0D):
            return False
    return True


class Decoder:
    """Incremental deframer: ``feed(chunk)`` with whatever the line delivered (any size,
    frames split anywhere) returns the complete valid frames in it, in order.

    Everything else is dropped and counted by reason in ``counts`` (DROP_REASONS, plus
    ``frames`` for the good ones); ``errors()`` is their total. Nothing raises: bytes in,
    frames or counts out. An empty run between two zero bytes is not an error (senders
    may put a zero before a frame to flush a half-received one).

    >>> d = Decoder()
    >>> wire = encode_frame(HELLO, 0, SRC_HUB) + b"\\r\\n>>> " + encode_frame(PING, 1, 0)
    >>> [f.name() for f in d.feed(wire[:9])] + [f.name() for f in d.feed(wire[9:])]
    ['HELLO']
    >>> d.counts["text"], d.errors()  # the PING was glued to the prompt, lost with it
    (1, 1)
    >>> [f.name() for f in d.feed(b">>> \\x00" + encode_frame(PING, 2, 0))]
    ['PING']

    A sender that may follow noise on the line therefore starts with a lone 0x00.
    """

    def __init__(self):
        self.counts = {"frames": 0}
        for reason in DROP_REASONS:
            self.counts[reason] = 0
        self.dropped_bytes = 0
        self.last_error = None  # the latest drop reason, for a log line
        self.other_major = None  # the protocol major of the latest frame dropped for it
        self._buf = bytearray()
        self._overflow = False  # past MAX_ENCODED: skip to the next delimiter

    def errors(self):
        """Every frame-sized run of bytes dropped so far, whatever the reason."""
        total = 0
        for reason in DROP_REASONS:
            total += self.counts[reason]
        return total

    def pending(self):
        """Bytes held back waiting for a delimiter (a frame in transit)."""
        return len(self._buf)

    def reset(self):
        """Forget a half-received frame (after a reconnect): it cannot complete."""
        self._buf = bytearray()
        self._overflow = False

    def _drop(self, reason, nbytes):
        self.counts[reason] += 1
        self.dropped_bytes += nbytes
        self.last_error = reason

    def _end(self, out):
        buf = self._buf
        self._buf = bytearray()
        if self._overflow:
            self._overflow = False
            return
        if not len(buf):
            return
        try:
            frame = decode_frame(buf)
        except FrameError as e:
            # A whole frame of another major is "version" whatever its bytes look like.
            text = e.code != DROP_VERSION and _is_text(buf)
            self._drop(DROP_TEXT if text else e.code, len(buf))
            if e.code == DROP_VERSION:
                self.other_major = e.major
            return
        self.counts["frames"] += 1
        out.append(frame)

    def feed(self, data):
        """Frames completed by ``data`` (bytes, bytearray or memoryview)."""
        out = []
        start = 0
        n = len(data)
        if not isinstance(data, bytes):
            data = bytes(data)
        while start < n:
            stop = data.find(b"\x00", start)
            piece = data[start:n if stop < 0 else stop]
            if not self._overflow:
                self._buf += piece
                if len(self._buf) > MAX_ENCODED:
                    self._drop(DROP_TEXT if _is_text(self._buf) else DROP_OVERSIZE,
                               len(self._buf))
                    self._buf = bytearray()
                    self._overflow = True
            else:
                self.dropped_bytes += len(piece)
            if stop < 0:
                break
            self._end(out)
            start = stop + 1
        return out


# -- payloads ------------------------------------------------------------------------
# Little-endian. The Decoder has already dropped a payload whose length does not fit its
# type (payload_fits); an unpacker, also used on payloads that never crossed a wire,
# raises FrameError("payload") when the fields it needs are missing.
# The hub's logic (firmware_bridge/shared/hubapp.py) sends exactly these.

# ROLL_STATE states (Pixels' numbering; firmware_bridge.shared.detector uses the same).
STATE_NAMES = ("unknown", "rolled", "handling", "rolling", "crooked", "onFace")

# ACK status codes.
OK = 0
E_UNKNOWN = 1  # unknown command
E_BAD_PAYLOAD = 2
E_NO_SUCH_SOURCE = 3
E_OUT_OF_RANGE = 4
E_NOT_STILL = 5  # calibration: the die has not been still long enough
E_CALIBRATION = 6  # calibration refused; detail = index in CAL_ERRORS
E_STORAGE = 7  # the hub's file system refused the write
STATUS_NAMES = ("ok", "unknown command", "bad payload", "no such source", "out of range",
                "not still", "calibration refused", "storage error")
CAL_ERRORS = ("", "count", "repeat", "face", "still", "opposite", "geometry", "wrong-face",
              "too-far", "zero", "faces")

# IDENT capability bits.
CAP_DICE = 1
CAP_TOKENS = 2
CAP_BUTTONS = 4
CAP_TELEMETRY = 8
CAP_CALIBRATION = 16

# HEARTBEAT counters, u16 each (wrapping), in this order (append-only).
COUNTER_NAMES = ("rx_frames", "rx_bad", "tx_frames", "commands", "naks", "sensor_errors",
                 "fifo_overruns", "rolls", "tokens", "buttons")

LOG_INFO = 1
LOG_WARNING = 2
LOG_ERROR = 3

CAL_THREE_FACE = 0
CAL_SINGLE = 1
CAL_RESET = 2
REBOOT_NORMAL = 0
REBOOT_REPL = 1
REBOOT_BOOTLOADER = 2

BATTERY_UNKNOWN = 0xFF  # percent not known (no fuel gauge)
TELEMETRY_MAX_SAMPLES = 6  # 5 + 6 x 8 = 53 payload bytes


IDENT_LEN = 22  # before the face counts
_FIXED_LEN = {ROLL_STATE: 10, REPLAY: 10, TOKEN: 12, BUTTON: 12, BATTERY: 4, ACK: 6}


def payload_fits(kind, payload):
    """Whether a payload's length fits its message type's layout: exactly, for the
    fixed layouts and those with a count byte (IDENT's dice, SNAPSHOT's dice,
    TELEMETRY's samples); HEARTBEAT's counters in whole u16s, LOG at least its level.
    A frame that does not fit is dropped (DROP_LENGTH) before anything reads it. The
    host's commands are judged by the hub, which answers a bad one with an ACK
    (E_BAD_PAYLOAD), and a type the receiver does not know is let through.

    >>> payload_fits(ROLL_STATE, bytes(10)), payload_fits(ROLL_STATE, bytes(12))
    (True, False)
    >>> payload_fits(SNAPSHOT, pack_snapshot(0, [(1, 2, 3, 4, 5, True)], 0, 0)[:-1])
    False
    """
    n = len(payload)
    fixed = _FIXED_LEN.get(kind)
    if fixed is not None:
        return n == fixed
    if kind == IDENT:
        return n >= IDENT_LEN and n == IDENT_LEN + payload[IDENT_LEN - 1]
    if kind == SNAPSHOT:
        return n >= 13 and n == 13 + 9 * payload[12]
    if kind == TELEMETRY:
        return n >= 5 and payload[4] <= TELEMETRY_MAX_SAMPLES and n == 5 + 8 * payload[4]
    if kind == HEARTBEAT:
        return n >= 4 and n % 2 == 0
    if kind == LOG:
        return n >= 1
    return True


def _need(payload, n, what):
    if len(payload) < n:
        raise FrameError("payload", "%s payload of %d bytes: needs at least %d"
                         % (what, len(payload), n))


def _version_bytes(version):
    """"1.2.3" (a "+local" suffix ignored, missing parts 0) or (1, 2, 3) -> 3 bytes."""
    if isinstance(version, str):
        version = (version.split("+")[0].split(".") + ["0", "0", "0"])[:3]
    return bytes([int(p) & 0xFF for p in version])


def pack_ident(version, uid, boot_id, caps, faces, major=PROTOCOL_MAJOR, minor=PROTOCOL_MINOR,
               tokens=0, buttons=0):
    """IDENT: protocol major u8, minor u8, firmware major/minor/patch u8 x3, board uid
    8 bytes (zero-padded), boot id u32, capabilities u16, token slot count u8, button
    count u8, dice count u8, then each die's face count u8."""
    uid = bytes(uid[:8])
    return (struct.pack("<BB", major, minor) + _version_bytes(version) + uid
            + bytes(8 - len(uid)) + struct.pack("<IHBBB", boot_id, caps, tokens, buttons,
                                                len(faces))
            + bytes(faces))


def unpack_ident(payload):
    _need(payload, IDENT_LEN, "IDENT")
    boot_id, caps, tokens, buttons, n = struct.unpack_from("<IHBBB", payload, 13)
    _need(payload, IDENT_LEN + n, "IDENT")
    return {"major": payload[0], "minor": payload[1],
            "version": "%d.%d.%d" % (payload[2], payload[3], payload[4]),
            "uid": bytes(payload[5:13]), "boot_id": boot_id, "caps": caps,
            "tokens": tokens, "buttons": buttons,
            "faces": list(payload[IDENT_LEN:IDENT_LEN + n])}


def pack_roll_state(state, face, confidence, t_ms, counter):
    """ROLL_STATE (and REPLAY, the same layout): state u8, face index u8, confidence i16 (x1000), device ms u32, roll
    counter u16."""
    return struct.pack("<BBhIH", state, face, confidence, t_ms & 0xFFFFFFFF, counter & 0xFFFF)


def unpack_roll_state(payload):
    _need(payload, 10, "ROLL_STATE")
    state, face, conf, t, counter = struct.unpack_from("<BBhIH", payload, 0)
    return {"state": state, "face": face, "confidence": conf, "t_ms": t, "counter": counter}


def pack_switch(index, active, bits, t_ms, counter):
    """TOKEN / BUTTON: input u8, active u8, all inputs' bits u32, device ms u32, change
    counter u16."""
    return struct.pack("<BBIIH", index, 1 if active else 0, bits, t_ms & 0xFFFFFFFF,
                       counter & 0xFFFF)


def unpack_switch(payload):
    _need(payload, 12, "TOKEN/BUTTON")
    index, active, bits, t, counter = struct.unpack_from("<BBIIH", payload, 0)
    return {"index": index, "active": bool(active), "bits": bits, "t_ms": t, "counter": counter}


def pack_heartbeat(t_ms, counters):
    """HEARTBEAT: uptime ms u32, then the COUNTER_NAMES counters as u16 each."""
    out = struct.pack("<I", t_ms & 0xFFFFFFFF)
    for c in counters:
        out += struct.pack("<H", c & 0xFFFF)
    return out


def unpack_heartbeat(payload):
    """Counters the sender did not have (an older firmware) are left out."""
    _need(payload, 4, "HEARTBEAT")
    counters = {}
    for i in range(min(len(COUNTER_NAMES), (len(payload) - 4) // 2)):
        counters[COUNTER_NAMES[i]] = struct.unpack_from("<H", payload, 4 + 2 * i)[0]
    return {"uptime_ms": struct.unpack_from("<I", payload, 0)[0], "counters": counters}


def pack_battery(millivolts, percent, charging):
    """BATTERY: millivolts u16, percent u8 (BATTERY_UNKNOWN = no gauge), charging u8."""
    return struct.pack("<HBB", millivolts, percent, 1 if charging else 0)


def unpack_battery(payload):
    _need(payload, 4, "BATTERY")
    mv, pct, chg = struct.unpack_from("<HBB", payload, 0)
    return {"millivolts": mv, "percent": None if pct == BATTERY_UNKNOWN else pct,
            "charging": bool(chg)}


def pack_snapshot(t_ms, dice, tokens, buttons):
    """SNAPSHOT: device ms u32, token bits u32, button bits u32, dice count u8, then per
    die (state, face, confidence, roll counter, calibration revision, calibrated):
    state u8, face u8, confidence i16, roll counter u16, calibration revision u16,
    calibrated u8."""
    out = struct.pack("<IIIB", t_ms & 0xFFFFFFFF, tokens, buttons, len(dice))
    for d in dice:
        out += struct.pack("<BBhHHB", d[0], d[1], d[2], d[3] & 0xFFFF, d[4] & 0xFFFF,
                           1 if d[5] else 0)
    return out


def unpack_snapshot(payload):
    _need(payload, 13, "SNAPSHOT")
    t, tokens, buttons, n = struct.unpack_from("<IIIB", payload, 0)
    _need(payload, 13 + 9 * n, "SNAPSHOT")
    dice = []
    for i in range(n):
        st, face, conf, counter, rev, ok = struct.unpack_from("<BBhHHB", payload, 13 + 9 * i)
        dice.append({"state": st, "face": face, "confidence": conf, "counter": counter,
                     "cal_revision": rev, "calibrated": bool(ok)})
    return {"t_ms": t, "tokens": tokens, "buttons": buttons, "dice": dice}


def pack_telemetry(t0_ms, samples):
    """TELEMETRY: first sample's device ms u32, count u8, then per sample (dt, x, y, z):
    ms after the first u16, x, y, z mg i16."""
    out = struct.pack("<IB", t0_ms & 0xFFFFFFFF, len(samples))
    for s in samples:
        out += struct.pack("<Hhhh", s[0] & 0xFFFF, s[1], s[2], s[3])
    return out


def unpack_telemetry(payload):
    """[(t_ms, x, y, z), ...] with absolute device times."""
    _need(payload, 5, "TELEMETRY")
    t0, n = struct.unpack_from("<IB", payload, 0)
    _need(payload, 5 + 8 * n, "TELEMETRY")
    out = []
    for i in range(n):
        dt, x, y, z = struct.unpack_from("<Hhhh", payload, 5 + 8 * i)
        out.append((t0 + dt, x, y, z))
    return out


def pack_log(level, text):
    """LOG: level u8, then UTF-8 text cut to fit the frame."""
    return bytes([level]) + text.encode()[:MAX_PAYLOAD - 1]


def unpack_log(payload):
    """(level, text); a character cut in half by the sender becomes U+FFFD."""
    _need(payload, 1, "LOG")
    try:
        text = bytes(payload[1:]).decode()
    except UnicodeError:
        text = bytes(payload[1:]).decode("utf-8", "replace")
    return {"level": payload[0], "text": text}


def pack_ack(kind, seq, status, detail=0, value=0):
    """ACK: acked type u8, acked seq u8, status u8, detail u8, value i16."""
    return struct.pack("<BBBBh", kind, seq, status, detail, value)


def unpack_ack(payload):
    """(acked type, acked seq, status, detail, value)."""
    _need(payload, 6, "ACK")
    return struct.unpack_from("<BBBBh", payload, 0)


def pack_set_config(key, value):
    """SET_CONFIG: key id u8 (detector.CONFIG_KEYS), value i32."""
    return struct.pack("<Bi", key, value)


def unpack_set_config(payload):
    _need(payload, 5, "SET_CONFIG")
    return struct.unpack_from("<Bi", payload, 0)


def pack_calibrate(face, mode=CAL_THREE_FACE):
    """CALIBRATE_FACE: face index u8, mode u8 (0 three-face step, 1 single, 2 reset)."""
    return bytes([face, mode])


def unpack_calibrate(payload):
    """(face, mode); a missing mode is a three-face step."""
    _need(payload, 1, "CALIBRATE_FACE")
    return payload[0], (payload[1] if len(payload) > 1 else CAL_THREE_FACE)


def pack_set_telemetry(rate_hz):
    """SET_TELEMETRY: rate Hz u16 (0 = off)."""
    return struct.pack("<H", rate_hz)


def unpack_set_telemetry(payload):
    _need(payload, 2, "SET_TELEMETRY")
    return struct.unpack_from("<H", payload, 0)[0]


def pack_reboot(mode=REBOOT_NORMAL):
    """REBOOT: mode u8 (0 normal, 1 REPL, 2 bootloader)."""
    return bytes([mode])


def unpack_reboot(payload):
    """The mode; an empty payload is a normal reset."""
    return payload[0] if len(payload) else REBOOT_NORMAL


def unpack_payload(kind, payload):
    """The payload of a message of type ``kind`` as plain values (dicts, tuples, ints),
    for logs, the monitor and the test vectors; None for the empty commands and for
    types this codec does not know. Raises FrameError("payload") when it is short."""
    if kind == ACK:
        a = unpack_ack(payload)
        return {"type": a[0], "seq": a[1], "status": a[2], "detail": a[3], "value": a[4]}
    if kind == SET_CONFIG:
        k, v = unpack_set_config(payload)
        return {"key": k, "value": v}
    if kind == CALIBRATE_FACE:
        f, m = unpack_calibrate(payload)
        return {"face": f, "mode": m}
    if kind == SET_TELEMETRY:
        return {"rate_hz": unpack_set_telemetry(payload)}
    if kind == REBOOT:
        return {"mode": unpack_reboot(payload)}
    if kind == TELEMETRY:
        return {"samples": [list(s) for s in unpack_telemetry(payload)]}
    if kind == REPLAY:
        return unpack_roll_state(payload)
    fn = _UNPACKERS.get(kind)
    return fn(payload) if fn is not None else None


_UNPACKERS = {IDENT: unpack_ident, ROLL_STATE: unpack_roll_state, TOKEN: unpack_switch,
              BUTTON: unpack_switch, HEARTBEAT: unpack_heartbeat, BATTERY: unpack_battery,
              SNAPSHOT: unpack_snapshot, LOG: unpack_log}
