"""The Pixels codec against byte vectors written by hand from the maker's public
descriptions (cited per test: GameWithPixels ``CommunicationsProtocol.md``; pixels-js
``DieMessages.ts`` / ``ChunkMessage.ts`` / ``DiceUtils.ts`` / ``getScannedPixel.ts``),
and fuzzed: any notification is a message or a ``MessageError``, nothing else."""
from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.ble import pixels as P
from firmware_bridge.ble.errors import MessageError, PixelsApiVersionError


def test_host_messages_from_communications_protocol_md():
    # "WhoAreYou ... effectively just one byte with the value 0x01"
    assert P.who_are_you() == bytes.fromhex("01")
    # Blink: Id 29, Count u8, Duration u16, Color u32 ARGB, Face Mask u32, Fade u8, Loop u8
    assert P.blink(color=0x00FF00, count=3, duration_ms=1000) == bytes.fromhex(
        "1d" "03" "e803" "00ff0000" "ffffffff" "00" "01")
    # pixels-js MessageTypeValues: requestRollState = 23, requestBatteryLevel = 33
    assert P.request_roll_state() == bytes.fromhex("17")
    assert P.request_battery_level() == bytes.fromhex("21")


def test_roll_state_and_battery_from_communications_protocol_md():
    # RollState: Id 3, Roll State u8, Current Face u8 (face index)
    assert P.parse_message(bytes.fromhex("030113")) == P.RollState("rolled", 19)
    assert P.parse_message(bytes.fromhex("030305")) == P.RollState("rolling", 5)
    assert P.parse_message(bytes.fromhex("030400")) == P.RollState("crooked", 0)
    assert P.parse_message(bytes.fromhex("030502")) == P.RollState("onFace", 2)
    # Fields are append-only: a longer RollState still reads
    assert P.parse_message(bytes.fromhex("03020799")) == P.RollState("handling", 7)
    # BatteryLevel: Id 34, Battery Level %, Battery State (pixels-js PixelBatteryState)
    assert P.parse_message(bytes.fromhex("224b00")) == P.Battery(75, "ok")
    assert P.parse_message(bytes.fromhex("220a01")) == P.Battery(10, "low")
    assert P.parse_message(bytes.fromhex("225002")).charging
    assert P.parse_message(bytes.fromhex("1e")) == P.BlinkAck()


LEGACY = bytes.fromhex(
    # IAmADie, legacy layout (CommunicationsProtocol.md table; pixels-js LegacyIAmADie):
    "02"          # Id 2
    "14"          # LED count 20
    "03"          # design & colour
    "07"          # die type d20 (the doc's "N/A" byte)
    "0b7a4757"    # data set hash
    "cdab3412"    # Pixel id 0x1234ABCD
    "0010"        # available flash
    "00f15365"    # build timestamp 1700000000
    "01"          # roll state: rolled
    "0d"          # face index 13 -> 14
    "58"          # battery 88 %
    "00")         # battery state ok


def test_legacy_i_am_a_die():
    assert len(LEGACY) == 22
    i = P.parse_message(LEGACY)
    assert isinstance(i, P.Identity)
    assert (i.legacy, i.pixel_id, i.die_type, i.led_count, i.build_timestamp) == (
        True, 0x1234ABCD, "d20", 20, 1700000000)
    assert (i.roll_state, i.face_index, i.battery_percent, i.battery_state) == ("rolled", 13, 88, "ok")
    assert (i.api_version, i.compat_api_version) == (0x100, 0x100)  # pixels-js: legacy = 0x100
    P.check_api(i)
    assert P.face_value(i.die_type, i.face_index) == 14


def chunked(api: int = 0x100, compat: int = 0x100, name: bytes = b"Red d20",
            status: bytes = bytes.fromhex("05" "4d" "00" "01" "13")) -> bytes:
    """An IAmADie in the chunked layout (pixels-js DieMessages: IAmADie = type, then the
    VersionInfo, DieInfo, CustomDesignAndColorName, DieName, SettingsInfo and StatusInfo
    chunks, each led by its own size byte)."""
    version = bytes([15]) + struct.pack("<HIHHHH", api, 1716400000, 0x0102, compat, 0x100, 0x100)
    info = bytes.fromhex("0a" "efbeadde" "01" "07" "14" "02" "00")  # id, chip, d20, 20 LEDs, colourway, run mode
    design = bytes([2]) + b"\0"
    die_name = bytes([len(name) + 2]) + name + b"\0"
    settings = bytes.fromhex("0d" "0b7a4757" "00100000" "00200000")
    return b"\x02" + version + info + design + die_name + settings + status


