"""The real app in a real window, driven by simulated touches (one process per scenario)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_privacy_gate_never_shows_the_secret_before_the_hold(run_app):
    r = run_app("privacy_gate")
    assert any("gate-open" in s for s in r["shots"])


def test_a_whole_game_of_tyranny_from_setup_to_winner(run_app):
    r = run_app("full_game", "800x480")
    assert any("game won by the cops" in n for n in r["notes"])


def test_undo_and_refused_actions_show_their_reasons(run_app):
    r = run_app("undo_and_refusals")
    assert any(n.startswith("undo refused") for n in r["notes"])


def test_resume_after_restarting_the_app(run_app, tmp_path):
    import json

    journal = tmp_path / "shared-journal.sqlite3"
    first = json.loads(run_app("resume_first", journal=journal)["notes"][-1])
    second = json.loads(run_app("resume_second", journal=journal)["notes"][-1])
    assert first == second and first["ply"] > 0


@pytest.mark.parametrize("size", ["1280x800", "800x480", "480x800"])
def test_every_screen_lays_out_at(run_app, size):
    run_app("tour", size)


def test_demo_physical_roll_end_to_end(run_app):
    """Simulated hub on a pty → serial bridge → Table → UI."""
    r = run_app("demo_physical_roll", demo=True)
    assert any(n.startswith("unasked roll: roll-not-awaited") for n in r["notes"])


def test_a_slow_journal_commit_does_not_freeze_the_dice_tray(run_app):
    r = run_app("slow_commit_roll")
    assert any(n.startswith("slow commit:") for n in r["notes"])


def test_the_readme_command_opens_the_demo_table_and_a_second_demo_resumes_it(tmp_path):
    """`python -m companion --demo` (the entry point, argument parsing, the demo wiring)
    reaches a frame showing the Tyranny table, with its journal in the user data folder
    (demo.sqlite3, no temporary folder); a second demo resumes the same game."""
    import os
    import subprocess
    import sys

    from companion.journal import Journal
    from tests.ui.conftest import ROOT, XVFB, _env

    env = _env(tmp_path)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env.update(TC_BENCH_FIRST_FRAME="1", TC_BENCH_SCREEN="game:", TMPDIR=str(tmp), XDG_DATA_HOME=str(tmp_path / "data"))
    cmd = [sys.executable, "-m", "companion", "--demo", "--size", "800x480"]
    if not os.environ.get("DISPLAY"):
        cmd = XVFB + cmd
    demo = tmp_path / "data" / "tabletop-companion" / "demo.sqlite3"
    keys = []
    for _run in range(2):
        out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert "screen=game:tyranny" in out.stdout, out.stdout[-2000:] + out.stderr[-2000:]
        assert out.returncode == 0, out.stderr[-2000:]
        assert demo.is_file()
        j = Journal.open(demo)
        try:
            keys.append([g.key for g in j.games()])
        finally:
            j.close()
    assert len(keys[0]) == 1 and keys[1] == keys[0], keys
    assert not [p.name for p in tmp.iterdir() if p.name.startswith("tabletop-demo-")]


def test_escalation_scale_and_simultaneous_secret_commits(run_app):
    run_app("shared_widgets")


@pytest.mark.parametrize("size", ["800x480", "1280x800"])
def test_a_deciding_roll_is_a_result_moment(run_app, size):
    r = run_app("result_moment", size)
    assert any(n.startswith("moment: ") for n in r["notes"])


@pytest.mark.parametrize("size", ["800x480", "1280x800", "600x1024"])
def test_the_first_game_starts_with_a_tour_of_the_table(run_app, tmp_path, size):
    fresh = tmp_path / "fresh-settings.json"  # never written: a new table
    r = run_app("table_tour", size, settings=fresh)
    assert any(n.startswith("tour: ") for n in r["notes"])
