"""The BLE source against the makers' own bytes: fake dice that advertise, answer and
notify exactly as the Pixels firmware and the GoDice SDKs lay their bytes out
(``firmware_bridge/ble/maker_vectors.json``, each layout cited by repository, path, line
and commit; packed by ``fake_bytes.py``, never by our codec), read by the source as a
maintainer of those dice would expect (pixels-js ``getScannedPixel.ts``, ``Pixel.ts``,
``DiceUtils.ts``; Particula's C core ``godiceapi.c``).

One test per difference found by reading the makers' code (issue 30, points 1 to 7, and
the ones found since); each failed on the code before its fix."""
from __future__ import annotations

import struct

import pytest

from firmware_bridge import events as E
from firmware_bridge.ble import fake_bytes as fb
from firmware_bridge.ble import pixels as P
from firmware_bridge.ble.fake import FakeGoDice, FakePixel, FakeRadio
from firmware_bridge.ble.source import BleDiceSource

from tests.firmware_bridge.ble.ble_helpers import (WAIT, online, radio, settled,  # noqa: F401
                                                   source, take)

PX = "C0:FF:EE:00:00:01"
GD = "C0:FF:EE:00:00:02"
OLD_FW = 1700000000  # 2023-11-14: before the 2024-01 normals fix and the 2024-05-22 tilt fix


# -- the makers' bytes themselves (the fake's packer against sizes the firmware implies) ----

def test_the_firmware_layouts_have_the_firmware_sizes():
    # bluetooth_messages.h: IAmADie = type + VersionInfo (1+2+4+2+2+2+2) + DieInfo (1+4+5)
    # + two 31-char name chunks (1+31) + SettingsInfo (1+12) + StatusInfo (1+4) = 108 bytes;
    # the legacy one is 22 (pixels-js LegacyIAmADie); RollState 3, BatteryLevel 3.
    ident = fb.pack("IAmADie", type=2)
    assert len(ident) == 108 and len(fb.pack("LegacyIAmADie")) == 22
    sizes, off = [], 1
    while off < len(ident):
        sizes.append(ident[off])
        off += ident[off]
    assert sizes == [15, 10, 32, 32, 13, 5]
    assert fb.pack("RollState", type=3, state=1, face=19) == bytes.fromhex("030113")
    assert fb.pack("BatteryLevel", type=34, levelPercent=77, state=2) == bytes.fromhex("224d02")


def test_a_pixel_advertises_as_the_firmware_sets_it_up():
    # bluetooth_stack.cpp initAdvertising (line 325): the primary packet carries the flags,
    # the 16-bit UUID 0x180A, manufacturer data of company 0x0D39 and the name; the scan
    # response the Pixels service UUID and the service data, under 0x180A.
    px = FakePixel(PX, pixel_id=0x1234ABCD, die_type="d20", name="Red", build_timestamp=OLD_FW,
                   face=20, battery=77)
    px.battery_state = "charging"
    primary, response = px.air()
    assert primary == bytes.fromhex("020106" "03030a18" "08ff390d" "1471" "05" "13" "cd" "0409526564")
    assert response == bytes.fromhex("1107" "5b9bdc8e0c3562a9f2435a7a0100b9a6"
                                     "0b160a18" "cdab3412" "00f15365")
    heard = px.advertisement(active=True)
    assert heard.service_data == {"0000180a-0000-1000-8000-00805f9b34fb": struct.pack("<II", 0x1234ABCD, OLD_FW)}
    assert P.SERVICE in heard.service_uuids
    # A die never named advertises "Pixel" and its id (settings.cpp line 127): 13 bytes,
    # which fit the primary packet whole.
    assert FakePixel(PX, pixel_id=0x1234ABCD).advertisement(active=False).local_name == "Pixel1234abcd"
    passive = px.advertisement(active=False)
    assert passive.service_data == {} and P.SERVICE not in passive.service_uuids
    assert passive.manufacturer_data == {0x0D39: bytes.fromhex("14710513cd")}


