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

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from .dice import die_name

log = logging.getLogger("companion.ui.devices")


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
    last_input: str = ""  # the latest token or button of a GPIO header, in words
    missed: int = 0  # throws a hub lost while it could not be heard (ThrowsMissed)
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
    title: str = ""  # what players call the device (device_title), never its id


def device_title(device: str, kind: str, simulated: bool = False) -> str:
    """What the devices panel calls a device: by what it is, never by the id the bridge
    gives it ("sim", "hub2", "gpio").

    >>> device_title("sim", "hub", simulated=True), device_title("hub2", "hub"), device_title("gpio", "gpio")
    ('The demo dice hub', 'Dice hub 2', 'The GPIO header')
    >>> device_title("desk", "hub")
    'A dice hub'
    """
    if simulated:
        return "The demo dice hub"
    if kind == "gpio" or device == "gpio":
        return "The GPIO header"
    number = device[3:] if device.startswith("hub") else ""
    return f"Dice hub {number}" if number.isdigit() else "A dice hub"


BLE_KINDS = ("pixels", "godice")


class DevicesModel:
    def __init__(self) -> None:
        self.devices: dict[str, DeviceState] = {}
        self.links: dict[str, Link] = {}
        self.listeners: list[Callable[[], None]] = []
        self.statuses: dict[str, Any] = {}  # Bluetooth dice: device → DieStatus (record_status)

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
        elif name == "ThrowsMissed":
            d.missed += event.count
        elif name in _INPUT_WORDS:
            d.last_input = _INPUT_WORDS[name](event)
        self._changed()

    def record_status(self, status: Any) -> None:
        """A Bluetooth die's new ``DieStatus`` (on the UI thread): its battery, warning,
        the face it shows."""
        self.statuses[status.device] = status
        self._changed()

    def changed(self) -> None:
        """Tell the listeners (the panel) that something they show has changed."""
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
            if d.kind in BLE_KINDS or d.device in self.statuses:
                continue  # a Bluetooth die: a line of the Bluetooth card (ble_card)
            link = self.links.get(d.device)
            counters = ""
            if link is not None:
                try:
                    c = link.counters()
                    counters = c.line() if hasattr(c, "line") else str(c)
                except Exception as e:  # a device link (a thread, a driver) that cannot say: show why
                    log.exception("counters of %s", d.device)
                    counters = f"counters unavailable: {e}"
            state = "● online" if d.online else ("○ offline" + (f" ({d.reason})" if d.reason else ""))
            detail = " · ".join(x for x in (d.kind, f"firmware {d.firmware}" if d.firmware else "",
                                            f"{len(d.dice)} dice" if d.dice else "", f"uid {d.uid}" if d.uid else "",
                                            f"⚠ {d.missed} throw{'s' if d.missed != 1 else ''} lost while unheard" if d.missed else "",
                                            f"last input: {d.last_input}" if d.last_input else "") if x)
            out.append(DeviceRow(d.device, d.kind, state, f"{d.battery} %" if d.battery is not None else "—",
                                 d.last_roll or "—", counters, detail, link is not None, d.online,
                                 device_title(d.device, d.kind, bool(getattr(link, "simulated", False)))))
        return out

    def connect(self, device: str) -> None:
        self.links[device].connect()

    def disconnect(self, device: str) -> None:
        self.links[device].disconnect()


_INPUT_WORDS: dict[str, Callable[[Any], str]] = {
    "TokenPlaced": lambda e: f"token placed on slot {e.slot + 1}",
    "TokenRemoved": lambda e: f"token lifted from slot {e.slot + 1}",
    "ButtonPressed": lambda e: f"{button_title(e.button)} pressed",
    "ButtonHeld": lambda e: f"{button_title(e.button)} held",
    "KeypadValue": lambda e: f"keypad {e.value}",
}


def button_title(button: str) -> str:
    """ "end-turn" → "End-turn button", "seat-0" → "Seat 1 button" (people count from 1).

    >>> button_title("seat-0"), button_title("end-turn")
    ('Seat 1 button', 'End-turn button')
    """
    if button.startswith("seat-") and button[5:].isdigit():
        return f"Seat {int(button[5:]) + 1} button"
    return f"{button[:1].upper()}{button[1:]} button"


# ---------------------------------------------------------------------- the GPIO board

@dataclass(frozen=True)
class PinRow:
    """One line of the GPIO board: a pin's job, where it is, its state now, and what it
    does in the game on the table (player words). ``kind``: "slot", "button", "keypad",
    "led", "buzzer"; ``key``: the slot index or button name (what a simulated press uses)."""

    kind: str
    key: str
    role: str
    pin: str
    state: str
    active: bool
    meaning: str


