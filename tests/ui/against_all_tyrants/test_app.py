"""The Against All Tyrants screens in the real app, in a real window (Xvfb), by simulated
touches; the layout check at 800×480 (160 % text, and 100 % for the game)."""
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
ARTIFACTS = ROOT / "artifacts" / "ui" / "against_all_tyrants"


def run(tmp_path: Path, scenario: str, size: str, text_scale: float | None = None) -> dict:
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    result = tmp_path / f"{scenario}-{size}.json"
    cmd = [sys.executable, "-m", "tests.ui.against_all_tyrants.run", scenario, "--size", size,
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


@pytest.mark.parametrize("text_scale", [1.0, 1.6])
def test_a_short_game_with_a_combat_preview_before_the_attack(tmp_path, text_scale):
    r = run(tmp_path, "aat_short_game", "800x480", text_scale)
    assert "short game with a combat preview" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_card_editor_and_deck_builder_from_the_wizard(tmp_path):
    r = run(tmp_path, "aat_library", "800x480", 1.6)
    assert "editor and deck builder" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
