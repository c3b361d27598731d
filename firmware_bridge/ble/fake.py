"""A fake radio for bleak: fake Pixels and GoDice that speak the real byte protocols,
behind bleak backends (a ``BaseBleakClient`` and a ``BaseBleakScanner``), so the source
runs bleak's own ``BleakClient`` / ``BleakScanner`` front end against them (the way
``nat20``'s pytest plugin fakes bleak). For tests and the app's demo; needs bleak.

    radio = FakeRadio()
    px = radio.add(FakePixel("C0:FF:EE:00:00:01", pixel_id=0x1234ABCD, die_type="d20"))
    gd = radio.add(FakeGoDice("C0:FF:EE:00:00:02", shell="D6"))
    source = BleDiceSource(on_event=q, factory=radio.factory())
    source.add_pixel(px.address); source.add_godice(gd.address, shell="D6")
    px.roll(17)                 # handling, rolling, rolled on 17: three notifications
    gd.roll(4); gd.turn(2)      # R, S x y z; MS x y z
    px.drop()                   # the link drops (out of range); px.reboot(), px.power(False)
    px.other_host = True        # connected to someone else's phone: not advertising

Every method may be called from any thread: a die's notifications go to the loop that
connected it, in order. A die's state changes whether or not it is connected (a throw
made while nobody listens is what a reconnect's report finds).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import struct
import threading
from typing import Any, Callable

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient

from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakDeviceNotFoundError, BleakError

from firmware_bridge.ble import godice as G
from firmware_bridge.ble import pixels as P
from firmware_bridge.ble.factory import BleakFactory

__all__ = ["FakeRadio", "FakePeripheral", "FakePixel", "FakeGoDice", "FakeClientBackend",
           "FakeScannerBackend"]

_handles = itertools.count(1)


class FakePeripheral:
    """A BLE peripheral on the fake radio: GATT services, advertising, one link at a time."""

    services: dict[str, list[str]] = {}

    def __init__(self, address: str, name: str) -> None:
        self.address = address
        self.name = name
        self.powered = True
        self.other_host = False  # connected to another phone or app: it does not advertise
        self.rssi = -60
        self.writes: list[bytes] = []
        self.connections = 0
        self.drop_on: bytes | None = None  # drop the link when a write starting so arrives
        self._link: "FakeClientBackend | None" = None
        self._cond = threading.Condition()

    # -- the radio side -----------------------------------------------------------------

    @property
    def advertising(self) -> bool:
        return self.powered and not self.other_host and self._link is None

    @property
    def connected(self) -> bool:
        return self._link is not None

    def advertisement(self) -> AdvertisementData:
        return AdvertisementData(local_name=self.name, manufacturer_data={}, service_data={},
                                 service_uuids=list(self.services), tx_power=None,
                                 rssi=self.rssi, platform_data=())

    def attach(self, link: "FakeClientBackend") -> None:
        with self._cond:
            self._link = link
            self.connections += 1
            self._cond.notify_all()

    def detach(self, link: "FakeClientBackend") -> None:
        with self._cond:
            if self._link is link:
                self._link = None
            self._cond.notify_all()

    def written(self, uuid: str, data: bytes) -> None:
        """A write from the host (on its loop thread): record it, answer it."""
        if self.drop_on is not None and data.startswith(self.drop_on):
            self.drop_on = None
            self.drop()  # the link goes as this write arrives: no answer
        else:
            self.on_write(data)  # replies queued first: a test that saw the write can wait them out
        with self._cond:
            self.writes.append(data)
            self._cond.notify_all()

    def on_write(self, data: bytes) -> None:
        raise NotImplementedError

    def notify(self, data: bytes) -> None:
        """Send a notification to the connected host, if any (from any thread)."""
        link = self._link
        if link is not None:
            link.deliver(self.notify_uuid, data)

    notify_uuid = ""

    def drop(self) -> None:
        """The link drops (out of range, interference); the die advertises again."""
        link = self._link
        if link is not None:
            link.remote_disconnect()
            self.detach(link)

    def power(self, on: bool) -> None:
        if not on:
            self.drop()
        self.powered = on

    def wait_for(self, predicate: Callable[["FakePeripheral"], bool], timeout: float = 5.0) -> bool:
        """Block until ``predicate(self)`` holds (checked at every write and link change)."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    def wait_connected(self, count: int = 1, timeout: float = 5.0) -> bool:
        """Until the host has connected ``count`` times in all and is connected now."""
        return self.wait_for(lambda p: p.connections >= count and p.connected, timeout)


