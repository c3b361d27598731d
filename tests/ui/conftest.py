"""UI tests: each app scenario runs in its own process (Kivy keeps global state), in a
real window under Xvfb (started here with xvfb-run when there is no display), driven by
simulated touches. Screenshots go to ``artifacts/ui/``."""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "ui"
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 +extension GLX +render -noreset"]


# The .kv parse cache (companion/ui/kvload.py) of this test run: shared by its scenarios,
# so each parses a .kv file at most once, and never the user's own cache folder.
KV_CACHE = tempfile.mkdtemp(prefix="tc-test-kv-")


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp / "kivy-home"),
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""))
    env.setdefault("TC_KV_CACHE", KV_CACHE)
    return env


def toured_settings(tmp_path: Path) -> Path:
    """The settings file of a table that has seen the first-game tour: scenarios play the
    table straight away (the tour has its own test)."""
    path = tmp_path / "settings.json"
    if not path.exists():
        path.write_text('{"tour_seen": true}', encoding="utf-8")
    return path


def run_scenario(tmp_path: Path, scenario: str, size: str = "800x480", journal: Path | None = None, demo: bool = False,
                 settings: Path | None = None, text_scale: float | None = None, out: Path = ARTIFACTS) -> dict[str, Any]:
    """Run one scenario of the shared driver in its own process (``"name"`` from
    tests/ui/scenarios.py, ``"module:name"`` from tests/ui/module.py) and return its
    result; a scenario that failed or left no result fails the test."""
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    journal = journal or tmp_path / "journal.sqlite3"
    if settings is None:
        settings = toured_settings(tmp_path)
    result = tmp_path / f"{scenario.replace(':', '-')}-{size}-{text_scale}.json"
    cmd = [sys.executable, "-m", "tests.ui.driver", scenario, "--size", size, "--journal", str(journal),
           "--out", str(out), "--result", str(result), "--settings", str(settings)]
    if demo:
        cmd.append("--demo")
    if text_scale is not None:
        cmd += ["--text-scale", str(text_scale)]
    if not os.environ.get("DISPLAY"):
        cmd = XVFB + cmd
    proc = subprocess.run(cmd, cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    if not result.exists():
        pytest.fail(f"{scenario} left no result (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    data = json.loads(result.read_text(encoding="utf-8"))
    if not data.get("ok"):
        pytest.fail(f"{scenario} at {size} failed:\n{data.get('error')}\nnotes: {data.get('notes')}")
    return data


@pytest.fixture
def run_app(tmp_path: Path) -> Callable[..., dict[str, Any]]:
    """run_app(scenario, size="800x480", journal=None, demo=False, settings=None,
    text_scale=None) → the scenario's result (:func:`run_scenario` in this test's folder)."""
    return functools.partial(run_scenario, tmp_path)
