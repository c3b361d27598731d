"""The input pump (Kivy-free): events routed one at a time, in order, off the caller's
thread; a failing route loses only its own event; closing routes what is queued."""
from __future__ import annotations

import threading

import pytest

from companion.ui.pump import InputPump, PumpClosed


def test_events_from_several_threads_keep_each_threads_order_and_all_arrive():
    seen: list[tuple[int, int]] = []
    pump = InputPump(lambda e: e, lambda e, r: seen.append(r))
    threads = [threading.Thread(target=lambda k=k: [pump.put((k, i)) for i in range(200)]) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert pump.join(timeout=10)
    pump.close()
    assert len(seen) == 800
    for k in range(4):
        assert [i for kk, i in seen if kk == k] == list(range(200))


def test_route_runs_on_the_pump_thread_not_the_callers():
    where: list[str] = []
    pump = InputPump(lambda e: where.append(threading.current_thread().name), lambda e, r: None, name="pump-x")
    pump.put(1)
    assert pump.join(timeout=5)
    pump.close()
    assert where == ["pump-x"]


def test_a_route_that_raises_loses_only_its_event(caplog):
    delivered: list[int] = []

    def route(e: int) -> int:
        if e == 2:
            raise RuntimeError("boom")
        return e

    pump = InputPump(route, lambda e, r: delivered.append(r))
    for e in (1, 2, 3):
        pump.put(e)
    assert pump.join(timeout=5)
    pump.close()
    assert delivered == [1, 3] and pump.failures == 1
    assert "routing int" in caplog.text


def test_a_slow_route_holds_up_only_the_pump():
    release = threading.Event()
    pump = InputPump(lambda e: release.wait(5), lambda e, r: None)
    pump.put("slow")
    assert not pump.join(timeout=0.05)  # the caller is free while the route waits
    release.set()
    assert pump.join(timeout=5)
    pump.close()


def test_close_routes_what_is_queued_then_refuses_more():
    gate = threading.Event()
    delivered: list[int] = []
    pump = InputPump(lambda e: gate.wait(5) and e, lambda e, r: delivered.append(r))
    for e in range(5):
        pump.put(e)
    gate.set()
    pump.close()
    assert delivered == [0, 1, 2, 3, 4]
    with pytest.raises(PumpClosed):
        pump.put(5)
    pump.close()  # idempotent