@dataclass(frozen=True)
class GpioBoard:
    """The GPIO header as the devices panel shows it."""

    title: str
    status: str
    online: bool
    error: str
    simulated: bool
    rows: tuple[PinRow, ...]

    def of(self, kind: str) -> list[PinRow]:
        return [r for r in self.rows if r.kind == kind]


class GameWords(Protocol):
    """What the board needs to know of the game on the table, in player words."""

    title: str

    def seat_name(self, position: int) -> str | None: ...
    def entity_name(self, entity: str) -> str: ...


@dataclass
class TableWords:
    """Player words for a Table: its game's title, its seats' names (by position), and a
    board entity's name ("tile:o-docks" → "The Docks") from ``name_entity``, which the
    game's screen supplies (its board knows the names; a default board may be edited)."""

    title: str = ""
    seats: tuple[str, ...] = ()
    name_entity: Callable[[str], str] | None = None

    def seat_name(self, position: int) -> str | None:
        return self.seats[position] if 0 <= position < len(self.seats) else None

    def entity_name(self, entity: str) -> str:
        if self.name_entity is not None:
            return self.name_entity(entity)
        return entity.partition(":")[2] or entity


def _pin(gpio: int) -> str:
    from firmware_bridge.gpio.pinmap import header_pin

    return f"GPIO {gpio} · header pin {header_pin(gpio)}"


def _kind_word(kind: str) -> str:
    return kind.replace("-", " ").replace("_", " ")


def gpio_board(link: Any, mapping: Mapping[str, Any] | None, words: GameWords | None) -> GpioBoard:
    """The board of ``link`` (a :class:`~companion.ui.gpio_link.GpioLink`): every pin of
    its pin map with its live state, and what each slot and button does in the game whose
    routing ``mapping`` is given (None: no game open).

    >>> from types import SimpleNamespace as NS
    >>> from firmware_bridge.gpio import parse_pin_map
    >>> pm = parse_pin_map({"inputs": {"end_turn": 4, "token_slots": [5, 6]}, "outputs": {"seat_leds": [24]}})
    >>> link = NS(pin_map=pm, error="", is_online=True, can_simulate=False, mode="pi",
    ...           tokens=lambda: frozenset({1}), is_pressed=lambda b: False, lit_seats=lambda: frozenset({0}))
    >>> mapping = {"slots": {"*/1": {"entity": "tile:o-docks", "on_place": {"kind": "move", "tile": "o-docks"}}},
    ...            "buttons": {"*/end-turn": {"does": "action", "action": {"kind": "decline"}, "says": "Say no"}}}
    >>> words = TableWords("Castle Run", ("Ann", "Bob"), lambda e: {"tile:o-docks": "The Docks"}[e])
    >>> b = gpio_board(link, mapping, words)
    >>> [(r.role, r.state, r.meaning) for r in b.of("slot")]   # doctest: +NORMALIZE_WHITESPACE
    [('Token slot 1', '○ empty', 'not used in Castle Run'),
     ('Token slot 2', '● token', 'The Docks: a token here means move there')]
    >>> b.of("button")[0].meaning, b.of("led")[0].state, b.of("led")[0].meaning
    ('Say no', '● lit', "Ann's turn light")
    """
    pm = link.pin_map
    online = bool(link.is_online)
    simulated = bool(getattr(link, "can_simulate", False))
    status = ("● online" if online else "○ offline") + (" · simulated pins (MockFactory)" if getattr(link, "mode", "") == "mock" else "")
    if pm is None:
        return GpioBoard("GPIO header", status, online, link.error, False, ())
    title = words.title if words is not None and words.title else ""
    slots_map = (mapping or {}).get("slots", {})
    buttons_map = (mapping or {}).get("buttons", {})
    device = getattr(link, "device", "gpio")

    def lookup(section: Mapping[str, Any], name: Any) -> Mapping[str, Any] | None:
        # As the router looks them up (companion/routing.py): this device first, then any.
        return section.get(f"{device}/{name}") or section.get(f"*/{name}")

    def unused() -> str:
        return f"not used in {title}" if title else "no game open"

    rows: list[PinRow] = []
    tokens = link.tokens() if online else frozenset()
    for i, gpio in enumerate(pm.token_slots):
        m = lookup(slots_map, i)
        if m is None:
            meaning = unused()
        else:
            entity = m.get("entity", "")
            place = m["on_place"]["kind"]
            name = words.entity_name(entity) if words is not None and entity else _kind_word(place)
            meaning = m.get("says") or f"{name}: a token here means {_kind_word(place)} there"
        on = i in tokens
        rows.append(PinRow("slot", str(i), f"Token slot {i + 1}", _pin(gpio), "● token" if on else "○ empty", on, meaning))

    buttons = [(f"seat-{i}", p) for i, p in enumerate(pm.seat_buttons)]
    if pm.end_turn is not None:
        buttons.append(("end-turn", pm.end_turn))
    for name, gpio in buttons:
        m = lookup(buttons_map, name)
        on = online and link.is_pressed(name)
        rows.append(PinRow("button", name, button_title(name), _pin(gpio), "● pressed" if on else "○ up", on,
                           _button_meaning(m, words) if m is not None else unused()))

    if pm.keypad:
        who = None
        if pm.keypad_seat is not None and words is not None:
            who = words.seat_name(pm.keypad_seat)
        rows.append(PinRow("keypad", "", f"Keypad keys 1–{len(pm.keypad)}",
                           ", ".join(f"GPIO {g}" for g in pm.keypad), "", False,
                           f"a die value typed in for {who or 'the seat that rolls'} (manual entry)"))

    lit = link.lit_seats() if online else frozenset()
    for i, gpio in enumerate(pm.seat_leds):
        who = words.seat_name(i) if words is not None else None
        on = i in lit
        rows.append(PinRow("led", str(i), f"Seat {i + 1} light", _pin(gpio), "● lit" if on else "○ off", on,
                           f"{who}'s turn light" if who else ("no seat in this game" if title else "lights for the seat whose turn it is")))
    if pm.buzzer is not None:
        rows.append(PinRow("buzzer", "", "Buzzer", _pin(pm.buzzer), "", False,
                           "beeps clock alerts: " + ", ".join(n for n, _ in pm.beeps) if pm.beeps else "beeps clock alerts"))
    return GpioBoard("GPIO header", status, online, link.error, simulated, tuple(rows))


