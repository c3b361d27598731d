"""The GPIO pin map: the documented default, agreement with hardware/README.md, and the
typed errors for maps that cannot work."""
from __future__ import annotations

import copy
import doctest
import json
import re
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.gpio import (DEFAULT_PIN_MAP_PATH, DuplicatePinError, InvalidPinError,
                                  PinMap, PinMapError, ReservedPinError, default_pin_map,
                                  header_pin, load_pin_map, parse_pin_map)
from firmware_bridge.gpio import pinmap as pinmap_module

ROOT = Path(__file__).resolve().parents[2]
HEADER = json.loads((ROOT / "firmware_bridge" / "gpio" / "header.json").read_text())


def default_data() -> dict[str, Any]:
    return json.loads(DEFAULT_PIN_MAP_PATH.read_text())


def with_(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(default_data())
    *parents, last = path.split(".")
    node = data
    for p in parents:
        node = node[p]
    node[last] = value
    return data


def test_the_default_map() -> None:
    pm = default_pin_map()
    assert pm.seat_buttons == (17, 27, 22, 23) and pm.seat_leds == (24, 12, 16, 20)
    assert pm.end_turn == 4 and pm.buzzer == 25
    assert len(pm.keypad) == 6 and len(pm.token_slots) == 6
    assert pm.debounce_ms == 20 and pm.hold_s == 1.0 and pm.keypad_seat is None
    assert {n for n, _ in pm.beeps} == {"tick", "warning", "expired", "error"}
    pins = [p for _, p in pm.inputs() + pm.outputs()]
    assert len(pins) == len(set(pins)) == 22


def readme_rows() -> dict[str, tuple[int, int, list[int]]]:
    """role -> (BCM GPIO, header pin, GND pins) from hardware/README.md section 3."""
    text = (ROOT / "hardware" / "README.md").read_text()
    section = text[text.index("## 3. Wiring the Raspberry Pi directly"):text.index("## 4.")]
    rows = {}
    for m in re.finditer(r"^\| ([^|]+?) \| (\d+) \| (\d+) \| ([\d /]+) \|$", section, re.M):
        role = re.sub(r" \(.*\)$", "", m.group(1))
        rows[role] = (int(m.group(2)), int(m.group(3)), [int(g) for g in m.group(4).split("/")])
    return rows


def test_hardware_readme_draws_the_default_map() -> None:
    pm = default_pin_map()
    rows = readme_rows()
    assert {role: gpio for role, (gpio, _, _) in rows.items()} == dict(pm.inputs() + pm.outputs())
    for role, (gpio, pin, grounds) in rows.items():
        assert header_pin(gpio) == pin, role
        assert set(grounds) <= set(HEADER["ground_pins"]), role


def test_header_table_is_the_40_pin_header() -> None:
    pins = HEADER["gpio_to_header_pin"]
    assert sorted(map(int, pins)) == list(range(28))
    assert len(set(pins.values())) == 28
    assert not set(pins.values()) & set(HEADER["ground_pins"])
    assert (header_pin(2), header_pin(14), header_pin(21)) == (3, 8, 40)


@pytest.mark.parametrize("path,value,bad_pin", [
    ("inputs.end_turn", 2, 2), ("inputs.end_turn", 3, 3),  # I2C1
    ("outputs.buzzer", 14, 14), ("inputs.token_slots", [5, 15], 15),  # serial console
    ("outputs.seat_leds", [0], 0), ("inputs.keypad", [1, 9], 1),  # HAT EEPROM
])
def test_reserved_pins(path: str, value: Any, bad_pin: int) -> None:
    with pytest.raises(ReservedPinError) as info:
        parse_pin_map(with_(path, value))
    assert info.value.pin == bad_pin and info.value.code == "reserved-pin"
    assert "header pin %d" % header_pin(bad_pin) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_spi_display_reserves_the_keypad_pins() -> None:
    with pytest.raises(ReservedPinError, match=r"GPIO 10 \(header pin 19\) for keypad key 1 "
                                               r"is reserved: SPI0") as info:
        parse_pin_map(with_("reserve", ["spi0"]))
    assert info.value.bus == "spi0" and info.value.role == "keypad key 1"
    data = with_("reserve", ["spi0"])
    data["inputs"]["keypad"] = []
    assert parse_pin_map(data).keypad == ()


def test_duplicate_pins_name_both_roles() -> None:
    data = with_("outputs.buzzer", 17)
    with pytest.raises(DuplicatePinError, match=r"GPIO 17 \(header pin 11\) is used twice: "
                                                r"for seat button 0 and for buzzer") as info:
        parse_pin_map(data)
    assert info.value.roles == ("seat button 0", "buzzer")
    with pytest.raises(DuplicatePinError):
        parse_pin_map({"inputs": {"token_slots": [5, 6, 5]}})


@pytest.mark.parametrize("value", [28, -1, "17", 17.0, True, None, "GPIO17"])
def test_invalid_pins(value: Any) -> None:
    with pytest.raises(InvalidPinError, match="seat button 1") as info:
        parse_pin_map({"inputs": {"seat_buttons": [17, value]}})
    assert info.value.code == "invalid-pin"


@pytest.mark.parametrize("data,code,match", [
    ({"input": {}}, "unknown-key", "input"),
    ({"inputs": {"seat_button": [17]}}, "unknown-key", "seat_button"),
    ({"outputs": {"leds": [24]}}, "unknown-key", "leds"),
    ({"inputs": []}, "bad-field", "inputs must be an object"),
    ({"inputs": {"keypad": 10}}, "bad-field", "keypad must be a list"),
    ({"inputs": {"keypad": [10]}}, "bad-field", "at least two keys"),
    ({"inputs": {"keypad_seat": -1}}, "bad-field", "keypad_seat"),
    ({"debounce_ms": 2.5}, "bad-field", "debounce_ms"),
    ({"debounce_ms": -1}, "bad-field", "debounce_ms"),
    ({"hold_s": 0}, "bad-field", "hold_s"),
    ({"reserve": ["spi9"]}, "bad-field", "spi0, spi1, pcm, one_wire"),
    ({"beeps": {"x": []}}, "bad-beep", "'x'"),
    ({"beeps": {"x": [[0.1]]}}, "bad-beep", "'x'"),
    ({"beeps": {"x": [[0.1, 99]]}}, "bad-beep", "'x'"),
    ({"beeps": [[0.1, 0.1]]}, "bad-beep", "beeps must map"),
    ({"format": "something else"}, "bad-format", "version 1"),
    ({"version": 2}, "bad-format", "version 1"),
])
def test_malformed_maps(data: dict[str, Any], code: str, match: str) -> None:
    with pytest.raises(PinMapError, match=match) as info:
        parse_pin_map(data)
    assert info.value.code == code


def test_an_empty_map_is_nothing_wired() -> None:
    pm = parse_pin_map({})
    assert pm == PinMap() and pm.inputs() == [] and pm.outputs() == []


def test_hold_can_be_switched_off() -> None:
    assert parse_pin_map({"hold_s": None}).hold_s is None


def test_load_from_a_file(tmp_path: Path) -> None:
    f = tmp_path / "table.json"
    f.write_text(json.dumps(with_("inputs.end_turn", None)))
    pm = load_pin_map(f)
    assert pm.end_turn is None and pm.seat_buttons == default_pin_map().seat_buttons
    f.write_text("{not json")
    with pytest.raises(PinMapError, match="not valid JSON") as info:
        load_pin_map(f)
    assert info.value.code == "bad-format"


def test_beep_lookup() -> None:
    pm = default_pin_map()
    assert pm.beep("warning") == ((0.1, 0.1), (0.1, 0.0))
    with pytest.raises(KeyError, match="known: tick"):
        pm.beep("nope")


def test_doctests() -> None:
    result = doctest.testmod(pinmap_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
