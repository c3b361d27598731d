"""A fake radio for bleak: fake Pixels and GoDice that send the makers' own bytes (laid out
from the firmware's structs and the SDKs' tables in ``maker_vectors.json`` by
``fake_bytes.py``, never by our codec), advertising as the firmware does (a passive scan
hears the primary packet only),
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
import random
import struct
import threading
from typing import Any, Callable

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient

from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakDeviceNotFoundError, BleakError

from firmware_bridge.ble import fake_bytes as fb
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

    def advertisement(self, active: bool = True) -> AdvertisementData:
        """What a scan hears; ``active=False``: a passive scan, which gets no scan response."""
        return AdvertisementData(local_name=self.name, manufacturer_data={}, service_data={},
                                 service_uuids=list(self.services) if active else [],
                                 tx_power=None, rssi=self.rssi, platform_data=())

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


_MSG = fb.pixels_enum("MessageType")
_ROLL = fb.pixels_enum("RollState")
_BATTERY = fb.pixels_enum("BatteryState")
_DIE_TYPES = fb.pixels_enum("DieType")
_LEDS = fb.pixels_enum("LedCount")
_FACES = fb.pixels_enum("FaceCount")
_PIXELS_GATT = fb.vectors()["pixels"]["gatt"]
_GODICE = fb.vectors()["godice"]
_KEYS = {k: v.encode("ascii") for k, v in _GODICE["notifications"]["keys"].items()}
_COMMANDS = _GODICE["commands"]["values"]


class FakePixel(FakePeripheral):
    """A Pixels die: advertises, answers WhoAreYou, RequestRollState, RequestBatteryLevel
    and Blink, and notifies its roll states, every byte laid out as the firmware lays it
    out (``fake_bytes``, ``maker_vectors.json``). ``legacy``: firmware from 2022-12 to
    2024-09 (the legacy service, the 22-byte IAmADie, manufacturer data under the
    placeholder company 0xFFFF); ``advert``: another advertising layout of the vectors
    ("before-2022-07": the firmware of that time); ``firmware_2022``: answers WhoAreYou
    with the 18-byte IAmADie of firmware built before 2022-12-19; ``build_timestamp`` is
    the firmware's build time (0: not known)."""

    def __init__(self, address: str, *, pixel_id: int = 0x1234ABCD, die_type: str = "d20",
                 name: str = "", legacy: bool = False, api: int = 0x100, compat: int = 0x100,
                 battery: int = 80, build_timestamp: int = 1716400000, face: int | None = None,
                 colorway: int = 1, advert: str = "", firmware_2022: bool = False) -> None:
        default = fb.vectors()["pixels"]["default_name"]
        super().__init__(address, name or default["prefix"] + default["id_format"] % pixel_id)
        self.pixel_id = pixel_id
        self.die_type = die_type
        self.legacy = legacy
        self.advert = advert or ("2022-07-to-2024-09" if legacy or firmware_2022 else "current")
        self.firmware_2022 = firmware_2022
        self.api, self.compat = api, compat
        self.battery, self.battery_state = battery, "ok"
        self.build_timestamp = build_timestamp
        self.colorway = colorway
        self.state = "onFace"
        self.face_index = self._index(face if face is not None else _FACES[die_type])
        self.blinks = 0
        gatt = _PIXELS_GATT["legacy" if legacy or firmware_2022 else "current"]
        self.notify_uuid = gatt["notify"]
        self.services = {gatt["service"]: sorted({gatt["notify"], gatt["write"]})}
        self.write_uuid = gatt["write"]

    def _index(self, value: int) -> int:
        if self.die_type in ("d10", "d00"):
            return value % 10
        return value - 1

    @property
    def leds(self) -> int:
        return int(_LEDS[self.die_type])

    def _fields(self) -> dict[str, Any]:
        """The firmware's own names for what it advertises (bluetooth_custom_advertising_data.cpp)."""
        charging = self.battery_state in ("charging", "done")
        return {"ledCount": self.leds,
                "designAndColor": (_DIE_TYPES.index(self.die_type) << 4) | self.colorway,
                "rollState": _ROLL.index(self.state), "currentFace": self.face_index,
                "batteryLevelAndCharging": (self.battery & 0x7F) | (0x80 if charging else 0),
                "deviceId": self.pixel_id, "buildTimestamp": self.build_timestamp,
                # before July 2022: the battery as 0..255
                "batteryLevel": round(self.battery * 255 / 100)}

    def air(self) -> tuple[bytes, bytes]:
        """The primary advertising packet and the scan response, raw AD structures."""
        return fb.air(self.advert, self._fields(), self.name)

    def advertisement(self, active: bool = True) -> AdvertisementData:
        primary, response = self.air()
        return AdvertisementData(**fb.heard(primary, response) if active else fb.heard(primary),
                                 tx_power=None, rssi=self.rssi, platform_data=())

    def i_am_a_die(self) -> bytes:
        roll, bat_state = _ROLL.index(self.state), _BATTERY.index(self.battery_state)
        die_type = _DIE_TYPES.index(self.die_type)
        if self.firmware_2022:
            return fb.pack("IAmADie2022", type=_MSG["IAmADie"], ledCount=self.leds,
                           designAndColor=self.colorway, dataSetHash=0x57477A0B,
                           pixelId=self.pixel_id, availableFlash=4096,
                           buildTimestamp=self.build_timestamp)
        if self.legacy:
            return fb.pack("LegacyIAmADie", type=_MSG["IAmADie"], ledCount=self.leds,
                           colorway=self.colorway, dieType=die_type, dataSetHash=0x57477A0B,
                           pixelId=self.pixel_id, availableFlash=4096,
                           buildTimestamp=self.build_timestamp, rollState=roll,
                           rollFace=self.face_index, batteryLevelPercent=self.battery,
                           batteryState=bat_state)
        return fb.pack(
            "IAmADie", type=_MSG["IAmADie"],
            versionInfo={"firmwareVersion": self.api, "buildTimestamp": self.build_timestamp,
                         "settingsVersion": 0x100, "compatStandardApiVersion": self.compat,
                         "compatExtendedApiVersion": 0x100, "compatManagementApiVersion": 0x100},
            dieInfo={"pixelId": self.pixel_id, "chipModel": 1, "dieType": die_type,
                     "ledCount": self.leds, "colorway": self.colorway, "runMode": 0},
            dieName={"name": self.name},
            settingsInfo={"profileDataHash": 0x57477A0B, "availableFlash": 4096,
                          "totalUsableFlash": 8192},
            statusInfo={"batteryLevelPercent": self.battery, "batteryState": bat_state,
                        "rollState": roll, "rollFace": self.face_index})

    def roll_state(self) -> bytes:
        return fb.pack("RollState", type=_MSG["RollState"], state=_ROLL.index(self.state),
                       face=self.face_index)

    def battery_level(self) -> bytes:
        return fb.pack("BatteryLevel", type=_MSG["BatteryLevel"], levelPercent=self.battery,
                       state=_BATTERY.index(self.battery_state))

    def on_write(self, data: bytes) -> None:
        kind = data[0] if data else 0
        if kind == _MSG["WhoAreYou"]:
            self.notify(self.i_am_a_die())
        elif kind == _MSG["RequestRollState"]:
            self.notify(self.roll_state())
        elif kind == _MSG["RequestBatteryLevel"]:
            self.notify(self.battery_level())
        elif kind == _MSG["Blink"]:
            self.blinks += 1
            self.notify(fb.pack("BlinkAck", type=_MSG["BlinkAck"]))

    def _state(self, state: str, face_index: int | None = None) -> None:
        self.state = state
        if face_index is not None:
            self.face_index = face_index
        self.notify(self.roll_state())

    def roll(self, value: int | None = None, crooked: bool = False, drop_after: str = "",
             face_index: int | None = None) -> int:
        """Pick up, throw, land on ``value`` (random if None; ``face_index``: the index the
        firmware sends, as it is, for old firmware's numbering or a bad one). ``drop_after``:
        "handling" or "rolling" drops the link at that point (the die lands while nobody
        hears)."""
        if value is None:
            value = random.randint(1, _FACES[self.die_type])
        away = self.other_host
        try:
            for state in ("handling", "rolling"):
                self._state(state)
                if drop_after == state:
                    self.other_host = True  # out of reach until it has landed
                    self.drop()
            self._state("crooked" if crooked else "rolled",
                        self._index(value) if face_index is None else face_index)
        finally:
            self.other_host = away
        return value

    def turn(self, value: int) -> None:
        """Picked up and put down on ``value`` by hand: handling, then onFace."""
        self._state("handling")
        self._state("onFace", self._index(value))

    def set_battery(self, percent: int, state: str = "ok") -> None:
        self.battery, self.battery_state = percent, state
        self.notify(self.battery_level())

    def reboot(self) -> None:
        """Power cycle: the link drops; it comes back at rest on the same face."""
        self.drop()
        self.state = "onFace"


