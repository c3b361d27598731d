"""Bluetooth LE dice (Pixels, GoDice) as devices of the app: one radio (a
``firmware_bridge.ble.BleDiceSource``) the devices panel scans with, pairs dice from,
blinks, sets a GoDice's shell on, and unpairs. No Kivy here: events go to the
``on_event`` callable the app gives (``app.post_event``), which shows them at once and
routes them through the input pump to the Table, exactly like a hub's; each die's
``DieStatus`` (battery, warning, the face it shows) goes to ``on_status``.

Which radio: a *mode*.

* ``"on"``: bleak's own backend (BlueZ on Linux, Android, Windows, macOS); nothing starts
  until the panel scans or pairs, so a computer without Bluetooth only hears of it then,
  as a sentence ("no Bluetooth here");
* ``"demo"``: ``firmware_bridge.ble.fake.FakeRadio.demo()``, a simulated Pixel and a
  simulated GoDice speaking the real byte protocols; both are paired at start and the
  panel offers "Throw" / "Turn by hand" / "Tilted throw" for them;
* ``"off"``: no Bluetooth dice. Also what ``"on"`` and ``"demo"`` become when bleak is
  not installed (``pip install '.[ble]'``): :func:`resolve_mode` says why.

The mode comes from ``--ble`` on the command line, else ``TC_BLE``, else ``"demo"`` in
demo mode and ``"on"`` otherwise.

>>> resolve_mode("off", {}, available=lambda: True)
('off', '')
>>> resolve_mode(None, {"TC_BLE": "demo"}, available=lambda: True)
('demo', '')
>>> resolve_mode("on", {}, available=lambda: False)[0]
'off'
"""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.journal import JournalError
from companion.table import TableError

from ..errors import CompanionError

log = logging.getLogger("companion.ui.ble")

BLE_DEVICE = "ble"  # the panel's card for the radio (the dice are their own devices)
BLE_MODES = ("on", "off", "demo")
SCAN_S = 4.0  # a real scan: dice advertise every 100-500 ms, some less when idle
DEMO_SCAN_S = 0.3
SHELLS = ("D6", "D20", "D10", "D10X", "D4", "D8", "D12")

OnEvent = Callable[[Any], None]

NO_BLEAK = ("Bluetooth dice need the bleak package, which is not installed here "
            "(pip install '.[ble]').")


class BleModeError(CompanionError, ValueError):
    """A BLE mode that is not one of :data:`BLE_MODES`."""


def _bleak_available() -> bool:
    from firmware_bridge.ble.factory import bleak_available

    return bleak_available()


def resolve_mode(mode: str | None = None, env: Mapping[str, str] | None = None, demo: bool = False,
                 available: Callable[[], bool] = _bleak_available) -> tuple[str, str]:
    """``(mode, why)``: the mode to run and, when it had to be "off", why in a sentence."""
    env = os.environ if env is None else env
    chosen = (mode or env.get("TC_BLE") or ("demo" if demo else "on")).strip().lower()
    if chosen not in BLE_MODES:
        raise BleModeError(f"--ble takes {', '.join(BLE_MODES)}, not {chosen!r}")
    if chosen != "off" and not available():
        return "off", NO_BLEAK
    return chosen, ""


@dataclass(frozen=True)
class Paired:
    """A die the app keeps connected: its device name (the events' ``device``), its kind
    ("pixels"/"godice"), address, the seat it is given to ("" for the table), and its shell
    (GoDice)."""

    device: str
    kind: str
    address: str
    name: str = ""
    seat: str = ""
    shell: str = ""


