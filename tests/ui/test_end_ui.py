"""The end screen at the Pi's size, 800×480 with 160 % text (issue 32, item 12): the
final board is read-only and looks it. Screenshots: artifacts/ui/end/."""
from __future__ import annotations

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "end"


def test_the_final_board_shows_no_live_looking_hands_undo_or_log(tmp_path):
    r = run_scenario(tmp_path, "end_scenarios:final_board_read_only", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert r["notes"] == ["final board: no live-looking controls"]
