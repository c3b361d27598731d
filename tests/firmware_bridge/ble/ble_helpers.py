"""Shared helpers for the BLE source tests: a source on a fake radio with short waits, and
ways to wait for events without timing assertions."""
from __future__ import annotations

import queue
from typing import Any, Callable, Iterator

import pytest

from firmware_bridge import events as E
from firmware_bridge.ble.fake import FakeRadio
from firmware_bridge.ble.source import BleDiceSource

WAIT = 5.0  # generous: a wait that runs out is a failure, never a measurement


@pytest.fixture
def radio() -> FakeRadio:
    return FakeRadio()


@pytest.fixture
def source(radio: FakeRadio) -> Iterator[BleDiceSource]:
    s = BleDiceSource(queue.Queue(), factory=radio.factory(), backoff_first=0.005,
                      backoff_limit=0.02, identify_wait_s=0.3, report_wait_s=0.5,
                      connect_timeout=2.0)
    s.start()
    yield s
    s.close()


def take(source: BleDiceSource, pred: Callable[[Any], bool], timeout: float = WAIT,
         seen: list[Any] | None = None) -> Any:
    """The first event matching ``pred``; the ones before it go to ``seen``."""
    q = source.queue
    assert isinstance(q, queue.Queue)
    while True:
        e = q.get(timeout=timeout)
        if pred(e):
            return e
        if seen is not None:
            seen.append(e)


def drain(source: BleDiceSource) -> list[Any]:
    """Everything queued once the loop has run what was pending."""
    source.barrier()
    q = source.queue
    assert isinstance(q, queue.Queue)
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def online(source: BleDiceSource, device: str) -> E.DeviceOnline:
    return take(source, lambda e: isinstance(e, E.DeviceOnline) and e.device == device)


def settled(source: BleDiceSource, die: Any, requests: int) -> list[Any]:
    """After the ``requests``-th report request (Pixels RequestRollState, GoDice init) has
    been answered and handled: the events queued so far."""
    marker = b"\x17" if hasattr(die, "pixel_id") else b"\x19"
    assert die.wait_for(lambda p: sum(w[:1] == marker for w in p.writes) >= requests, WAIT)
    return drain(source)


def rolls(events: list[Any]) -> list[tuple[str, int]]:
    return [(e.outcome, e.value) for e in events if isinstance(e, E.DieRolled)]
