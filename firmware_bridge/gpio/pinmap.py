"""The GPIO pin map: which Raspberry Pi pin is which seat button, keypad key, token slot,
seat LED or buzzer. Data, not code: a JSON file (``default_pinmap.json`` is the
documented default, drawn in hardware/README.md section 3); this module parses and
validates it.

>>> pm = default_pin_map()
>>> pm.seat_buttons, pm.end_turn, pm.buzzer
((17, 27, 22, 23), 4, 25)
>>> header_pin(17)
11
>>> parse_pin_map({"inputs": {"seat_buttons": [17, 3]}})
Traceback (most recent call last):
...
firmware_bridge.gpio.pinmap.ReservedPinError: GPIO 3 (header pin 5) for seat button 1 is reserved: I2C1, used by many displays' touch controllers and sensors (fixed 1.8 kOhm pull-ups)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from firmware_bridge.errors import BridgeError

__all__ = [
    "PinMap", "PinMapError", "InvalidPinError", "DuplicatePinError", "ReservedPinError",
    "parse_pin_map", "load_pin_map", "default_pin_map", "header_pin", "DEFAULT_PIN_MAP_PATH",
]

HERE = Path(__file__).resolve().parent
DEFAULT_PIN_MAP_PATH = HERE / "default_pinmap.json"
FORMAT = "tabletop-companion gpio pin map"

Beep = tuple[tuple[float, float], ...]  # (on seconds, off seconds) steps


class PinMapError(BridgeError, ValueError):
    """A pin map that cannot be used. ``code`` is stable ("bad-field", "unknown-key",
    "invalid-pin", "duplicate-pin", "reserved-pin", "bad-beep", "bad-format")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class InvalidPinError(PinMapError):
    """Not a BCM GPIO number of the 40-pin header (0..27)."""

    def __init__(self, role: str, pin: object) -> None:
        super().__init__("invalid-pin", "%s: %r is not a GPIO of the 40-pin header (BCM 0..27)"
                         % (role, pin))
        self.role, self.pin = role, pin


class DuplicatePinError(PinMapError):
    """One pin given two jobs."""

    def __init__(self, pin: int, roles: tuple[str, str]) -> None:
        super().__init__("duplicate-pin", "%s is used twice: for %s and for %s"
                         % (describe_pin(pin), roles[0], roles[1]))
        self.pin, self.roles = pin, roles


class ReservedPinError(PinMapError):
    """A pin that another function of the Pi (I2C, serial console, HAT EEPROM, or a bus
    the map itself reserves) needs."""

    def __init__(self, pin: int, role: str, bus: str, why: str) -> None:
        super().__init__("reserved-pin", "%s for %s is reserved: %s" % (describe_pin(pin), role, why))
        self.pin, self.role, self.bus = pin, role, bus


@cache
def _header() -> dict[str, Any]:
    with open(HERE / "header.json", encoding="utf-8") as f:
        return json.load(f)


def header_pin(gpio: int) -> int:
    """The physical pin (1..40) of a BCM GPIO on the 40-pin header."""
    return int(_header()["gpio_to_header_pin"][str(gpio)])


def describe_pin(gpio: int) -> str:
    """``'GPIO 17 (header pin 11)'``: both numbers, so nobody counts the wrong way."""
    return "GPIO %d (header pin %d)" % (gpio, header_pin(gpio))


