"""The real app in a real window, driven by simulated touches (one process per scenario)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_privacy_gate_never_shows_the_secret_before_the_hold(run_app):
    r = run_app("privacy_gate")
    assert any("gate-open" in s for s in r["shots"])