class BleLink:
    """The Bluetooth radio as one card of the devices panel.

    ``factory``: a ``firmware_bridge.ble`` factory (None: bleak's, or the fake radio's in
    demo mode). Every call returns at once: a scan and a blink run on a worker thread and
    report through :attr:`message` and ``on_change`` (the panel's redraw); nothing here
    raises into the UI thread, failures become :attr:`message` / :attr:`error`."""

    simulated = False

    def __init__(self, on_event: OnEvent, mode: str = "on", *, factory: Any = None, radio: Any = None,
                 on_status: Callable[[Any], None] | None = None,
                 on_change: Callable[[], None] | None = None, scan_s: float | None = None) -> None:
        if mode not in ("on", "demo"):
            raise BleModeError(f"a BLE link runs on a radio (on) or the fake one (demo), not {mode!r}")
        self.device = BLE_DEVICE
        self.mode = mode
        self.on_event = on_event
        self.on_status = on_status
        self.on_change = on_change or (lambda: None)
        # The demo's fake radio is made on first use (:attr:`radio`): its dice pair once the
        # table is on screen, and the table's first frame does not wait for bleak's import.
        self._demo_radio = mode == "demo" and radio is None and factory is None
        self._radio = radio
        self._factory = factory
        self._radio_lock = threading.Lock()
        self.simulated = radio is not None or self._demo_radio
        self.scan_s = scan_s if scan_s is not None else (DEMO_SCAN_S if self.simulated else SCAN_S)
        self.source: Any = None
        self.found: list[Any] = []  # FoundDie of the latest scan, paired ones left out
        self.paired: dict[str, Paired] = {}
        self.scanning = False
        self.scanned = False
        self.error = ""  # no Bluetooth here, in a sentence (the card's headline when set)
        self.message = ""  # the outcome of the latest scan / blink / pairing, in a sentence
        self.notes: dict[str, str] = {}  # a die's latest blink outcome, shown under it
        self.sources: set[str] = set()  # every die source paired since the start ("die:pixels-…/0")
        self._lock = threading.Lock()

    # ------------------------------------------------------------ the radio

    @property
    def radio(self) -> Any:
        """The fake radio whose dice this link's simulated dice are (None: a real radio).
        Making the demo's raises ImportError where bleak cannot be imported."""
        if self._demo_radio and self._radio is None:
            with self._radio_lock:  # the panel's scan may ask first, from its worker thread
                if self._radio is None:
                    from firmware_bridge.ble.fake import FakeRadio

                    self._radio = FakeRadio.demo()
        return self._radio

    @property
    def factory(self) -> Any:
        """Where clients and scanners come from: the one given, the fake radio's, or None
        (bleak's own)."""
        if self._factory is None and self.simulated:
            self._factory = self.radio.factory()
        return self._factory

    def _source(self) -> Any:
        with self._lock:
            if self.source is None:
                from firmware_bridge.ble import BleDiceSource

                self.source = BleDiceSource(self.on_event, factory=self.factory,
                                            on_status=self._status).start()
            return self.source

    def _status(self, status: Any) -> None:
        if status.online and self.message.startswith("Pairing"):
            self.message = ""  # paired: the die's own line says it is online
        if self.on_status is not None:
            self.on_status(status)

    def status(self, device: str) -> Any:
        """The die's ``DieStatus`` now (None once unpaired)."""
        source = self.source
        try:
            return source.status(device) if source is not None else None
        except KeyError:
            return None

    def counters(self) -> str:
        """The radio's line on the card: how many dice, online."""
        source = self.source
        if source is None:
            return "not started" if not self.error else ""
        online = sum(1 for d in self.paired if source.is_online(d))
        return f"{len(self.paired)} paired, {online} online"

    def die_counters(self, device: str) -> Any:
        source = self.source
        try:
            return source.counters(device) if source is not None else None
        except KeyError:
            return None

    @property
    def is_online(self) -> bool:
        return self.source is not None and not self.error

    def connect(self) -> None:
        """Start the radio's thread (the panel's Connect; pairing starts it too)."""
        try:
            self._source()
        except Exception as e:  # bleak missing or refusing: a sentence, never a crash
            log.exception("Bluetooth radio")
            self.error = _plain(e)

    def disconnect(self) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            source, self.source = self.source, None
        if source is not None:
            source.close()

    # ------------------------------------------------------------ scanning

    def scan(self, wait: bool = False) -> None:
        """Look for dice advertising nearby, on a worker thread; ``found`` then lists them
        (the paired ones left out) and ``message`` says what was found."""
        if self.scanning:
            return
        self.scanning = True
        self.message = "Looking for Bluetooth dice…"
        self.on_change()
        worker = threading.Thread(target=self._scan, name="ble-scan", daemon=True)
        worker.start()
        if wait:
            worker.join()

    def _scan(self) -> None:
        try:
            found = self._source().scan(self.scan_s)
        except Exception as e:  # the scan's thread: the panel says why
            log.exception("Bluetooth scan")
            self.found, self.message = [], ""
            self.error = _plain(e)
        else:
            known = {p.address.upper() for p in self.paired.values()}
            self.found = [f for f in found if f.address.upper() not in known]
            self.error = ""
            self.message = _found_sentence(len(self.found))
        finally:
            self.scanning = False
            self.scanned = True
            self.on_change()

    # ------------------------------------------------------------ pairing

    def pair(self, address: str, seat: str = "", shell: str = "D6") -> str:
        """Keep the die at ``address`` connected (a die of the latest scan, or a simulated
        one); returns its device name. ``seat``: the player it is given to."""
        die = next((f for f in self.found if f.address.upper() == address.upper()), None)
        kind = die.kind if die is not None else self._radio_kind(address)
        name = die.name if die is not None else ""
        source = self._source()
        if kind == "godice":
            device = source.add_godice(address, shell=shell, name=name)
        else:
            device = source.add_pixel(address, name=name)
            shell = ""
        self.paired[device] = Paired(device, kind, address, name, seat, shell)
        self.sources.add(f"die:{device}/0")
        self.found = [f for f in self.found if f.address.upper() != address.upper()]
        self.message = f"Pairing {_called(kind, name, address)}…"
        self.on_change()
        return device

    def _radio_kind(self, address: str) -> str:
        p = self.radio.get(address) if self.radio is not None else None
        return "godice" if type(p).__name__ == "FakeGoDice" else "pixels"

    def unpair(self, device: str, wait: bool = False) -> None:
        """Disconnect the die and forget it (the disconnect on a worker thread: a real
        radio may take a second or two)."""
        p = self.paired.pop(device, None)
        self.notes.pop(device, None)
        source = self.source
        if p is not None:
            self.message = f"{_called(p.kind, p.name, p.address)} unpaired."

        def run() -> None:
            if source is not None:
                try:
                    source.remove(device)
                except (KeyError, TimeoutError):
                    pass
            self.on_change()

        self.on_change()
        worker = threading.Thread(target=run, name="ble-unpair", daemon=True)
        worker.start()
        if wait:
            worker.join()

    def give(self, device: str, seat: str) -> None:
        """Give the die to ``seat`` ("" = back to the table: it throws for whoever must throw)."""
        p = self.paired[device]
        self.paired[device] = Paired(p.device, p.kind, p.address, p.name, seat, p.shell)
        self.on_change()

    def set_shell(self, device: str, shell: str) -> None:
        p = self.paired[device]
        try:
            self._source().set_shell(device, shell)
        except Exception as e:  # the panel's button: it says why
            log.exception("Bluetooth shell")
            self.message = f"✖ {_plain(e)}"
        else:
            self.paired[device] = Paired(p.device, p.kind, p.address, p.name, p.seat, shell)
            self.message = f"The GoDice {p.name or p.address} now reads its faces as a {shell}."
        self.on_change()

    def blink(self, device: str, wait: bool = False) -> None:
        """Flash the die so the players see which one it is (on a worker thread)."""
        p = self.paired.get(device)
        what = p.name if p is not None and p.name else device

        def run() -> None:
            try:
                self._source().blink(device)
            except Exception as e:  # the blink's thread: the panel says why
                log.exception("Bluetooth blink")
                self.notes[device] = f"✖ {what} could not blink: {_plain(e)}"
            else:
                self.notes[device] = f"✔ {what} is blinking: that is the die."
            self.on_change()

        worker = threading.Thread(target=run, name="ble-blink", daemon=True)
        worker.start()
        if wait:
            worker.join()

    # ------------------------------------------------------------ the demo's dice

    def simulate(self, device: str, how: str, value: int | None = None) -> int | None:
        """Move a simulated die (demo mode): "throw", "tilted" (lands leaning), or "turn"
        (turned by hand onto ``value``). Returns the face it lands on."""
        p = self.paired.get(device)
        fake = self.radio.get(p.address) if p is not None and self.radio is not None else None
        if fake is None:
            raise RuntimeError("only a simulated die can be moved from the panel: roll the real one")
        if how == "turn":
            status = self.status(device)
            faces = status.faces if status is not None else 6
            now = status.value if status is not None and status.value else 1
            target = value or (now % faces) + 1
            fake.turn(target)
            return target
        if how == "tilted":
            if type(fake).__name__ == "FakeGoDice":
                return int(fake.roll(value, tilted=True))
            return int(fake.roll(value, crooked=True))
        return int(fake.roll(value))

    def seats(self) -> dict[str, str]:
        """The dice given to players: ``{"die:<device>/0": seat}``."""
        return {f"die:{p.device}/0": p.seat for p in self.paired.values() if p.seat}


