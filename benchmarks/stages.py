"""Where a cold start's time goes: wall-clock stage marks in one start of the real app or
of the empty Kivy app, for ``bench ui --stages``.

Run as ``python benchmarks/stages.py app [--demo]`` or ``python benchmarks/stages.py empty``
under the first-frame hook (``TC_BENCH_FIRST_FRAME=1``, as ``bench_ui`` sets it). It runs
the same ``main()`` that ``python -m companion`` runs (or the empty app's), with probes
added from outside: after chosen modules finish importing, and around a few methods
of the app and of the window. Nothing of the project is changed or imported before the
app imports it itself, so Kivy's configuration happens in the same order. Each probe prints
one line the moment it fires::

    TC_BENCH_STAGE t_ns=<time.monotonic_ns()> stage=<name>

then the hook prints its first-frame line as usual. A probe costs a few microseconds; the
marks are for seeing where the time goes, not for the headline figure (``bench ui``
without ``--stages``).

>>> parse_stage("TC_BENCH_STAGE t_ns=12 stage=window made")
(12, 'window made')
>>> parse_stage("TC_BENCH_FIRST_FRAME t_ns=5") is None
True
"""
from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any, Callable

PREFIX = "TC_BENCH_STAGE"
ROOT = Path(__file__).resolve().parents[1]

# Modules after whose import a mark is printed: the mark's name, and what else to do then
# (the name of a function of this module, or None).
AFTER_IMPORT: dict[str, tuple[str, str | None]] = {
    "kivy.app": ("kivy.app imported", None),
    "kivy.core.window": ("window made", "_probe_window"),  # Kivy makes its window as it loads
    "companion.ui.app": ("app module imported", "_probe_app"),
}

# (method, mark on entry, mark on return) of CompanionApp; the first call of each only.
APP_METHODS = (
    # after the app module: the launch's own imports (the links' modes, the demo) and the app object
    ("__init__", None, "app object made"),
    ("build", "build begins", "build done"),
    ("open_journal", None, "journal opened"),
    ("new_game", "new game begins", None),
    ("open_table", "Table created", "table bound and refreshed"),
    ("screen", "screen build begins", "screen built"),
)


def stage_line(stage: str) -> str:
    return f"{PREFIX} t_ns={time.monotonic_ns()} stage={stage}"


def parse_stage(line: str) -> tuple[int, str] | None:
    """A probe's line as ``(t_ns, stage)``, or None for any other line."""
    if not line.startswith(PREFIX + " "):
        return None
    head, _, stage = line[len(PREFIX) + 1:].partition(" stage=")
    return int(head.partition("=")[2]), stage


def mark(stage: str) -> None:
    print(stage_line(stage), flush=True)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for the modules in ``names`` it hands back the real spec with
    a loader that prints a mark once the module has executed."""

    def __init__(self, names: dict[str, tuple[str, str | None]]) -> None:
        self.names = dict(names)

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in self.names:
            return None
        stage, then = self.names.pop(name)
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def run(module: Any) -> None:
            exec_module(module)
            mark(stage)
            if then:
                globals()[then]()

        spec.loader.exec_module = run  # type: ignore[method-assign]  # this spec's loader only
        return spec


def _once(fn: Callable[..., Any], before: str | None, after: str | None) -> Callable[..., Any]:
    fired = False

    @functools.wraps(fn)  # Kivy finds callbacks by name (WeakMethod): keep it
    def probe(*a: Any, **k: Any) -> Any:
        nonlocal fired
        first, fired = not fired, True
        if first and before:
            mark(before)
        result = fn(*a, **k)
        if first and after:
            mark(after)
        return result

    return probe


def _probe_window() -> None:
    """Every draw and swap until the first-frame mark (the hook picks the frame)."""
    from kivy.core.window import Window

    cls = type(Window)
    on_draw, flip = cls.on_draw, cls.flip

    @functools.wraps(on_draw)
    def draw(self: Any) -> Any:
        mark("draw begins")
        result = on_draw(self)
        mark("draw done")
        return result

    @functools.wraps(flip)
    def swap(self: Any) -> Any:
        result = flip(self)
        mark("swapped")
        return result

    cls.on_draw, cls.flip = draw, swap  # type: ignore[method-assign]


def _probe_app() -> None:
    from companion.ui.app import CompanionApp

    for name, before, after in APP_METHODS:
        setattr(CompanionApp, name, _once(getattr(CompanionApp, name), before, after))


def main(argv: list[str]) -> int:
    mark("interpreter up")
    sys.meta_path.insert(0, _AfterImport(AFTER_IMPORT))
    if argv[:1] == ["empty"]:
        import runpy

        runpy.run_path(str(ROOT / "benchmarks" / "empty_kivy_app.py"), run_name="__main__")
        return 0
    from companion.__main__ import main as app_main  # what ``python -m companion`` runs

    return app_main(argv[1:])


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
