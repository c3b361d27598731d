"""Home at the Pi's size, 800×480 with 160 % text (issue 32, item 12): three games in
progress, and a clear "more below" where the list is cut. Screenshots: artifacts/ui/home/."""
from __future__ import annotations

import json

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "home"


def test_three_games_in_progress_show_or_say_that_more_are_below(tmp_path):
    r = run_scenario(tmp_path, "home_scenarios:three_in_progress", "800x480", text_scale=1.6, out=ARTIFACTS)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_six_games_in_progress_say_how_many_are_below_the_cut(tmp_path):
    r = run_scenario(tmp_path, "home_scenarios:six_in_progress", "800x480", text_scale=1.6, out=ARTIFACTS)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert r["notes"][0] != "out of sight before scrolling: 0"
