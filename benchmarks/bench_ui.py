"""Cold start and memory of the real app, side by side with an empty Kivy app, in one run.

Each start is a fresh process (``python -m companion --demo``, and
``python benchmarks/empty_kivy_app.py``) under the current X display, with
``TC_BENCH_FIRST_FRAME=1``: ``companion/ui/bench_hooks.py`` prints the monotonic time and the
peak RSS when the first frame is on screen (its buffer swap has returned) — for the demo, the first frame showing its game
table (``TC_BENCH_SCREEN=game:``) — and stops the app. The figure is process start (just
before ``Popen``) → that frame; memory is the peak RSS at that frame, plus the RSS of any
child processes then (the demo's simulated hub, if it is one). The two apps alternate, after
one discarded warm-up start each (so both find the disk cache and their Kivy config warm:
"cold" is a new process, not a cold machine).

``--no-demo`` measures the ordinary launch instead, ``python -m companion``, to the first frame
of its first screen, home, with a saved-games library in the app's journal:
``--history=N`` finished random games (default 20) and 2 in progress, played through the
Table before the runs (:mod:`benchmarks.library`), so home lists games to resume, the
history and the stats.

Two empty apps are measured: Kivy's stock empty app ("stock": Kivy's defaults, a 2×
multisampled window that costs it ~100 ms and ~32 MiB here), and one with the app's window
settings (``APP_WINDOW``: no multisampling), so that the second ratio compares the two apps'
own work.

Target (issue 34): the app's median start ≤ 1.3 × Kivy's stock empty app's.

Run: ``./dev bench ui`` (starts Xvfb when there is no display), or under a display
``.venv/bin/python -m benchmarks ui [--runs=N] [--quick] [--no-demo [--history=N]] [--stages]``.

``--stages`` starts both apps through :mod:`benchmarks.stages` instead, which prints a mark at
each stage of the start (Kivy imported, window made, journal, Table, screen, first draw,
swap), and prints each stage's median time since process start: where the time goes.
"""
from __future__ import annotations

import ast
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from benchmarks.library import fill
from benchmarks.stages import parse_stage
from companion.ui.bench_hooks import parse_mark  # the hook's own reading of its line

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.3
TIMEOUT_S = 90.0
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 +extension GLX +render -noreset"]
# The window settings companion/ui/app.py asks Kivy for (tests/benchmarks/test_bench_ui.py checks
# they agree): the baseline empty app gets them too, so the ratio compares the apps' own
# work, not a cheaper window. Kivy's defaults are measured beside it ("stock").
APP_WINDOW = {"KCFG_GRAPHICS_MULTISAMPLES": "0"}


@dataclass(frozen=True)
class Start:
    """One measured start."""

    ms: float  # process start → first (wanted) frame
    peak_kb: int  # the app's peak RSS at that frame
    tree_kb: int  # that plus the RSS of its child processes then
    screen: str
    stages: tuple[tuple[str, float], ...] = ()  # (stage, ms since process start), with --stages


class StartFailed(RuntimeError):
    """The app did not show its first frame (its output is in the message)."""


def hook_is_wired(main_py: Path = ROOT / "companion" / "__main__.py") -> bool:
    """Whether ``companion/__main__.py`` calls ``bench_hooks.install()`` itself."""
    if not main_py.exists():
        return False
    tree = ast.parse(main_py.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.Attribute) and n.attr == "install" and isinstance(n.value, ast.Name)
               and n.value.id == "bench_hooks" for n in ast.walk(tree))


def app_command(demo: bool = True) -> tuple[list[str], str]:
    """The real app's command, and how the hook gets in (for the record)."""
    args = ["--demo"] if demo else []
    if hook_is_wired():
        return [sys.executable, "-m", "companion", *args], "python -m companion " + " ".join(args)
    # Until the app calls the hook itself, install it first and run the same main().
    code = ("import sys; from companion.ui import bench_hooks; bench_hooks.install(); "
            f"from companion.__main__ import main; sys.exit(main({args!r}))")
    return [sys.executable, "-c", code], "companion.__main__.main(" + repr(args) + ") with bench_hooks.install() first"


def empty_command() -> list[str]:
    return [sys.executable, str(ROOT / "benchmarks" / "empty_kivy_app.py")]


def stages_command(app: bool, demo: bool = True) -> list[str]:
    """The app's or the empty app's start with stage marks (:mod:`benchmarks.stages`)."""
    script = str(ROOT / "benchmarks" / "stages.py")
    if not app:
        return [sys.executable, script, "empty"]
    return [sys.executable, script, "app", *(["--demo"] if demo else [])]


