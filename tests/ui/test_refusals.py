"""A programming error reaches the crash report, a refusal the banner (issue 29; the
scenario is in tests/ui/refusal_scenarios.py)."""
from __future__ import annotations


def test_a_programming_error_is_not_shown_as_a_refusal(run_app):
    notes = run_app("refusal_scenarios:programming_error_is_no_banner", "1280x800")["notes"]
    assert "programming error: raised, no banner" in notes
    assert any(n.startswith("refusal: ") and "closed" in n for n in notes)
    assert "presenter bug: raised, no banner" in notes
