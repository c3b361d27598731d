"""Issue 32, item 9: after a crash (kill -9), relaunching the app in demo mode opens the game
last in play, not the demo's, and home says where the other games in progress are. Two real
app processes on one journal, in real windows at 800x480 with 160 % text."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ui.conftest import ARTIFACTS, ROOT, XVFB, _env, run_scenario, toured_settings

KILL_WAIT_S = 90.0  # bound on the first process reaching its marker (a loaded 2-core machine)


def test_a_relaunch_after_kill_9_reopens_the_game_last_in_play(tmp_path: Path) -> None:
    import shutil

    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    journal = tmp_path / "demo.sqlite3"
    settings = toured_settings(tmp_path)
    from companion.ui.presenters.settings import Settings

    Settings.load(str(settings)).with_changes(text_scale=1.6).save(str(settings))
    marker = journal.with_suffix(".playing.json")
    cmd = [sys.executable, "-m", "tests.ui.driver", "relaunch_scenarios:play_then_wait", "--size", "800x480",
           "--journal", str(journal), "--out", str(ARTIFACTS), "--result", str(tmp_path / "first.json"),
           "--settings", str(settings), "--demo"]
    if not os.environ.get("DISPLAY"):
        cmd = XVFB + cmd
    first = subprocess.Popen(cmd, cwd=ROOT, env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + KILL_WAIT_S
        while not marker.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker.exists(), f"the first process never played its game (exit {first.poll()})"
        played = json.loads(marker.read_text(encoding="utf-8"))
        os.kill(played["pid"], signal.SIGKILL)  # the crash: no clean shutdown, nothing flushed by the app
        first.wait(30)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)  # our own child's group (xvfb-run and its server)
            first.wait()
    assert not (tmp_path / "first.json").exists(), "the first process ended by itself, not by kill -9"
    assert played["game"] == "dicetopia" and played["ply"] > 0

    second = run_scenario(tmp_path, "relaunch_scenarios:relaunched", journal=journal, demo=True, settings=settings)
    reopened = json.loads(second["notes"][0])
    assert reopened == {"screen": "game:dicetopia", "key": played["key"], "ply": played["ply"]}
    home = json.loads(second["notes"][1])
    assert sorted(home["resume"]) == ["Dicetopia", "Tyranny"]
    # At 800x480 with 160 % text both games show whole (the list takes the room the short
    # history leaves), so nothing says a game is below the fold.
    assert home["hint"] == ("On starting, the app reopens the game played last; the other one waits here. "
                            "Tap a game to resume it.")
    assert home["more"] == ""
