"""The seat clocks in the real app at the Pi's size, 800×480 with 160 % text (issue 32,
item 12): a paused clock in words, the admin's steps adding up, 0:00 after a flag-fall.
Screenshots: artifacts/ui/clocks/."""
from __future__ import annotations

import json

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "clocks"


def test_a_paused_clock_says_paused_in_words_beside_the_symbol(tmp_path):
    r = run_scenario(tmp_path, "clock_scenarios:paused_in_words", "800x480", text_scale=1.6, out=ARTIFACTS)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_admins_steps_add_up_and_the_table_sees_the_result(tmp_path):
    r = run_scenario(tmp_path, "clock_scenarios:admin_steps_add_up", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert any(n.startswith("steps add up") for n in r["notes"])


def test_a_seat_lost_on_time_shows_0_00_on_its_face(tmp_path):
    r = run_scenario(tmp_path, "clock_scenarios:lost_on_time", "800x480", text_scale=1.6, out=ARTIFACTS)
    assert r["notes"] == ["Ann's face after the flag fell: 0:00"]
