"""The default pin map on gpiozero's MockFactory pins, routed into a Table: shared by the
tests that drive the hub's GPIO inputs into a game (tests/companion/test_gpio_table.py,
tests/ui/against_all_tyrants/test_hub.py)."""
from __future__ import annotations

from typing import Any

from gpiozero import Device

from companion import Table
from firmware_bridge.events import ButtonPressed, KeypadValue
from firmware_bridge.gpio import GpioSource, default_pin_map

PINS = default_pin_map()
DEBOUNCE_S = PINS.debounce_ms / 1000 + 0.005


class Board:
    """The default pin map on MockFactory pins, with a clock the test moves; every event
    the source confirms goes to the Table, and the routing results are kept."""

    def __init__(self, table: Table) -> None:
        self.t = 100.0
        self.table = table
        self.events: list[Any] = []
        self.results: list[Any] = []
        # As gpiozero's docs have it: the factory every device uses unless given another.
        self.source = GpioSource(PINS, clock=lambda: self.t, on_event=self._route)
        self.source.start(thread=False)

    def _route(self, event: Any) -> None:
        self.events.append(event)
        self.results.append(self.table.route(event))

    def _settle(self) -> None:
        self.t += DEBOUNCE_S
        self.source.poll()

    def press(self, gpio: int) -> Any:
        """A button's switch closed, held past the debounce, then let go: the result of
        routing its press."""
        pin = Device.pin_factory.pin(gpio)
        pin.drive_low()
        self._settle()
        n = len(self.results)
        pin.drive_high()
        self._settle()
        return self._pressed(n)

    def _pressed(self, upto: int) -> Any:
        found = [r for e, r in zip(self.events[:upto], self.results[:upto]) if isinstance(e, (ButtonPressed, KeypadValue))]
        assert found, f"no press confirmed: {self.events}"
        return found[-1]

    def token(self, slot: int, present: bool) -> Any:
        pin = Device.pin_factory.pin(PINS.token_slots[slot])
        pin.drive_low() if present else pin.drive_high()
        n = len(self.events)
        self._settle()
        assert len(self.events) == n + 1, f"the slot's change was not confirmed: {self.events[n:]}"
        return self.results[-1]