class FakePixel(FakePeripheral):
    """A Pixels die: answers WhoAreYou (``legacy``: in the 22-byte layout), RequestRollState,
    RequestBatteryLevel and Blink as the firmware does, and notifies its roll states."""

    def __init__(self, address: str, *, pixel_id: int = 0x1234ABCD, die_type: str = "d20",
                 name: str = "", legacy: bool = False, api: int = P.API_VERSION,
                 compat: int = P.COMPAT_API_VERSION, battery: int = 80,
                 build_timestamp: int = 1716400000, face: int | None = None) -> None:
        super().__init__(address, name or "Pixel %06x" % (pixel_id & 0xFFFFFF))
        self.pixel_id = pixel_id
        self.die_type = die_type
        self.legacy = legacy
        self.api, self.compat = api, compat
        self.battery, self.battery_state = battery, "ok"
        self.build_timestamp = build_timestamp
        self.state = "onFace"
        self.face_index = self._index(face if face is not None else P.faces_of(die_type))
        self.blinks = 0
        self.notify_uuid = P.LEGACY_NOTIFY if legacy else P.NOTIFY
        self.services = ({P.LEGACY_SERVICE: [P.LEGACY_NOTIFY, P.LEGACY_WRITE]} if legacy
                         else {P.SERVICE: [P.NOTIFY, P.WRITE]})

    def _index(self, value: int) -> int:
        if self.die_type in ("d10", "d00"):
            return value % 10
        return value - 1

    def advertisement(self) -> AdvertisementData:
        design = (P.DIE_TYPES.index(self.die_type) << 4) | 1
        leds = 6 if self.die_type in ("d4", "d6", "d6fudge") else P.faces_of(self.die_type)
        manuf = bytes([leds, design, P.ROLL_STATES.index(self.state), self.face_index,
                       self.battery | (0x80 if self.battery_state == "charging" else 0)])
        service = P.LEGACY_SERVICE if self.legacy else P.SERVICE
        return AdvertisementData(local_name=self.name, manufacturer_data={P.COMPANY_ID: manuf},
                                 service_data={service: struct.pack("<II", self.pixel_id, self.build_timestamp)},
                                 service_uuids=[service], tx_power=None, rssi=self.rssi,
                                 platform_data=())

    def i_am_a_die(self) -> bytes:
        leds = 6 if self.die_type in ("d4", "d6", "d6fudge") else P.faces_of(self.die_type)
        die_type = P.DIE_TYPES.index(self.die_type)
        roll = P.ROLL_STATES.index(self.state)
        bat_state = P.BATTERY_STATES.index(self.battery_state)
        if self.legacy:
            return struct.pack("<BBBBIIHIBBBB", P.I_AM_A_DIE, leds, 1, die_type, 0x57477A0B,
                               self.pixel_id, 4096, self.build_timestamp, roll,
                               self.face_index, self.battery, bat_state)
        name = self.name.encode("utf-8")
        return (bytes([P.I_AM_A_DIE])
                + bytes([15]) + struct.pack("<HIHHHH", self.api, self.build_timestamp, 0x100,
                                            self.compat, 0x100, 0x100)
                + bytes([10]) + struct.pack("<IBBBBB", self.pixel_id, 1, die_type, leds, 1, 0)
                + bytes([2, 0])
                + bytes([len(name) + 2]) + name + b"\0"
                + bytes([13]) + struct.pack("<III", 0x57477A0B, 4096, 8192)
                + bytes([5, self.battery, bat_state, roll, self.face_index]))

    def on_write(self, data: bytes) -> None:
        kind = data[0] if data else 0
        if kind == P.WHO_ARE_YOU:
            self.notify(self.i_am_a_die())
        elif kind == P.REQUEST_ROLL_STATE:
            self.notify(bytes([P.ROLL_STATE, P.ROLL_STATES.index(self.state), self.face_index]))
        elif kind == P.REQUEST_BATTERY_LEVEL:
            self.notify(bytes([P.BATTERY_LEVEL, self.battery, P.BATTERY_STATES.index(self.battery_state)]))
        elif kind == P.BLINK:
            self.blinks += 1
            self.notify(bytes([P.BLINK_ACK]))

    def _state(self, state: str, face_index: int | None = None) -> None:
        self.state = state
        if face_index is not None:
            self.face_index = face_index
        self.notify(bytes([P.ROLL_STATE, P.ROLL_STATES.index(state), self.face_index]))

    def roll(self, value: int | None = None, crooked: bool = False, drop_after: str = "") -> int:
        """Pick up, throw, land on ``value`` (random if None). ``drop_after``: "handling" or
        "rolling" drops the link at that point (the die lands while nobody hears)."""
        if value is None:
            value = random.randint(1, P.faces_of(self.die_type))
        away = self.other_host
        try:
            for state in ("handling", "rolling"):
                self._state(state)
                if drop_after == state:
                    self.other_host = True  # out of reach until it has landed
                    self.drop()
            self._state("crooked" if crooked else "rolled", self._index(value))
        finally:
            self.other_host = away
        return value

    def turn(self, value: int) -> None:
        """Picked up and put down on ``value`` by hand: handling, then onFace."""
        self._state("handling")
        self._state("onFace", self._index(value))

    def set_battery(self, percent: int, state: str = "ok") -> None:
        self.battery, self.battery_state = percent, state
        self.notify(bytes([P.BATTERY_LEVEL, percent, P.BATTERY_STATES.index(state)]))

    def reboot(self) -> None:
        """Power cycle: the link drops; it comes back at rest on the same face."""
        self.drop()
        self.state = "onFace"


