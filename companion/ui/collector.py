"""When Python's cyclic garbage collector may run in the app.

After start-up the app holds some 80,000 objects that live as long as it does (Kivy, the
widgets of the table screen, their rules and bindings). A full collection walks all of
them: 27–36 ms measured on the demo's table on this machine, two frames' worth, at a
moment Python chooses (on a die result's frame, it was the dice latency's worst case). And
during start-up Python ran ~145 collections (25–33 ms) over objects that were all still
in use.

So the entry point holds collections off while the app starts (:func:`hold`), and once a
table is on screen :func:`settle` collects what start-up left behind and *freezes* the
survivors (``gc.freeze``): later collections skip them, and a full one costs well under a
millisecond. A table closed (:func:`release`) unfreezes them again, so its widgets can be
collected. Reference counting frees most objects as usual all along; this only concerns
reference cycles.

What a game makes after that (pages behind the gate, the buttons kept for them, the log)
is not frozen, and Python's own full collections came back over it: 4 in 60 taps of
Outrage!, up to 87 ms each, on whatever tap they fell. So once settled, Python makes only
its cheap young collections (:data:`FULL_THRESHOLD`), and the app makes the full one when
nobody is touching the screen (:class:`IdleCollector`).

>>> import gc
>>> hold(); gc.isenabled()
False
>>> settle(); gc.isenabled(), gc.get_freeze_count() > 0
(True, True)
>>> release(); gc.get_freeze_count()
0
>>> hold(); resume(); gc.isenabled()
True
"""
from __future__ import annotations

import gc
import time
from typing import Callable

FULL_THRESHOLD = 1_000_000
"""Python's third threshold once settled: a full collection only after a million young
ones, i.e. never in a game; :class:`IdleCollector` makes them instead."""
IDLE_S = 1.5  # no touch for this long: nobody is waiting for the screen
EVERY_S = 10.0  # at most one full collection this often
_PYTHONS_FULL = gc.get_threshold()[2]


def hold() -> None:
    """No automatic collections until :func:`settle` (start-up)."""
    gc.disable()


def settle() -> None:
    """Collect everything once, keep what survives out of later collections, and let
    collections run again. Call it when the app is idle (after a table's first frame)."""
    gc.collect()
    gc.freeze()
    young, older, _full = gc.get_threshold()
    gc.set_threshold(young, older, FULL_THRESHOLD)
    gc.enable()


def resume() -> None:
    """Automatic collections on again, without collecting now (the app is closing)."""
    young, older, _full = gc.get_threshold()
    gc.set_threshold(young, older, _PYTHONS_FULL)
    gc.enable()


def release() -> None:
    """Let collections see every object again (a table is closing: its screen's objects
    may become garbage)."""
    gc.unfreeze()
    young, older, _full = gc.get_threshold()
    gc.set_threshold(young, older, _PYTHONS_FULL)


class IdleCollector:
    """Full collections when nobody is touching the screen: ``touched()`` on every touch
    and every device input (a die, a token),
    ``tick()`` now and then (the app calls it every second); a tick collects when the last
    touch is :data:`IDLE_S` old and the last full collection :data:`EVERY_S`.

    >>> now = [100.0]
    >>> idle = IdleCollector(clock=lambda: now[0])
    >>> idle.touched(); idle.tick()  # a finger on the screen: not now
    False
    >>> now[0] += IDLE_S; idle.tick()
    True
    >>> now[0] += 1; idle.tick()  # one was just made
    False
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._touched = clock()
        self._collected = clock() - EVERY_S

    def touched(self) -> None:
        self._touched = self._clock()

    def tick(self) -> bool:
        now = self._clock()
        if now - self._touched < IDLE_S or now - self._collected < EVERY_S or not gc.isenabled():
            return False
        gc.collect()
        self._collected = self._clock()
        return True