def _kind_word(kind: str) -> str:
    return {"pixels": "Pixel", "godice": "GoDice"}.get(kind, "die")


def _called(kind: str, name: str, address: str) -> str:
    """ "Pixel “Red d20”", or the kind and address of a die with no name yet."""
    return f"{_kind_word(kind)} “{name}”" if name else f"{_kind_word(kind)} {address}"


def _found_sentence(n: int) -> str:
    if n == 0:
        return ("No Bluetooth die found. Wake a die by rolling it; a die connected to another "
                "phone or app does not show up until it is disconnected there.")
    return f"Found {n} Bluetooth {'die' if n == 1 else 'dice'}: pair one to keep it connected."


def _plain(e: BaseException) -> str:
    """A failure as the panel says it: "no Bluetooth here" in words, else the bridge's own
    sentence.

    >>> from firmware_bridge.ble import BleUnavailableError
    >>> _plain(BleUnavailableError("Bluetooth is not available here: BlueZ is not running"))
    "There is no Bluetooth here the app can use: BlueZ is not running. Manual entry and the app's roller still work."
    """
    if isinstance(e, ImportError):
        return NO_BLEAK
    if type(e).__name__ == "BleUnavailableError":
        why = str(e).removeprefix("Bluetooth is not available here: ")
        return f"There is no Bluetooth here the app can use: {why}. Manual entry and the app's roller still work."
    return str(e) or type(e).__name__