def stage_table(app: Sequence[Start], empty: Sequence[Start]) -> str:
    """Median ms since process start of each stage, and the step from the one before."""
    lines = []
    for name, starts in (("empty", empty), ("app", app)):
        order = [n for n, _ in starts[0].stages]
        prev = 0.0
        lines.append(f"{name}:")
        for n in order:
            ms = statistics.median(dict(s.stages).get(n, float("nan")) for s in starts)
            lines.append(f"  {ms:7.1f} ms  (+{ms - prev:6.1f})  {n}")
            prev = ms
        lines.append(f"  {statistics.median(s.ms for s in starts):7.1f} ms  first frame mark")
    return "\n".join(lines)


def budget_ms(app: Sequence[Start], empty: Sequence[Start], stock: Sequence[Start]) -> float:
    """What the target leaves the app beyond the same-window empty app's start: both have
    their window at the same moment, so this is what the app's own work may cost.

    >>> s = lambda ms: Start(ms, 1, 1, "x")
    >>> budget_ms([s(900)], [s(300)], [s(500)])
    350.0
    """
    return TARGET * statistics.median(s.ms for s in stock) - statistics.median(s.ms for s in empty)


def after_window_ms(app: Sequence[Start]) -> float:
    """The app's median time from its window made to its first frame (``--stages``).

    >>> after_window_ms([Start(900, 1, 1, "x", (("window made", 400.0), ("swapped", 880.0)))])
    500.0
    """
    return statistics.median(s.ms - dict(s.stages)["window made"] for s in app)


def _children_rss_kb(pid: int) -> int:
    """RSS of every descendant of ``pid`` now (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p:
                todo.append(child)
                try:
                    for line in Path(f"/proc/{child}/status").read_text().splitlines():
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
                except OSError:
                    pass
    return total


def start_once(cmd: list[str], env: dict[str, str], cwd: Path = ROOT) -> Start:
    """Start ``cmd``, wait for the hook's line, let the app stop (or stop it)."""
    t0 = time.monotonic_ns()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def drain() -> None:
        # Read everything the app prints, so it never blocks on a full pipe.
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=drain, daemon=True).start()
    seen: list[str] = []
    stages: list[tuple[str, float]] = []
    mark = None
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while mark is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            mark = parse_mark(line.strip())
            stage = parse_stage(line.strip()) if mark is None else None
            if stage is not None:
                stages.append((stage[1], (stage[0] - t0) / 1e6))
            elif mark is None:
                seen.append(line)
        if mark is not None:
            children = _children_rss_kb(proc.pid)
        if mark is None:
            raise StartFailed(f"no first frame from {' '.join(cmd)} (exit code {proc.poll()}; run it with "
                              f"TC_BENCH_FIRST_FRAME=1 and without KIVY_NO_CONSOLELOG to see Kivy's log):\n"
                              + "".join(seen[-30:]))
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    peak = int(mark["maxrss_kb"])
    return Start((int(mark["t_ns"]) - t0) / 1e6, peak, int(mark["rss_kb"]) + children, str(mark["screen"]),
                 _frame_stages(stages))


def _frame_stages(stages: list[tuple[str, float]]) -> tuple[tuple[str, float], ...]:
    """The marks up to the measured frame: a draw or swap before it (a frame of another
    screen) is dropped, so each stage name appears once.

    >>> _frame_stages([("window made", 5.0), ("draw begins", 6.0), ("swapped", 7.0),
    ...                ("draw begins", 9.0), ("swapped", 12.0)])
    (('window made', 5.0), ('draw begins', 9.0), ('swapped', 12.0))
    """
    last = {name: ms for name, ms in stages}
    return tuple(sorted(last.items(), key=lambda kv: kv[1]))


def _app_journal_path(xdg_data_home: str) -> Path:
    """Where the app, started with this ``XDG_DATA_HOME``, keeps its journal."""
    from companion.journal import default_path

    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = xdg_data_home
    try:
        return default_path()
    finally:
        if before is None:
            del os.environ["XDG_DATA_HOME"]
        else:
            os.environ["XDG_DATA_HOME"] = before


def _env(kivy_home: Path, extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_HOME=str(kivy_home),
               TC_BENCH_FIRST_FRAME="1", PYTHONPATH=str(ROOT))
    env.pop("TC_BENCH_SCREEN", None)
    # Bytecode caches on, in a folder of the run (not the tree): an installed app has its
    # .pyc files (pip compiles at install), and the warm-up start writes them here for
    # both apps. With PYTHONDONTWRITEBYTECODE (set in some dev shells) every start of the
    # app compiled its ~80 modules again (~0.2 s) while Kivy's came precompiled.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(kivy_home.parent / "pycache")
    # Likewise the app's cache of its .kv files' parse (companion/ui/kvload.py), kept in the
    # user's cache folder once installed: the warm-up start writes it here.
    env["TC_KV_CACHE"] = str(kivy_home.parent / "kv-cache")
    env.update(extra)
    return env


