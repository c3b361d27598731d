"""bench_ui's machinery (the benchmark itself is run by hand; no timing is asserted here)."""
from __future__ import annotations

import doctest
import os
import shutil

import pytest

from benchmarks import bench_ui
from companion.ui import bench_hooks


def test_doctests():
    for module in (bench_ui, bench_hooks):
        assert doctest.testmod(module).failed == 0


def test_the_hook_is_off_without_its_variable(monkeypatch):
    monkeypatch.delenv(bench_hooks.ENV, raising=False)
    assert bench_hooks.install() is False


def test_mark_line_round_trips():
    fields = bench_ui.parse_mark(bench_hooks.mark_line("game:tyranny"))
    assert fields is not None and fields["screen"] == "game:tyranny"
    assert int(fields["t_ns"]) > 0 and int(fields["maxrss_kb"]) >= int(fields["rss_kb"]) > 0
    assert bench_hooks.parse_mark(bench_hooks.mark_line())["screen"] == "-"


def test_hook_wiring_is_read_from_the_source(tmp_path):
    main_py = tmp_path / "__main__.py"
    main_py.write_text("def main():\n    pass\n")
    assert not bench_ui.hook_is_wired(main_py)
    main_py.write_text("def main():\n    from .ui import bench_hooks\n    bench_hooks.install()\n")
    assert bench_ui.hook_is_wired(main_py)
    assert not bench_ui.hook_is_wired(tmp_path / "missing.py")


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (run under xvfb-run)")
def test_the_empty_app_reports_its_first_frame(tmp_path):
    env = bench_ui._env(tmp_path, {})
    start = bench_ui.start_once(bench_ui.empty_command(), env)
    assert start.screen == "Widget" and start.ms > 0 and start.peak_kb > 0


def test_a_silent_app_is_a_failed_start(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_ui, "TIMEOUT_S", 5.0)
    python = shutil.which("python3") or "python3"
    with pytest.raises(bench_ui.StartFailed, match="no first frame"):
        bench_ui.start_once([python, "-c", "print('hello')"], dict(os.environ))


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (run under xvfb-run)")
def test_the_baseline_gets_the_apps_window_settings(tmp_path):
    """The empty app is started with the window settings the app asks Kivy for, so that the
    ratio compares the apps' own work (APP_WINDOW must follow companion/ui/app.py)."""
    import subprocess
    import sys

    env = bench_ui._env(tmp_path, {})
    for k in bench_ui.APP_WINDOW:
        env.pop(k, None)
    code = ("import companion.ui.app; from kivy.config import Config; "
            "print({k: Config.get(*k.split('_', 2)[1:]) for k in %r})" % (list(bench_ui.APP_WINDOW),))
    code = code.replace("k.split('_', 2)[1:]", "[p.lower() for p in k.split('_', 2)[1:]]")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == str(bench_ui.APP_WINDOW), out.stderr[-2000:]


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (run under xvfb-run)")
@pytest.mark.parametrize("app", [False, True], ids=["empty", "demo"])
def test_stage_marks_reach_the_first_frame_in_order(tmp_path, app):
    """``--stages``: every probe fires once, in start-up order, before the first-frame mark."""
    env = bench_ui._env(tmp_path, bench_ui.APP_WINDOW)
    if app:
        env.update(TC_BENCH_SCREEN="game:", XDG_DATA_HOME=str(tmp_path / "data"))
    start = bench_ui.start_once(bench_ui.stages_command(app), env)
    names = [name for name, _ in start.stages]
    expected = ["interpreter up", "kivy.app imported", "window made"]
    if app:
        expected += ["app module imported", "app object made", "build begins", "journal opened", "build done", "new game begins",
                     "Table created", "screen build begins", "screen built", "table bound and refreshed"]
    assert names == expected + ["draw begins", "draw done", "swapped"]
    times = [ms for _, ms in start.stages]
    assert times == sorted(times) and 0 < times[-1] <= start.ms
    assert start.screen == ("game:tyranny" if app else "Widget")
    assert "--stages" in bench_ui.__doc__ and bench_ui.stage_table([start], [start]).count("first frame mark") == 2
