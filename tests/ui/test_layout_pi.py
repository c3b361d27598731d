"""Issue 32, item 6: each game's table screen at the Pi's size, 800×480 with 160 % text,
in a real window (tests/ui/layout_pi_scenarios.py): no layout problem (no nested scroll
areas, no word broken by wrapping, no cut text) and whose turn, what is asked, the
choices and the dice tray on screen together, at the start, a throw asked, a choice of
many buttons and a refusal's banner. Screenshots: artifacts/ui/pi/."""
from __future__ import annotations

import json

import pytest

from tests.ui.conftest import ARTIFACTS, run_scenario

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("game", ["tyranny", "outrage", "liberation", "dicetopia", "against_all_tyrants"])
def test_every_game_screen_at_800x480_and_160_percent_text(tmp_path, game):
    data = run_scenario(tmp_path, f"layout_pi_scenarios:{game}", "800x480", demo=True, text_scale=1.6,
                        out=ARTIFACTS / "pi")
    problems = json.loads(data["notes"][-1])
    assert not problems, "\n".join(problems)


def test_the_checks_find_what_the_game_night_met(tmp_path):
    found = json.loads(run_scenario(tmp_path, "layout_pi_scenarios:check_finds", "800x480", text_scale=1.6,
                                    out=ARTIFACTS / "pi")["notes"][-1])
    kinds = [p.split()[0] for p in found]
    assert any(p.startswith("broken-word") and "Label('Bingmai Gamblers decide')" in p for p in found), "\n".join(found)
    assert not any("the app reads it" in p for p in found), "\n".join(found)  # wrapped between words: fine
    assert not any("usb-stick" in p for p in found), "\n".join(found)  # a path wider than the window: cut, fine
    assert any(p.startswith("nested-scroll") for p in found), "\n".join(found)
    assert any(p.startswith("text-overflow") and "Undo refused" in p for p in found), "\n".join(found)
    assert any(p.startswith("not-visible") and "turn" in p and "missing" in p for p in found), "\n".join(found)
    assert any(p.startswith("not-visible") and "choices" in p and "scrolled to see" in p for p in found), "\n".join(found)
    assert any(p.startswith("not-visible") and "dice" in p and "outside the window" in p for p in found), "\n".join(found)
    assert len(kinds) >= 6, "\n".join(found)
