"""Clock costs: what the UI's refresh and the Table's journal write pay per call.

* ``tick()`` with four seats, one running, the injected clock advanced 250 ms per call
  (the UI refreshes four times a second), for every mode.
* ``status()`` of every seat (one clock face refresh).
* ``to_data()`` + ``json.dumps`` (what the Table journals with each action) and
  ``json.loads`` + ``from_data()`` (a restore).

Run: ``.venv/bin/python -m benchmarks clocks`` (``--quick`` for a short run).
"""
from __future__ import annotations

import json
import time
from typing import Callable

from companion.clocks import ClockConfig, ClockSet

SEATS = ["s1", "s2", "s3", "s4"]
CONFIGS = {
    "sudden-death": dict(mode="sudden-death", main=10**7, warning=60),
    "fischer": dict(mode="fischer", main=10**7, increment=5, warning=60),
    "bronstein": dict(mode="bronstein", main=10**7, delay=5, warning=60),
    "simple-delay": dict(mode="simple-delay", main=10**7, delay=5, warning=60),
    "hourglass": dict(mode="hourglass", main=10**7, warning=60),
    "byo-yomi": dict(mode="byo-yomi", main=10**7, periods=5, period=30, warning=60, turn_limit=120),
}


def _per_call_us(fn: Callable[[], None], n: int, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def main(argv: list[str]) -> int:
    n = 2_000 if "--quick" in argv else 20_000
    print(f"per call, best of 5 runs of {n} calls, 4 seats")
    for name, data in CONFIGS.items():
        now = [0.0]
        cs = ClockSet(ClockConfig.from_data(data), SEATS, clock=lambda: now[0], wall=lambda: 1.7e9 + now[0])
        cs.switch_to("s1")

        def tick() -> None:
            now[0] += 0.25
            cs.tick()

        def faces() -> None:
            for s in SEATS:
                cs.status(s)

        def save() -> None:
            json.dumps(cs.to_data())

        text = json.dumps(cs.to_data())

        def load() -> None:
            ClockSet.from_data(json.loads(text), clock=lambda: now[0], wall=lambda: 1.7e9 + now[0])

        print(
            f"{name:13s} tick {_per_call_us(tick, n):6.1f} µs   4 faces {_per_call_us(faces, n):6.1f} µs   "
            f"to_data+dumps {_per_call_us(save, n // 4):6.1f} µs ({len(text)} B)   "
            f"loads+from_data {_per_call_us(load, n // 4):6.1f} µs"
        )
    return 0
