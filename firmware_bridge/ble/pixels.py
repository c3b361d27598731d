"""The Pixels dice message protocol, pure (no bleak): decode what a die notifies, encode
what we write, read its advertisement, map a face index to a value.

Learned from the maker's public documents (GameWithPixels ``CommunicationsProtocol.md``,
the firmware's ``bluetooth_messages.h``) and host library (``pixels-js``: ``DieMessages``,
``ChunkMessage``, ``DiceUtils``, ``getScannedPixel``); written here from those
descriptions. A message is one notification: a type byte, then a little-endian packed
struct. Fields are append-only: trailing bytes we do not know are ignored.

>>> parse_message(bytes([3, 1, 19]))
RollState(state='rolled', face_index=19)
>>> parse_message(bytes([34, 80, 2]))
Battery(percent=80, state='charging')
>>> parse_message(b"\\x03\\x01")
Traceback (most recent call last):
...
firmware_bridge.ble.errors.MessageError: RollState needs 3 bytes, got 2
>>> who_are_you(), request_roll_state()
(b'\\x01', b'\\x17')
>>> face_value("d20", 19), face_value("d10", 0), face_value("d00", 7)
(20, 10, 7)
>>> face_label("d00", 7), face_label("d10", 10), face_label("d6fudge", 1)
('70', '0', '+')
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Mapping, Union

from firmware_bridge.ble.errors import MessageError, PixelsApiVersionError

__all__ = [
    "SERVICE", "NOTIFY", "WRITE", "LEGACY_SERVICE", "LEGACY_NOTIFY", "LEGACY_WRITE",
    "COMPANY_ID", "API_VERSION", "COMPAT_API_VERSION", "ROLL_STATES", "BATTERY_STATES",
    "DIE_TYPES", "Identity", "RollState", "Battery", "BlinkAck", "OtherMessage", "Message",
    "parse_message", "parse_i_am_a_die", "check_api", "who_are_you", "request_roll_state",
    "request_battery_level", "blink", "face_value", "face_label", "faces_of",
    "die_type_from_leds", "flat_crooked_fix", "Advert", "parse_advert", "is_pixel_advert",
    "LOW_BATTERY_PERCENT", "OLD_COMPANY_ID", "DEVICE_INFORMATION",
]

# GATT: the current firmware's service and the legacy (Nordic-UART-like) one; on the
# legacy service the notify characteristic has the service's own UUID.
SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
COMPANY_ID = 0x0D39  # Systemic Games, in the manufacturer data of the advertisement
# ... and the placeholder the firmware used before it had that id (until 2024-09-30).
OLD_COMPANY_ID = 0xFFFF
DEVICE_INFORMATION = "0000180a-0000-1000-8000-00805f9b34fb"  # in every Pixel's primary packet

# Message API versions (pixels-js Constants: apiVersion, compatApiVersion).
API_VERSION = 0x100
COMPAT_API_VERSION = 0x100

# Message types (the firmware's enumeration; only those we use are named).
WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
BLINK_ACK = 30
REQUEST_BATTERY_LEVEL = 33
BATTERY_LEVEL = 34

ROLL_STATES = ("unknown", "rolled", "handling", "rolling", "crooked", "onFace")
BATTERY_STATES = ("ok", "low", "charging", "done", "badCharging", "error")
# The firmware's DieType (dice_variants.h): M20, 20 faces on 12 LEDs, follows the fudge die.
DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge",
             "m20")
LOW_BATTERY_PERCENT = 15  # our warning level when the die does not say "low" itself

_LEGACY_SIZE = 22  # a legacy IAmADie is exactly this long (pixels-js LegacyIAmADie)
# Firmware built before 2022-12-19 sent an 18-byte IAmADie (no roll state nor battery),
# older than the message API versions: pixels-js cannot read it, the die needs an update.
_2022_SIZE = 18
# Firmware builds with a known quirk (pixels-js DiceUtils / Pixel._updateRoll): before this
# build d4 and d6 face normals were numbered differently ...
_FW_BAD_NORMALS_S = 1704150000
# ... and before this one a 6-LED die could call a flat landing "crooked".
_FW_TILT_FIX_S = 1716382800
# An advertisement in the layout from before July 2022 carries no build time: pixels-js
# (getScannedPixel) takes it for firmware built on 2022-07-01.
_OLD_ADVERT_BUILD_S = 1656633600


def _state_name(names: tuple[str, ...], v: int) -> str:
    return names[v] if v < len(names) else "unknown"


@dataclass(frozen=True, slots=True)
class Identity:
    """What an IAmADie said. ``api_version``/``compat_api_version`` are 0x100 for a legacy
    die (pixels-js treats the legacy layout as API 1.0)."""

    legacy: bool
    pixel_id: int
    die_type: str
    led_count: int
    colorway: int
    build_timestamp: int
    api_version: int
    compat_api_version: int
    roll_state: str
    face_index: int
    battery_percent: int
    battery_state: str
    name: str = ""
    data_hash: int = 0

    @property
    def faces(self) -> int:
        return faces_of(self.die_type)

    @property
    def uid(self) -> str:
        """The Pixel id as 8 hex digits (what the journal and the devices panel show)."""
        return "%08x" % self.pixel_id


@dataclass(frozen=True, slots=True)
class RollState:
    state: str
    face_index: int


@dataclass(frozen=True, slots=True)
class Battery:
    percent: int
    state: str

    @property
    def charging(self) -> bool:
        return self.state in ("charging", "done")


@dataclass(frozen=True, slots=True)
class BlinkAck:
    pass


@dataclass(frozen=True, slots=True)
class OtherMessage:
    """A message type we do not use (telemetry, animation events, logs): not an error."""

    kind: int


Message = Union[Identity, RollState, Battery, BlinkAck, OtherMessage]


def parse_message(data: bytes | bytearray) -> Message:
    """One notification as a message; ``MessageError`` when it is not a well-formed one."""
    if not data:
        raise MessageError("an empty notification", "empty")
    kind = data[0]
    if kind == ROLL_STATE:
        if len(data) < 3:
            raise MessageError("RollState needs 3 bytes, got %d" % len(data), "short")
        return RollState(_state_name(ROLL_STATES, data[1]), data[2])
    if kind == BATTERY_LEVEL:
        if len(data) < 3:
            raise MessageError("BatteryLevel needs 3 bytes, got %d" % len(data), "short")
        # Passed on as the die says it, above 100 % too (pixels-js does the same).
        return Battery(data[1], _state_name(BATTERY_STATES, data[2]))
    if kind == I_AM_A_DIE:
        return parse_i_am_a_die(data)
    if kind == BLINK_ACK:
        return BlinkAck()
    return OtherMessage(kind)


def parse_i_am_a_die(data: bytes | bytearray) -> Identity:
    """An IAmADie in either layout: the legacy one is exactly 22 bytes; one of 18 bytes is
    from firmware built before 2022-12-19, before API versions (``PixelsApiVersionError``:
    update the die's firmware); anything else is the chunked layout (pixels-js ``_internalDeserializeMessage``), where every chunk
    starts with its own size byte (the size byte included), so a chunk grown in a newer
    firmware is skipped past and one cut short leaves its last fields at their
    defaults.

    >>> legacy = bytes([2, 20, 3, 7]) + struct.pack("<IIHI", 0xABCD, 0x1234ABCD, 4096, 1700000000) + bytes([1, 19, 88, 0])
    >>> i = parse_i_am_a_die(legacy)
    >>> i.legacy, i.uid, i.die_type, i.roll_state, i.face_index, i.battery_percent
    (True, '1234abcd', 'd20', 'rolled', 19, 88)
    """
    if len(data) == _2022_SIZE:
        raise PixelsApiVersionError(0, COMPAT_API_VERSION, API_VERSION, COMPAT_API_VERSION)
    if len(data) == _LEGACY_SIZE:
        (led, colorway, die_type, data_hash, pixel_id, _flash, build, roll, face, bat,
         bat_state) = struct.unpack_from("<BBBIIHIBBBB", data, 1)
        _check_pixel_id(pixel_id)
        return Identity(True, pixel_id, _die_type(die_type, led), led, colorway, build,
                        0x100, 0x100, _state_name(ROLL_STATES, roll), face, bat,
                        _state_name(BATTERY_STATES, bat_state), data_hash=data_hash)
    chunks: list[bytes] = []
    off = 1
    while off < len(data) and len(chunks) < 6:
        size = data[off]
        if size == 0 or off + size > len(data):
            raise MessageError("IAmADie chunk %d: size %d does not fit in %d bytes"
                               % (len(chunks), size, len(data)), "chunk")
        chunks.append(bytes(data[off + 1:off + size]))
        off += size
    if len(chunks) < 6:
        raise MessageError("IAmADie has %d chunks, expected 6 (or the legacy 22 bytes, "
                           "got %d)" % (len(chunks), len(data)), "chunk")
    version, info, _design_name, name, settings, status = chunks
    api, build, _settings_ver, compat = _fields(version, "<HIHH", "version info")
    pixel_id, _chip, die_type, led, colorway, _mode = _fields(info, "<IBBBBB", "die info")
    _check_pixel_id(pixel_id)
    data_hash = _fields(settings, "<I", "settings info")[0]
    bat, bat_state, roll, face = _fields(status, "<BBBB", "status info")
    return Identity(False, pixel_id, _die_type(die_type, led), led, colorway, build, api,
                    compat, _state_name(ROLL_STATES, roll), face, bat,
                    _state_name(BATTERY_STATES, bat_state), _cstring(name), data_hash)


def _check_pixel_id(pixel_id: int) -> None:
    """A Pixel id of 0 identifies nothing (pixels-js: "Got an empty Pixel id")."""
    if pixel_id == 0:
        raise MessageError("IAmADie has no Pixel id (0)", "id")


def _fields(chunk: bytes, fmt: str, what: str) -> tuple[int, ...]:
    """A chunk's fields; missing trailing ones are 0 (append-only, like pixels-js's
    ``allowSkipLastProps``), extra trailing bytes ignored."""
    size = struct.calcsize(fmt)
    return struct.unpack(fmt, chunk[:size].ljust(size, b"\0"))


def _cstring(chunk: bytes) -> str:
    return chunk.split(b"\0", 1)[0].decode("utf-8", "replace")


def _die_type(v: int, leds: int) -> str:
    name = _state_name(DIE_TYPES, v)
    return name if name != "unknown" else die_type_from_leds(leds)


def check_api(identity: Identity, ours: int = API_VERSION,
              our_compat: int = COMPAT_API_VERSION) -> None:
    """Raise ``PixelsApiVersionError`` unless the die's API and ours fit together. A
    version of 0 says nothing and is not compared (pixels-js ``Pixel.sendMessage``).

    >>> check_api(Identity(False, 1, "d6", 6, 0, 0, 0x100, 0x100, "onFace", 0, 90, "ok"))
    >>> check_api(Identity(False, 1, "d6", 6, 0, 0, 0x0FF, 0x0FF, "onFace", 0, 90, "ok"))
    Traceback (most recent call last):
    ...
    firmware_bridge.ble.errors.PixelsApiVersionError: the die speaks Pixels API 0xff (needs at least 0xff) but this app speaks 0x100: update the die's firmware with the Pixels app
    >>> check_api(Identity(False, 1, "d6", 6, 0, 0, 0, 0, "onFace", 0, 90, "ok"))
    """
    if 0 < identity.api_version < our_compat or identity.compat_api_version > ours:
        raise PixelsApiVersionError(identity.api_version, identity.compat_api_version,
                                    ours, our_compat)


# -- what we write ----------------------------------------------------------------------

def who_are_you() -> bytes:
    return bytes([WHO_ARE_YOU])


def request_roll_state() -> bytes:
    return bytes([REQUEST_ROLL_STATE])


def request_battery_level() -> bytes:
    return bytes([REQUEST_BATTERY_LEVEL])


def blink(color: int = 0x0000FF, count: int = 3, duration_ms: int = 1000,
          face_mask: int = 0xFFFFFFFF, fade: int = 0, loop_count: int = 1) -> bytes:
    """A Blink message ("identify this die"): ``count`` flashes of ``color`` (0xRRGGBB)
    over ``duration_ms``; the die answers BlinkAck.

    >>> blink(0xFF0000, 2, 800).hex()
    '1d0220030000ff00ffffffff0001'
    """
    if not (0 < count < 256 and 0 < duration_ms < 65536 and 0 <= color <= 0xFFFFFF
            and 0 <= fade < 256 and 0 <= loop_count < 256):
        raise ValueError("blink: count 1..255, duration 1..65535 ms, colour 0xRRGGBB")
    return struct.pack("<BBHIIBB", BLINK, count, duration_ms, color, face_mask & 0xFFFFFFFF,
                       fade, loop_count)


# -- faces ------------------------------------------------------------------------------

def faces_of(die_type: str) -> int:
    return {"d4": 4, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20, "m20": 20}.get(die_type, 6)


def die_type_from_leds(leds: int) -> str:
    """A die that says "unknown" type: guessed from its LED count (pixels-js
    ``estimateDieType``)."""
    return {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20",
            21: "d6pipped"}.get(leds, "unknown")


def face_value(die_type: str, face_index: int, build_timestamp: int = 0) -> int:
    """The value the event carries, 1..faces. A d10's "0" is 10 and a d00 (the tens die)
    gives its tens digit with "00" as 10, so both fit a d10 roll (our ruling: see the
    README); ``face_label`` prints what the die shows. A d6 fudge gives 1..6 (index + 1,
    ``face_label`` names "+", "-" and blank). Firmware built before 2024-01 numbered d4
    and d6 normals differently: mapped as pixels-js does. That firmware chose the layout
    by board, so a d4 (on the 6-LED board) reported the six faces of a d6, 0..5; an index
    beyond those is no face, as for any die.

    >>> face_value("d6", 4, build_timestamp=1700000000), face_value("d6", 4)
    (2, 5)
    >>> face_value("d8", 8)
    Traceback (most recent call last):
    ...
    firmware_bridge.ble.errors.MessageError: face index 8 is not a face of a d8
    """
    faces = faces_of(die_type)
    if 0 < build_timestamp <= _FW_BAD_NORMALS_S and die_type in ("d4", "d6"):
        faces = 6
    if not 0 <= face_index < faces:
        raise MessageError("face index %d is not a face of a %s" % (face_index, die_type),
                           "face")
    if 0 < build_timestamp <= _FW_BAD_NORMALS_S:
        if die_type == "d4":
            return {3: 2, 2: 3, 5: 4}.get(face_index, 1)
        if die_type == "d6":
            return {4: 2, 3: 3, 2: 4, 1: 5}.get(face_index, face_index + 1)
    if die_type in ("d10", "d00"):
        return face_index or 10
    return face_index + 1


def face_label(die_type: str, value: int) -> str:
    """What the die's face shows for an event ``value``."""
    if die_type == "d10":
        return str(value % 10)
    if die_type == "d00":
        return "%02d" % ((value % 10) * 10)
    if die_type == "d6fudge":
        return {1: "+", 6: "+", 2: "-", 5: "-"}.get(value, " ")
    return str(value)


