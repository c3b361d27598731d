"""The bytes the fake dice send, built from the makers' own layouts (``maker_vectors.json``:
the Pixels firmware's packed structs and advertising set-up, Particula's GoDice C core
tables), never from our codec (``pixels.py``, ``godice.py``): a test that decodes what a
fake sends checks our codec against the makers, not against itself.

* ``pack(name, **fields)``: a firmware struct, little-endian and packed, chunks led by
  their own size byte, fields named as the firmware names them (missing ones are 0).
* ``air(layout, fields, name)``: a Pixel's advertisement as raw AD structures, the primary
  packet and the scan response, as the nRF SDK's ``ble_advdata_encode`` writes them.
* ``heard(primary, scan_response)``: what a central's stack makes of them, as bleak's
  ``AdvertisementData`` fields (BlueZ's view: 16-bit UUIDs expanded to 128 bits, service
  data keyed by UUID, manufacturer data by company id); a passive scan passes no scan
  response.

>>> pack("RollState", type=3, state=1, face=19).hex()
'030113'
>>> len(pack("IAmADie", type=2)), len(pack("LegacyIAmADie"))
(108, 22)
>>> p, s = air("current", {"ledCount": 20, "designAndColor": 0x71, "rollState": 1,
...                        "currentFace": 19, "batteryLevelAndCharging": 0x80 | 77,
...                        "deviceId": 0x1234ABCD, "buildTimestamp": 1700000000}, "Pixel")
>>> p.hex()   # flags, the 16-bit UUID 0x180A, manufacturer data of company 0x0D39, the name
'02010603030a1808ff390d14710113cd0609506978656c'
>>> s.hex()   # the Pixels service UUID, service data under 0x180A: Pixel id, build time
'11075b9bdc8e0c3562a9f2435a7a0100b9a60b160a18cdab341200f15365'
>>> sorted(heard(p)["manufacturer_data"]), heard(p)["service_data"]
([3385], {})
"""

from __future__ import annotations

import json
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

__all__ = ["vectors", "pack", "air", "heard", "godice_vector", "pixels_enum",
           "BASE_UUID_TAIL"]

_FILE = Path(__file__).with_name("maker_vectors.json")
BASE_UUID_TAIL = "-0000-1000-8000-00805f9b34fb"  # the Bluetooth base UUID: 16-bit ones expand into it
_CTYPES = {"uint8_t": "B", "uint16_t": "H", "uint32_t": "I", "int8_t": "b"}
# Enums are one byte: the firmware is built with -fshort-enums.
_ENUMS = {"BatteryState", "Colorway", "DieType", "ChipModel", "RunMode"}
_AD_MAX = 31  # legacy advertising: 31 bytes per packet


@lru_cache(maxsize=1)
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_FILE.read_text(encoding="utf-8"))
    return data


def pixels_enum(name: str) -> Any:
    """A firmware enum: ``names`` (a list, value = index) or ``values`` (a dict)."""
    e = vectors()["pixels"]["enums"][name]
    return e.get("names", e.get("values"))


def pack(name: str, /, **fields: Any) -> bytes:
    """The firmware struct ``name`` with ``fields`` (by the firmware's field names; nested
    chunks by their struct name, as dicts)."""
    spec = vectors()["pixels"]["structs"][name]
    out = bytearray()
    for fname, ctype in spec["fields"]:
        value = fields.get(fname, 0)
        if ctype in _CTYPES or ctype in _ENUMS:
            out += struct.pack("<" + _CTYPES.get(ctype, "B"), value)
        elif ctype.startswith("char["):
            size = int(ctype[5:-1])
            raw = value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")
            out += raw[:size].ljust(size, b"\0")  # strncpy: zero-padded, no terminator needed
        else:
            out += pack(ctype, **(value or {}))
    if spec.get("chunk"):
        return bytes([len(out) + 1]) + bytes(out)  # chunkSize = sizeof(T), the size byte included
    return bytes(out)


def _ad(kind: int, data: bytes) -> bytes:
    return bytes([len(data) + 1, kind]) + data


def _uuid128_le(uuid: str) -> bytes:
    return bytes.fromhex(uuid.replace("-", ""))[::-1]