def test_chunked_i_am_a_die():
    i = P.parse_message(chunked())
    assert isinstance(i, P.Identity) and not i.legacy
    assert (i.pixel_id, i.die_type, i.led_count, i.name) == (0xDEADBEEF, "d20", 20, "Red d20")
    assert (i.api_version, i.compat_api_version, i.build_timestamp) == (0x100, 0x100, 1716400000)
    assert (i.battery_percent, i.battery_state, i.roll_state, i.face_index) == (77, "ok", "rolled", 19)
    P.check_api(i)


def test_chunk_grown_in_newer_firmware_is_skipped_and_short_one_defaults():
    # a status chunk with two more bytes than we know: ignored (append-only)
    i = P.parse_message(chunked(status=bytes.fromhex("07" "4d" "02" "03" "04" "aabb")))
    assert (i.battery_state, i.roll_state, i.face_index) == ("charging", "rolling", 4)
    # a status chunk cut after the battery level: the rest defaults (allowSkipLastProps)
    i = P.parse_message(chunked(status=bytes.fromhex("02" "21")))
    assert (i.battery_percent, i.roll_state, i.face_index) == (33, "unknown", 0)


@pytest.mark.parametrize("api,compat,fix", [(0x0FF, 0x0FF, "firmware"), (0x200, 0x200, "update the app")])
def test_api_version_checked(api, compat, fix):
    i = P.parse_message(chunked(api=api, compat=compat))
    with pytest.raises(PixelsApiVersionError, match=fix):
        P.check_api(i)


def test_chunk_sizes_that_do_not_fit_are_malformed():
    bad = bytearray(chunked())
    bad[1] = 200  # the first chunk claims more bytes than the message has
    with pytest.raises(MessageError):
        P.parse_message(bytes(bad))
    with pytest.raises(MessageError):
        P.parse_message(chunked()[:30])  # chunks missing


def test_face_values_from_dice_utils():
    # DiceUtils.faceFromIndex: d10 -> index (0..9), d00 -> index * 10, else index + 1;
    # our event values put 0 / 00 at 10 (README ruling) and labels print the face.
    assert [P.face_value("d10", i) for i in range(10)] == [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert [P.face_label("d00", P.face_value("d00", i)) for i in (0, 1, 9)] == ["00", "10", "90"]
    assert [P.face_value("d20", i) for i in (0, 19)] == [1, 20]
    # firmware built before 2024-01: d6 index 4 is face 2 (isFirmwareWithBadNormals)
    assert P.face_value("d6", 4, build_timestamp=1690000000) == 2
    assert [P.face_label("d6fudge", v) for v in range(1, 7)] == ["+", "-", " ", " ", "-", "+"]
    with pytest.raises(MessageError):
        P.face_value("d12", 12)


def test_advertisement_from_get_scanned_pixel():
    adv = P.parse_advert({P.COMPANY_ID: bytes.fromhex("14" "72" "05" "03" "85")},
                         {P.SERVICE: bytes.fromhex("cdab3412" "00f15365")})
    assert adv == P.Advert(0x1234ABCD, "d20", 20, "onFace", 3, 5, True, 1700000000)
    # before July 2022: company id = LED count << 8 | design, data = id, roll, face, battery/255
    old = P.parse_advert({0x0603: bytes.fromhex("cdab3412" "01" "02" "ff")}, {})
    assert (old.pixel_id, old.die_type, old.roll_state, old.face_index, old.battery_percent) == (
        0x1234ABCD, "d6", "rolled", 2, 100)
    assert P.parse_advert({0x004C: b"\x02\x15"}, {}) is None  # somebody's phone


@given(st.binary(max_size=64) | st.binary(min_size=17, max_size=17).map(lambda b: b"\x02" + b))
def test_any_notification_is_a_message_or_a_message_error(data):
    # ... or, for an IAmADie of 18 bytes (firmware built before 2022-12-19), the refusal
    # that names the fix: update the die's firmware.
    try:
        P.parse_message(data)
    except MessageError:
        pass
    except PixelsApiVersionError as e:
        assert data[:1] == b"\x02" and len(data) == 18 and "update the die's firmware" in str(e)