class FakeGoDice(FakePeripheral):
    """A GoDice in a physical ``shell``: notifies R and S/FS/TS/MS with the gravity vector
    of the face in that shell (the published tables), answers the init message (Bat, the
    face it lies on, Char), battery and colour requests, and records LED pulses."""

    services = {G.SERVICE: [G.WRITE, G.NOTIFY]}
    notify_uuid = G.NOTIFY

    def __init__(self, address: str, *, shell: str = "D6", name: str = "", face: int = 1,
                 battery: int = 90, color: int = 3) -> None:
        super().__init__(address, name or "GoDice_%s_K_v04" % address.replace(":", "")[-6:])
        self.shell = shell
        self.face = face
        self.battery = battery
        self.charging = False
        self.color = color
        self.pulses = 0

    def xyz(self, value: int) -> tuple[int, int, int]:
        """The vector the die reports lying on ``value`` in its shell."""
        data = json.loads(G._SHELL_FILE.read_text(encoding="utf-8"))
        spec = data["shells"][self.shell]
        table = data["tables"][spec["table"]]
        printed = [v if v else 10 for v in spec.get("values", range(1, len(table) + 1))]
        if self.shell == "D10X":
            printed = [(v // 10) or 10 for v in spec["values"]]
        x, y, z = table[printed.index(value)]
        return (x, y, z)

    def _stable(self, kind: bytes, value: int, tilt: bool = False) -> None:
        self.face = value
        x, y, z = self.xyz(value)
        if tilt:  # leaning about 20 degrees off the face: nearest it still, but not flat
            x, y, z = _lean(x, y, z)
        self.notify(kind + bytes(v & 0xFF for v in (x, y, z)))

    def roll(self, value: int | None = None, tilted: bool = False, drop_after_start: bool = False) -> int:
        if value is None:
            value = random.randint(1, G.shell_faces(self.shell))
        away = self.other_host
        self.notify(b"R")
        if drop_after_start:
            self.other_host = True  # out of reach until it has landed
            self.drop()
        try:
            self._stable(b"TS" if tilted else b"S", value, tilt=tilted)
        finally:
            self.other_host = away
        return value

    def fake_roll(self, value: int) -> None:
        self.notify(b"R")
        self._stable(b"FS", value)

    def turn(self, value: int) -> None:
        """Turned by hand onto ``value``: MS."""
        self._stable(b"MS", value)

    def set_battery(self, percent: int) -> None:
        self.battery = percent
        self.notify(b"Bat" + bytes([percent]))

    def on_write(self, data: bytes) -> None:
        kind = data[0] if data else 0
        if kind == 0x19:  # init: blink, then battery, the face it lies on, charging
            self.notify(b"Bat" + bytes([self.battery]))
            x, y, z = self.xyz(self.face)
            self.notify(b"S" + bytes(v & 0xFF for v in (x, y, z)))
            self.notify(b"Char" + bytes([int(self.charging)]))
        elif kind == 0x03:
            self.notify(b"Bat" + bytes([self.battery]))
        elif kind == 0x17:
            self.notify(b"Col" + bytes([self.color]))
        elif kind == 0x10:
            self.pulses += 1

    def reboot(self) -> None:
        self.drop()


def _lean(x: int, y: int, z: int) -> tuple[int, int, int]:
    """The vector turned about 20 degrees off itself (a die resting tilted)."""
    axis = min(range(3), key=lambda i: abs((x, y, z)[i]))
    e = [0, 0, 0]
    e[axis] = 1
    u = (y * e[2] - z * e[1], z * e[0] - x * e[2], x * e[1] - y * e[0])  # perpendicular to v
    n = (x * x + y * y + z * z) ** 0.5
    un = (u[0] ** 2 + u[1] ** 2 + u[2] ** 2) ** 0.5
    k = 0.36 * n / un
    return (round(x + k * u[0]), round(y + k * u[1]), round(z + k * u[2]))


class FakeRadio:
    """The fake air: peripherals by address. ``factory()`` is what a source takes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.devices: dict[str, FakePeripheral] = {}

    def add(self, peripheral: Any) -> Any:
        with self._lock:
            self.devices[peripheral.address.upper()] = peripheral
        return peripheral

    def remove(self, address: str) -> None:
        with self._lock:
            p = self.devices.pop(address.upper(), None)
        if p is not None:
            p.drop()

    def get(self, address: str) -> FakePeripheral | None:
        with self._lock:
            return self.devices.get(address.upper())

    @classmethod
    def demo(cls, pixel_type: str = "d6", godice_shell: str = "D6") -> "FakeRadio":
        """A radio with one Pixel and one GoDice, for the app's demo.

        >>> radio = FakeRadio.demo()
        >>> sorted(type(p).__name__ for p in radio.devices.values())
        ['FakeGoDice', 'FakePixel']
        """
        radio = cls()
        radio.add(FakePixel("DE:40:00:00:00:01", pixel_id=0xDE400001, die_type=pixel_type,
                            name="Demo Pixel"))
        radio.add(FakeGoDice("DE:40:00:00:00:02", shell=godice_shell))
        return radio

    def factory(self) -> BleakFactory:
        return BleakFactory(client_backend=FakeClientBackend,
                            scanner_backend=FakeScannerBackend, radio=self)


class FakeClientBackend(BaseBleakClient):
    """bleak's client backend on the fake radio."""

    def __init__(self, address_or_ble_device: Any, *, radio: FakeRadio, **kwargs: Any) -> None:
        kwargs.pop("services", None)
        kwargs.pop("bluez", None)
        kwargs.pop("winrt", None)
        super().__init__(address_or_ble_device, disconnected_callback=kwargs.pop("disconnected_callback", None),
                         timeout=kwargs.pop("timeout", 10.0))
        self.radio = radio
        self._peripheral: FakePeripheral | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._callbacks: dict[str, Callable[[bytearray], None]] = {}
        self._connected = False

    @property
    def mtu_size(self) -> int:
        return 247

    @property
    def name(self) -> str:
        p = self.radio.get(self.address)
        return p.name if p is not None else ""

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.sleep(0)
        p = self.radio.get(self.address)
        if p is None or not p.advertising:
            raise BleakDeviceNotFoundError(self.address, "Device with address %s was not found." % self.address)
        coll = BleakGATTServiceCollection()
        for suuid, chars in p.services.items():
            svc = BleakGATTService(None, next(_handles), suuid)
            coll.add_service(svc)
            for cuuid in chars:
                props = ["notify"] if cuuid == p.notify_uuid else ["write", "write-without-response"]
                ch = BleakGATTCharacteristic(None, next(_handles), cuuid, props,  # type: ignore[arg-type]
                                             lambda: 244, svc)
                coll.add_characteristic(ch)
        self.services = coll
        self._peripheral = p
        self._connected = True
        p.attach(self)

    async def disconnect(self) -> None:
        p, self._peripheral = self._peripheral, None
        self._connected = False
        if p is not None:
            p.detach(self)

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def unpair(self) -> None:
        return None

    @property
    def is_connected(self) -> bool:
        return self._connected

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, **kwargs: Any) -> bytearray:
        raise BleakError("the fake dice have nothing to read")

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise BleakError("the fake dice have no descriptors")

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any,
                              response: bool) -> None:
        p = self._peripheral
        if not self._connected or p is None:
            raise BleakError("Not connected")
        await asyncio.sleep(0)
        p.written(characteristic.uuid, bytes(data))

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise BleakError("the fake dice have no descriptors")

    async def start_notify(self, characteristic: BleakGATTCharacteristic,
                           callback: Callable[[bytearray], None], **kwargs: Any) -> None:
        self._callbacks[characteristic.uuid] = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self._callbacks.pop(characteristic.uuid, None)

    # -- from the peripheral (any thread) -------------------------------------------------

    def deliver(self, uuid: str, data: bytes) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._deliver, uuid, bytes(data))

    def _deliver(self, uuid: str, data: bytes) -> None:
        cb = self._callbacks.get(uuid)
        if self._connected and cb is not None:
            cb(bytearray(data))

    def remote_disconnect(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._remote_disconnect)

    def _remote_disconnect(self) -> None:
        if not self._connected:
            return
        self._connected = False
        self._peripheral = None
        if self._disconnected_callback is not None:
            self._disconnected_callback()


class FakeScannerBackend(BaseBleakScanner):
    """bleak's scanner backend on the fake radio: every advertising die, once per start."""

    def __init__(self, detection_callback: Any, service_uuids: Any, scanning_mode: str = "active",
                 *, radio: FakeRadio, **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self.radio = radio

    async def start(self) -> None:
        self.seen_devices = {}
        with self.radio._lock:
            devices = list(self.radio.devices.values())
        for p in devices:
            if not p.advertising:
                continue
            adv = p.advertisement()
            if not self.is_allowed_uuid(adv.service_uuids):
                continue
            device = self.create_or_update_device(p.address, p.address, p.name, None, adv)
            self.call_detection_callbacks(device, adv)
            await asyncio.sleep(0)

    async def stop(self) -> None:
        return None



