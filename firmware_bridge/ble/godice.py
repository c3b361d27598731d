"""The GoDice message protocol, pure (no bleak): ASCII-prefixed notifications, the
commands we write, and the face read from the reported gravity vector and the shell the
die wears.

Learned from the maker's public SDKs (Particula: GoDiceJavaScriptAPI ``README``, the C
core of GoDiceAndroid_iOS_API ``common/godiceapi.c``, the ``godice`` Python package) and
written here from those descriptions. Notifications, on the Nordic UART TX
characteristic:

* ``R``: a roll started;
* ``S`` x y z: stable after a legit roll (x, y, z signed bytes, about 64 = 1 g);
* ``FS`` / ``TS`` / ``MS`` x y z: stable after a fake roll / tilted (not flat) after a
  roll / moved by hand onto another face;
* ``Bat`` n (0..100), ``Char`` 0|1 (charging), ``Col`` c (the dots' colour 0..5);
  ``Tap`` / ``DTap`` (taps, unused here).

>>> parse_message(b"S" + bytes([64, 0, 0]))
Stable(kind='S', xyz=(64, 0, 0))
>>> parse_message(b"TS" + bytes([0x30, 0xF0, 0x20])).xyz
(48, -16, 32)
>>> parse_message(b"Bat" + bytes([57]))
Battery(percent=57)
>>> read_face("D6", (64, 0, 0)).value, read_face("D20", (42, -42, 40)).value
(6, 2)
>>> read_face("D10", (-64, 0, 22)).label, read_face("D10", (-64, 0, 22)).value
('0', 10)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

from firmware_bridge.ble.errors import MessageError

__all__ = [
    "SERVICE", "NOTIFY", "WRITE", "NAME_PREFIX", "SHELLS", "COLORS", "Rolling", "Stable",
    "Battery", "Charging", "Color", "OtherMessage", "Message", "parse_message", "Reading",
    "read_face", "shell_faces", "init", "request_battery", "request_color", "pulse",
    "set_leds", "LOW_BATTERY_PERCENT", "FLAT_DEG", "OTHER_SHELL_DEG",
]

# Nordic UART service: we write to RX, the die notifies on TX.
SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice"

SHELLS = ("D6", "D20", "D10", "D10X", "D4", "D8", "D12")
COLORS = ("black", "red", "green", "blue", "yellow", "orange")
LOW_BATTERY_PERCENT = 15
# A reading further than this from every face of its shell, and within OTHER_SHELL_DEG of
# a face of another shell family, says the die is in another shell.
FLAT_DEG = 15.0
OTHER_SHELL_DEG = 8.0

_SHELL_FILE = Path(__file__).with_name("godice_shells.json")


@dataclass(frozen=True, slots=True)
class Rolling:
    pass


@dataclass(frozen=True, slots=True)
class Stable:
    """``kind``: "S" (after a roll), "FS" (fake roll), "TS" (tilted), "MS" (moved by hand)."""

    kind: str
    xyz: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Battery:
    percent: int


@dataclass(frozen=True, slots=True)
class Charging:
    charging: bool


@dataclass(frozen=True, slots=True)
class Color:
    color: int

    @property
    def name(self) -> str:
        return COLORS[self.color]


@dataclass(frozen=True, slots=True)
class OtherMessage:
    """A notification we know and do not use (taps)."""

    kind: str


Message = Union[Rolling, Stable, Battery, Charging, Color, OtherMessage]


def _xyz(data: bytes, at: int, what: str) -> tuple[int, int, int]:
    if len(data) < at + 3:
        raise MessageError("%s needs %d bytes, got %d" % (what, at + 3, len(data)), "short")
    x, y, z = (b - 256 if b > 127 else b for b in data[at:at + 3])
    return (x, y, z)


def parse_message(data: bytes | bytearray) -> Message:
    """One notification as a message; ``MessageError`` when it is not a well-formed one
    (what the maker's C core calls an invalid packet).

    >>> parse_message(b"Col" + bytes([9]))
    Traceback (most recent call last):
    ...
    firmware_bridge.ble.errors.MessageError: colour 9 is not one of the six GoDice colours
    """
    data = bytes(data)
    if not data:
        raise MessageError("an empty notification", "empty")
    if data[:1] == b"R":
        return Rolling()
    if data[:4] == b"DTap" or data[:3] == b"Tap":
        return OtherMessage(data[:4].decode("ascii") if data[:1] == b"D" else "Tap")
    if data[:3] == b"Bat":
        if len(data) < 4 or data[3] > 100:
            raise MessageError("Bat needs a level 0..100, got %r" % data[3:], "range")
        return Battery(data[3])
    if data[:4] == b"Char":
        if len(data) < 5 or data[4] > 1:
            raise MessageError("Char needs 0 or 1, got %r" % data[4:], "range")
        return Charging(bool(data[4]))
    if data[:3] == b"Col":
        if len(data) < 4 or data[3] >= len(COLORS):
            raise MessageError("colour %s is not one of the six GoDice colours"
                               % (data[3] if len(data) > 3 else "missing"), "range")
        return Color(data[3])
    if data[:1] == b"S":
        return Stable("S", _xyz(data, 1, "S"))
    if data[:2] in (b"FS", b"TS", b"MS"):
        return Stable(data[:2].decode("ascii"), _xyz(data, 2, data[:2].decode("ascii")))
    raise MessageError("unknown GoDice message %r" % data[:4], "unknown")


# -- faces ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _shell_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_SHELL_FILE.read_text(encoding="utf-8"))
    return data


def shell_faces(shell: str) -> int:
    """The number of faces of a shell (D10X: 10, the tens die).

    >>> [shell_faces(s) for s in SHELLS]
    [6, 20, 10, 10, 4, 8, 12]
    """
    return int(_shell(shell)["faces"])


def _shell(shell: str) -> dict[str, Any]:
    try:
        spec: dict[str, Any] = _shell_data()["shells"][shell]
    except KeyError:
        raise ValueError("GoDice shell must be one of %s, got %r" % (", ".join(SHELLS), shell)) from None
    return spec


def _angle(a: tuple[int, ...] | list[int], b: tuple[int, ...] | list[int]) -> float:
    na = math.sqrt(sum(v * v for v in a))
    nb = math.sqrt(sum(v * v for v in b))
    if na == 0 or nb == 0:
        return 180.0
    cos = max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b)) / (na * nb)))
    return math.degrees(math.acos(cos))


def _nearest(table: list[list[int]], xyz: tuple[int, int, int]) -> int:
    return min(range(len(table)), key=lambda i: math.dist(xyz, table[i]))


@dataclass(frozen=True, slots=True)
class Reading:
    """A reading on a shell: ``value`` 1..faces for the event (a D10's 0 and a D10X's 00
    are 10), ``label`` what the face shows, ``confidence`` the cosine between the reading
    and the face's vector, ``angle`` the same in degrees, and ``looks_like`` the shell
    family the reading fits instead when it fits this one badly (else None)."""

    shell: str
    value: int
    faces: int
    label: str
    confidence: float
    angle: float
    looks_like: str | None = None


_FAMILIES = {"d6": "D6", "d20": "D20 (or D10, D10X)", "d24": "D4 (or D8, D12)"}


def read_face(shell: str, xyz: tuple[int, int, int]) -> Reading:
    """The face a reading shows in ``shell``. A D6 reading taken as D20:

    >>> r = read_face("D20", (64, 0, 0))
    >>> r.looks_like, round(r.angle)
    ('D6', 19)
    """
    spec = _shell(shell)
    tables = _shell_data()["tables"]
    table = tables[spec["table"]]
    i = _nearest(table, xyz)
    printed = spec["values"][i] if "values" in spec else i + 1
    angle = _angle(xyz, table[i])
    if shell == "D10X":
        value, label = (printed // 10) or 10, "%02d" % printed
    elif shell == "D10":
        value, label = printed or 10, str(printed)
    else:
        value, label = printed, str(printed)
    looks_like = None
    if angle > FLAT_DEG:
        for name, other in tables.items():
            if name == spec["table"]:
                continue
            if _angle(xyz, other[_nearest(other, xyz)]) <= OTHER_SHELL_DEG:
                looks_like = _FAMILIES[name]
                break
    return Reading(shell, value, int(spec["faces"]), label,
                   round(math.cos(math.radians(angle)), 4), angle, looks_like)


# -- what we write ----------------------------------------------------------------------

def _rgb(rgb: tuple[int, int, int]) -> list[int]:
    if len(rgb) != 3 or any(not 0 <= c <= 255 for c in rgb):
        raise ValueError("a colour is (r, g, b), each 0..255, got %r" % (rgb,))
    return list(rgb)


def init(sensitivity: int = 30, blinks: int = 1, on_10ms: int = 25, off_10ms: int = 25,
         rgb: tuple[int, int, int] = (0, 0, 255)) -> bytes:
    """The initialisation message (0x19): detection sensitivity and a welcome blink. The
    die answers it with ``Bat``, an ``S`` for the face it lies on and ``Char``: the
    documented way to learn its face after a (re)connect, there being no face query
    (GoDiceJavaScriptAPI issue 10).

    >>> init().hex()
    '191e0119190000ff0100'
    """
    if not (0 < sensitivity < 256 and 0 <= blinks < 256 and 0 <= on_10ms < 256
            and 0 <= off_10ms < 256):
        raise ValueError("init: sensitivity 1..255, blinks and times 0..255")
    # Blink mode 1 = both LEDs together, LED selector 0 = both.
    return bytes([0x19, sensitivity, blinks, on_10ms, off_10ms] + _rgb(rgb) + [1, 0])


def request_battery() -> bytes:
    return b"\x03"


def request_color() -> bytes:
    return b"\x17"


def set_leds(led1: tuple[int, int, int], led2: tuple[int, int, int]) -> bytes:
    return bytes([0x08] + _rgb(led1) + _rgb(led2))


def pulse(count: int = 3, on_10ms: int = 20, off_10ms: int = 20,
          rgb: tuple[int, int, int] = (0, 0, 255)) -> bytes:
    """Blink both LEDs ``count`` times ("identify this die").

    >>> pulse(2, 10, 10, (255, 0, 0)).hex()
    '10020a0aff00000100'
    """
    if not (0 < count < 256 and 0 <= on_10ms < 256 and 0 <= off_10ms < 256):
        raise ValueError("pulse: count 1..255, times 0..255 (units of 10 ms)")
    return bytes([0x10, count, on_10ms, off_10ms] + _rgb(rgb) + [1, 0])
