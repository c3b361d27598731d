"""The hub's configuration: pins, dice, rates. Edit this file to match your wiring
(hardware/README.md has the diagrams); ``deploy.py`` copies it like the other modules.

One profile per board family, chosen by ``sys.platform`` ("rp2" for the Raspberry Pi
Pico / RP2040, "esp32" for an ESP32 DevKitC). Pure data plus ``current()``.
"""

import sys

FIRMWARE_NAME = "tc-dicehub"

PROFILES = {
    "rp2": {
        # I2C buses: id -> (sda, scl). Bus 0 is on the Pico's pins 6 and 7.
        "i2c": {0: (4, 5), 1: (2, 3)},
        "i2c_hz": 400000,
        # Dice: (bus, address, faces). Two LIS3DH on one bus: SDO low = 0x18, high = 0x19.
        "dice": ((0, 0x18, 6), (0, 0x19, 6)),
        # Token slots (reed / hall switches to GND, internal pull-ups): GP10..GP15.
        "tokens": (10, 11, 12, 13, 14, 15),
        # Button bank (to GND, internal pull-ups): GP16..GP19.
        "buttons": (16, 17, 18, 19),
        # Held to GND while the board starts: stay in the REPL (pin 29, next to GND pin 28).
        "safe_mode": 22,
        "led": "LED",
    },
    "esp32": {
        "i2c": {0: (21, 22)},
        "i2c_hz": 400000,
        "dice": ((0, 0x18, 6), (0, 0x19, 6)),
        # Pins with internal pull-ups and no boot-strapping role (not 0, 2, 5, 12, 15,
        # and not 34-39, which have no pull-ups).
        "tokens": (32, 33, 25, 26, 27, 14),
        "buttons": (16, 17, 18, 19),
        "safe_mode": 23,
        "led": 2,
    },
}

SAMPLE_HZ = 100  # accelerometer output data rate
RANGE_G = 8  # accelerometer full scale
DEBOUNCE_MS = 20  # token slots and buttons
# The heartbeat period, the telemetry cap and the calibration / config file names are
# the hub logic's (firmware_bridge/shared/hubapp.py), not a matter of wiring.
REPL_FLAG = "repl.flag"  # written by REBOOT(REPL): the next boot stays in the REPL


def current(platform=None):
    """The profile for this board (``platform`` defaults to ``sys.platform``)."""
    p = platform or sys.platform
    if p not in PROFILES:
        raise ValueError("no hub profile for platform " + p)
    return PROFILES[p]
