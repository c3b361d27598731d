"""Stepping Stones in the real app, in a window under Xvfb (scenarios.py): listed by the
wizard and played by touch, resumed by a new process on the same journal, and joined in
progress through the wizard's position form."""
from __future__ import annotations

import functools

import pytest

from tests.ui.conftest import run_scenario

pytestmark = pytest.mark.ui


@pytest.fixture
def run_app(tmp_path):
    """The UI tests' scenario runner (tests/ui/conftest.py); the app's process finds the
    game through PYTHONPATH, which install.py extends."""
    return functools.partial(run_scenario, tmp_path)


def test_listed_played_and_resumed_after_a_restart(run_app, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    run_app("tests.plugin_game.scenarios:listed_and_played", journal=journal)
    run_app("tests.plugin_game.scenarios:resumed", journal=journal)


def test_joined_in_progress_through_the_wizard(run_app):
    run_app("tests.plugin_game.scenarios:joined")
