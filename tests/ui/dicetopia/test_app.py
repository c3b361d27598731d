"""Dicetopia's table screen in the real app, in a real window (Xvfb), by simulated touches
(one process per run; screenshots in artifacts/ui/dt-*.png): a short game from the wizard
to the tally at 800×480 with 160 % text, and the layout at five sizes at 160 % and 100 %."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.ui


def test_a_short_game_from_the_wizard_to_the_tally_at_800x480_and_160_percent_text(run_app):
    r = run_app("dicetopia.scenarios:dicetopia_short_game", "800x480", text_scale=1.6)
    assert any("city entered in 19 taps" in n for n in r["notes"])
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert any("dt-end-tally" in s for s in r["shots"]) and any("dt-gate-keep" in s for s in r["shots"])


def test_four_players_lay_out_at_every_size_at_160_and_100_percent_text(run_app):
    """One process, the window resized and the text size changed: 800×480, 800×600,
    1024×600, 1280×800 and portrait 600×1024, mid-turn (30 dice, clocks, targets marked)
    and at the end (the tally)."""
    r = run_app("dicetopia.scenarios:dicetopia_layout_tour", "800x480", text_scale=1.6)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert len([s for s in r["shots"] if "dt-tour" in s]) == 14


def test_an_ability_waits_for_the_player_first_in_player_order_at_800x480(run_app):
    r = run_app("dicetopia.scenarios:dicetopia_player_order", "800x480", text_scale=1.6)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert any("dt-player-order" in s for s in r["shots"])


def test_a_faction_is_picked_from_all_ten_shown_at_once_at_800x480(run_app):
    r = run_app("dicetopia.scenarios:dicetopia_faction_picker", "800x480", text_scale=1.6)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert r["notes"][0].startswith("picked ") and r["notes"][0].endswith(" in two taps")


def test_every_seat_deals_and_discards_in_one_gate_pass_at_800x480(run_app):
    # §3 step 3: "deal 3 to each Player. They each get to keep two and discard one" (D-34).
    r = run_app("dicetopia.scenarios:dicetopia_deal_and_keep_in_one_pass", "800x480", text_scale=1.6)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert r["notes"][0] == "gate passes: Ann 1, Bob 1, Cy 1"


def test_with_the_apps_deck_every_seat_keeps_in_one_gate_pass_before_the_next_is_dealt_at_800x480(run_app):
    r = run_app("dicetopia.scenarios:dicetopia_app_deal_and_keep_in_one_pass", "800x480", text_scale=1.6)
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert r["notes"][0] == "gate passes: Ann 1, Bob 1"


def test_taps_update_the_screen_in_place_as_a_fresh_screen_shows_it(run_app):
    """Issue 34: a tap rebuilds only what changed, and nothing it keeps is stale."""
    r = run_app("dicetopia.scenarios:dicetopia_in_place_as_fresh", "800x480")
    assert [n for n in r["notes"] if n.endswith("as a fresh screen")] == [
        f"{w}: as a fresh screen" for w in ("a new game", "the entry stopped", "Ann's turn", "after the Exterminate", "after the undo")]