@dataclass(frozen=True, slots=True)
class PinMap:
    """Where each GPIO input and output is (BCM numbers). Seat ``i`` is position ``i`` of
    ``seat_buttons`` and ``seat_leds``; ``keypad[k]`` enters the value ``k + 1``; slot
    ``i`` is ``token_slots[i]``. Made by ``parse_pin_map`` (which validates it)."""

    seat_buttons: tuple[int, ...] = ()
    end_turn: int | None = None
    keypad: tuple[int, ...] = ()
    keypad_seat: int | None = None
    token_slots: tuple[int, ...] = ()
    seat_leds: tuple[int, ...] = ()
    buzzer: int | None = None
    debounce_ms: int = 20
    hold_s: float | None = 1.0
    reserve: tuple[str, ...] = ()
    beeps: tuple[tuple[str, Beep], ...] = field(default=())

    def inputs(self) -> list[tuple[str, int]]:
        """(role, pin) of every input, in a fixed order."""
        out = [("seat button %d" % i, p) for i, p in enumerate(self.seat_buttons)]
        if self.end_turn is not None:
            out.append(("end-turn button", self.end_turn))
        out += [("keypad key %d" % (k + 1), p) for k, p in enumerate(self.keypad)]
        out += [("token slot %d" % i, p) for i, p in enumerate(self.token_slots)]
        return out

    def outputs(self) -> list[tuple[str, int]]:
        """(role, pin) of every output."""
        out = [("seat LED %d" % i, p) for i, p in enumerate(self.seat_leds)]
        if self.buzzer is not None:
            out.append(("buzzer", self.buzzer))
        return out

    def beep(self, name: str) -> Beep:
        """The named beep pattern; ``KeyError`` names the known ones."""
        for n, steps in self.beeps:
            if n == name:
                return steps
        raise KeyError("no beep named %r (known: %s)" % (name, ", ".join(n for n, _ in self.beeps)))


_TOP_KEYS = {"format", "version", "about", "debounce_ms", "hold_s", "inputs", "outputs",
             "reserve", "beeps"}
_INPUT_KEYS = {"seat_buttons", "end_turn", "keypad", "keypad_seat", "token_slots"}
_OUTPUT_KEYS = {"seat_leds", "buzzer"}


def _section(data: Mapping[str, Any], key: str, allowed: set[str]) -> Mapping[str, Any]:
    sec = data.get(key, {})
    if not isinstance(sec, Mapping):
        raise PinMapError("bad-field", "%s must be an object" % key)
    unknown = sorted(set(sec) - allowed)
    if unknown:
        raise PinMapError("unknown-key", "unknown key in %s: %s (known: %s)"
                          % (key, ", ".join(unknown), ", ".join(sorted(allowed))))
    return sec


def _pin(role: str, v: object) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or str(v) not in _header()["gpio_to_header_pin"]:
        raise InvalidPinError(role, v)
    return v


def _pins(key: str, role: str, v: object, first: int = 0) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise PinMapError("bad-field", "%s must be a list of GPIO numbers" % key)
    return tuple(_pin(role % i, p) for i, p in enumerate(v, first))


def _opt_pin(role: str, v: object) -> int | None:
    return None if v is None else _pin(role, v)


def _beeps(v: object) -> tuple[tuple[str, Beep], ...]:
    if not isinstance(v, Mapping):
        raise PinMapError("bad-beep", "beeps must map a name to [[on_s, off_s], ...]")
    out = []
    for name, steps in v.items():
        ok = isinstance(steps, list) and steps and all(
            isinstance(s, list) and len(s) == 2
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 10
                    for x in s) for s in steps)
        if not ok:
            raise PinMapError("bad-beep", "beep %r must be a non-empty list of [on_s, off_s] "
                              "pairs, each 0..10 s" % (name,))
        out.append((str(name), tuple((float(a), float(b)) for a, b in steps)))
    return tuple(out)


