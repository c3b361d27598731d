"""The clocks as the Table runs them: switched to the prompt's actors after every action,
taken back on undo, journaled, and charged for downtime after a crash."""
from __future__ import annotations

import pytest

from companion import Journal, Table
from companion.clocks import ClockConfig, ClockMode
from rules.core import Rng
from rules.core.playout import choose

from .clock_fakes import FakeTime
from .table_helpers import seats_for

FISCHER = ClockConfig(ClockMode.FISCHER, main=600, increment=10)


def new(journal, t: FakeTime, config=FISCHER, seed=1):
    return Table.create(journal, game_id="tyranny", seats=seats_for("tyranny"), seed=seed, clocks=config,
                        clock=t.mono, wall=t.wall)


def act_until_the_actor_changes(table: Table, rng: Rng, t: FakeTime, think: float) -> str | None:
    """Random actions by the current actor (thinking ``think`` s before each) until another
    seat is to act; returns the seat that acted (None if the game ended)."""
    [seat] = table.prompt.actors
    while table.prompt.actors == {seat}:
        t.wait(think)
        table.submit(choose(rng, list(table.legal_actions())))
        if table.outcome is not None:
            return None
    return seat


def test_the_table_runs_the_clock_of_the_seat_to_act():
    t, rng = FakeTime(), Rng(5)
    table = new(Journal.open(":memory:"), t)
    cs = table.clocks
    assert cs.active == table.prompt.actors and len(cs.active) == 1
    moves = {}
    for _ in range(6):
        seat = act_until_the_actor_changes(table, rng, t, think=3)
        moves[seat] = moves.get(seat, 0) + 1
        assert cs.active == table.prompt.actors
    for seat, n in moves.items():
        st = cs.status(seat)
        assert st.moves == n
        assert st.main == pytest.approx(600 + 10 * n - st.used)
    assert sum(cs.used(s["id"]) for s in table.seats) == pytest.approx(t.mono())


def test_undo_through_the_table_keeps_time_spent():
    """An undo of an action after which the same seat acts on leaves the same clock
    running and gives nothing back (across a turn pass: tests/companion/test_table_clocks.py)."""
    t = FakeTime()
    for seed in range(1, 40):
        rng = Rng(seed)
        table = new(Journal.open(":memory:"), t, seed=seed)
        for _ in range(300):
            if table.outcome is not None or table.can_undo() and table._line[-1].seat in table.prompt.actors:
                break
            t.wait(1)
            table.submit(choose(rng, list(table.legal_actions())))
        if table.outcome is None and table.can_undo() and table._line[-1].seat in table.prompt.actors:
            break
    else:
        raise AssertionError("no undoable action in 40 random Tyranny games")
    cs = table.clocks
    [seat] = table.prompt.actors
    before = cs.status(seat)
    t.wait(4)
    table.undo()
    assert table.prompt.actors == {seat} and cs.active == {seat}
    after = cs.status(seat)
    assert after.remaining == pytest.approx(before.remaining - 4)
    assert (after.moves, after.turn_used) == (before.moves, pytest.approx(before.turn_used + 4))


def test_resume_after_a_crash_charges_the_downtime(tmp_path):
    t, rng = FakeTime(), Rng(2)
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    table = new(journal, t)
    act_until_the_actor_changes(table, rng, t, think=5)
    [running] = table.prompt.actors
    at_write = {s["id"]: table.clocks.remaining(s["id"]) for s in table.seats}
    key = table.key
    # the app dies without closing anything; the machine reboots; 300 s pass
    t.wait(300)
    t.reboot()
    journal.close()  # as the dead process's file handles and game lock go with it
    resumed = Table.resume(Journal.open(path), key, clock=t.mono, wall=t.wall)
    cs = resumed.clocks
    assert cs.active == {running}
    for seat, left in at_write.items():
        assert cs.remaining(seat) == pytest.approx(left - (300 if seat == running else 0))
    assert cs.restored_gap == pytest.approx(300)
    assert [e.seat for e in cs.log if e.kind == "restored"] == [running]


def test_a_journaled_pause_survives_a_crash(tmp_path):
    t, rng = FakeTime(), Rng(3)
    path = tmp_path / "journal.sqlite3"
    table = new(Journal.open(path), t)
    act_until_the_actor_changes(table, rng, t, think=5)
    table.pause()
    at_pause = {s["id"]: table.clocks.remaining(s["id"]) for s in table.seats}
    t.wait(1000)
    t.reboot()
    table.journal.close()  # as the dead process's file handles and game lock go with it
    resumed = Table.resume(Journal.open(path), table.key, clock=t.mono, wall=t.wall)
    assert resumed.clocks.is_paused
    assert {s: resumed.clocks.remaining(s) for s in at_pause} == at_pause
