"""The Against All Tyrants screens in the real app, in a real window (Xvfb), by simulated
touches; the layout check at 800×480 (160 % text, and 100 % for the game)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "against_all_tyrants"


def run(tmp_path: Path, scenario: str, size: str, text_scale: float | None = None) -> dict:
    return run_scenario(tmp_path, f"against_all_tyrants.scenarios:{scenario}", size, text_scale=text_scale, out=ARTIFACTS)


@pytest.mark.parametrize("text_scale", [1.0, 1.6])
def test_a_short_game_with_a_combat_preview_before_the_attack(tmp_path, text_scale):
    r = run(tmp_path, "aat_short_game", "800x480", text_scale)
    assert "short game with a combat preview" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_card_editor_and_deck_builder_from_the_wizard(tmp_path):
    r = run(tmp_path, "aat_library", "800x480", 1.6)
    assert "editor and deck builder" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_a_bases_order_offers_first_only_the_units_its_words_name(tmp_path):
    """Issue 32, item 4, at 800x480 with 160 % text (screenshots aat-fortress-order*)."""
    r = run(tmp_path, "aat_fortress_order", "800x480", 1.6)
    assert "the fortress's order as written" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_a_whole_hand_is_entered_behind_one_gate_pass(tmp_path):
    """Issue 32, item 12 (screenshot aat-hand-in-one-pass)."""
    r = run(tmp_path, "aat_hand_in_one_pass", "800x480", 1.6)
    assert "a whole hand in one pass" in r["notes"]
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)


def test_taps_update_the_screen_in_place_as_a_fresh_screen_shows_it(run_app):
    """Issue 34: a tap rebuilds only what changed, and nothing it keeps is stale."""
    r = run_app("against_all_tyrants.scenarios:aat_in_place_as_fresh", "800x480")
    assert [n for n in r["notes"] if n.endswith("as a fresh screen")] == [
        f"{w}: as a fresh screen" for w in ("a new game", "the setup", "a card played", "the end of phase 1", "the undo",
                                           "the attack")]
