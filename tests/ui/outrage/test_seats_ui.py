"""Outrage!'s seat choice in the real setup wizard at 800×480 with 160 % text (issue 32,
item 3; RULINGS S-04)."""
from __future__ import annotations

import json

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "outrage"


def test_the_wizard_offers_two_to_four_seats_and_five_or_six_only_with_own_pieces(tmp_path):
    data = run_scenario(tmp_path, "outrage.seats_scenarios:outrage_seats_wizard", "800x480", text_scale=1.6,
                        out=ARTIFACTS)
    assert "outrage seats: 2-4 by default, 5-6 with own pieces" in data["notes"]
    problems = json.loads(data["notes"][-2])
    assert not problems, "\n".join(problems)
