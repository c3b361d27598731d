"""Dicetopia's table screen in the real app, in a real window (Xvfb), by simulated touches:
a short game from the wizard to the tally, with the layout check at 800×480, at 100 % and
160 % text (one process per run; screenshots in artifacts/ui/dt-*.png)."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("text_scale", [1.0, 1.6])
def test_a_short_game_from_the_wizard_to_the_tally(run_app, text_scale):
    r = run_app("dicetopia.scenarios:dicetopia_short_game", "800x480", text_scale=text_scale)
    assert any("city entered in 19 taps" in n for n in r["notes"])
    problems = json.loads(r["notes"][-1])
    assert not problems, "\n".join(problems)
    assert any("dt-end-tally" in s for s in r["shots"]) and any("dt-gate-keep" in s for s in r["shots"])
