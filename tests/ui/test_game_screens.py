"""Issue 16 on the game screens, in the real app (one process per scenario): player
words only, no stale city words, and the layout check at every size and text size."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.ui


def test_tyranny_screen_speaks_player_words(run_app):
    assert "tyranny: player words only" in run_app("game_scenarios:tyranny_words", "1280x800")["notes"]


def test_liberation_screen_speaks_player_words_and_drops_a_citys_words(run_app):
    assert "liberation: info cleared, player words only" in run_app("game_scenarios:liberation_words_and_info", "1280x800")["notes"]


@pytest.mark.parametrize("size,text_scale", [
    ("800x480", 1.0), ("800x480", 1.6), ("800x600", 1.0), ("800x600", 1.6), ("1024x600", 1.0), ("1024x600", 1.6),
    ("1280x800", 1.0), ("1280x800", 1.6), ("600x1024", 1.0), ("600x1024", 1.6)])
def test_the_game_screens_lay_out_without_problems(run_app, size, text_scale):
    problems = json.loads(run_app("game_scenarios:game_layout_tour", size, text_scale=text_scale)["notes"][-1])
    assert not problems, "\n".join(problems)
