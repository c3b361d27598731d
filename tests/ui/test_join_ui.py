"""Issue 16: joining a game already under way through the wizard, in the real app under
Xvfb with simulated touches (one process per scenario, see conftest.py). Screenshots land
in artifacts/ui/join-*-<size>.png; tests/ui/layout_check.py runs over every page."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_join_tyranny_at_turn_12_with_640_and_a_piece_in_custody(run_app, size):
    r = run_app("join_scenarios:join_tyranny", size)
    assert "joined tyranny at turn 12 with 640 and played" in r["notes"]
    problems = json.loads(r["notes"][-2])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_join_liberation_in_act_ii_with_the_base_behind_the_gate(run_app, size):
    r = run_app("join_scenarios:join_liberation", size)
    assert "joined liberation in ACT II with the base behind the gate" in r["notes"]
    problems = json.loads(r["notes"][-2])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text_scale", [1.0, 1.6])
@pytest.mark.parametrize("size", ["800x480", "1280x800", "600x1024"])
def test_the_join_pages_lay_out_without_problems(run_app, size, text_scale):
    problems = json.loads(run_app("join_scenarios:join_layout", size, text_scale=text_scale)["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_new_games_forms_lay_out_and_outrage_starts_from_one(run_app):
    # One run, the hardest size: 800x480 at 160 % text (Dicetopia, Against All Tyrants and
    # Outrage!'s forms, Outrage!'s gate; Outrage! started from what was entered).
    r = run_app("join_scenarios:join_new_games", "800x480", text_scale=1.6)
    assert "joined outrage at turn 6 with the hands behind the gate" in r["notes"]
    problems = json.loads(r["notes"][-2])
    assert not problems, "\n".join(problems)