def _summary(name: str, starts: Sequence[Start]) -> str:
    ms = [s.ms for s in starts]
    return (f"{name:<9} start {statistics.median(ms):7.0f} ms median (min {min(ms):.0f}, max {max(ms):.0f}, "
            f"n={len(ms)})   peak RSS {statistics.median(s.peak_kb for s in starts) / 1024:6.1f} MiB"
            f"   with children {statistics.median(s.tree_kb for s in starts) / 1024:6.1f} MiB"
            f"   first screen {starts[-1].screen}")


def main(argv: list[str]) -> int:
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            print("bench ui: no DISPLAY and no xvfb-run; run it under a display (./dev bench ui)")
            return 2
        return subprocess.call([*XVFB, sys.executable, "-m", "benchmarks", "ui", *argv], cwd=ROOT)
    runs = 3 if "--quick" in argv else 7
    for a in argv:
        if a.startswith("--runs="):
            runs = int(a.split("=", 1)[1])
    demo = "--no-demo" not in argv
    history = 20
    for a in argv:
        if a.startswith("--history="):
            history = int(a.split("=", 1)[1])
    cmd, how = app_command(demo)
    staged = "--stages" in argv
    empty_cmd = empty_command()
    if staged:
        cmd, empty_cmd = stages_command(True, demo), stages_command(False)
        how = " ".join(cmd[1:]) + " (stage marks)"
    print(f"load average before: {os.getloadavg()[0]:.2f}; display {os.environ['DISPLAY']}; {runs} starts each after a warm-up")
    print(f"app:   {how}")
    print(f"empty: python {' '.join(empty_cmd[1:])} (one Widget), with the app's window settings "
          f"({' '.join(f'{k}={v}' for k, v in APP_WINDOW.items())}) and with Kivy's defaults")
    with tempfile.TemporaryDirectory(prefix="bench-ui-") as tmp:
        homes = {k: Path(tmp, k) for k in ("app", "empty", "stock")}
        for h in homes.values():
            h.mkdir()
        app_env = _env(homes["app"], {"TC_BENCH_SCREEN": "game:"} if demo else {})
        app_env["XDG_DATA_HOME"] = str(Path(tmp, "data"))  # the app's settings and journal
        if not demo:
            journal = _app_journal_path(app_env["XDG_DATA_HOME"])
            done, ongoing = fill(journal, finished=history, in_progress=2)
            print(f"home: the app's journal holds {done} finished and {ongoing} in-progress games")
        empty_env = _env(homes["empty"], APP_WINDOW)
        stock_env = _env(homes["stock"], {})
        for k in APP_WINDOW:
            stock_env.pop(k, None)
        start_once(empty_cmd, empty_env)  # warm-ups, discarded
        start_once(empty_cmd, stock_env)
        start_once(cmd, app_env)
        app: list[Start] = []
        empty: list[Start] = []
        stock: list[Start] = []
        for _ in range(runs):
            empty.append(start_once(empty_cmd, empty_env))
            stock.append(start_once(empty_cmd, stock_env))
            app.append(start_once(cmd, app_env))
    ratio = statistics.median(s.ms for s in app) / statistics.median(s.ms for s in empty)
    mem = statistics.median(s.peak_kb for s in app) / statistics.median(s.peak_kb for s in empty)
    stock_ratio = statistics.median(s.ms for s in app) / statistics.median(s.ms for s in stock)
    stock_mem = statistics.median(s.peak_kb for s in app) / statistics.median(s.peak_kb for s in stock)
    print(_summary("empty", empty))
    print(_summary("stock", stock))
    print(_summary("app", app))
    print(f"ratio     start {stock_ratio:.2f}x   (target ≤ {TARGET}x: {'met' if stock_ratio <= TARGET else 'NOT met'})"
          f"   peak RSS {stock_mem:.2f}x   — against Kivy's stock empty app (its defaults)")
    print(f"          start {ratio:.2f}x   peak RSS {mem:.2f}x   — against the empty app with the app's window settings "
          "(the apps' own work side by side: the stock app's multisampled window costs it time and memory the app does not spend)")
    print(f"app starts ms: {', '.join(f'{s.ms:.0f}' for s in app)}; empty: {', '.join(f'{s.ms:.0f}' for s in empty)}; "
          f"stock: {', '.join(f'{s.ms:.0f}' for s in stock)}")
    if staged:
        print(stage_table(app, empty))
        print(f"budget: the target allows the app {budget_ms(app, empty, stock):.0f} ms more than the same-window "
              f"empty app's whole start (its own work after the window; now {after_window_ms(app):.0f} ms)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
