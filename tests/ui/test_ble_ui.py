"""Bluetooth LE dice in the real app, in a real window (tests/ui/ble_scenarios.py): a fake
Pixel paired from the devices panel by touches, blinked, given to a player; its roll goes
through the bridge, the input pump and the Table to the screen; a crooked landing is
offered as "re-roll or accept". At 800×480 with 160 % text, where the panel is tightest."""
from __future__ import annotations

import pytest

pytest.importorskip("bleak")

pytestmark = pytest.mark.ui


def test_a_pixel_paired_on_the_devices_panel_rolls_into_the_game(run_app):
    r = run_app("ble_scenarios:ble_table", "800x480", text_scale=1.6)
    assert "pixel roll shown: ✔ Ann's Pixel “Demo Pixel” rolled 4" in r["notes"]
    assert "crooked offered as re-roll or accept; accepted" in r["notes"]


def test_the_demo_adds_a_simulated_pixel_and_godice_next_to_the_hub(run_app):
    r = run_app("ble_scenarios:ble_demo", "1280x800")
    assert any(n.startswith("missed: ⚠ The ") for n in r["notes"])