def _button_meaning(m: Mapping[str, Any], words: GameWords | None) -> str:
    if m.get("says"):
        return str(m["says"])
    does = m["does"]
    if does == "seat":
        who = words.seat_name(m["seat"]) if words is not None else None
        return f"chooses {who} for keypad entry and secret choices" if who else "a seat this table does not have"
    if does == "roll-for-me":
        return "rolls with the app's roller for the seat that must roll"
    if does == "undo":
        return "asks to undo the last action (confirm on the screen)"
    return f"means {_kind_word(m['action']['kind'])}"


# ---------------------------------------------------------------------- Bluetooth dice

@dataclass(frozen=True)
class FoundLine:
    """A die a scan found, before pairing: ``title`` "Pixel “Red d20” · d20", ``detail``
    its signal, battery and face."""

    address: str
    kind: str
    title: str
    detail: str


@dataclass(frozen=True)
class BleDieLine:
    """A paired Bluetooth die as the panel shows it, every state in words (never colour
    alone)."""

    device: str
    kind: str
    title: str
    link: str
    online: bool
    battery: str
    battery_low: bool
    seat: str
    seat_id: str
    shows: str
    warning: str
    shell: str
    simulated: bool
    note: str = ""  # the latest blink's outcome


@dataclass(frozen=True)
class BleCard:
    title: str
    status: str
    online: bool
    error: str
    message: str
    scanning: bool
    found: tuple[FoundLine, ...]
    dice: tuple[BleDieLine, ...]
    hint: str


def die_title(kind: str, name: str = "", die_type: str = "", color: str = "") -> str:
    """A Bluetooth die as the panel names it.

    >>> die_title("pixels", "Red d20", "d20"), die_title("godice", "GoDice_0A1B2C_K_v04", "D6", "blue")
    ('Pixel “Red d20” · d20', 'GoDice (blue) · D6 shell')
    """
    if kind == "godice":
        return f"GoDice{f' ({color})' if color else ''}" + (f" · {die_type} shell" if die_type else "")
    return f"Pixel{f' “{name}”' if name else ''}" + (f" · {die_type}" if die_type and die_type != "unknown" else "")


def battery_words(percent: int | None, low: bool, charging: bool) -> str:
    """The battery in words, with the warning when it runs low.

    >>> battery_words(80, False, False), battery_words(None, False, False)
    ('battery 80 %', 'battery not known yet')
    >>> battery_words(12, True, False)
    '⚠ battery low (12 %): charge this die soon, or it will stop reporting rolls'
    >>> battery_words(12, False, True)
    'battery 12 %, charging'
    """
    if percent is None:
        return "battery not known yet"
    if low and not charging:
        return f"⚠ battery low ({percent} %): charge this die soon, or it will stop reporting rolls"
    return f"battery {percent} %" + (", charging" if charging else "")


