"""What the demo table's first frame does not wait for (issue 34, cold start): the modules
of work that starts after that frame, or of a view made on first use, are not imported
before it. The real app (``python -m companion --demo``) runs to the first frame showing
its table under the first-frame hook, which here also lists ``sys.modules`` at that frame.

A module imported before the frame costs every start (the import, its dataclasses, its
.kv file); one listed here came back that way once already."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import bench_ui
from companion.ui import bench_hooks

ROOT = Path(__file__).resolve().parents[2]

# module → why it is not needed before the table's first frame
NOT_BEFORE_THE_FRAME = {
    "firmware_bridge.ble.source": "the Bluetooth dice source: the demo's dice pair after the first frame",
    "firmware_bridge.ble.session": "the dice's sessions, the same",
    "firmware_bridge.events": "the bridge's events: the first arrives after the first frame",
    "firmware_bridge.ble.fake": "the demo's fake radio: made when its dice pair",
    "bleak": "bleak: found, not imported, when the app asks whether it can offer Bluetooth dice",
    "firmware_bridge.serial": "the hub's serial link: it connects after the first frame",
    "companion.ui.widgets.gate_page": "the privacy gate's page: made when a seat first opens it",
    "companion.ui.games.tyranny.drawn_card": "the card just drawn: made at the first draw",
    "companion.ui.screens.home": "home: made when first visited in demo mode",
}
# ... while what the frame shows is there (so that the list above is read at the right moment)
NEEDED = ("kivy.core.window", "companion.table", "companion.ui.games.tyranny.screen", "companion.ui.widgets.dice_tray")

CODE = """
import sys
from companion.ui import bench_hooks
mark_line = bench_hooks.mark_line
bench_hooks.mark_line = lambda screen="": mark_line(screen) + " modules=" + ",".join(sorted(sys.modules))
from companion.__main__ import main
sys.exit(main(["--demo"]))
"""


@pytest.mark.ui
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (run under xvfb-run)")
def test_the_demo_tables_first_frame_waits_for_none_of_the_later_work(tmp_path):
    (tmp_path / "kivy").mkdir()
    env = bench_ui._env(tmp_path / "kivy", {"TC_BENCH_SCREEN": "game:", "XDG_DATA_HOME": str(tmp_path / "data")})
    out = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    marks = [bench_hooks.parse_mark(line) for line in out.stdout.splitlines()]
    mark = next((m for m in marks if m is not None), None)
    assert mark is not None, out.stdout[-2000:] + out.stderr[-2000:]
    assert mark["screen"] == "game:tyranny"
    loaded = set(str(mark["modules"]).split(","))
    assert [m for m in NEEDED if m not in loaded] == []
    early = {m: why for m, why in NOT_BEFORE_THE_FRAME.items() if m in loaded}
    assert early == {}, "imported before the table's first frame"
