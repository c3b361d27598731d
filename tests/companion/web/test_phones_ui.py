"""The phones card of the devices panel, in the real app in a real window (Xvfb), driven
by tests/ui/driver.py with the scenario in phones_scenarios.py."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("segno")

ROOT = Path(__file__).resolve().parents[3]
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 +extension GLX +render -noreset"]
# The driver finds scenarios under tests.ui; this one lives beside the phones' tests.
SHIM = ("import sys, tests.companion.web.phones_scenarios as m; sys.modules['tests.ui.phones_scenarios'] = m; "
        "from tests.ui.driver import main; sys.exit(main(sys.argv[1:]))")

pytestmark = pytest.mark.ui


def _run(tmp_path: Path, scenario: str, size: str = "800x480", scale: str = "1.6") -> dict:
    """Run ``scenario`` (in phones_scenarios.py) in the real app; its result."""
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    settings = tmp_path / "settings.json"
    settings.write_text('{"tour_seen": true}', encoding="utf-8")
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", SHIM, f"phones_scenarios:{scenario}", "--size", size,
           "--journal", str(tmp_path / "journal.sqlite3"), "--out", str(ROOT / "artifacts" / "ui"),
           "--result", str(result), "--settings", str(settings), "--text-scale", scale]
    if not os.environ.get("DISPLAY"):
        cmd = XVFB + cmd
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy-home"),
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if not result.exists():
        pytest.fail(f"no result (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    data = json.loads(result.read_text(encoding="utf-8"))
    assert data.get("ok"), f"{data.get('error')}\nnotes: {data.get('notes')}"
    return data


def test_the_devices_panel_shows_codes_and_attached_phones(tmp_path: Path) -> None:
    assert "phones card ok" in _run(tmp_path, "phones_panel")["notes"]


def test_an_outrage_attack_waits_for_both_phones_and_is_revealed_on_the_table(tmp_path: Path) -> None:
    """Both seats' phones attached: "waiting for …'s phone" instead of the gate, the
    weapons laid from the phones, the reveal on the table screen."""
    assert "phones attack ok" in _run(tmp_path, "phones_attack", size="1280x800", scale="1.0")["notes"]
