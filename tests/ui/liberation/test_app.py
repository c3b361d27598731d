"""The Liberation screens in the real app, in a real window (Xvfb), by simulated touches."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.conftest import ROOT, run_scenario

pytestmark = pytest.mark.ui
ARTIFACTS = ROOT / "artifacts" / "ui" / "liberation"


# Which module of this folder holds each scenario.
MODULES = {'liberation_short_game': 'scenarios', 'liberation_map_entry': 'map_scenarios', 'liberation_mission_and_card_taken': 'scenarios', 'liberation_physical_draws': 'scenarios', 'liberation_map_cards_setup': 'map_scenarios', 'liberation_card_set_game': 'card_scenarios', 'liberation_card_set_layout': 'card_scenarios',
           'liberation_mission_moment': 'mission_scenarios', 'liberation_first_game_asks_for_the_map': 'map_scenarios',
           'liberation_missions_entered_and_played': 'mission_scenarios'}


def run(tmp_path: Path, scenario: str, size: str, text_scale: float | None = None) -> dict:
    return run_scenario(tmp_path, f"liberation.{MODULES[scenario]}:{scenario}", size, text_scale=text_scale, out=ARTIFACTS)


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_a_short_game_with_a_secret_evade_a_miss_and_the_base_found(tmp_path, size):
    r = run(tmp_path, "liberation_short_game", size)
    assert any("base found" in n for n in r["notes"])
    assert any("lib-attack-miss" in s for s in r["shots"]) and any("lib-audit" in s for s in r["shots"])


def test_entering_a_map_by_tapping_pairs_saving_it_and_playing_on_it(tmp_path):
    r = run(tmp_path, "liberation_map_entry", "800x480")
    assert any("picked at setup and played" in n for n in r["notes"])


def test_a_referee_question_and_an_attack_that_takes_a_card(tmp_path):
    r = run(tmp_path, "liberation_mission_and_card_taken", "800x480")
    assert any("taken and occupied" in n for n in r["notes"])


def test_a_mission_and_its_answer_show_what_the_table_resolves_and_what_the_app_did(tmp_path):
    # Issue 32, item 10, at the Pi's size with 160 % text.
    r = run(tmp_path, "liberation_mission_moment", "800x480", text_scale=1.6)
    assert any("result and answer shown" in n for n in r["notes"])


def test_the_first_game_asks_for_the_printed_map_and_later_games_use_it_without_asking(tmp_path):
    # Issue 32, item 10, at the Pi's size with 160 % text.
    r = run(tmp_path, "liberation_first_game_asks_for_the_map", "800x480", text_scale=1.6)
    assert any("the next used it without asking" in n for n in r["notes"])


def test_the_missions_entered_on_their_page_are_saved_and_shown_when_the_mission_is_played(tmp_path):
    # Issue 32, item 10 (last part), at the Pi's size with 160 % text.
    r = run(tmp_path, "liberation_missions_entered_and_played", "800x480", text_scale=1.6)
    assert any("the moment showed the words entered" in n for n in r["notes"])
    assert any("lib-missions-4-moment" in s for s in r["shots"])


def test_the_short_game_in_portrait(tmp_path):
    run(tmp_path, "liberation_short_game", "480x800")


def test_the_setup_deal_and_four_turns_with_the_tables_own_cards_entered_behind_the_gate(tmp_path):
    r = run(tmp_path, "liberation_physical_draws", "800x480")
    assert any("4 physical draws entered" in n for n in r["notes"])
    assert any("lib-phys-deal" in s for s in r["shots"]) and any("lib-phys-draw" in s for s in r["shots"])


def test_map_cards_arranged_at_setup_by_taps_and_two_turns_played_on_them(tmp_path):
    r = run(tmp_path, "liberation_map_cards_setup", "800x480")
    assert any("map cards arranged by taps and played" in n for n in r["notes"])
    assert any("lib-setup-map-cards" in s for s in r["shots"])


def test_our_map_cards_entered_on_screen_an_unplayable_layout_refused_and_a_game_with_our_own_draws(tmp_path):
    """Issue 16: the card set entered once on screen (L-15), an arrangement the engine
    cannot play keeps Start off with the reason, the table's map shows card 1 turned, and
    three turns are played with every card drawn entered behind the gate (L-14)."""
    r = run(tmp_path, "liberation_card_set_game", "800x480")
    state = json.loads(r["notes"][-1])
    assert state["map"] == state["composed"] == "kitchen-cards@1a90.2b0.3a0.4a0"
    assert state["turn"] == 4 and state["active"] == state["liberation"]
    assert state["hands"] == {state["dynasty"]: 3, state["liberation"]: 3}
    assert state["layout_problems"] == []
    assert any("3 physical draws" in n for n in r["notes"])
    assert any("lib-cards-setup-unplayable" in s for s in r["shots"]) and any("lib-cards-table" in s for s in r["shots"])


def test_the_map_card_screens_at_160_percent_text_pass_the_layout_check(tmp_path):
    r = run(tmp_path, "liberation_card_set_layout", "800x480", text_scale=1.6)
    assert json.loads(r["notes"][-1]) == []
    assert any("lib-cards-entry-exits-160" in s for s in r["shots"]) and any("lib-cards-setup-quadrants-160" in s for s in r["shots"])


def test_taps_update_the_screen_in_place_as_a_fresh_screen_shows_it(run_app):
    """Issue 34: a tap rebuilds only what changed, and nothing it keeps is stale."""
    r = run_app("liberation.scenarios:liberation_in_place_as_fresh", "800x480")
    assert [n for n in r["notes"] if n.endswith("as a fresh screen")] == [
        f"{w}: as a fresh screen" for w in ("a new game", "the deal", "the first City and the base", "a step", "the undo",
                                           "the Attack")]
