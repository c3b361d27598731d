"""Scenarios of the journal's damage as the player meets it (issue 31), run by
tests/ui/test_journal_ui.py in the real app."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import _wait_for, settle


def game_damaged(d: Any) -> Iterator[float]:
    """One game's record is damaged after the app opened the journal (the test's two
    Tyranny games): Resume says so in plain words, the app stays on home, the damaged game
    leaves the list, and the other game still resumes."""
    yield from settle(d)
    scr = d.app.sm.get_screen("home")
    first, other = scr.resume_rows[0].key, scr.resume_rows[1].key
    # An action's JSON cut short, as damage met after the open's check leaves it.
    d.app.journal._db.execute("UPDATE actions SET action=substr(action, 1, length(action) - 1)"
                              " WHERE game_key=? AND seq=3", (first,))
    d.tap(d.find("Resume Tyranny"))  # the first button: the newest game, the damaged one
    yield from _wait_for(lambda: "damaged" in scr.message, 5)
    d.note(scr.message)
    d.check(d.app.sm.current == "home" and d.app.table is None, "the damaged game did not open")
    d.check("saved record is damaged" in scr.message and "Error" not in scr.message
            and "JSON" not in scr.message, f"message: {scr.message!r}")
    yield 0.3  # drawn, and the lists reloaded
    d.check([r.key for r in scr.resume_rows] == [other], f"rows: {[r.key for r in scr.resume_rows]}")
    d.check(d.has("saved record is damaged", root=scr), "the message is on screen")
    d.shot("home-game-damaged")
    d.tap(d.find("Resume Tyranny"))
    yield from _wait_for(lambda: d.app.sm.current == "game:tyranny", 10)
    d.check(d.app.table is not None and d.app.table.key == other, "the other game resumes")
    d.note(f"resumed {d.app.table.key} ply {d.app.table.ply}")
