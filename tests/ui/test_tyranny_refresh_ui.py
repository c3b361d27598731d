"""Tyranny's table updated in place against a fresh screen, in a real window (issue 34)."""
from __future__ import annotations

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui


def test_the_table_refreshed_in_place_shows_what_a_fresh_screen_shows(tmp_path):
    data = run_scenario(tmp_path, "tyranny_scenarios:in_place", "800x480", out=ROOT / "artifacts" / "ui" / "tyranny")
    steps = [n.split(":")[0] for n in data["notes"]]
    assert steps == ["start", "rolled", "moved", "drawn", "moved again", "undone"], data["notes"]
