"""A controllable clock for the clock tests: one fake drives both the monotonic and the
wall clock (the wall runs ahead by a fixed epoch), and a "reboot" restarts the monotonic
one at zero while the wall carries on."""
from __future__ import annotations

from companion.clocks import ClockConfig, ClockSet


class FakeTime:
    EPOCH = 1_800_000_000.0

    def __init__(self) -> None:
        self.ms = 0  # monotonic, whole milliseconds so float conversions stay exact
        self.wall_ms = 0
        self.mono_origin_ms = 0

    def mono(self) -> float:
        return (self.ms - self.mono_origin_ms) / 1000

    def wall(self) -> float:
        return self.EPOCH + self.wall_ms / 1000

    def wait(self, seconds: float) -> None:
        step = round(seconds * 1000)
        self.ms += step
        self.wall_ms += step

    def reboot(self) -> None:
        """A new boot: the monotonic clock starts again near zero; wall time continues."""
        self.mono_origin_ms = self.ms


def make(config: ClockConfig, seats=("a", "b"), t: FakeTime | None = None) -> tuple[ClockSet, FakeTime]:
    t = t or FakeTime()
    return ClockSet(config, list(seats), clock=t.mono, wall=t.wall), t


def kinds(events) -> list[tuple[str, str]]:
    return [(e.kind.value, e.seat) for e in events]
