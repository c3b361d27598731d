"""The input pump: physical input events, and the table screen's taps, carried to the
Table off the UI thread.

The Table journals an accepted action with an fsync'd commit before anything sees it.
That commit usually takes about a millisecond, but 30–300 ms on a slow disk or an SD
card; on the UI thread every such stall froze the screen, the die's result included. The
app now shows a die's reading at once (marked as being checked) and lets this thread route
the event; the result comes back to the UI thread when the Table has committed it.

A tap goes the same way (:meth:`InputPump.call`): the screen checks the action at once
(the engine's check is fast: a refusal is shown at once), marks the tapped button as being
recorded, and puts the Table call (submit, undo, the app's roller, a choice behind the
gate) on this thread; the screen draws the new state only when the Table reports it, so
nothing is shown done before it is committed, and a kill loses nothing the screen
acknowledged. Taps and dice share this one thread, so they keep one order: a die that
arrives first is routed first, and the tap's own check at commit time decides (a refusal
then is shown as any refusal).

Events are routed one at a time, in the order they were put, on one thread, so a burst
from a hub keeps its order. The pump is Kivy-free: ``route(event)`` runs on the pump's
thread, and so does the optional ``deliver(event, result)``. (The app passes none: the
Table's subscribers are the one channel by which results reach the screen.) A call's
``done(future)`` runs on the pump's thread too, with the call's result or the exception it
raised in a done Future: the screen marshals it to the UI thread.

>>> seen = []
>>> pump = InputPump(lambda e: e * 2, lambda e, r: seen.append((e, r)))
>>> for e in (1, 2, 3):
...     pump.put(e)
>>> pump.join(timeout=5)
True
>>> seen
[(1, 2), (2, 4), (3, 6)]
>>> calls = []
>>> pump.put(4)
>>> pump.call(lambda: 10 // 2, lambda future: calls.append(future.result()))
>>> pump.call(lambda: 1 // 0, lambda future: calls.append(type(future.exception()).__name__))
>>> pump.join(timeout=5)
True
>>> seen[-1], calls
((4, 8), [5, 'ZeroDivisionError'])
>>> pump.close()
>>> pump.put(4)
Traceback (most recent call last):
    ...
companion.ui.pump.PumpClosed: the input pump is closed
"""
from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import CompanionError

log = logging.getLogger("companion.ui.pump")

_STOP = object()


@dataclass(frozen=True)
class _Call:
    """A Table call put by the screen (a tap): run in turn with the events."""

    fn: Callable[[], Any]
    done: Callable[["Future[Any]"], None]


def outcome(fn: Callable[[], Any]) -> "Future[Any]":
    """``fn()``'s result, or the exception it raised, in a done Future: whoever waits for
    it decides (a refusal is shown, a bug is raised again for the crash report).

    >>> outcome(lambda: 2 + 2).result(), type(outcome(lambda: {}["x"]).exception()).__name__
    (4, 'KeyError')
    """
    future: Future[Any] = Future()
    try:
        future.set_result(fn())
    except Exception as e:  # handed on whole, traceback included: nothing is lost here
        future.set_exception(e)
    return future


class PumpClosed(CompanionError, RuntimeError):
    """An event put into a pump that was closed."""


class InputPump:
    """One thread that routes events in order and delivers each result."""

    def __init__(self, route: Callable[[Any], Any], deliver: Callable[[Any, Any], None] | None = None,
                 name: str = "input-pump") -> None:
        self._route = route
        self._deliver = deliver
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._name = name
        self._thread: threading.Thread | None = None
        self._done = threading.Condition()
        self._put = 0  # events put so far
        self._finished = 0  # events routed (or failed) and delivered so far
        self._closed = False
        self.failures = 0  # routes that raised (logged; nothing delivered for them)

    def put(self, event: Any) -> None:
        """Queue an event (any thread); the pump's thread starts on the first."""
        with self._done:
            if self._closed:
                raise PumpClosed("the input pump is closed")
            self._put += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
        self._queue.put(event)

    def call(self, fn: Callable[[], Any], done: Callable[["Future[Any]"], None]) -> None:
        """Queue ``fn()`` behind everything put so far (any thread). On the pump's thread it
        runs, then ``done(future)`` with its :func:`outcome`: a refusal (the commit's check
        failed, the journal could not save) is the caller's to show, and so is a bug (the
        screen raises it again on the UI thread, for the crash report), so nothing is lost
        silently. Raises :class:`PumpClosed` once closed."""
        self.put(_Call(fn, done))

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every event put so far has been routed and delivered; False on timeout."""
        with self._done:
            target = self._put
            return self._done.wait_for(lambda: self._finished >= target, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Route what is queued, then stop the thread. Idempotent."""
        with self._done:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            event = self._queue.get()
            if event is _STOP:
                return
            try:
                if isinstance(event, _Call):
                    event.done(outcome(event.fn))
                else:
                    result = self._route(event)
                    if self._deliver is not None:
                        self._deliver(event, result)
            except Exception:
                # A bug in routing (or in a call's done): that event is lost, and the pump
                # must go on for the next.
                self.failures += 1
                log.exception("routing %s", type(event).__name__)
            finally:
                with self._done:
                    self._finished += 1
                    self._done.notify_all()