def named_in(sentence: str, device: str, kind: str, name: str) -> str:
    """The bridge's ``sentence`` about a Bluetooth die with the die's ``name`` (as the dice
    tray calls it: :func:`~companion.ui.presenters.dice.die_name`) where the bridge wrote
    its device id (``device``): the id is ours, from pairing, and means nothing to players.

    >>> named_in("GoDice godice-000002 is set to the D6 shell, but it reads like a D20 shell: "
    ...          "set its shell on the devices panel", "godice-000002", "godice", "the blue GoDice")
    'The blue GoDice is set to the D6 shell, but it reads like a D20 shell: set its shell on the devices panel'
    >>> named_in("pixels-a1 went offline: disconnected", "pixels-a1", "pixels", "Ann's Pixel “Red d20”")
    "Ann's Pixel “Red d20” went offline: disconnected"
    """
    if not device or device not in sentence:
        return sentence
    word = {"godice": "GoDice", "pixels": "Pixel"}.get(kind, "")
    for called in ([f"{word} '{device}'", f"{word} {device}"] if word else []) + [f"'{device}'", device]:
        if called in sentence:
            head, _, tail = sentence.partition(called)
            return head + (name[:1].upper() + name[1:] if not head else name) + tail
    return sentence


def ble_card(link: Any, statuses: Mapping[str, Any], seat_names: Mapping[str, str] | None = None,
             given: Mapping[str, str] | None = None) -> BleCard:
    """The Bluetooth card of ``link`` (a :class:`~companion.ui.ble_link.BleLink`): what the
    latest scan found, each paired die with its link, battery, seat and warnings, in words.

    >>> from types import SimpleNamespace as NS
    >>> found = [NS(address="AA:01", kind="pixels", name="Red d20", rssi=-60, die_type="d20", battery=70, face="17")]
    >>> paired = {"godice-0a1b2c": NS(device="godice-0a1b2c", kind="godice", address="AA:02", name="", seat="cops-1", shell="D6")}
    >>> st = NS(online=False, die_type="D6", name="", color="", battery=9, battery_low=True, charging=False, value=4,
    ...         label="4", state="onFace", warning="GoDice 'godice-0a1b2c' (AA:02) is not advertising: connected to another phone or app")
    >>> link = NS(found=found, paired=paired, error="", message="", scanning=False, simulated=False, scanned=True,
    ...           counters=lambda: "1 paired, 0 online", source=object())
    >>> card = ble_card(link, {"godice-0a1b2c": st}, {"cops-1": "Ann"})
    >>> card.found[0].title, card.found[0].detail
    ('Pixel “Red d20” · d20', 'signal -60 dBm · battery 70 % · shows 17')
    >>> d = card.dice[0]; d.title, d.link, d.seat
    ('GoDice · D6 shell', '○ offline', "Ann's die")
    >>> d.warning.endswith("connected to another phone or app"), d.battery.startswith("⚠ battery low")
    (True, True)
    >>> d.warning.split(" is not")[0]  # the die's name, never its device id
    "Ann's GoDice (AA:02)"
    """
    names = dict(seat_names or {})
    # The game on the table decides whose each die is ("Give to", journaled with the
    # game); without a game, what the die was given at pairing.
    seat_of = (lambda p: given.get(f"die:{p.device}/0", "")) if given is not None else (lambda p: p.seat)
    found = []
    for f in link.found:
        bits = [f"signal {f.rssi} dBm" if f.rssi is not None else "",
                f"battery {f.battery} %" if f.battery is not None else "",
                f"shows {f.face}" if f.face else ""]
        if f.kind == "godice":
            bits = [f.name] + bits + ["pick its shell after pairing"]
        found.append(FoundLine(f.address, f.kind, die_title(f.kind, f.name, f.die_type),
                               " · ".join(b for b in bits if b)))
    dice = []
    for p in link.paired.values():
        st = statuses.get(p.device)
        online = bool(st is not None and st.online)
        title = die_title(p.kind, (st.name if st is not None and st.name else p.name),
                          (st.die_type if st is not None and st.die_type else p.shell),
                          st.color if st is not None else "")
        if online:
            state = "● online"
        elif st is None or (not st.warning and st.battery is None):
            state = "○ connecting…"
        else:
            state = "○ offline"
        own = (st.name if p.kind == "pixels" else st.color) if st is not None else ""
        seat_id = seat_of(p)
        called = die_name(f"die:{p.device}/0", p.kind, names.get(seat_id, seat_id) if seat_id else "",
                          own_name=own or (p.name if p.kind == "pixels" else ""))
        warning = named_in(st.warning, p.device, p.kind, called) if st is not None else ""
        if not online and not warning and st is not None and st.battery is not None:
            warning = "Out of reach or asleep: the app keeps trying to reconnect."
        shows = ""
        if st is not None and st.value is not None:
            shows = f"shows {st.label or st.value}"
        seat = f"{names.get(seat_id, seat_id)}'s die" if seat_id else TABLE_DIE
        dice.append(BleDieLine(p.device, p.kind, title, state, online,
                               battery_words(st.battery if st is not None else None,
                                             bool(st is not None and st.battery_low),
                                             bool(st is not None and st.charging)),
                               bool(st is not None and st.battery_low and not st.charging),
                               seat, seat_id, shows, warning, p.shell, bool(link.simulated),
                               getattr(link, "notes", {}).get(p.device, "")))
    started = link.source is not None
    status = ("○ no Bluetooth" if link.error else ("● " + link.counters() if started else "○ not started"))
    if link.simulated:
        status += " · simulated dice (fake radio)"
    if link.scanning:
        hint = ""
    elif link.found:
        hint = "Pair a die to keep it connected; then give it to a player and blink it to find it."
    elif not link.paired:
        hint = ("Pixels and GoDice nearby are listed by type and name when you find dice. A die "
                "connected to another phone or app does not show up until it is disconnected there.")
    else:
        hint = ""
    return BleCard("Bluetooth dice", status, started and not link.error, link.error, link.message,
                   bool(link.scanning), tuple(found), tuple(dice), hint)


