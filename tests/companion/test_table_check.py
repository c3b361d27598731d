"""Table.check and Table.check_undo: a tap checked at once on the UI thread, changing
nothing, agreeing with what submit and undo then do; ``wait=False`` never waits out a
commit another thread is making (the input pump's: companion/ui/pump.py)."""
from __future__ import annotations

import dataclasses
import threading

import pytest

from companion import Journal, UndoRefused
from rules.core import IllegalAction, Rng
from rules.core.playout import choose

from .table_helpers import GAMES, new_table


@pytest.mark.parametrize("game", GAMES)
def test_check_agrees_with_submit_and_changes_nothing(tmp_path, game):
    t = new_table(Journal.open(tmp_path / "j.sqlite3"), game, seed=5)
    rng = Rng(9)
    for _ in range(40):
        legal = list(t.legal_actions())
        if not legal:
            break
        action = choose(rng, legal)
        # The same action by a seat that may not act now: refused by check as by submit.
        others = [s["id"] for s in t.seats if s["id"] not in t.prompt.actors]
        if others and getattr(action, "seat", None):
            wrong = dataclasses.replace(action, seat=others[0])
            ply, version = t.ply, t._version
            with pytest.raises(IllegalAction) as by_check:
                t.check(wrong)
            with pytest.raises(IllegalAction) as by_submit:
                t.submit(wrong)
            assert [v.code for v in by_check.value.violations] == [v.code for v in by_submit.value.violations]
            assert (t.ply, t._version) == (ply, version)
        assert t.check(action) is True and t.ply == len(t._line)
        t.submit(action)


def test_check_undo_agrees_with_undo(tmp_path):
    t = new_table(Journal.open(tmp_path / "j.sqlite3"), "tyranny", seed=5)
    with pytest.raises(UndoRefused) as refused:
        t.check_undo()  # nothing to undo at the start
    assert refused.value.code == "nothing-to-undo"
    rng = Rng(2)
    for _ in range(30):
        t.submit(choose(rng, list(t.legal_actions())))
        if t.undo_reason() is None:
            break
    assert t.undo_reason() is None
    ply = t.ply
    assert t.check_undo() is True and t.ply == ply
    t.undo()
    assert t.ply == ply - 1


def test_wait_false_does_not_wait_out_another_threads_commit(tmp_path):
    t = new_table(Journal.open(tmp_path / "j.sqlite3"), "tyranny", seed=5)
    action = next(iter(t.legal_actions()))
    held, go = threading.Event(), threading.Event()

    def commit() -> None:  # another thread holds the Table, as the pump does during a commit
        with t._lock:
            held.set()
            go.wait(10)

    th = threading.Thread(target=commit)
    th.start()
    assert held.wait(10)
    try:
        assert t.check(action, wait=False) is False  # unchecked: the submit checks it then
        assert t.check_undo(wait=False) is False
    finally:
        go.set()
        th.join(10)
    assert t.check(action, wait=False) is True
