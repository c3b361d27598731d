"""The dice hub on the board (MicroPython): wires the real hardware (I2C dice, pin banks,
USB serial, clock, reset) to ``hubapp.Hub`` and runs the main loop. Everything worth
testing is in hubapp and the shared modules; this file only touches ``machine``.
"""

import os
import sys
import time

import machine

import hubapp
import hubconfig
import safemode
from inputs import PinBank
from lis3dh import LIS3DH
from usbio import UsbSerial

try:
    import version

    VERSION = version.FIRMWARE_VERSION
except ImportError:  # copied by hand rather than by deploy.py
    VERSION = "0.0.0"

LOOP_SLEEP_MS = 2  # the FIFOs hold 320 ms, so the loop can idle between passes
RETRY_MS = 1000  # how often a missing die is looked for again (hot-plugged cables)


class Clock:
    """Milliseconds since boot that never wrap (ticks_ms wraps after ~12 days or less)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self._last)
        self._last = t
        return self.ms


class ReconnectingSensor:
    """A die's LIS3DH that may be unplugged: read errors are reported (OSError) and the
    chip is initialised again once it answers."""

    def __init__(self, make, clock):
        self._make = make
        self._clock = clock
        self._dev = None
        self._next_try = 0
        self.overruns = 0

    def read_fifo(self):
        if self._dev is None:
            now = self._clock.now()
            if now < self._next_try:
                return []
            self._next_try = now + RETRY_MS
            self._dev = self._make()  # OSError while the die is absent
        try:
            samples = self._dev.read_fifo()
        except OSError:
            self._dev = None
            raise
        self.overruns += self._dev.overruns
        self._dev.overruns = 0
        return samples


class Store:
    """Calibration and config files live at the root of the board's file system."""

    def path(self, name):
        return name


class Actions:
    def reset(self):
        machine.reset()

    def repl(self):
        safemode.request_repl()
        machine.reset()

    def bootloader(self):
        machine.bootloader()


def build(clock):
    prof = hubconfig.current()
    buses = {}
    for bus_id in prof["i2c"]:
        sda, scl = prof["i2c"][bus_id]
        buses[bus_id] = machine.I2C(bus_id, sda=machine.Pin(sda), scl=machine.Pin(scl),
                                    freq=prof["i2c_hz"])
    dice = []
    for i, spec in enumerate(prof["dice"]):
        bus, addr, faces = spec

        def make(b=buses[bus], a=addr):
            return LIS3DH(b, a, hubconfig.SAMPLE_HZ, hubconfig.RANGE_G)

        dice.append(hubapp.Die(i, ReconnectingSensor(make, clock), faces, hubconfig.SAMPLE_HZ))
    tokens = PinBank(prof["tokens"], hubconfig.DEBOUNCE_MS)
    buttons = PinBank(prof["buttons"], hubconfig.DEBOUNCE_MS)
    return dice, tokens, buttons, prof


def main():
    clock = Clock()
    dice, tokens, buttons, prof = build(clock)
    led = machine.Pin(prof["led"], machine.Pin.OUT)
    link = UsbSerial()
    boot_id = int.from_bytes(os.urandom(4), "little")
    hub = hubapp.Hub(link, dice, tokens, buttons, Store(), Actions(), machine.unique_id(),
                     boot_id, VERSION, clock.now())
    hub.announce()
    try:
        while True:
            now = clock.now()
            hub.step(now)
            led.value((now // 500) & 1)  # a slow blink: the loop is alive
            time.sleep_ms(LOOP_SLEEP_MS)
    except Exception as e:  # noqa: BLE001 - the board must come back, whatever it was
        link.close()
        try:
            f = open("crash.txt", "w")
            sys.print_exception(e, f)
            f.close()
        except OSError:
            pass
        time.sleep_ms(2000)
        machine.reset()
