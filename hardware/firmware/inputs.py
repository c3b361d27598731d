"""Token slots and the button bank on hub pins (MicroPython): thin glue from
``machine.Pin`` to the pure ``debounce.Debouncer``.

Every input is a switch to GND with the pin's internal pull-up (a reed switch, an
open-collector hall sensor such as the A3144 or a DRV5032, or a push button), so a low
level means active: a magnet (token) present, a button held.
"""

import machine

from debounce import Debouncer


class PinBank:
    def __init__(self, pins, stable_ms=20):
        self.pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in pins]
        self.debouncer = Debouncer(len(self.pins), stable_ms)

    def levels(self):
        return [p.value() == 0 for p in self.pins]

    def poll(self, t_ms):
        """[(index, active), ...] for debounced changes since the last poll."""
        return self.debouncer.update(t_ms, self.levels())

    def bits(self):
        return self.debouncer.bits()
