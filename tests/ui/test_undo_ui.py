"""The Undo button in a real window (Xvfb) at the Pi's size, 800×480 with 160 % text
(issue 32, item 8). Screenshots: artifacts/ui/undo/."""
from __future__ import annotations

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "undo"


def test_undo_is_disabled_with_nothing_to_undo_says_why_on_a_long_press_and_is_enabled_after_a_move(tmp_path):
    data = run_scenario(tmp_path, "undo_scenarios:undo_button_states", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert "undo button states: ok" in data["notes"]
    assert any(n.startswith("nothing yet: Nothing to undo now") for n in data["notes"])
