"""Shared fakes for the GPIO tests: a clock the test moves, and a source on MockFactory."""
from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from firmware_bridge.events import Event
from firmware_bridge.gpio import GpioSource, parse_pin_map


class FakeClock:
    """Monotonic seconds that only move when the test says so."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class SwitchPin(MockPin):
    """A mock pin wired to a switch: while ``closed`` (a magnet on the reed, a button
    held) the pull-up cannot raise it, as on the board. The plain MockPin goes high
    whenever a pull-up is set, which would hide a token already on its slot."""

    closed = False

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.closed:
            self.drive_low()


class Rig:
    """A started GpioSource (no ticker thread) on its own MockFactory, with helpers to
    press and release inputs as the switch does: a pulled-up pin driven low."""

    def __init__(self, pin_map: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.clock = FakeClock()
        self.factory = MockFactory(pin_class=SwitchPin)
        self.events: list[Event] = []
        self.pin_map = parse_pin_map(pin_map if pin_map is not None else DEFAULT_TEST_MAP)
        self.source = GpioSource(self.pin_map, pin_factory=self.factory, clock=self.clock,
                                 on_event=self.events.append, **kwargs)

    def start(self) -> "Rig":
        self.source.start(thread=False)
        self.events.clear()  # DeviceOnline
        return self

    def low(self, gpio: int) -> None:
        self.factory.pin(gpio).drive_low()

    def high(self, gpio: int) -> None:
        self.factory.pin(gpio).drive_high()

    def wait(self, seconds: float) -> list[Event]:
        """Let time pass and poll, as the ticker would; returns the new events."""
        before = len(self.events)
        self.clock.advance(seconds)
        self.source.poll()
        return self.events[before:]

    def take(self) -> list[Event]:
        out, self.events[:] = list(self.events), []
        return out


DEFAULT_TEST_MAP: dict[str, Any] = {
    "debounce_ms": 20,
    "hold_s": 1.0,
    "inputs": {"seat_buttons": [17, 27, 22], "end_turn": 4, "keypad": [10, 9, 11, 8, 7, 18],
               "keypad_seat": None, "token_slots": [5, 6, 13]},
    "outputs": {"seat_leds": [24, 12, 16], "buzzer": 25},
    "beeps": {"tick": [[0.05, 0]], "warning": [[0.1, 0.1], [0.1, 0]],
              "expired": [[0.4, 0.15], [0.4, 0.15], [0.4, 0]]},
}