def test_our_codec_names_what_the_firmware_enumerates():
    enums = fb.vectors()["pixels"]["enums"]
    assert P.ROLL_STATES == tuple(enums["RollState"]["names"])        # accelerometer.h line 14
    assert P.BATTERY_STATES == tuple(enums["BatteryState"]["names"])  # battery_controller.h line 37
    assert P.DIE_TYPES == tuple(enums["DieType"]["names"])            # dice_variants.h line 9
    types = enums["MessageType"]["values"]                            # bluetooth_messages.h line 41
    assert (P.WHO_ARE_YOU, P.I_AM_A_DIE, P.ROLL_STATE, P.REQUEST_ROLL_STATE, P.BLINK, P.BLINK_ACK,
            P.REQUEST_BATTERY_LEVEL, P.BATTERY_LEVEL) == (
        types["WhoAreYou"], types["IAmADie"], types["RollState"], types["RequestRollState"],
        types["Blink"], types["BlinkAck"], types["RequestBatteryLevel"], types["BatteryLevel"])
    assert [P.faces_of(t) for t in enums["FaceCount"]["values"]] == list(enums["FaceCount"]["values"].values())
    gatt = fb.vectors()["pixels"]["gatt"]
    assert (P.SERVICE, P.NOTIFY, P.WRITE) == tuple(gatt["current"][k] for k in ("service", "notify", "write"))
    assert (P.LEGACY_SERVICE, P.LEGACY_NOTIFY, P.LEGACY_WRITE) == tuple(
        gatt["legacy"][k] for k in ("service", "notify", "write"))


def test_what_we_write_is_laid_out_as_the_makers_read_it():
    # A Pixels Blink is the firmware's MessageBlink (bluetooth_messages.h line 416).
    assert P.blink(0xFF0000, 2, 800) == fb.pack("Blink", type=29, count=2, duration=800, color=0xFF0000,
                                                 faceMask=0xFFFFFFFF, fade=0, loopCount=1)
    # GoDice: the C core's packets, field by field (godiceapi.c lines 397, 416, 434, 461).
    from firmware_bridge.ble import godice as G
    packets = fb.vectors()["godice"]["packets"]

    def laid_out(name: str, **v: int) -> bytes:
        return bytes(int(f, 16) if f.startswith("0x") else v[f] for f in packets[name]["fields"])

    assert G.init(30, 1, 25, 25, (0, 0, 255)) == laid_out(
        "init", sensitivity=30, blinks=1, on_10ms=25, off_10ms=25, red=0, green=0, blue=255,
        blink_mode=1, leds=0)
    assert G.set_leds((255, 0, 0), (0, 255, 0)) == laid_out(
        "open_leds", red1=255, green1=0, blue1=0, red2=0, green2=255, blue2=0)
    assert G.pulse(2, 10, 10, (255, 0, 0)) == laid_out(
        "toggle_leds", blinks=2, on_10ms=10, off_10ms=10, red=255, green=0, blue=0, blink_mode=1, leds=0)
    assert G.request_color() == laid_out("get_color")
    gatt = fb.vectors()["godice"]["gatt"]
    assert (G.SERVICE, G.WRITE, G.NOTIFY) == (gatt["service"], gatt["write"], gatt["notify"])


# -- point 1: the service data under 0x180A, and a passive scan ---------------------------

def test_point1_an_active_scan_reads_the_service_data_under_0x180a(source: BleDiceSource, radio: FakeRadio):
    px = radio.add(FakePixel(PX, pixel_id=0xABCDEF01, die_type="d10", name="Blue d10", face=7,
                             battery=64))
    found = source.scan(0.05)
    assert radio.scans == ["active"]
    (die,) = found
    # getScannedPixel.ts lines 36-38 and 67-76: the first service-data entry, whatever
    # its key, carries the Pixel id and the build time.
    assert (die.kind, die.name, die.die_type, die.uid, die.battery, die.face) == (
        "pixels", "Blue d10", "d10", "abcdef01", 64, "7")
    dev = source.add_pixel(die.address)
    online(source, dev)
    settled(source, px, 1)
    px.roll(3)
    e = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (e.outcome, e.value) == ("rolled", 3)


def test_point1_a_passive_scan_finds_a_pixel_by_its_primary_packet(source: BleDiceSource, radio: FakeRadio):
    px = radio.add(FakePixel(PX, pixel_id=0xABCDEF01, die_type="d12", name="Green", face=11,
                             battery=90))
    radio.add(FakeGoDice(GD, shell="D6"))
    found = source.scan(0.05, passive=True)
    assert radio.scans == ["passive"]
    by_kind = {d.kind: d for d in found}
    die = by_kind["pixels"]
    # No scan response: no Pixel id nor build time, but the manufacturer data (company
    # 0x0D39) gives the type, the face and the battery.
    assert (die.name, die.die_type, die.uid, die.battery, die.face) == ("Green", "d12", "", 90, "11")
    assert by_kind["godice"].name.startswith("GoDice_")
    dev = source.add_pixel(die.address)
    assert online(source, dev).uid == "abcdef01"  # the IAmADie tells what the scan could not
    settled(source, px, 1)
    px.roll(5)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 5