def flat_crooked_fix(led_count: int, build_timestamp: int, state: str) -> str:
    """Firmware before 2024-05-22 on 6-LED dice called some flat landings "crooked"
    (pixels-js ``_updateRoll``): read those as "rolled", and so when the build time is
    not known (0), as pixels-js does.

    >>> flat_crooked_fix(6, 1700000000, "crooked"), flat_crooked_fix(20, 1700000000, "crooked")
    ('rolled', 'crooked')
    >>> flat_crooked_fix(6, 0, "crooked"), flat_crooked_fix(6, 1716400000, "crooked")
    ('rolled', 'crooked')
    """
    if state == "crooked" and led_count == 6 and build_timestamp < _FW_TILT_FIX_S:
        return "rolled"
    return state


# -- advertisements ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Advert:
    """What a Pixel says about itself before we connect. ``pixel_id`` 0 and
    ``build_timestamp`` 0: not heard (a passive scan gets no scan response)."""

    pixel_id: int
    die_type: str
    led_count: int
    roll_state: str
    face_index: int
    battery_percent: int
    charging: bool
    build_timestamp: int


def is_pixel_advert(manufacturer_data: Mapping[int, bytes], service_uuids: list[str]) -> bool:
    """Whether an advertisement is a Pixel's: it names a Pixels service (the firmware does
    so in the scan response, pixels-js ``getScannedPixel`` asks for it) or its primary
    packet (all a passive scan hears) carries manufacturer data of Systemic Games, or, as
    firmware before 2024-10 sent it, 5 bytes under the placeholder company 0xFFFF beside
    the Device Information UUID 0x180A.

    >>> is_pixel_advert({OLD_COMPANY_ID: bytes(5)}, [DEVICE_INFORMATION])
    True
    >>> is_pixel_advert({OLD_COMPANY_ID: bytes(5)}, []), is_pixel_advert({0x004C: bytes(7)}, [])
    (False, False)
    """
    uuids = {u.lower() for u in service_uuids}
    old = manufacturer_data.get(OLD_COMPANY_ID)
    return (bool(uuids & {SERVICE, LEGACY_SERVICE}) or COMPANY_ID in manufacturer_data
            or (old is not None and len(old) == 5 and DEVICE_INFORMATION in uuids))


