"""GPIO outputs: a LED per seat showing whose turn it is, and a buzzer for clock alerts.

>>> from gpiozero.pins.mock import MockFactory
>>> pm = parse_pin_map({"outputs": {"seat_leds": [24, 12], "buzzer": 25},
...                     "beeps": {"warning": [[0.1, 0.1], [0.1, 0]]}})
>>> fb = GpioFeedback(pm, pin_factory=MockFactory(), sleep=lambda s: None)
>>> fb.open()
>>> fb.show_turn(1)
>>> fb.lit_seats, fb.pin_factory.pin(12).state, fb.pin_factory.pin(24).state
(frozenset({1}), True, False)
>>> fb.beep("warning", wait=True)    # on 0.1 s, off 0.1 s, on 0.1 s, then off
>>> [s.state for s in fb.pin_factory.pin(25).states]
[False, True, False, True, False]
>>> fb.close()
"""

from __future__ import annotations

import threading
from typing import Callable, Iterable

from gpiozero import LED, Buzzer, GPIOZeroError

from firmware_bridge.errors import BridgeError
from firmware_bridge.gpio.pinmap import PinMap, default_pin_map, describe_pin, parse_pin_map
from firmware_bridge.gpio.source import GpioError

__all__ = ["GpioFeedback", "UnknownSeatError", "UnknownBeepError", "parse_pin_map"]


class UnknownSeatError(BridgeError, ValueError):
    """``show_turn`` was given a seat position that has no LED."""


class UnknownBeepError(BridgeError, ValueError):
    """``beep`` was given a pattern name the pin map does not define."""


class GpioFeedback:
    """Seat LEDs and the buzzer of a pin map. Seat positions are 0-based like the pin
    map's lists (the companion maps its seats to positions).

    ``beep(name)`` plays a pattern of the pin map's ``beeps`` on a background thread and
    returns at once; a new beep cuts the one playing (a newer alert is the one that
    matters). ``sleep`` (tests): a function used instead of real waiting, with
    ``wait=True`` so the pattern plays on the caller's thread. Safe to call from any
    thread."""

    def __init__(self, pin_map: PinMap | None = None, *, pin_factory: object | None = None,
                 sleep: Callable[[float], None] | None = None) -> None:
        self.pin_map = pin_map if pin_map is not None else default_pin_map()
        self.pin_factory = pin_factory
        self._sleep = sleep
        self._leds: list[LED] = []
        self._buzzer: Buzzer | None = None
        self._lit: frozenset[int] = frozenset()
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._player: threading.Thread | None = None
        self.beeps_played = 0

    def open(self) -> None:
        """Claim the output pins (all off). Raises ``GpioError`` if gpiozero refuses."""
        role, pin = "", 0
        try:
            for i, pin in enumerate(self.pin_map.seat_leds):
                role = "seat LED %d" % i
                self._leds.append(LED(pin, pin_factory=self.pin_factory))
            if self.pin_map.buzzer is not None:
                role, pin = "buzzer", self.pin_map.buzzer
                self._buzzer = Buzzer(pin, pin_factory=self.pin_factory)
        except (GPIOZeroError, ValueError, OSError) as e:
            self.close()
            raise GpioError("cannot open %s for the %s: %s" % (describe_pin(pin), role, e)) from e

    def close(self) -> None:
        """Stop any beep, turn everything off and release the pins."""
        self.silence()
        for led in self._leds:
            led.off()  # closing alone leaves the level as it was on some backends
            led.close()
        if self._buzzer is not None:
            self._buzzer.close()
        self._leds, self._buzzer, self._lit = [], None, frozenset()

    def __enter__(self) -> "GpioFeedback":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- seat LEDs -------------------------------------------------------------------

    @property
    def lit_seats(self) -> frozenset[int]:
        return self._lit

    def show_turn(self, seats: int | Iterable[int] | None) -> None:
        """Light the LED of the seat (or seats: simultaneous actors) whose turn it is and
        put the others out; ``None`` or ``()`` puts all out."""
        wanted = frozenset() if seats is None else (
            frozenset((seats,)) if isinstance(seats, int) else frozenset(seats))
        bad = sorted(s for s in wanted if not (isinstance(s, int) and 0 <= s < len(self._leds)))
        if bad:
            raise UnknownSeatError("no seat LED for seat position(s) %s (this pin map has %d)"
                                   % (", ".join(map(str, bad)), len(self._leds)))
        with self._lock:
            for i, led in enumerate(self._leds):
                if i in wanted:
                    led.on()
                else:
                    led.off()
            self._lit = wanted

    # -- buzzer ----------------------------------------------------------------------

    def beep(self, name: str, *, wait: bool = False) -> None:
        """Play the named pattern (see the pin map's ``beeps``). Without a buzzer in the
        pin map this does nothing (the name is still checked)."""
        try:
            steps = self.pin_map.beep(name)
        except KeyError as e:
            raise UnknownBeepError(e.args[0]) from None
        if self._buzzer is None:
            return
        self.silence()
        self._cancel = cancel = threading.Event()
        if wait:
            self._play(steps, cancel)
            return
        self._player = threading.Thread(target=self._play, args=(steps, cancel),
                                        name="gpio-beep", daemon=True)
        self._player.start()

    def silence(self) -> None:
        """Stop the pattern playing, if any, and leave the buzzer off."""
        self._cancel.set()
        player = self._player
        if player is not None and player is not threading.current_thread():
            player.join()
        self._player = None
        if self._buzzer is not None:
            self._buzzer.off()

    def _play(self, steps: tuple[tuple[float, float], ...], cancel: threading.Event) -> None:
        buzzer = self._buzzer
        assert buzzer is not None
        self.beeps_played += 1
        for on_s, off_s in steps:
            if cancel.is_set():
                break
            buzzer.on()
            if self._wait(on_s, cancel):
                break
            buzzer.off()
            if off_s and self._wait(off_s, cancel):
                break
        buzzer.off()

    def _wait(self, seconds: float, cancel: threading.Event) -> bool:
        """Wait; True if the pattern was cut meanwhile."""
        if self._sleep is not None:
            self._sleep(seconds)
            return cancel.is_set()
        return cancel.wait(seconds)

