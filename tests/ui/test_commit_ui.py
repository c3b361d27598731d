"""A tap's journal commit runs off the UI thread, in a real window with the app's real
journal file, its commits held until the scenario lets them go (issue 34; the scenario is
in tests/ui/commit_scenarios.py). Screenshots: artifacts/ui/commit/."""
from __future__ import annotations

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "commit"


def test_a_slow_commit_keeps_the_window_running_marks_the_tap_and_a_refusal_at_commit_time_is_shown(tmp_path):
    data = run_scenario(tmp_path, "commit_scenarios:slow_commit", "800x480", out=ARTIFACTS)
    notes = data["notes"]
    assert "recorded off the UI thread: roll, panel tap, undo" in notes
    assert any(n.startswith("refused at commit: ") for n in notes)
    assert "secret choice: refused on its page, recorded behind the gate" in notes
