"""The GPIO header and the dice tray's lost-throws notice in the real app, in a real window
(tests/ui/gpio_scenarios.py). The app runs with ``TC_GPIO=mock``: its own start-up opens
the default pin map on gpiozero's MockFactory."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("size,text_scale", [("800x480", None), ("1280x800", None), ("800x480", 1.6)])
def test_gpio_tokens_and_buttons_play_tyranny_and_show_on_the_devices_panel(run_app, monkeypatch, size, text_scale):
    monkeypatch.setenv("TC_GPIO", "mock")
    r = run_app("gpio_scenarios:gpio_table", size, text_scale=text_scale)
    assert any(n.startswith("end-turn refused:") and "Gameplay: A typical movement turn" in n for n in r["notes"])
    assert "token on slot 2 (The Docks) accepted: Ann moved" in r["notes"]


def test_without_a_pi_or_a_flag_the_app_starts_no_gpio(run_app, monkeypatch):
    monkeypatch.delenv("TC_GPIO", raising=False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    r = run_app("gpio_scenarios:no_gpio")
    assert "no GPIO device" in r["notes"]


def test_a_broken_pin_factory_is_a_message_on_the_devices_panel(run_app, monkeypatch):
    monkeypatch.setenv("TC_GPIO", "pi")  # this machine has no lgpio and no header
    r = run_app("gpio_scenarios:no_pin_factory")
    assert any(n.startswith("panel says: ✖ No GPIO pin factory works") for n in r["notes"])


def test_the_dice_tray_says_when_throws_were_lost(run_app):
    r = run_app("gpio_scenarios:throws_missed")
    assert any(n.startswith("throws missed shown:") for n in r["notes"])
