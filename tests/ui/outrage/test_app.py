"""The Outrage! table screen in the real app, in a real window (Xvfb), by simulated
touches: two runs (a short game; the layout at 160 % text)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import ROOT, XVFB, _env, toured_settings

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "outrage"


def run(tmp_path: Path, scenario: str, size: str, text_scale: float | None = None) -> dict:
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    result = tmp_path / f"{scenario}-{size}.json"
    cmd = [sys.executable, "-m", "tests.ui.outrage.run", scenario, "--size", size,
           "--journal", str(tmp_path / "journal.sqlite3"), "--out", str(ARTIFACTS), "--result", str(result),
           "--settings", str(toured_settings(tmp_path))]
    if text_scale is not None:
        cmd += ["--text-scale", str(text_scale)]
    if not os.environ.get("DISPLAY"):
        cmd = XVFB + cmd
    env = _env(tmp_path)
    env["TC_USER_DATA"] = str(tmp_path / "user-data")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if not result.exists():
        pytest.fail(f"{scenario} left no result (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    data = json.loads(result.read_text(encoding="utf-8"))
    if not data.get("ok"):
        pytest.fail(f"{scenario} at {size} failed:\n{data.get('error')}\nnotes: {data.get('notes')}")
    return data


def test_a_short_six_seat_game_with_an_escape_an_attack_and_a_burglary(tmp_path):
    data = run(tmp_path, "outrage_heist", "800x480")
    assert "outrage: escape, attack, burglary" in data["notes"]
    problems = json.loads(data["notes"][-2])
    assert not problems, "\n".join(problems)


def test_six_seats_at_160_percent_text_lay_out_with_the_search_open(tmp_path):
    problems = json.loads(run(tmp_path, "outrage_layout", "800x480", text_scale=1.6)["notes"][-1])
    assert not problems, "\n".join(problems)
