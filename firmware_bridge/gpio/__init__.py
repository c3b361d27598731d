"""The Raspberry Pi's own GPIO pins as an input source (seat buttons, end-turn button,
value keypad, token slots) and feedback outputs (seat LEDs, buzzer), through gpiozero with
an injectable pin factory. The wiring is a data file: ``default_pinmap.json``.

    source = GpioSource(load_pin_map("my-table.json"), on_event=handle)
    source.start()                   # events from gpiozero's and our ticker's threads
    lights = GpioFeedback(source.pin_map)
    lights.open(); lights.show_turn(2); lights.beep("warning")
"""

from firmware_bridge.gpio.feedback import GpioFeedback, UnknownBeepError, UnknownSeatError
from firmware_bridge.gpio.pinmap import (DEFAULT_PIN_MAP_PATH, DuplicatePinError,
                                         InvalidPinError, PinMap, PinMapError,
                                         ReservedPinError, default_pin_map, header_pin,
                                         load_pin_map, parse_pin_map)
from firmware_bridge.gpio.source import GpioError, GpioSource

__all__ = [
    "GpioSource", "GpioFeedback", "GpioError", "PinMap", "PinMapError", "InvalidPinError",
    "DuplicatePinError", "ReservedPinError", "UnknownSeatError", "UnknownBeepError",
    "load_pin_map", "parse_pin_map", "default_pin_map", "header_pin", "DEFAULT_PIN_MAP_PATH",
]