class FakeGoDice(FakePeripheral):
    """A GoDice in a physical ``shell``: notifies R and S/FS/TS/MS with the gravity vector
    of the face in that shell (the maker's C core tables, ``fake_bytes.godice_vector``),
    answers the init message (Bat, the face it lies on, Char), battery and colour
    requests, and records LED pulses. It advertises its name (``GoDice_``, the SDKs'
    scan filter)."""

    services = {_GODICE["gatt"]["service"]: [_GODICE["gatt"]["write"], _GODICE["gatt"]["notify"]]}
    notify_uuid = _GODICE["gatt"]["notify"]

    def __init__(self, address: str, *, shell: str = "D6", name: str = "", face: int = 1,
                 battery: int = 90, color: int = 3) -> None:
        super().__init__(address, name or "%s%s_K_v04" % (_GODICE["name_prefix"]["value"],
                                                          address.replace(":", "")[-6:]))
        self.shell = shell
        self.face = face
        self.battery = battery
        self.charging = False
        self.color = color
        self.pulses = 0

    def advertisement(self, active: bool = True) -> AdvertisementData:
        return AdvertisementData(local_name=self.name, manufacturer_data={}, service_data={},
                                 service_uuids=[], tx_power=None, rssi=self.rssi,
                                 platform_data=())

    def xyz(self, value: int) -> tuple[int, int, int]:
        """The vector the die reports lying on ``value`` in its shell."""
        return fb.godice_vector(self.shell, value)

    def _stable(self, key: str, value: int, tilt: bool = False) -> None:
        self.face = value
        x, y, z = self.xyz(value)
        if tilt:  # leaning about 20 degrees off the face: nearest it still, but not flat
            x, y, z = _lean(x, y, z)
        self.notify(_KEYS[key] + struct.pack("<bbb", x, y, z))

    def roll(self, value: int | None = None, tilted: bool = False, drop_after_start: bool = False) -> int:
        if value is None:
            value = random.randint(1, len(set(_GODICE["transforms"][self.shell]["faces"])))
        away = self.other_host
        self.notify(_KEYS["roll"])
        if drop_after_start:
            self.other_host = True  # out of reach until it has landed
            self.drop()
        try:
            self._stable("tilt_stable" if tilted else "stable", value, tilt=tilted)
        finally:
            self.other_host = away
        return value

    def fake_roll(self, value: int) -> None:
        self.notify(_KEYS["roll"])
        self._stable("fake_stable", value)

    def turn(self, value: int) -> None:
        """Turned by hand onto ``value``: MS."""
        self._stable("move_stable", value)

    def set_battery(self, percent: int) -> None:
        self.battery = percent
        self.notify(_KEYS["battery"] + bytes([percent]))

    def on_write(self, data: bytes) -> None:
        kind = data[0] if data else 0
        if kind == _COMMANDS["init"]:  # init: blink, then battery, the face it lies on, charging
            self.notify(_KEYS["battery"] + bytes([self.battery]))
            self.notify(_KEYS["stable"] + struct.pack("<bbb", *self.xyz(self.face)))
            self.notify(_KEYS["charging"] + bytes([int(self.charging)]))
        elif kind == _COMMANDS["battery"]:
            self.notify(_KEYS["battery"] + bytes([self.battery]))
        elif kind == _COMMANDS["color"]:
            self.notify(_KEYS["color"] + bytes([self.color]))
        elif kind == _COMMANDS["pulse"]:
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
        self.scans: list[str] = []  # each scan's mode, "active" or "passive"

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
    """bleak's scanner backend on the fake radio: every advertising die, once per start;
    a passive scan hears the primary advertising packet only (no scan request is sent, so
    no scan response comes)."""

    def __init__(self, detection_callback: Any, service_uuids: Any, scanning_mode: str = "active",
                 *, radio: FakeRadio, **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self.radio = radio
        self.active = scanning_mode != "passive"
        radio.scans.append(scanning_mode)

    async def start(self) -> None:
        self.seen_devices = {}
        with self.radio._lock:
            devices = list(self.radio.devices.values())
        for p in devices:
            if not p.advertising:
                continue
            adv = p.advertisement(self.active)
            if not self.is_allowed_uuid(adv.service_uuids):
                continue
            device = self.create_or_update_device(p.address, p.address, p.name, None, adv)
            self.call_detection_callbacks(device, adv)
            await asyncio.sleep(0)

    async def stop(self) -> None:
        return None



