"""Tyranny's table in a real window (Xvfb) at the Pi's size, 800×480 with 160 % text,
driven by touches (issue 32, item 7). Screenshots: artifacts/ui/tyranny/."""
from __future__ import annotations

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "tyranny"


def test_hands_opens_a_page_of_its_own_where_the_player_looks(tmp_path):
    data = run_scenario(tmp_path, "tyranny_scenarios:hands_page", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert data["notes"] == ["hands page: Bob's gate"]


def test_the_card_drawn_lies_on_the_table_face_up_or_face_down_until_the_next_action(tmp_path):
    data = run_scenario(tmp_path, "tyranny_scenarios:drawn_card", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert data["notes"] == ["drawn: Gains 8 face up, Gains 1 face down"]
