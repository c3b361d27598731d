"""The Outrage! table screen in the real app, in a real window (Xvfb), by simulated
touches: two runs (a short game; the layout at 160 % text)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "outrage"


def run(tmp_path: Path, scenario: str, size: str, text_scale: float | None = None) -> dict:
    return run_scenario(tmp_path, f"outrage.scenarios:{scenario}", size, text_scale=text_scale, out=ARTIFACTS)


def test_a_short_six_seat_game_with_an_escape_an_attack_and_a_burglary(tmp_path):
    data = run(tmp_path, "outrage_heist", "800x480")
    assert "outrage: escape, attack, burglary" in data["notes"]
    problems = json.loads(data["notes"][-2])
    assert not problems, "\n".join(problems)


def test_six_seats_at_160_percent_text_lay_out_with_the_search_open(tmp_path):
    problems = json.loads(run(tmp_path, "outrage_layout", "800x480", text_scale=1.6)["notes"][-1])
    assert not problems, "\n".join(problems)
