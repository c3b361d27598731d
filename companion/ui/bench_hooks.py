"""Benchmark hooks, off unless asked for by an environment variable.

``TC_BENCH_FIRST_FRAME=1``: when the first frame after the app has started is on screen
(the window's first buffer swap has returned), print one line to stdout and stop the app. With
``TC_BENCH_SCREEN=<prefix>`` it waits for the first frame showing a screen whose name starts
with the prefix (``game:`` — the demo's table is up)::

    TC_BENCH_FIRST_FRAME t_ns=<time.monotonic_ns()> maxrss_kb=<peak RSS> rss_kb=<RSS now> screen=<name>

``benchmarks/bench_ui.py`` starts the real app and an empty Kivy app with it and reads the
line: ``t_ns`` is on the system-wide monotonic clock, so the parent compares it with the
time it started the process. The app calls :func:`install` just before ``App.run()``; the
empty app loads this file by path, so it imports nothing of the project.

This module imports nothing from Kivy until :func:`install` is called with the variable set.

>>> import os
>>> os.environ.pop(ENV, None) and None
>>> install()
False
"""
from __future__ import annotations

import os
import resource
import sys
import time
from typing import Any

ENV = "TC_BENCH_FIRST_FRAME"
SCREEN_ENV = "TC_BENCH_SCREEN"
MARK = "TC_BENCH_FIRST_FRAME"


def enabled() -> bool:
    """Whether the first-frame hook was asked for."""
    return os.environ.get(ENV) == "1"


def _status_kb(field: str) -> int:
    """A ``/proc/self/status`` size in kB (``VmRSS``, ``VmHWM``); 0 where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def mark_line(screen: str = "") -> str:
    """The line printed at the first frame (also what the benchmark parses). The peak is
    the larger of ``ru_maxrss`` and the kernel's high-water mark (``ru_maxrss`` can lag the
    current RSS by a few pages)."""
    rss = _status_kb("VmRSS")
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, _status_kb("VmHWM"), rss)  # kB on Linux
    return f"{MARK} t_ns={time.monotonic_ns()} maxrss_kb={peak} rss_kb={rss} screen={screen or '-'}"


def parse_mark(line: str) -> dict[str, Any] | None:
    """``mark_line``'s fields, or None for any other line.

    >>> parse_mark("TC_BENCH_FIRST_FRAME t_ns=5 maxrss_kb=7 rss_kb=6 screen=home")
    {'t_ns': 5, 'maxrss_kb': 7, 'rss_kb': 6, 'screen': 'home'}
    >>> parse_mark("[INFO] something else") is None
    True
    """
    if not line.startswith(MARK + " "):
        return None
    out: dict[str, Any] = {}
    for part in line.split()[1:]:
        key, _, value = part.partition("=")
        out[key] = int(value) if value.isdigit() else value
    return out


def install() -> bool:
    """If ``TC_BENCH_FIRST_FRAME=1``: print the mark at the first frame after start-up and
    stop the app. Call it just before ``App.run()`` (Kivy's config already set). Returns
    whether the hook is on."""
    if not enabled():
        return False
    from kivy.app import App
    from kivy.clock import Clock

    wanted = os.environ.get(SCREEN_ENV, "")

    def arm(_dt: float) -> None:
        # Runs in the main loop's first tick, after App.build() and on_start — and after
        # anything build() scheduled for that tick (the demo's setup) — before the first draw.
        from kivy.core.window import Window

        swap = Window.flip

        def flip() -> None:
            # The frame is on screen once the buffer swap returns (in software GL the swap
            # is where most of the drawing is done).
            app = App.get_running_app()
            screen = getattr(getattr(app, "sm", None), "current", "") or type(getattr(app, "root", None)).__name__
            swap()
            if not screen.startswith(wanted):
                return  # not the frame waited for yet
            Window.flip = swap  # type: ignore[method-assign]
            print(mark_line(screen), flush=True)
            sys.stdout.flush()
            if app is not None:
                Clock.schedule_once(lambda _dt: app.stop(), 0)

        Window.flip = flip  # type: ignore[method-assign]

    Clock.schedule_once(arm, 0)
    return True
