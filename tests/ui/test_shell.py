"""Issue 16: the shell screens and the shared widgets in the real app, in a real window,
driven by simulated touches (one process per scenario, see conftest.py)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size", ["800x600", "800x480", "600x1024"])
def test_every_face_of_the_die_can_be_entered_and_changed_before_it_counts(run_app, size):
    r = run_app("shell_scenarios:dice_entry", size)
    assert "manual 6 entered after changing a 4" in r["notes"]


def test_the_dice_prompt_is_whole_beside_the_sim_die_button(run_app):
    run_app("shell_scenarios:dice_prompt_demo", "800x600", demo=True)


def test_the_turn_timer_counts_down_and_warns_before_the_turn_is_over(run_app):
    assert "turn timer counts down and warns" in run_app("shell_scenarios:turn_timer")["notes"]


def test_home_and_back_inside_the_app_charges_no_restart(run_app):
    assert "home and back: no restart charge" in run_app("shell_scenarios:home_and_back")["notes"]


def test_an_admin_gives_time_back_from_the_clocks_after_confirming(run_app):
    assert "admin gave Ann a minute back" in run_app("shell_scenarios:clock_admin", "800x600")["notes"]


def test_wizard_pages_open_at_their_top_and_clocks_are_explained(run_app):
    assert "wizard pages open at the top; clocks in words" in run_app("shell_scenarios:wizard_pages")["notes"]


def test_end_screen_says_when_the_link_cannot_open_and_shows_the_final_board(run_app):
    assert "end screen: link failure said, final board shown" in run_app("shell_scenarios:end_screen")["notes"]


def test_the_privacy_gate_stays_open_while_the_player_is_reading(run_app):
    assert "gate kept open by touch and more time" in run_app("shell_scenarios:gate_keeps_open")["notes"]


@pytest.mark.parametrize("text_scale", [1.0, 1.6])
@pytest.mark.parametrize("size", ["800x480", "800x600", "1024x600", "1280x800", "600x1024"])
def test_the_shell_screens_lay_out_without_problems(run_app, size, text_scale):
    """tests/ui/layout_check.py over home, every wizard page, settings, devices and the
    end screen: no text cut or spilling, no overlap, nothing outside its parent, every
    touch target at least 48 dp."""
    import json

    problems = json.loads(run_app("shell_scenarios:layout_tour", size, text_scale=text_scale)["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_devices_panel_with_the_sim_hub_lays_out_and_never_fakes_a_calibration(run_app):
    import json

    problems = json.loads(run_app("shell_scenarios:devices_demo", "800x480", demo=True)["notes"][-1])
    assert not problems, "\n".join(problems)


def test_every_glyph_the_app_uses_draws_in_its_font(run_app):
    """The picture (artifacts/ui/glyphs-*.png) is for a person; the check is tests/ui/test_font.py."""
    r = run_app("shell_scenarios:glyphs", "1280x800")
    assert r["notes"] and int(r["notes"][0].split()[0]) > 50
