"""Find dice hubs among the computer's serial ports by USB VID:PID (``hub_ids.json``)
and, where several are plugged in, by USB serial number — never by a device path such
as ``/dev/ttyACM0``, which changes with plug order.

>>> info = PortInfo(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005, serial_number="E66038B7")
>>> hub_id_for(info).kind
'native'
>>> info.usb_id
'2E8A:0005'
>>> hub_id_for(PortInfo(device="/dev/ttyS0")) is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterable

from firmware_bridge.serial.errors import HubNotFoundError

__all__ = ["HubId", "PortInfo", "hub_ids", "hub_id_for", "list_ports", "find_hubs",
           "find_hub", "HUB_IDS_PATH"]

HUB_IDS_PATH = Path(__file__).resolve().parent / "hub_ids.json"
_FORMAT = "tabletop-companion hub usb ids 1"


@dataclass(frozen=True, slots=True)
class HubId:
    """A USB VID:PID a hub can show, and whether it is the board's own USB ("native")
    or a USB-to-UART chip that other gadgets carry too ("bridge")."""

    vid: int
    pid: int
    kind: str
    board: str

    @property
    def usb_id(self) -> str:
        return "%04X:%04X" % (self.vid, self.pid)


@dataclass(frozen=True, slots=True)
class PortInfo:
    """One serial port as ``serial.tools.list_ports`` saw it (the fields we use)."""

    device: str
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    description: str = ""
    manufacturer: str | None = None
    product: str | None = None
    location: str | None = None

    @property
    def usb_id(self) -> str | None:
        """``"VVVV:PPPP"`` in hex, or None for a port that is not on USB."""
        if self.vid is None or self.pid is None:
            return None
        return "%04X:%04X" % (self.vid, self.pid)

    @classmethod
    def from_pyserial(cls, p: Any) -> "PortInfo":
        return cls(device=p.device, vid=p.vid, pid=p.pid, serial_number=p.serial_number,
                   description=p.description or "", manufacturer=p.manufacturer,
                   product=p.product, location=p.location)


def _parse_ids(data: Any) -> tuple[HubId, ...]:
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise ValueError("not a hub id file (format %r expected)" % _FORMAT)
    out = []
    for i, entry in enumerate(data.get("ids", ())):
        try:
            vid, pid = int(entry["vid"], 16), int(entry["pid"], 16)
            kind, board = entry["kind"], entry["board"]
        except (KeyError, TypeError, ValueError):
            raise ValueError("hub id %d: needs hex 'vid', 'pid', a 'kind' and a 'board'" % i) from None
        if kind not in ("native", "bridge") or not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
            raise ValueError("hub id %d: kind is native or bridge, ids are 16-bit" % i)
        out.append(HubId(vid, pid, kind, board))
    return tuple(out)


@cache
def hub_ids(path: Path = HUB_IDS_PATH) -> tuple[HubId, ...]:
    """The known VID:PIDs (from ``hub_ids.json`` unless another file is given)."""
    with open(path, encoding="utf-8") as f:
        return _parse_ids(json.load(f))


def hub_id_for(port: PortInfo, ids: Iterable[HubId] | None = None) -> HubId | None:
    """The ``HubId`` this port's VID:PID matches, or None."""
    for hid in hub_ids() if ids is None else ids:
        if port.vid == hid.vid and port.pid == hid.pid:
            return hid
    return None


def list_ports(comports: Callable[[], Iterable[Any]] | None = None) -> list[PortInfo]:
    """Every serial port the system has, sorted by device path. ``comports`` is
    ``serial.tools.list_ports.comports`` unless a test passes another."""
    if comports is None:
        from serial.tools.list_ports import comports
    return sorted((PortInfo.from_pyserial(p) for p in comports()), key=lambda p: p.device)


def find_hubs(serial_number: str | None = None, *, ids: Iterable[HubId] | None = None,
              include_bridges: bool = True,
              comports: Callable[[], Iterable[Any]] | None = None) -> list[PortInfo]:
    """Ports whose VID:PID is a hub's, optionally only the one with this USB serial
    number (compared case-insensitively: tools differ in how they print hex).
    ``include_bridges=False`` keeps only boards whose own USB is the hub's."""
    ids = tuple(hub_ids() if ids is None else ids)
    found = []
    for p in list_ports(comports):
        hid = hub_id_for(p, ids)
        if hid is None or (hid.kind == "bridge" and not include_bridges):
            continue
        if serial_number is not None and (p.serial_number or "").upper() != serial_number.upper():
            continue
        found.append(p)
    return found


def find_hub(serial_number: str | None = None, **kw: Any) -> PortInfo:
    """The one hub asked for; ``HubNotFoundError`` when there is none, or when
    ``serial_number`` is None and several could be meant."""
    found = find_hubs(serial_number, **kw)
    if not found:
        what = "with serial number %s" % serial_number if serial_number else "on any USB port"
        raise HubNotFoundError("no dice hub %s (known VID:PIDs: %s)"
                               % (what, ", ".join(h.usb_id for h in hub_ids())))
    if len(found) > 1 and serial_number is None:
        raise HubNotFoundError("%d hubs found (%s): name one by its serial number"
                               % (len(found), ", ".join("%s %s" % (p.device, p.serial_number)
                                                        for p in found)))
    return found[0]