def _encode(elements: list[dict[str, Any]], fields: Mapping[str, Any], name: str) -> bytes:
    out = bytearray()
    for el in elements:
        kind = el["ad"]
        if kind == "flags":
            out += _ad(0x01, bytes.fromhex(el["hex"]))
        elif kind == "appearance":
            out += _ad(0x19, bytes.fromhex(el["hex"]))
        elif kind == "uuid16_complete":
            out += _ad(0x03, b"".join(struct.pack("<H", int(u, 16)) for u in el["uuids"]))
        elif kind == "uuid128_complete":
            out += _ad(0x07, b"".join(_uuid128_le(u) for u in el["uuids"]))
        elif kind == "manufacturer":
            company = el["company"]
            if company == "legacy":  # before July 2022: LED count << 8 | design and colour
                company = (fields["ledCount"] << 8) | fields["designAndColor"]
            out += _ad(0xFF, struct.pack("<H", company) + pack(el["struct"], **fields))
        elif kind == "service_data16":
            out += _ad(0x16, struct.pack("<H", int(el["uuid"], 16)) + pack(el["struct"], **fields))
        elif kind == "name":
            # The name goes last and is shortened to what is left (ble_advdata_encode).
            raw = name.encode("utf-8")
            room = _AD_MAX - len(out) - 2
            if room <= 0:
                continue
            out += _ad(0x09 if len(raw) <= room else 0x08, raw[:room])
        else:
            raise ValueError("unknown AD element %r" % kind)
    if len(out) > _AD_MAX:
        raise ValueError("an advertising packet of %d bytes (31 at most)" % len(out))
    return bytes(out)


def air(layout: str, fields: Mapping[str, Any], name: str) -> tuple[bytes, bytes]:
    """A Pixel's primary advertising packet and scan response in ``layout`` ("current",
    "before-2022-07"), ``fields`` by the firmware's names."""
    spec = vectors()["pixels"]["advertising"][layout]
    return _encode(spec["primary"], fields, name), _encode(spec["scan_response"], fields, name)


def _uuid16(v: int) -> str:
    return "%08x" % v + BASE_UUID_TAIL


def heard(*packets: bytes) -> dict[str, Any]:
    """What a central makes of the AD structures in ``packets`` (the primary packet, and
    the scan response on an active scan): bleak ``AdvertisementData`` keyword arguments."""
    out: dict[str, Any] = {"local_name": None, "manufacturer_data": {}, "service_data": {},
                           "service_uuids": []}
    for packet in packets:
        i = 0
        while i < len(packet):
            size = packet[i]
            if size == 0:
                break
            kind, data = packet[i + 1], bytes(packet[i + 2:i + 1 + size])
            i += 1 + size
            if kind in (0x08, 0x09):
                out["local_name"] = data.decode("utf-8", "replace")
            elif kind in (0x02, 0x03):
                out["service_uuids"] += [_uuid16(u) for (u,) in struct.iter_unpack("<H", data)]
            elif kind in (0x06, 0x07):
                out["service_uuids"] += [
                    "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
                    for h in (data[j:j + 16][::-1].hex() for j in range(0, len(data), 16))]
            elif kind == 0x16:
                out["service_data"][_uuid16(struct.unpack_from("<H", data)[0])] = data[2:]
            elif kind == 0xFF:
                out["manufacturer_data"][struct.unpack_from("<H", data)[0]] = data[2:]
    return out


def godice_vector(shell: str, value: int) -> tuple[int, int, int]:
    """The gravity vector a GoDice in ``shell`` reports lying on ``value`` (1..faces, a
    D10's 0 and a D10X's 00 given as 10): the first vector of the maker's table whose
    printed face it is (godiceapi.c's tables and transforms).

    >>> godice_vector("D6", 6), godice_vector("D20", 2), godice_vector("D10", 10)
    ((64, 0, 0), (42, -42, 40), (64, 0, -22))
    """
    g = vectors()["godice"]
    t = g["transforms"][shell]
    printed = value % 10 if shell == "D10" else (value % 10) * 10 if shell == "D10X" else value
    i = t["faces"].index(printed)
    x, y, z = g["tables"][t["table"]]["vectors"][i]
    return (x, y, z)