def start_ble(app: Any, mode: str, factory: Any = None, radio: Any = None, pair_demo: bool = True) -> BleLink | None:
    """Start the Bluetooth dice as a device of ``app`` (mode "on" or "demo"; "off":
    nothing), as the demo starts its simulated hub: the link joins the devices panel, its
    dice's events go through ``app.post_event``, and it closes with the app. In demo mode
    the two simulated dice are paired once the first frame is on screen. A die given to a
    player follows into the game on the table (``table.router``)."""
    if mode == "off":
        return None
    from .frames import after_first_frame
    from .presenters.devices import DevicesModel

    if app.devices is None:
        app.devices = DevicesModel()
    model = app.devices

    def on_status(status: Any) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: model.record_status(status), 0)

    def on_change() -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: (apply_seats(app.table), model.changed(), redraw_table()), 0)

    def redraw_table() -> None:
        # The dice tray names each die by its owner ("Ann's Pixel …"): a die given to
        # another player, paired or unpaired changes what the table screen says.
        scr = app._table_screen(app.table) if hasattr(app, "_table_screen") else None
        if scr is not None:
            scr.refresh()

    link = BleLink(app.post_event, mode, factory=factory, radio=radio, on_status=on_status, on_change=on_change)
    model.add_link(BLE_DEVICE, link)
    app.add_closer(link.close)
    app.ble_link = link

    def apply_seats(table: Any) -> None:
        give_seats(table, link.seats(), link.sources, {f"die:{d}/0" for d in link.paired})

    app.bind(table=lambda _app, table: apply_seats(table))
    if link.simulated and pair_demo:
        def paired() -> None:
            try:
                addresses = sorted(link.radio.devices)
            except Exception as e:  # no fake radio here (bleak fails to import): the panel says why
                log.exception("demo dice")
                link.error = _plain(e)
                addresses = []
            for address in addresses:
                try:
                    link.pair(address)
                except Exception as e:  # the panel says why
                    link.message = f"✖ {_plain(e)}"
                    log.exception("demo die")
            model.changed()

        after_first_frame(paired)
    return link


def give_seats(table: Any, seats: Mapping[str, str], ble_sources: set[str], paired: set[str] | None = None) -> None:
    """Carry the Bluetooth dice given to players before this game (at pairing) into it:
    ``seats`` (source → seat id) gives each die the game has made no choice for to its
    seat; a seat this table does not have is left out. The game's own choice (the devices
    panel's "Give to", journaled with the game) stands, and nothing is taken back: a
    restart, whose freshly paired dice are nobody's, keeps the game's choices.
    ``ble_sources``: the link's dice (the others are never touched); ``paired``: those
    still paired (given: a die unpaired is nobody's in the game any more)."""
    if table is None:
        return
    try:
        ids = {s["id"] for s in table.seats}
        decided = dict(table.devices)
    except CompanionError:  # a closed table
        return
    assigned: dict[str, str | None] = {src: seat for src, seat in seats.items()
                                       if src in ble_sources and seat in ids and src not in decided}
    if paired is not None:
        assigned.update({src: None for src in ble_sources if src in decided and src not in paired})
    if not assigned:
        return
    try:
        table.assign_devices(assigned)
    except (TableError, JournalError) as e:
        log.warning("ble: the dice could not be given to their players (%s)", e)
