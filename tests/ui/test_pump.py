"""The input pump (Kivy-free): events routed one at a time, in order, off the caller's
thread; a failing route loses only its own event; closing routes what is queued."""
from __future__ import annotations

import threading
from typing import Any

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


def test_calls_and_events_share_one_order_and_a_calls_error_goes_to_its_done():
    """A tap's Table call waits behind the dice routed before it, and a call that raises
    (a refusal at commit time, or a bug) hands its error to ``done``: nothing is lost
    silently and the pump goes on."""
    order: list[Any] = []
    pump = InputPump(lambda e: order.append(("event", e)), None)
    release = threading.Event()
    pump.call(lambda: release.wait(5), lambda f: order.append(("first call", f.result())))
    pump.put(1)
    boom = ValueError("refused")

    def refused() -> Any:
        raise boom

    pump.call(refused, lambda f: order.append(("second call", f.exception())))
    pump.put(2)
    assert not pump.join(timeout=0.05) and order == []  # all behind the first call
    release.set()
    assert pump.join(timeout=5)
    pump.close()
    assert order == [("first call", True), ("event", 1), ("second call", boom), ("event", 2)]
    assert pump.failures == 0


def test_a_done_that_raises_is_a_failure_and_the_pump_goes_on(caplog):
    seen: list[int] = []

    def bad_done(_f: Any) -> None:
        raise RuntimeError("a bug in the caller's done")

    pump = InputPump(lambda e: seen.append(e), None)
    pump.call(lambda: 1, bad_done)
    pump.put(7)
    assert pump.join(timeout=5)
    pump.close()
    assert seen == [7] and pump.failures == 1


def test_a_call_after_close_is_refused():
    pump = InputPump(lambda e: e)
    pump.close()
    with pytest.raises(PumpClosed):
        pump.call(lambda: 1, lambda f: None)