def parse_pin_map(data: Mapping[str, Any]) -> PinMap:
    """A validated ``PinMap`` from the JSON structure of ``default_pinmap.json``; missing
    sections mean "not wired". Raises a ``PinMapError`` (a ``ValueError``) naming the
    first problem: an unknown key, a pin that is not on the header, a pin used twice, a
    reserved pin (I2C1, the serial console, the HAT EEPROM, plus any bus listed in
    ``reserve``: "spi0", "spi1", "pcm", "one_wire")."""
    if not isinstance(data, Mapping):
        raise PinMapError("bad-format", "a pin map is a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise PinMapError("unknown-key", "unknown key in the pin map: %s" % ", ".join(unknown))
    if data.get("format", FORMAT) != FORMAT or data.get("version", 1) != 1:
        raise PinMapError("bad-format", "not a version 1 %r file" % FORMAT)
    ins = _section(data, "inputs", _INPUT_KEYS)
    outs = _section(data, "outputs", _OUTPUT_KEYS)

    debounce_ms = data.get("debounce_ms", 20)
    if not isinstance(debounce_ms, int) or isinstance(debounce_ms, bool) or not 0 <= debounce_ms <= 1000:
        raise PinMapError("bad-field", "debounce_ms must be a whole number of ms, 0..1000")
    hold_s = data.get("hold_s", 1.0)
    if hold_s is not None and (not isinstance(hold_s, (int, float)) or isinstance(hold_s, bool)
                               or not 0 < hold_s <= 60):
        raise PinMapError("bad-field", "hold_s must be seconds in (0, 60], or null for no hold events")
    keypad_seat = ins.get("keypad_seat")
    if keypad_seat is not None and (not isinstance(keypad_seat, int) or isinstance(keypad_seat, bool)
                                    or keypad_seat < 0):
        raise PinMapError("bad-field", "keypad_seat must be a seat position (0, 1, ...) or null")
    reserve = data.get("reserve", [])
    optional = _header()["optional_reserved"]
    if not isinstance(reserve, list) or any(r not in optional for r in reserve):
        raise PinMapError("bad-field", "reserve lists bus names among: %s" % ", ".join(optional))

    pm = PinMap(
        seat_buttons=_pins("seat_buttons", "seat button %d", ins.get("seat_buttons", [])),
        end_turn=_opt_pin("end-turn button", ins.get("end_turn")),
        keypad=_pins("keypad", "keypad key %d", ins.get("keypad", []), first=1),
        keypad_seat=keypad_seat,
        token_slots=_pins("token_slots", "token slot %d", ins.get("token_slots", [])),
        seat_leds=_pins("seat_leds", "seat LED %d", outs.get("seat_leds", [])),
        buzzer=_opt_pin("buzzer", outs.get("buzzer")),
        debounce_ms=debounce_ms,
        hold_s=None if hold_s is None else float(hold_s),
        reserve=tuple(reserve),
        beeps=_beeps(data.get("beeps", {})),
    )
    if len(pm.keypad) == 1:
        raise PinMapError("bad-field", "a keypad needs at least two keys (values 1..n)")
    _check_pins(pm)
    return pm


def _check_pins(pm: PinMap) -> None:
    reserved: dict[int, tuple[str, str]] = {}
    header = _header()
    for bus, info in header["always_reserved"].items():
        for g in info["gpios"]:
            reserved[g] = (bus, info["why"])
    for bus in pm.reserve:
        for g in header["optional_reserved"][bus]["gpios"]:
            reserved.setdefault(g, (bus, header["optional_reserved"][bus]["why"]))
    seen: dict[int, str] = {}
    for role, pin in pm.inputs() + pm.outputs():
        if pin in reserved:
            raise ReservedPinError(pin, role, *reserved[pin])
        if pin in seen:
            raise DuplicatePinError(pin, (seen[pin], role))
        seen[pin] = role


def load_pin_map(path: str | Path | None = None) -> PinMap:
    """Read and validate a pin map file (JSON); ``None``: the packaged default. A file
    that is not JSON raises ``PinMapError`` with code "bad-format"."""
    p = Path(path) if path is not None else DEFAULT_PIN_MAP_PATH
    try:
        with open(p, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise PinMapError("bad-format", "%s is not valid JSON: %s" % (p, e)) from None
    return parse_pin_map(data)


def default_pin_map() -> PinMap:
    """The documented default for a Raspberry Pi 40-pin header (``default_pinmap.json``)."""
    return load_pin_map(None)