def parse_advert(manufacturer_data: Mapping[int, bytes], service_data: Mapping[str, bytes]) -> Advert | None:
    """A Pixel's advertisement (``getScannedPixel``; call it on a Pixel's, see
    ``is_pixel_advert``): manufacturer data (LED count, design with the die type in its
    high nibble, roll state, face, battery with bit 7 = charging) and service data (Pixel
    id, build time: the firmware sends it under the 16-bit UUID 0x180A, pixels-js takes
    the first entry whatever its key); or the layout from before July 2022 (company id =
    LED count and design, 7 bytes of data; built 2022-07-01, as pixels-js assumes); or,
    on a passive scan, the manufacturer data alone (under the Systemic Games company id,
    or the placeholder 0xFFFF of firmware before 2024-10).
    None when it is none of these.

    >>> parse_advert({COMPANY_ID: bytes([20, 0x71, 1, 19, 0x80 | 77])},
    ...              {"0000180a-0000-1000-8000-00805f9b34fb": struct.pack("<II", 0x1234ABCD, 1700000000)})
    Advert(pixel_id=305441741, die_type='d20', led_count=20, roll_state='rolled', face_index=19, battery_percent=77, charging=True, build_timestamp=1700000000)
    >>> parse_advert({COMPANY_ID: bytes([20, 0x71, 1, 19, 77])}, {}).pixel_id
    0
    """
    first_service = next(iter(service_data.values()), None)
    service = bytes(first_service) if first_service is not None and len(first_service) >= 8 else None
    for company, raw in manufacturer_data.items():
        data = bytes(raw)
        current = service is not None or (first_service is None
                                          and company in (COMPANY_ID, OLD_COMPANY_ID))
        if current and len(data) >= 5:
            pixel_id, build = struct.unpack_from("<II", service) if service is not None else (0, 0)
            if service is not None and pixel_id == 0:
                return None  # "invalid advertising data" (getScannedPixel)
            led, design, roll, face, bat = data[:5]
            return Advert(pixel_id, _die_type(design >> 4, led), led,
                          _state_name(ROLL_STATES, roll), face, bat & 0x7F, bool(bat & 0x80),
                          build)
        if first_service is None and len(data) == 7:
            led = (company >> 8) & 0xFF
            pixel_id, roll, face, bat = struct.unpack("<IBBB", data)
            return Advert(pixel_id, die_type_from_leds(led), led, _state_name(ROLL_STATES, roll),
                          face, round(bat * 100 / 255), False, _OLD_ADVERT_BUILD_S)
    return None