TABLE_DIE = "the table's die: it throws for whoever must throw"


@dataclass(frozen=True)
class GivenLine:
    """A die (or a keypad) of a hub, the demo hub or the GPIO header, as the devices panel
    offers it to a seat: ``source`` ("die:sim/0"), what players call it, the seat it is
    given to (``seat_id``, "" for the table), and that in words."""

    source: str
    name: str
    seat_id: str
    seat: str


def given_lines(model: "DevicesModel", given: Mapping[str, str], seat_names: Mapping[str, str],
                keypads: tuple[str, ...] = ()) -> tuple[GivenLine, ...]:
    """Every die of the hubs (the demo's too) and every GPIO keypad (``keypads``, their
    sources), each with the seat the game on the table gives it to (``given``, the Table's
    ``devices``), in players' words. A die given to nobody is the table's.

    >>> from types import SimpleNamespace as NS
    >>> m = DevicesModel()
    >>> m.devices["sim"] = DeviceState("sim", kind="hub", dice={0})
    >>> m.links["sim"] = NS(simulated=True)
    >>> [(g.name, g.seat) for g in given_lines(m, {}, {"a": "Ann"}, ("keypad:gpio/0",))]
    [('the demo die', "the table's die: it throws for whoever must throw"), ('the keypad', "the table's keypad: it enters the throw of whoever must throw")]
    >>> [(g.name, g.seat) for g in given_lines(m, {"die:sim/0": "a"}, {"a": "Ann"})]
    [('the demo die', "Ann's die")]
    """
    from .dice import live_dice

    out = []
    # Each die by what it is ("the demo die"), whose it is beside it ("Bob's die").
    for d in live_dice(model, dict(given), None, online_only=False):
        if d.kind in BLE_KINDS:
            continue  # a line of the Bluetooth card
        out.append(GivenLine(d.source, d.name, d.seat, f"{seat_names.get(d.seat, d.seat)}'s die" if d.seat else TABLE_DIE))
    for source in keypads:
        seat = given.get(source, "")
        out.append(GivenLine(source, "the keypad", seat,
                             f"{seat_names.get(seat, seat)}'s keypad" if seat else
                             "the table's keypad: it enters the throw of whoever must throw"))
    return tuple(out)


def next_seat(current: str, seats: tuple[str, ...]) -> str:
    """The next choice of "Give to": the table → each seat in turn → the table.

    >>> next_seat("", ("a", "b")), next_seat("a", ("a", "b")), next_seat("b", ("a", "b"))
    ('a', 'b', '')
    """
    order = ("",) + tuple(seats)
    return order[(order.index(current) + 1) % len(order)] if current in order else ""


def next_shell(current: str, shells: tuple[str, ...]) -> str:
    """The next GoDice shell of the picker.

    >>> next_shell("D6", ("D6", "D20", "D10")), next_shell("D10", ("D6", "D20", "D10"))
    ('D20', 'D6')
    """
    return shells[(shells.index(current) + 1) % len(shells)] if current in shells else shells[0]
