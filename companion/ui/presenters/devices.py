"""The devices panel's model, without Kivy: every device heard from (dice hubs, the GPIO
header, the simulated hub) with its link state, battery, last roll and frame counters,
and the links the app can connect or disconnect.

>>> from firmware_bridge.events import DeviceOnline, DieRolled, BatteryLevel, DeviceOffline
>>> m = DevicesModel()
>>> m.record(DeviceOnline(device="hub1", kind="hub", faces=(6, 6), firmware="0.1.0", t=1.0))
>>> m.record(DieRolled(device="hub1", die=1, value=5, outcome="rolled", confidence=0.99, counter=3, t=2.0))
>>> m.record(BatteryLevel(device="hub1", percent=81, t=3.0))
>>> r = m.rows()[0]; r.link, r.battery, r.last_roll
('● online', '81 %', 'die 1: 5 (rolled)')
>>> m.dice()
['hub1/0', 'hub1/1']
>>> m.record(DeviceOffline(device="hub1", reason="silent", t=9.0)); m.rows()[0].link
'○ offline (silent)'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol


class Link(Protocol):
    """What the panel needs of a connection (a serial HubConnection, the demo's link)."""

    def connect(self) -> None: ...
    def disconnect(self) -> None: ...
    def counters(self) -> Any: ...


@dataclass
class DeviceState:
    device: str
    kind: str = ""
    online: bool = False
    reason: str = ""
    firmware: str = ""
    uid: str = ""
    faces: tuple[int, ...] = ()
    battery: int | None = None
    last_roll: str = ""
    dice: set[int] = field(default_factory=set)
    events: int = 0


@dataclass(frozen=True)
class DeviceRow:
    device: str
    kind: str
    link: str
    battery: str
    last_roll: str
    counters: str
    detail: str
    can_connect: bool
    connected: bool


class DevicesModel:
    def __init__(self) -> None:
        self.devices: dict[str, DeviceState] = {}
        self.links: dict[str, Link] = {}
        self.listeners: list[Callable[[], None]] = []

    def add_link(self, device: str, link: Link) -> None:
        self.links[device] = link
        self.devices.setdefault(device, DeviceState(device))
        self._changed()

    def _dev(self, device: str) -> DeviceState:
        d = self.devices.get(device)
        if d is None:
            d = self.devices[device] = DeviceState(device)
        return d

    def record(self, event: Any) -> None:
        """Called (on the UI thread) with every event a source delivers."""
        name = type(event).__name__
        d = self._dev(event.device)
        d.events += 1
        if name == "DeviceOnline":
            d.online, d.reason, d.kind = True, "", event.kind
            d.firmware, d.uid, d.faces = event.firmware, event.uid, tuple(event.faces)
            d.dice.update(range(len(event.faces)))
        elif name == "DeviceOffline":
            d.online, d.reason = False, event.reason
        elif name == "DieRolled":
            d.online = True
            d.dice.add(event.die)
            d.last_roll = f"die {event.die}: {event.value} ({event.outcome})"
        elif name == "DieMotion":
            d.online = True
            d.dice.add(event.die)
        elif name == "BatteryLevel":
            d.battery = event.percent
        self._changed()

    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    def dice(self) -> list[str]:
        """Every die known, as "device/index" (what the setup wizard assigns to seats)."""
        return [f"{d.device}/{i}" for d in self.devices.values() for i in sorted(d.dice)]

    def rows(self) -> list[DeviceRow]:
        out = []
        for d in self.devices.values():
            link = self.links.get(d.device)
            counters = ""
            if link is not None:
                try:
                    c = link.counters()
                    counters = c.line() if hasattr(c, "line") else str(c)
                except Exception as e:  # a link that cannot say: show why
                    counters = f"counters unavailable: {e}"
            state = "● online" if d.online else ("○ offline" + (f" ({d.reason})" if d.reason else ""))
            detail = " · ".join(x for x in (d.kind, f"firmware {d.firmware}" if d.firmware else "",
                                            f"{len(d.dice)} dice" if d.dice else "", f"uid {d.uid}" if d.uid else "") if x)
            out.append(DeviceRow(d.device, d.kind, state, f"{d.battery} %" if d.battery is not None else "—",
                                 d.last_roll or "—", counters, detail, link is not None, d.online))
        return out

    def connect(self, device: str) -> None:
        self.links[device].connect()

    def disconnect(self, device: str) -> None:
        self.links[device].disconnect()