def test_a_passive_scan_finds_a_pixel_of_2023_under_the_placeholder_company(source: BleDiceSource, radio: FakeRadio):
    # Until 2024-09-30 (DiceFirmware 571e0ce) the manufacturer data went out under the
    # placeholder company 0xFFFF, with the legacy service in the scan response, and until
    # 2024-10-14 (5159d3c) the IAmADie was the 22-byte one: the dice sold in 2023.
    px = radio.add(FakePixel(PX, legacy=True, pixel_id=0x0BADCAFE, die_type="d20", name="Old",
                             build_timestamp=OLD_FW, face=20, battery=55))
    assert set(px.advertisement(active=False).manufacturer_data) == {0xFFFF}
    (die,) = source.scan(0.05, passive=True)
    assert (die.kind, die.die_type, die.uid, die.battery, die.face) == ("pixels", "d20", "", 55, "20")
    (die,) = source.scan(0.05)
    assert (die.uid, die.face) == ("0badcafe", "20")
    dev = source.add_pixel(PX)
    assert online(source, dev).protocol == "pixels 1.0 (legacy)"
    settled(source, px, 1)
    px.roll(7)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 7


def test_somebody_elses_device_is_not_a_pixel(source: BleDiceSource, radio: FakeRadio):
    # 7 bytes of manufacturer data alone (the pre-2022 layout's size) do not make a Pixel:
    # getScannedPixel.ts line 22 first asks for a Pixels service UUID.
    from firmware_bridge.ble.source import classify
    from types import SimpleNamespace as NS
    phone = NS(local_name="Phone", rssi=-40, manufacturer_data={0x004C: bytes(7)}, service_data={},
               service_uuids=[])
    assert classify("AA:01", "Phone", phone) is None


# -- point 2: API version 0 ---------------------------------------------------------------

def test_point2_an_api_version_of_0_is_not_checked(source: BleDiceSource, radio: FakeRadio):
    # Pixel.ts lines 545-563: the versions are compared only when above 0.
    px = radio.add(FakePixel(PX, api=0, compat=0))
    dev = source.add_pixel(PX)
    assert online(source, dev).uid == "1234abcd"
    settled(source, px, 1)
    assert source.last_error(dev) is None


# -- point 3: the crooked correction with an unknown build time ---------------------------

def test_point3_crooked_on_a_six_led_die_of_unknown_build_reads_rolled(source: BleDiceSource, radio: FakeRadio):
    # Pixel.ts lines 1060-1068: a 6-LED die whose firmware date is before 2024-05-22, and
    # an unknown one is new Date(0) (line 354), reads "crooked" as "rolled".
    px = radio.add(FakePixel(PX, die_type="d6", build_timestamp=0))
    dev = source.add_pixel(PX)
    online(source, dev)
    settled(source, px, 1)
    px.roll(4, crooked=True)
    e = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (e.outcome, e.value) == ("rolled", 4)


# -- point 4: a pre-2022 advertisement's build time ----------------------------------------

def test_point4_an_old_advertisement_is_read_as_built_on_2022_07_01(source: BleDiceSource, radio: FakeRadio):
    # getScannedPixel.ts lines 93-104: the old layout has no build time: 2022-07-01 is
    # assumed, so DiceUtils.faceFromIndex (lines 130-143) applies the old d6 numbering:
    # face index 4 shows 2.
    radio.add(FakePixel(PX, legacy=True, advert="before-2022-07", die_type="d6", face=5))
    (die,) = source.scan(0.05)
    assert (die.die_type, die.uid, die.face) == ("d6", "1234abcd", "2")


# -- point 5: a battery above 100 % --------------------------------------------------------

def test_point5_a_battery_above_100_is_passed_through(source: BleDiceSource, radio: FakeRadio):
    # pixels-js passes the die's level on as it is (Pixel.ts lines 403-406 for the
    # BatteryLevel message; getScannedPixel.ts line 87: battery & 0x7F).
    px = radio.add(FakePixel(PX, battery=80))
    dev = source.add_pixel(PX)
    online(source, dev)
    settled(source, px, 1)
    px.set_battery(104, "charging")
    e = take(source, lambda e: isinstance(e, E.BatteryLevel) and e.percent == 100)
    assert e.device == dev
    source.barrier()
    assert source.status(dev).battery == 104 and source.status(dev).charging
    assert source.counters(dev).bad_messages == 0
    px.battery = 110
    source.remove(dev)
    (die,) = source.scan(0.05)
    assert die.battery == 110


# -- point 6: the M20 after the fudge die ---------------------------------------------------

