"""The Table: journal first, resume equals a clean replay, snapshots, rollback when the
journal fails, notifications, log and history."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion import Accepted, Change, Journal, Table, TableError
from companion.journal import JournalError
from rules.core import IllegalAction, Rng, Roll
from rules.core.playout import choose

from .table_helpers import GAMES, clean_replay, line, new_table, play, same_state, seats_for


@settings(max_examples=25)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 120),
       every=st.integers(1, 30), undo_rate=st.sampled_from([0, 3, 6]))
def test_resume_equals_clean_replay(game, seed, steps, every, undo_rate):
    j = Journal.open(":memory:", snapshot_every=every)
    t = new_table(j, game, seed=seed)
    play(t, Rng(seed + 1), steps, undo_rate=undo_rate)
    r = Table.resume(j, t.key)
    assert same_state(r.state, t.state)
    assert same_state(r.state, clean_replay(t))
    assert [e.seq for e in r._line] == [e.seq for e in t._line]
    assert [e.seq for e in r._redo] == [e.seq for e in t._redo]
    assert r.log() == t.log()
    assert r.can_redo() == t.can_redo() and r.undo_reason() == t.undo_reason()
    # the resumed table plays on (its history loads lazily) and resumes again exactly
    play(r, Rng(seed + 2), 15, undo_rate=undo_rate or 4)
    again = Table.resume(j, t.key)
    assert same_state(again.state, r.state) and same_state(again.state, clean_replay(r))
    assert [e.seq for e in again._line] == [e.seq for e in r._line]


def test_resume_starts_from_the_newest_snapshot(tmp_path, monkeypatch):
    j = Journal.open(tmp_path / "j.sqlite3", snapshot_every=10)
    for seed in range(50):
        t = new_table(j, "tyranny", seed=seed)
        play(t, Rng(seed), 35)
        if t.ply == 35:
            break
    n = t.ply
    assert n == 35
    assert j.latest_snapshot(t.key, n)[0] == n - n % 10
    pushed = []
    real = t.game.push
    monkeypatch.setattr(t.game, "push", lambda s, a: (pushed.append(a), real(s, a)))
    r = Table.resume(j, t.key)
    assert len(pushed) == n % 10
    assert same_state(r.state, t.state)


def test_journal_commit_comes_before_anyone_is_told(tmp_path):
    j = Journal.open(tmp_path / "j.sqlite3")
    t = new_table(j, "tyranny", seed=2)
    seen = []

    def on_change(change: Change) -> None:
        # A second connection sees the committed row at the moment we are told.
        other = Journal.open(tmp_path / "j.sqlite3")
        seen.append((change.kind, change.ply, other.in_force_count(t.key)))
        other.close()

    t.subscribe(on_change)
    acc = t.roll_for_me()
    assert isinstance(acc, Accepted) and acc.ply == 0 and acc.action.source == "app"
    assert seen == [("action", 1, 1)]


def test_illegal_action_changes_nothing(tmp_path):
    j = Journal.open(":memory:")
    t = new_table(j, "tyranny", seed=2)
    before = t.view()
    seat = sorted(t.prompt.actors)[0]
    other = next(s["id"] for s in t.seats if s["id"] != seat)
    with pytest.raises(IllegalAction) as e:
        t.submit(Roll(other, (3,)))
    assert "not-your-turn" in e.value.codes
    assert t.view() == before and t.ply == 0 and j.actions(t.key) == []


class FailingJournal(Journal):
    fail = False

    def append(self, *a, **kw):
        if self.fail:
            raise JournalError("disk full")
        return super().append(*a, **kw)


def test_a_failed_journal_write_leaves_the_table_as_the_journal_has_it():
    j = FailingJournal.open(":memory:", snapshot_every=3)
    t = new_table(j, "tyranny", seed=5)
    play(t, Rng(1), 10)
    before, ply = t.view(), t.ply
    told = []
    t.subscribe(told.append)
    j.fail = True
    with pytest.raises(JournalError):
        t.roll_for_me() if t.game.sample(t.state) else t.submit(next(iter(t.legal_actions())))
    assert t.view() == before and t.ply == ply and told == []
    assert same_state(t.state, clean_replay(t))
    j.fail = False
    play(t, Rng(2), 5)
    assert same_state(Table.resume(j, t.key).state, t.state)


def test_unknown_device_seat_and_bad_setup_are_refused():
    j = Journal.open(":memory:")
    with pytest.raises(TableError, match="not a seat"):
        new_table(j, devices={"hub1/0": "nobody"})
    with pytest.raises(ValueError):
        Table.create(j, game_id="tyranny", seats=[{"id": "x", "faction": "pirates"}])
    assert j.games() == []


def test_devices_without_prefix_mean_dice():
    t = new_table(Journal.open(":memory:"), devices={"hub1/0": "cops-1"})
    assert t.devices == {"die:hub1/0": "cops-1"}


def test_log_has_undone_lines_and_times():
    wall = iter(float(x) for x in range(10**6, 10**7))
    j = Journal.open(":memory:")
    t = Table.create(j, game_id="tyranny", seats=seats_for("tyranny"), seed=3, wall=lambda: next(wall))
    rng = Rng(9)
    undone = 0
    while undone < 3 and t.outcome is None:
        play(t, rng, 1)
        if t.can_undo():
            t.undo()
            undone += 1
    lines = t.log()
    assert sum(1 for l in lines if l.undone) == undone
    assert all(l.text.startswith("undone — ") for l in lines if l.undone)
    assert all(l.time is not None for l in lines if l.ply < t.ply)
    assert sum(1 for r in t.history() if r.undone) == undone
    assert all(r.undone for r in j.actions(t.key) if r.undone)


def test_export_of_the_table(tmp_path):
    j = Journal.open(":memory:")
    t = new_table(j, "liberation", seed=3)
    play(t, Rng(3), 3000, undo_rate=5)
    assert t.outcome is not None
    data = json.loads(t.export_json())
    assert data["status"] == "finished" and data["seed"] == 3
    assert len(data["actions"]) == len(t._entries)
    csv = t.export_csv().splitlines()
    assert csv[0].startswith("turn,ply,") and len(csv) > 2
    assert t.bgstats_link().startswith("bgstats://")


def test_closed_table_refuses_changes():
    t = new_table(Journal.open(":memory:"))
    t.close()
    with pytest.raises(ValueError, match="closed"):
        t.roll_for_me()


def test_calls_from_several_threads_do_not_interleave(tmp_path):
    """The UI thread is the only caller by contract; the lock keeps a stray second thread
    from interleaving with a change anyway."""
    import threading

    j = Journal.open(tmp_path / "j.sqlite3", snapshot_every=5)
    for seed in range(50):
        t = new_table(j, "tyranny", seed=seed)
        errors: list[BaseException] = []

        def worker(n: int) -> None:
            rng = Rng(n)
            try:
                for _ in range(40):
                    if t.is_over():
                        return
                    try:
                        if rng.randint(1, 4) == 1:
                            t.undo()
                        else:
                            with t._lock:  # choose and submit against the same state
                                t.submit(choose(rng, list(t.legal_actions())))
                    except (IllegalAction, ValueError):
                        pass
                    t.log()
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(3)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert not errors
        assert same_state(t.state, clean_replay(t))
        r = Table.resume(j, t.key)
        assert same_state(r.state, t.state) and [e.seq for e in r._line] == [e.seq for e in t._line]
        if t.ply > 20:
            break
