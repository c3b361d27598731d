"""Pixels and GoDice over Bluetooth LE as one input source: bleak's asyncio loop on a thread
of its own, one link per die, the same typed events as the serial hub.

    source = BleDiceSource(on_event=handle)       # or a queue.Queue, or neither: source.queue
    source.start()
    found = source.scan(5.0)                      # [FoundDie(address, kind, name, die_type, ...)]
    px = source.add_pixel(found[0].address)       # -> "pixels-a1b2c3", the events' device
    gd = source.add_godice(addr, shell="D20")     # the user picks a GoDice's shell
    source.blink(px)                              # "identify this die"
    source.status(px)                             # DieStatus: online, battery, low, warning ...
    source.counters(px)                           # BleCounters
    source.close()                                # DeviceOffline(reason="closed") per online die

Each link, on the loop thread: connect by address (a die that does not answer: switched
off, out of range, or connected to another host, ``DieNotFoundError``), subscribe to the
die's notify characteristic, identify (Pixels: WhoAreYou → IAmADie, 3 tries; the Pixel id
is pinned by the first answer and a reconnect landing on another id is refused with
``WrongDieError``; an incompatible API with ``PixelsApiVersionError``), then ask where the
die is (Pixels: RequestRollState; GoDice: the init message, whose answer carries the
face). Then notifications become events (``session.py``: what is a roll, what is a
duplicate) until the link drops; ``DeviceOffline`` says why and the link tries again
after a back-off (0.5 s doubling to 8 s, reset once a die answered) for as long as the
die is in the source. Everything raised is a ``BleBridgeError`` (``errors.py``); a
failed attempt is ``last_error(device)`` and the status's ``warning``, never an
exception in the caller's thread.

Events go to ``on_event`` on the loop thread, in order: keep it short (Kivy:
``Clock.schedule_once``); an exception in it is logged and counted. ``on_status``, if
given, sees each die's new ``DieStatus`` whenever it changes (battery, charging, a
warning, the face shown, online), on the same thread: the devices panel's hook. ``factory``
(``factory.py``) makes bleak's client and scanner; the class attribute
``BleDiceSource.factory`` sets the default for every new source (gpiozero's
``Device.pin_factory`` pattern: the demo installs a fake radio there).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Coroutine, Protocol

from firmware_bridge import events as E
from firmware_bridge.ble import godice as G
from firmware_bridge.ble import pixels as P
from firmware_bridge.ble.android import Permissions
from firmware_bridge.ble.errors import (BleBridgeError, BleUnavailableError, CommandError,
                                        ConnectionClosedError,
                                        ConnectTimeout, DieNotFoundError, IdentifyTimeout,
                                        LinkLostError, NotADieError, PixelsApiVersionError,
                                        WrongDieError)
from firmware_bridge.ble.factory import BleakFactory, BleFactory
from firmware_bridge.ble.session import (BleCounters, DieStatus, GoDiceSession,
                                         PixelsSession, Session)
from firmware_bridge.serial.backoff import Backoff

__all__ = ["BleDiceSource", "FoundDie", "classify"]

log = logging.getLogger("firmware_bridge.ble")

CONNECT_TIMEOUT_S = 20.0
IDENTIFY_TRIES = 3
IDENTIFY_WAIT_S = 1.0
REPORT_WAIT_S = 2.0  # a GoDice that sends no face after the init message: go on without


class _Sink(Protocol):
    def put(self, item: Any) -> None: ...


OnEvent = Callable[[E.Event], Any] | _Sink | None


@dataclass(frozen=True, slots=True)
class FoundDie:
    """A die seen by a scan: what the devices panel lists before pairing. ``die_type``: a
    Pixel's own ("d20"), "" for a GoDice (its shell is the user's choice); ``face``: what
    it shows now, when it says."""

    address: str
    kind: str
    name: str
    rssi: int | None = None
    die_type: str = ""
    uid: str = ""
    battery: int | None = None
    charging: bool = False
    face: str = ""


def classify(address: str, name: str | None, adv: Any) -> FoundDie | None:
    """A scan result as a die, or None. GoDice advertise a name starting "GoDice"; Pixels
    their service (in the scan response) and the Systemic Games manufacturer data (in the
    primary packet, all a passive scan hears: then ``uid`` is "", known once connected).

    >>> from types import SimpleNamespace as NS
    >>> classify("AA:01", "GoDice_A1B2C3_K_v04", NS(local_name=None, rssi=-60, manufacturer_data={}, service_data={}, service_uuids=[])).kind
    'godice'
    >>> classify("AA:02", "Phone", NS(local_name="Phone", rssi=-40, manufacturer_data={}, service_data={}, service_uuids=[])) is None
    True
    """
    local = getattr(adv, "local_name", None) or name or ""
    rssi = getattr(adv, "rssi", None)
    if local.startswith(G.NAME_PREFIX):
        return FoundDie(address, "godice", local, rssi)
    manufacturer = getattr(adv, "manufacturer_data", {}) or {}
    if not P.is_pixel_advert(manufacturer, list(getattr(adv, "service_uuids", None) or [])):
        return None
    ad = P.parse_advert(manufacturer, getattr(adv, "service_data", {}) or {})
    if ad is None:  # after a reboot a Pixel may advertise once without its data
        return FoundDie(address, "pixels", local, rssi)
    face = ""
    if ad.roll_state in ("rolled", "onFace", "crooked"):
        try:
            face = P.face_label(ad.die_type, P.face_value(ad.die_type, ad.face_index, ad.build_timestamp))
        except ValueError:
            face = ""
    uid = "%08x" % ad.pixel_id if ad.pixel_id else ""  # a passive scan hears no Pixel id
    return FoundDie(address, "pixels", local, rssi, ad.die_type, uid, ad.battery_percent,
                    ad.charging, face)


def _unavailable(e: BaseException) -> BleUnavailableError | None:
    """bleak's ways of saying there is no Bluetooth to use here: no adapter or permission
    (``BleakBluetoothNotAvailableError``), BlueZ not running (its D-Bus service unknown),
    no system D-Bus at all (an ``OSError`` opening its socket: a container, a desktop
    without BlueZ)."""
    name = type(e).__name__
    text = str(e)
    if name == "BleakBluetoothNotAvailableError":
        return BleUnavailableError("Bluetooth is not available here: %s" % text)
    if name == "BleakDBusError" and "ServiceUnknown" in text:
        return BleUnavailableError("Bluetooth is not available here: BlueZ is not running (%s)" % text)
    if isinstance(e, OSError) and not isinstance(e, BleBridgeError):
        return BleUnavailableError("Bluetooth is not available here: the system's Bluetooth "
                                   "service cannot be reached (%s: %s)" % (name, text))
    return None


class _LinkDown(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Link:
    """One die's connection, reconnected until removed (lives on the loop thread)."""

    def __init__(self, source: "BleDiceSource", session: Session, backoff: Backoff) -> None:
        self.source = source
        self.session = session
        self.device = session.device
        self.address = session.address
        self.backoff = backoff
        self.task: asyncio.Task[None] | None = None
        self.client: Any = None
        self.write_uuid = ""
        self.last_error: BaseException | None = None
        self.closed = False
        self._lost: asyncio.Event | None = None
        self._lost_reason = "disconnected"
        self._identified: asyncio.Event | None = None
        self._refusal: BaseException | None = None
        self._blink_acked: asyncio.Event | None = None
        self._links = 0

    # -- the link's life --------------------------------------------------------------

    async def run(self) -> None:
        first = True
        try:
            while not self.closed:
                if not first:
                    await asyncio.sleep(self.backoff.next_delay())
                first = False
                reason = "closed"
                try:
                    await self._serve_once()
                except _LinkDown as e:
                    reason = e.reason
                except (BleBridgeError, asyncio.TimeoutError) as e:
                    if not isinstance(e, BleBridgeError):
                        e = ConnectTimeout("%s did not connect in time" % self.address)
                    self._failed(e)
                    reason = "error: %s" % e
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # bleak's own errors: the attempt failed, try again
                    err = self._bleak_error(e)
                    self._failed(err)
                    reason = "error: %s" % err
                finally:
                    await self._drop_client()
                self._went_offline(reason)
        except asyncio.CancelledError:
            await self._drop_client()
            self._went_offline("closed")

    def _bleak_error(self, e: BaseException) -> BaseException:
        name = type(e).__name__
        if name == "BleakDeviceNotFoundError":
            what = "%s %r" % ("Pixel" if self.session.kind == "pixels" else "GoDice",
                              self.session.status.name or self.device)
            return DieNotFoundError(self.address, what)
        unavailable = _unavailable(e)
        if unavailable is not None:
            return unavailable
        if isinstance(e, BleBridgeError):
            return e
        log.info("%s: %s: %s", self.device, name, e)
        return ConnectionClosedError("%s: %s: %s" % (self.device, name, e))

    def _failed(self, e: BaseException) -> None:
        self.last_error = e
        if isinstance(e, (WrongDieError, PixelsApiVersionError)):
            self.session.tally.add("refused")
        self.session._set(warning=str(e))
        log.info("%s: %s", self.device, e)

    async def _drop_client(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            try:
                await client.disconnect()
            except Exception:  # already gone: nothing to tidy
                pass

    def _went_offline(self, reason: str) -> None:
        was = self.session.online
        self.session.went_offline()
        if was:
            self.session.tally.add("offline")
            if reason != "closed":
                self.last_error = LinkLostError(self.device, reason)
            self.source._emit(self, [E.DeviceOffline(device=self.device, reason=reason,
                                                     t=self.source._clock())])

    def _on_disconnect(self, _client: Any = None) -> None:
        self._lost_reason = "disconnected"
        if self._lost is not None:
            self._lost.set()
        if self._identified is not None:
            self._identified.set()  # an identification under way stops waiting

    async def _serve_once(self) -> None:
        src = self.source
        self._lost = asyncio.Event()
        self._lost_reason = "disconnected"
        self._refusal = None
        await src.permissions.ensure()
        client = src._factory.client(self.address, disconnected_callback=self._on_disconnect,
                                     timeout=src.connect_timeout)
        self.client = client
        await asyncio.wait_for(client.connect(), src.connect_timeout)
        notify, self.write_uuid = self._characteristics(client)
        await client.start_notify(notify, self._on_notify)
        s = self.session
        if isinstance(s, PixelsSession):
            await self._identify(s)
            await self.write(P.request_roll_state())
        else:
            src._emit(self, s.connected(src._clock()))
            await self.write(G.init())
            await self.write(G.request_color())
            asyncio.get_running_loop().call_later(src.report_wait_s, self._report_missing, self._lost)
        self._links += 1
        s.tally.add("connects")
        if self._links > 1:
            s.tally.add("reconnects")
        self.backoff.reset()
        self.last_error = None
        await self._lost.wait()
        if self._refusal is not None:
            raise self._refusal
        raise _LinkDown(self._lost_reason)

    def _report_missing(self, lost: asyncio.Event) -> None:
        if lost is self._lost and not lost.is_set() and isinstance(self.session, GoDiceSession):
            self.session.report_missing()

    def _characteristics(self, client: Any) -> tuple[str, str]:
        services = client.services
        if isinstance(self.session, GoDiceSession):
            pairs = [(G.NOTIFY, G.WRITE)]
        else:
            pairs = [(P.NOTIFY, P.WRITE), (P.LEGACY_NOTIFY, P.LEGACY_WRITE)]
        for notify, write in pairs:
            if services.get_characteristic(notify) and services.get_characteristic(write):
                return notify, write
        raise NotADieError("%s has none of the %s services" % (self.address, self.session.kind))

    async def _identify(self, s: PixelsSession) -> None:
        src = self.source
        self._identified = asyncio.Event()
        s.connected()
        for _ in range(src.identify_tries):
            await self.write(P.who_are_you())
            try:
                await asyncio.wait_for(self._identified.wait(), src.identify_wait_s)
            except asyncio.TimeoutError:
                continue
            if self._refusal is not None:
                raise self._refusal
            if self._lost is not None and self._lost.is_set():
                raise _LinkDown(self._lost_reason)
            if s.online:
                return
        raise IdentifyTimeout("%s: no IAmADie after %d WhoAreYou" % (self.address, src.identify_tries))

    def _on_notify(self, _char: Any, data: bytearray) -> None:
        s = self.session
        was_online = s.online
        try:
            events = s.push(bytes(data), self.source._clock())
        except (WrongDieError, PixelsApiVersionError) as e:
            self._refusal = e
            if self._identified is not None:
                self._identified.set()
            if self._lost is not None:
                self._lost.set()
            return
        except Exception:  # a bug must not kill the loop: drop the notification, count it
            log.exception("%s: notification %r", self.device, bytes(data))
            s.tally.bad("error")
            return
        if not was_online and s.online and self._identified is not None:
            self._identified.set()
        if data[:1] == bytes([P.BLINK_ACK]) and self._blink_acked is not None:
            self._blink_acked.set()
        self.source._emit(self, events)

    async def write(self, data: bytes) -> None:
        client = self.client
        if client is None or not client.is_connected:
            raise ConnectionClosedError("%s is not connected" % self.device)
        char = client.services.get_characteristic(self.write_uuid)
        response = char is not None and "write" in getattr(char, "properties", ())
        try:
            await client.write_gatt_char(self.write_uuid, data, response=response)
        except Exception as e:
            raise CommandError("%s: write failed: %s" % (self.device, e)) from e

    async def blink(self) -> None:
        if isinstance(self.session, GoDiceSession):
            await self.write(G.pulse())
            return
        self._blink_acked = asyncio.Event()
        await self.write(P.blink())
        try:
            await asyncio.wait_for(self._blink_acked.wait(), 1.0)
        except asyncio.TimeoutError:
            raise CommandError("%s did not acknowledge the blink" % self.device) from None


class BleDiceSource:
    """Bluetooth LE dice on one asyncio loop thread (see the module doc)."""

    factory: ClassVar[BleFactory | None] = None  # the default for new sources (None: bleak's)

    def __init__(self, on_event: OnEvent = None, *, factory: BleFactory | None = None,
                 on_status: Callable[[DieStatus], Any] | None = None,
                 backoff_first: float = 0.5, backoff_limit: float = 8.0,
                 connect_timeout: float = CONNECT_TIMEOUT_S, identify_tries: int = IDENTIFY_TRIES,
                 identify_wait_s: float = IDENTIFY_WAIT_S, report_wait_s: float = REPORT_WAIT_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        Backoff(backoff_first, backoff_limit)  # validates
        self.queue: _Sink | None = None
        self._callback: Callable[[E.Event], Any] | None = None
        if on_event is None:
            self.queue = queue.Queue()
        elif hasattr(on_event, "put"):
            self.queue = on_event  # type: ignore[assignment]
        else:
            self._callback = on_event  # type: ignore[assignment]
        self._factory: BleFactory = (factory or type(self).factory or BleakFactory())
        self.backoff_first, self.backoff_limit = backoff_first, backoff_limit
        self.connect_timeout = connect_timeout
        self.identify_tries = identify_tries
        self.identify_wait_s = identify_wait_s
        self.report_wait_s = report_wait_s
        self._clock = clock
        self.on_status = on_status
        self._links: dict[str, _Link] = {}
        # Android 12+ refuses scans and connections until the app asked (android.py).
        self.permissions = Permissions()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # -- life -------------------------------------------------------------------------

    def start(self) -> "BleDiceSource":
        """Start the loop thread (idempotent). Returns self."""
        if self._thread is not None:
            return self
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(ready.set)
            loop.run_forever()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="ble-dice", daemon=True)
        self._thread.start()
        ready.wait(5.0)
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Disconnect every die and stop the loop thread; each online die's last event is
        ``DeviceOffline(reason="closed")``."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        for device in list(self._links):
            try:
                self.remove(device, timeout=timeout)
            except (TimeoutError, RuntimeError):
                log.warning("%s: did not stop within %.1f s", device, timeout)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        if not thread.is_alive():
            loop.close()
        self._loop = self._thread = None

    def __enter__(self) -> "BleDiceSource":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, coro: Coroutine[Any, Any, Any], timeout: float) -> Any:
        if self._loop is None:
            coro.close()
            raise ConnectionClosedError("the BLE source is not started")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    # -- dice -------------------------------------------------------------------------

    def _add(self, session: Session) -> str:
        if not isinstance(session.device, str) or not session.device or "/" in session.device:
            raise ValueError("device is a non-empty name without '/', got %r" % (session.device,))
        with self._lock:
            if session.device in self._links:
                raise ValueError("a die named %r is already in the source" % session.device)
            link = _Link(self, session, Backoff(self.backoff_first, self.backoff_limit))
            self._links[session.device] = link
        session.on_change = lambda status: self._status_changed(link, status)
        self.start()

        async def begin() -> None:
            link.task = asyncio.get_running_loop().create_task(link.run())

        self._run(begin(), 5.0)
        return session.device

    @staticmethod
    def _default_name(kind: str, address: str) -> str:
        return "%s-%s" % (kind, address.replace(":", "").replace("-", "").lower()[-6:])

    def add_pixel(self, address: str, *, device: str | None = None, name: str = "",
                  pixel_id: int | None = None) -> str:
        """Connect to the Pixel at ``address`` and keep it connected; returns its device
        name (events' ``device``). ``pixel_id``: the die this must be (else the first
        answer pins it)."""
        s = PixelsSession(device or self._default_name("pixels", address), address,
                          pixel_id=pixel_id)
        s._set(name=name)
        return self._add(s)

    def add_godice(self, address: str, *, shell: str = "D6", device: str | None = None,
                   name: str = "") -> str:
        """Connect to the GoDice at ``address``, its face read on ``shell`` (one of
        ``godice.SHELLS``: the user says which shell it wears)."""
        return self._add(GoDiceSession(device or self._default_name("godice", address),
                                       address, shell, name=name))

    def remove(self, device: str, timeout: float = 5.0) -> None:
        """Disconnect the die and forget it (its ``DeviceOffline(reason="closed")`` comes
        if it was online)."""
        with self._lock:
            link = self._links.pop(device, None)
        if link is None:
            raise KeyError(device)

        async def stop() -> None:
            link.closed = True
            task = link.task
            if task is not None and not task.done():
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass

        self._run(stop(), timeout)

    def devices(self) -> list[str]:
        with self._lock:
            return list(self._links)

    def _link(self, device: str) -> _Link:
        with self._lock:
            link = self._links.get(device)
        if link is None:
            raise KeyError(device)
        return link

    def status(self, device: str) -> DieStatus:
        return self._link(device).session.status

    def counters(self, device: str) -> BleCounters:
        return self._link(device).session.tally.value()

    def last_error(self, device: str) -> BaseException | None:
        """Why the latest attempt failed or the link went down (None while it works)."""
        return self._link(device).last_error

    def is_online(self, device: str) -> bool:
        return self._link(device).session.online

    def wait_online(self, device: str, timeout: float) -> bool:
        """Block until the die is online (True) or ``timeout`` passes (False)."""
        end = time.monotonic() + timeout
        while not self.is_online(device):
            if time.monotonic() >= end:
                return False
            time.sleep(0.005)
        return True

    def set_shell(self, device: str, shell: str) -> None:
        """The shell a GoDice wears now (the user changed it on the devices panel)."""
        s = self._link(device).session
        if not isinstance(s, GoDiceSession):
            raise ValueError("%s is not a GoDice" % device)
        if self._loop is not None:
            self._run(self._call(lambda: s.set_shell(shell)), 5.0)
        else:
            s.set_shell(shell)

    @staticmethod
    async def _call(fn: Callable[[], Any]) -> Any:
        return fn()

    def blink(self, device: str, timeout: float = 3.0) -> None:
        """Make the die flash ("identify this die"). Raises ``ConnectionClosedError`` when
        it is not connected, ``CommandError`` when the die did not take it."""
        self._run(self._link(device).blink(), timeout)

    def barrier(self, timeout: float = 2.0) -> None:
        """Wait until the loop has run what was queued before this call (tests)."""

        async def settle() -> None:
            for _ in range(3):
                await asyncio.sleep(0)

        self._run(settle(), timeout)

    # -- scanning ---------------------------------------------------------------------

    def scan(self, timeout: float = 5.0, passive: bool = False) -> list[FoundDie]:
        """Dice advertising nearby, strongest signal first. A die connected to another
        host does not advertise and is not listed (the devices panel says so).
        ``passive``: listen without scan requests (no scan response: a Pixel is listed
        with its type, face and battery but no id; a Pixel with firmware from before July
        2022 is not recognised at all, see the README). Raises
        ``BleUnavailableError`` when there is no Bluetooth to scan with (bleak missing, no
        adapter, BlueZ not running, permission refused)."""
        found: dict[str, FoundDie] = {}

        def seen(device: Any, adv: Any) -> None:
            die = classify(device.address, getattr(device, "name", None), adv)
            if die is not None:
                found[die.address] = die

        async def run() -> None:
            await self.permissions.ensure()
            scanner = self._factory.scanner(seen, passive=passive)
            await scanner.start()
            try:
                await asyncio.sleep(timeout)
            finally:
                await scanner.stop()

        self.start()
        try:
            self._run(run(), timeout + 10.0)
        except BleBridgeError:
            raise
        except Exception as e:
            unavailable = _unavailable(e)
            if unavailable is None:
                raise
            raise unavailable from e
        return sorted(found.values(), key=lambda d: -(d.rssi if d.rssi is not None else -999))

    # -- events -----------------------------------------------------------------------

    def _status_changed(self, link: _Link, status: DieStatus) -> None:
        if self.on_status is None:
            return
        try:
            self.on_status(status)
        except Exception:
            link.session.tally.add("callback_errors")
            log.exception("%s: on_status raised", link.device)

    def _emit(self, link: _Link, events: list[E.Event]) -> None:
        for e in events:
            if self.queue is not None:
                self.queue.put(e)
                continue
            try:
                self._callback(e)  # type: ignore[misc]
            except Exception:
                link.session.tally.add("callback_errors")
                log.exception("%s: on_event raised on %s", link.device, type(e).__name__)