def test_point6_an_m20_is_a_twenty_faced_die(source: BleDiceSource, radio: FakeRadio):
    # dice_variants.h line 21: DieType_M20 follows DieType_FD6; its layout (dice_variants.cpp
    # line 729) has 20 faces on 12 LEDs, so an LED-count guess would call it a d12.
    px = radio.add(FakePixel(PX, die_type="m20"))
    (found,) = source.scan(0.05)
    assert found.die_type == "m20"
    dev = source.add_pixel(PX)
    assert online(source, dev).faces == (20,)
    settled(source, px, 1)
    px.roll(17)
    assert take(source, lambda e: isinstance(e, E.DieRolled)).value == 17


# -- point 7: the pre-2024 d4 and an out-of-range face index -------------------------------

@pytest.mark.parametrize("index", [6, 200, 255])
def test_point7_an_old_d4_with_an_out_of_range_face_is_dropped_and_counted(
        source: BleDiceSource, radio: FakeRadio, index: int):
    # Before 2024-02 the firmware chose the layout by board (DiceFirmware a64b9f1
    # src/config/dice_variants.cpp lines 365-371): a d4 on the 6-LED board reported the
    # six face indices of a d6 (0..5), which DiceUtils.faceFromIndex (lines 133-137) maps
    # to 1..4. An index beyond those is no face: dropped and counted, as for any die.
    px = radio.add(FakePixel(PX, die_type="d4", build_timestamp=OLD_FW, face=1))
    dev = source.add_pixel(PX)
    online(source, dev)
    settled(source, px, 1)
    px.roll(face_index=index)
    px.roll(face_index=5)  # index 5 is face 4 on that firmware
    e = take(source, lambda e: isinstance(e, E.DieRolled))
    assert (e.outcome, e.value) == ("rolled", 4)
    source.barrier()
    assert dict(source.counters(dev).bad_reasons) == {"face": 1}


# -- found since: a Pixel id of 0 ---------------------------------------------------------

def test_an_iamadie_with_pixel_id_0_is_no_identification(source: BleDiceSource, radio: FakeRadio):
    # Pixel.ts lines 890-897: "Got an empty Pixel id" ends the connection attempt; a die
    # pinned as Pixel 00000000 would let any other die with that fault pass for it.
    px = radio.add(FakePixel(PX, pixel_id=0))
    dev = source.add_pixel(PX)
    assert px.wait_for(lambda p: p.writes.count(b"\x01") >= 3 and p.connections >= 2, WAIT)
    assert type(source.last_error(dev)).__name__ == "IdentifyTimeout"
    assert not source.is_online(dev) and dict(source.counters(dev).bad_reasons).get("id", 0) >= 3


def test_a_pixel_with_2022_firmware_is_told_to_update(source: BleDiceSource, radio: FakeRadio):
    # Firmware built before 2022-12-19 answers WhoAreYou with an 18-byte IAmADie (DiceFirmware
    # 3a592b1 bluetooth_messages.h line 111), which predates the message API versions and
    # which pixels-js cannot read: the link refuses it, naming the fix.
    px = radio.add(FakePixel(PX, firmware_2022=True, build_timestamp=1660000000))
    assert len(px.i_am_a_die()) == 18
    dev = source.add_pixel(PX)
    assert px.wait_for(lambda p: p.connections >= 2, WAIT)
    err = source.last_error(dev)
    assert type(err).__name__ == "PixelsApiVersionError" and "update the die's firmware" in str(err)
    assert not source.is_online(dev)


# -- GoDice: the C core's tables ---------------------------------------------------------

@pytest.mark.parametrize("shell", ["D6", "D20", "D10", "D10X", "D4", "D8", "D12"])
def test_godice_every_face_of_every_shell_reads_as_the_c_core_reads_it(
        source: BleDiceSource, radio: FakeRadio, shell: str):
    gd = radio.add(FakeGoDice(GD, shell=shell))
    dev = source.add_godice(GD, shell=shell)
    online(source, dev)
    settled(source, gd, 1)
    faces = sorted(set(fb.vectors()["godice"]["transforms"][shell]["faces"]))
    values = [(f // 10 if shell == "D10X" else f) or 10 for f in faces]
    for v in values:
        gd.roll(v)
    got = []
    while len(got) < len(values):
        got.append(take(source, lambda e: isinstance(e, E.DieRolled)).value)
    assert got == values


def test_godice_bytes_are_the_c_cores():
    # godiceapi.c stablePacket_t (line 279): the key, then x, y, z as int8.
    gd = FakeGoDice(GD, shell="D20")
    sent: list[bytes] = []
    gd.notify = sent.append  # type: ignore[method-assign]
    gd.roll(2)
    gd.turn(20)
    assert sent == [b"R", b"S" + bytes([42, 256 - 42, 40]), b"MS" + bytes([64, 0, 22])]

