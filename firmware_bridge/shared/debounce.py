"""Debouncing for switch banks (token slots, buttons). Pure Python in the subset that
CPython and MicroPython share: the hub's firmware runs it on its pin banks (``deploy.py``
copies this file into the image as the top-level ``debounce``) and the bridge's GPIO source
runs it on the Raspberry Pi's pins, so both debounce the same way.

A reed switch chatters for a few ms when a magnet arrives or leaves, and a button for
5-20 ms; a token slid slowly past a reed can flicker for longer. A level is believed
only after it has stayed the same for ``stable_ms``: a change is reported once, late by
``stable_ms``, and a flicker shorter than that is never reported at all.
"""


class Debouncer:
    """Debounces ``count`` inputs. ``update(t_ms, levels)`` takes the raw levels (truthy =
    active: magnet present, button down) and returns [(index, active), ...] for the inputs
    whose debounced state changed. The first update sets the state without events (what
    is on the board at boot is state, not news: SNAPSHOT reports it)."""

    def __init__(self, count, stable_ms=20):
        self.count = count
        self.stable_ms = stable_ms
        self.state = None  # debounced states, a list of bools once known
        self._raw = [False] * count
        self._since = [0] * count
        self.changes = 0  # reported changes, for the counters

    def update(self, t_ms, levels):
        events = []
        if self.state is None:
            self.state = [bool(v) for v in levels]
            self._raw = list(self.state)
            self._since = [t_ms] * self.count
            return events
        for i in range(self.count):
            v = bool(levels[i])
            if v != self._raw[i]:
                self._raw[i] = v
                self._since[i] = t_ms
            elif v != self.state[i] and t_ms - self._since[i] >= self.stable_ms:
                self.state[i] = v
                self.changes += 1
                events.append((i, v))
        return events

    def due_ms(self):
        """The earliest time (ms) at which a change seen so far would be confirmed, or
        None when no input is waiting: a poller may sleep until then instead of
        polling blindly. An ``update`` at or after that time reports the change (if the
        level has not moved again meanwhile)."""
        if self.state is None:
            return None
        due = None
        for i in range(self.count):
            if self._raw[i] != self.state[i]:
                t = self._since[i] + self.stable_ms
                if due is None or t < due:
                    due = t
        return due

    def bits(self):
        """The debounced states as an int, input i in bit i (0 before the first update)."""
        out = 0
        if self.state is not None:
            for i in range(self.count):
                if self.state[i]:
                    out |= 1 << i
        return out
