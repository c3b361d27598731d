"""GPIO inputs as typed events: seat buttons, the end-turn button, the value keypad and the
token slots, read through gpiozero and debounced by our own code.

Why our own debounce: gpiozero's ``bounce_time`` behaves differently per backend (lgpio,
RPi.GPIO, native) and the mock pin does not bounce at all, so the level is believed only
after it has stayed put for ``debounce_ms`` (the same ``Debouncer`` the dice hub's
firmware runs, ``firmware_bridge/shared/debounce.py``), with an injectable clock so the
tests decide what time it is.

Threading. gpiozero calls our edge handler on its own thread (lgpio and RPi.GPIO run a
callback thread; the mock pin calls it on the thread that drives the pin). A change is
confirmed only ``debounce_ms`` later and a hold only after ``hold_s``, when no edge may
come, so ``start()`` also runs one ticker thread that sleeps until the next such moment
(idle when nothing is pending). Both paths take one lock to update the debouncer, then
deliver events in order under a second (re-entrant) lock, outside the first: an
``on_event`` callback may call back into the source, but it runs on a hardware thread and
must be quick; a UI hands the event to its main loop (Kivy: ``Clock.schedule_once``).
Without ``on_event`` events go to ``source.queue`` (a ``queue.Queue``).
Tests use ``start(thread=False)`` and call ``poll()`` after moving their fake clock.

>>> from gpiozero.pins.mock import MockFactory
>>> t = [100.0]
>>> src = GpioSource(parse_pin_map({"inputs": {"end_turn": 4}}), pin_factory=MockFactory(),
...                  clock=lambda: t[0])
>>> src.start(thread=False)
>>> src.queue.get_nowait().kind
'gpio'
>>> src.pin_factory.pin(4).drive_low()    # pressed (switch to GND)
>>> t[0] += 0.025; src.poll()             # stable for 25 ms > 20 ms: believed
[ButtonPressed(device='gpio', button='end-turn', t=100.0, counter=1)]
>>> src.close()
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable

from gpiozero import DigitalInputDevice, GPIOZeroError

from firmware_bridge.errors import BridgeError
from firmware_bridge.events import (ButtonHeld, ButtonPressed, ButtonReleased, DeviceOffline,
                                    DeviceOnline, Event, KeypadValue, TokenPlaced,
                                    TokenRemoved)
from firmware_bridge.gpio.pinmap import PinMap, default_pin_map, describe_pin, parse_pin_map
from firmware_bridge.shared.debounce import Debouncer

__all__ = ["GpioSource", "GpioError", "parse_pin_map"]

log = logging.getLogger(__name__)

# A pending change is confirmed at a whole ms of the clock; waking a little after it means
# one wake-up confirms it instead of two.
_WAKE_MARGIN_S = 0.001


class GpioError(BridgeError, RuntimeError):
    """The GPIO hardware refused: no usable pin factory, a pin already in use, a pin the
    board does not have. The message names the role and the pin. A ``BridgeError`` (so
    one ``except`` catches every device failure) and, as before, a ``RuntimeError``."""

    code = "gpio"


@dataclass(slots=True)
class _Input:
    kind: str  # "button", "key", "slot"
    name: str  # button name ("seat-0", "end-turn"); for keys and slots unused
    number: int  # keypad value or slot index
    role: str
    pin: int


class GpioSource:
    """The Pi's direct GPIO inputs, turned into events (see the module doc for threading).

    ``pin_map``: a ``PinMap`` (default: ``default_pin_map()``); ``pin_factory``: a gpiozero
    pin factory (default: gpiozero's own choice; tests pass ``MockFactory()``);
    ``on_event``: called with each event, else events go to ``queue``; ``clock``:
    monotonic seconds. Events carry ``device`` (default "gpio").

    Button names: "seat-0", "seat-1", ... and "end-turn". A keypad key gives
    ``KeypadValue`` (not a button event). A slot's switch gives ``TokenPlaced`` /
    ``TokenRemoved``. An event's ``t`` is when the level changed (the start of the stable
    period), not when the debounce believed it, so a clock can charge to the ms; a
    ``ButtonHeld``'s ``t`` is the moment the hold time was reached. ``counter`` counts the
    debounced changes this source has seen (what the hub's change counter is to a hub;
    a key's release counts but makes no event)."""

    def __init__(self, pin_map: PinMap | None = None, *, pin_factory: object | None = None,
                 on_event: Callable[[Event], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, device: str = "gpio") -> None:
        self.pin_map = pin_map if pin_map is not None else default_pin_map()
        self.pin_factory = pin_factory
        self.device = device
        self.queue: queue.Queue[Event] = queue.Queue()
        self._on_event = on_event
        self._clock = clock
        pm = self.pin_map
        self._inputs: list[_Input] = (
            [_Input("button", "seat-%d" % i, i, "seat button %d" % i, p)
             for i, p in enumerate(pm.seat_buttons)]
            + ([_Input("button", "end-turn", 0, "end-turn button", pm.end_turn)]
               if pm.end_turn is not None else [])
            + [_Input("key", "", k + 1, "keypad key %d" % (k + 1), p) for k, p in enumerate(pm.keypad)]
            + [_Input("slot", "", i, "token slot %d" % i, p) for i, p in enumerate(pm.token_slots)]
        )
        n = len(self._inputs)
        self._debouncer = Debouncer(n, pm.debounce_ms)
        self._raw = [False] * n
        self._edge_t = [0.0] * n  # clock at each input's last raw change
        self._held_pending = [False] * n  # pressed, hold not yet reported
        self._devices: list[DigitalInputDevice] = []
        self._cond = threading.Condition(threading.Lock())
        self._deliver = threading.RLock()
        self._thread: threading.Thread | None = None
        self._running = False
        self.callback_errors = 0  # exceptions raised by on_event (logged, not fatal)

    # -- life cycle ------------------------------------------------------------------

    def start(self, *, thread: bool = True) -> None:
        """Open the pins, take their current levels as the starting state (a token already
        on a slot is state, not news: see ``tokens()``), announce ``DeviceOnline`` and,
        with ``thread``, start the ticker. Raises ``GpioError`` if gpiozero refuses."""
        if self._running:
            return
        opened: list[DigitalInputDevice] = []
        try:
            for i, inp in enumerate(self._inputs):
                dev = DigitalInputDevice(inp.pin, pull_up=True, bounce_time=None,
                                         pin_factory=self.pin_factory)
                opened.append(dev)
                dev.when_activated = self._edge_handler(i, True)
                dev.when_deactivated = self._edge_handler(i, False)
        except (GPIOZeroError, ValueError, OSError) as e:
            for dev in opened:
                dev.close()
            role = self._inputs[len(opened)]
            raise GpioError("cannot open %s for the %s: %s"
                            % (describe_pin(role.pin), role.role, e)) from e
        now = self._clock()
        with self._cond:
            self._devices = opened
            self._raw = [bool(d.is_active) for d in opened]
            self._edge_t = [now] * len(opened)
            self._debouncer.update(self._ms(now), self._raw)
            self._running = True
        with self._deliver:
            self._emit([DeviceOnline(device=self.device, kind="gpio", t=now)])
        if thread:
            self._thread = threading.Thread(target=self._run, name="gpio-source", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the ticker, release the pins, announce ``DeviceOffline("closed")``. Not
        from inside ``on_event`` (it waits for the ticker, which may be waiting to
        deliver)."""
        with self._cond:
            if not self._running:
                return
            self._running = False
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._thread = None
        for dev in self._devices:
            dev.close()
        self._devices = []
        with self._deliver:
            self._emit([DeviceOffline(device=self.device, reason="closed", t=self._clock())])

    def __enter__(self) -> "GpioSource":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def is_running(self) -> bool:
        return self._running

    # -- state -----------------------------------------------------------------------

    def tokens(self) -> frozenset[int]:
        """The slots that hold a token now (debounced)."""
        with self._cond:
            state = self._debouncer.state or []
            return frozenset(inp.number for inp, on in zip(self._inputs, state)
                             if on and inp.kind == "slot")

    def is_pressed(self, button: str) -> bool:
        """Whether the named button ("seat-2", "end-turn") is down now (debounced)."""
        with self._cond:
            state = self._debouncer.state or []
            for inp, on in zip(self._inputs, state):
                if inp.kind == "button" and inp.name == button:
                    return bool(on)
        raise KeyError("no button named %r" % button)

    # -- the work --------------------------------------------------------------------

    def poll(self) -> list[Event]:
        """Confirm what has become due by now (debounced changes, holds), deliver the
        events and return them. The ticker thread calls this; so may a test or a caller
        that runs without the thread."""
        with self._deliver:
            with self._cond:
                events = self._step(self._clock())
            self._emit(events)
        return events

    def _edge_handler(self, index: int, level: bool) -> Callable[[], None]:
        def on_edge() -> None:  # gpiozero calls this with no arguments
            with self._deliver:
                with self._cond:
                    if not self._running:
                        return
                    now = self._clock()
                    if self._raw[index] != level:
                        self._raw[index] = level
                        self._edge_t[index] = now
                    events = self._step(now)
                    self._cond.notify_all()  # the ticker recomputes its wake-up time
                self._emit(events)
        return on_edge

    @staticmethod
    def _ms(t: float) -> int:
        return int(t * 1000)

    def _step(self, now: float) -> list[Event]:
        """Under the lock: feed the debouncer, turn confirmed changes and due holds into
        events."""
        if not self._running:
            return []
        out: list[Event] = []
        before = self._debouncer.changes
        changes = self._debouncer.update(self._ms(now), self._raw)
        # Changes confirmed together are told (and counted) in the order they happened,
        # then in pin map order: a token put down just before the end-turn press comes
        # first.
        changes.sort(key=lambda change: self._edge_t[change[0]])
        for k, (i, active) in enumerate(changes):
            e = self._change_event(i, active, before + k + 1)
            if e is not None:
                out.append(e)
        hold = self.pin_map.hold_s
        if hold is not None:
            for i, inp in enumerate(self._inputs):
                if self._held_pending[i] and now - self._edge_t[i] >= hold:
                    self._held_pending[i] = False
                    out.append(ButtonHeld(device=self.device, button=inp.name, t=now,
                                          counter=self._debouncer.changes))
        return out

    def _change_event(self, i: int, active: bool, counter: int) -> Event | None:
        inp = self._inputs[i]
        t = self._edge_t[i]
        if inp.kind == "slot":
            cls = TokenPlaced if active else TokenRemoved
            return cls(device=self.device, slot=inp.number, t=t, counter=counter)
        if inp.kind == "key":
            if not active:
                return None  # a key's release means nothing: the value was entered
            return KeypadValue(device=self.device, value=inp.number,
                               seat=self.pin_map.keypad_seat, t=t, counter=counter)
        self._held_pending[i] = active and self.pin_map.hold_s is not None
        cls = ButtonPressed if active else ButtonReleased
        return cls(device=self.device, button=inp.name, t=t, counter=counter)

    def _due(self) -> float | None:
        """Under the lock: the clock time of the next confirmation or hold, if any."""
        due_ms = self._debouncer.due_ms()
        due = None if due_ms is None else due_ms / 1000.0 + _WAKE_MARGIN_S
        hold = self.pin_map.hold_s
        if hold is not None:
            for i in range(len(self._inputs)):
                if self._held_pending[i]:
                    h = self._edge_t[i] + hold
                    due = h if due is None else min(due, h)
        return due

    def _run(self) -> None:
        while True:
            with self._cond:
                if not self._running:
                    return
                due = self._due()
                now = self._clock()
                if due is None:
                    self._cond.wait()
                elif due > now:
                    self._cond.wait(due - now)
                if not self._running:
                    return
            self.poll()

    def _emit(self, events: list[Event]) -> None:
        for e in events:
            if self._on_event is None:
                self.queue.put(e)
                continue
            try:
                self._on_event(e)
            except Exception:  # a listener's bug must not kill the hardware thread
                self.callback_errors += 1
                log.exception("on_event raised for %r", e)

