"""The Table drives the clocks from the engine's prompt and journals them: with each action,
on pause/resume/admin time, and restores them on resume (a restart loses no time)."""
from __future__ import annotations

import pytest

from companion import Journal, Table, TableError
from companion.clocks import ClockConfig, ClockMode, EventKind
from rules.core import IllegalAction, Rng
from rules.core.playout import choose

from .clock_fakes import FakeTime
from .table_helpers import seats_for


def timed(tmp_path, mode=ClockMode.SUDDEN_DEATH, **cfg):
    ft = FakeTime()
    j = Journal.open(tmp_path / "j.sqlite3")
    config = ClockConfig(mode, main=cfg.pop("main", 600), **cfg)
    t = Table.create(j, game_id="tyranny", seats=seats_for("tyranny"), seed=1, clocks=config, clock=ft.mono, wall=ft.wall)
    return t, ft, j


def test_the_running_clock_follows_the_prompt(tmp_path):
    t, ft, j = timed(tmp_path)
    assert t.clocks.running == t.prompt.actors == {"cops-1"}
    ft.wait(10)
    rng = Rng(1)
    seen = set()
    for _ in range(30):
        t.submit(choose(rng, list(t.legal_actions())))
        assert t.clocks.active == t.prompt.actors
        seen |= t.prompt.actors
        ft.wait(3)
    assert seen == {"cops-1", "criminals-2"}
    used = {s: t.clocks.used(s) for s in ("cops-1", "criminals-2")}
    assert sum(used.values()) == pytest.approx(10 + 30 * 3)
    assert all(u > 0 for u in used.values())


def test_clock_state_is_journaled_with_each_action_and_restored(tmp_path):
    t, ft, j = timed(tmp_path)
    ft.wait(5)
    acc = t.roll_for_me()
    assert j.action_clocks(t.key, acc.seq)["active"] == sorted(t.prompt.actors)
    ft.wait(20)
    remaining = {s: t.clocks.remaining(s) for s in t.clocks.seats}
    running = set(t.clocks.running)
    # crash now (no close): the journal has the clocks as of the last action; the 20 s
    # since then and 30 s of downtime are charged to the running seat on resume.
    ft.wait(30)
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    for s in r.clocks.seats:
        want = remaining[s] - (30 if s in running else 0)
        assert r.clocks.remaining(s) == pytest.approx(want)
    assert any(e.kind is EventKind.RESTORED for e in r.tick())


def test_pause_is_journaled(tmp_path):
    t, ft, j = timed(tmp_path)
    ft.wait(5)
    changes = []
    t.subscribe(changes.append)
    t.pause()
    assert [c.kind for c in changes] == ["clock"]
    before = {s: t.clocks.remaining(s) for s in t.clocks.seats}
    ft.wait(100)
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    assert r.clocks.is_paused
    assert {s: r.clocks.remaining(s) for s in r.clocks.seats} == pytest.approx(before)
    r.resume_clocks()
    ft.wait(4)
    assert r.clocks.remaining("cops-1") == pytest.approx(before["cops-1"] - 4)
    r.adjust_clock("cops-1", 60, "phone call")
    assert Table.resume(j, t.key, clock=ft.mono, wall=ft.wall).clocks.remaining("cops-1") == pytest.approx(before["cops-1"] + 56)


def test_undo_by_the_same_seat_gives_no_time_back(tmp_path):
    t, ft, j = timed(tmp_path, mode=ClockMode.FISCHER, increment=5)
    rng = Rng(3)
    while not (t.can_undo() and t._line[-1].seat in t.prompt.actors):
        t.submit(choose(rng, list(t.legal_actions())))
        ft.wait(2)
    seat = t._line[-1].seat
    used = t.clocks.used(seat)
    ft.wait(7)
    t.undo()
    assert t.clocks.active == t.prompt.actors
    assert t.clocks.used(seat) == pytest.approx(used + 7)


def test_undo_across_a_turn_pass_gives_the_turn_and_the_clock_back(tmp_path):
    """A move that passed the turn is undone before the next player acts (issue 32, item 8):
    the mover's clock runs again, without the increment that move earned (undo cannot farm
    increments); the next seat's seconds while it waited stay spent, as a seat's thinking
    time always does; a restart keeps all of it."""
    t, ft, j = timed(tmp_path, mode=ClockMode.FISCHER, increment=5)
    rng = Rng(3)
    while not (t.can_undo() and t._line[-1].seat not in t.prompt.actors):
        t.submit(choose(rng, list(t.legal_actions())))
        ft.wait(2)
    mover = t._line[-1].seat
    [waiting] = t.prompt.actors
    mover_left, mover_moves = t.clocks.remaining(mover), t.clocks.status(mover).moves
    waiting_used = t.clocks.used(waiting)
    ft.wait(7)
    t.undo()
    assert t.prompt.actors == {mover} and t.clocks.active == {mover}
    assert t.clocks.remaining(mover) == pytest.approx(mover_left - 5)
    assert t.clocks.status(mover).moves == mover_moves - 1
    assert t.clocks.used(waiting) == pytest.approx(waiting_used + 7)
    ft.wait(3)
    assert t.clocks.remaining(mover) == pytest.approx(mover_left - 5 - 3)
    now = {s: t.clocks.remaining(s) for s in t.clocks.seats}
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    assert r.clocks.active == {mover} and r.prompt.actors == {mover}
    # The journal holds the clocks as of the undo: resuming charges the mover the 3 s since.
    assert {s: r.clocks.remaining(s) for s in r.clocks.seats} == pytest.approx(now)


def test_tick_reports_warnings_and_over_time(tmp_path):
    from companion.clocks import OvertimePolicy

    t, ft, j = timed(tmp_path, main=30, warning=10, overtime=OvertimePolicy.NONE)
    changes = []
    t.subscribe(changes.append)
    ft.wait(25)
    kinds = [e.kind for e in t.tick()]
    assert EventKind.WARNING in kinds
    ft.wait(10)
    kinds = [e.kind for e in t.tick()]
    assert EventKind.OVER_TIME in kinds
    assert [c.kind for c in changes] == ["clock", "clock"]


def test_a_tick_that_must_not_wait_skips_while_another_thread_commits_and_catches_up(tmp_path):
    """The UI ticks with wait=False: while the input pump's thread holds the Table (its
    journal commit stalled on a slow disk), the tick returns at once; the next tick still
    reports what the time in between brought."""
    import threading

    t, ft, j = timed(tmp_path, main=30, warning=10)
    inside, release = threading.Event(), threading.Event()
    append = j.append

    def slow_append(*a, **kw):
        inside.set()
        release.wait(10)
        return append(*a, **kw)

    j.append = slow_append
    committing = threading.Thread(target=t.submit, args=(next(a for a in t.legal_actions()),))
    committing.start()
    assert inside.wait(5)
    ft.wait(25)
    assert t.tick(wait=False) == []  # at once, not after the commit
    release.set()
    committing.join(5)
    assert EventKind.WARNING in [e.kind for e in t.tick(wait=False)]


def test_penalty_points_are_totalled_per_seat_and_survive_a_restart(tmp_path):
    from companion.clocks import OvertimePolicy

    t, ft, j = timed(tmp_path, main=30, overtime=OvertimePolicy.PENALTY, penalty_per_minute=5)
    (first,) = t.prompt.actors
    assert t.time_penalties() == {}
    ft.wait(31)  # 1 s over: the first started minute
    kinds = [e.kind for e in t.tick()]
    assert EventKind.OVER_TIME in kinds and EventKind.PENALTY in kinds
    assert t.time_penalties() == {first: 5}
    ft.wait(60)  # into the second minute over
    t.tick()
    assert t.time_penalties() == {first: 10}
    assert not t.is_over()  # a penalty is not a loss: play goes on
    t.pause()  # journals the clocks
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    assert r.time_penalties() == {first: 10}


def test_untimed_table_has_no_clocks(tmp_path):
    t = Table.create(Journal.open(":memory:"), game_id="tyranny", seats=seats_for("tyranny"), seed=1)
    assert t.clocks is None and t.tick() == []
    with pytest.raises(TableError):
        t.pause()


def test_a_flag_fall_with_loss_ends_the_game_and_survives_a_restart(tmp_path):
    from companion.clocks import OvertimePolicy

    t, ft, j = timed(tmp_path, main=30, overtime=OvertimePolicy.LOSS)
    changes = []
    t.subscribe(changes.append)
    ft.wait(31)
    t.tick()
    assert [c.kind for c in changes] == ["clock", "over"]
    o = t.outcome
    assert o.winner == "criminals" and o.winning_seats == ("criminals-2",) and o.reason == f"{t.seat_name('cops-1')} ran out of time"
    assert "cops-1" not in o.reason  # players read it: the name, never the seat id
    assert t.is_over() and not t.prompt.actors and list(t.legal_actions()) == []
    assert t.view()["outcome"]["winner"] == "criminals"
    with pytest.raises(IllegalAction):
        t.roll_for_me()
    assert t.undo_reason() is not None
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    assert r.outcome.reason == o.reason and r.is_over()
    assert j.games("finished")[0].key == t.key and j.stats().wins_by_faction == {"criminals": 1}
    assert t.bgstats_link().startswith("bgstats://")


def test_bad_clock_settings_store_no_game():
    from companion.clocks import ClockConfigError

    j = Journal.open(":memory:")
    with pytest.raises(ClockConfigError):
        Table.create(j, game_id="tyranny", seats=seats_for("tyranny"), clocks={"mode": "sundial"})
    assert j.games() == []
    t = Table.create(j, game_id="tyranny", seats=seats_for("tyranny"), clocks=ClockConfig(ClockMode.FISCHER, main=60, increment=2).to_data())
    assert t.clocks.config.mode is ClockMode.FISCHER


@pytest.mark.parametrize("mode, extra", [(ClockMode.FISCHER, {"increment": 3}), (ClockMode.BRONSTEIN, {"delay": 5}),
                                         (ClockMode.SUDDEN_DEATH, {})])
def test_a_seat_lost_on_time_shows_0_00_not_the_increment_of_a_move_never_made(tmp_path, mode, extra):
    # Issue 32, item 12: Bob lost on time and his clock then showed 0:03, the Fischer
    # increment of a move he never completed (the game's end stopped his clock as if he
    # had moved). A flag-fall shows 0:00 on the face, also after a restart.
    from companion.clocks import OvertimePolicy, format_time
    from companion.ui.presenters.clock_face import face_for

    t, ft, j = timed(tmp_path, mode, main=30, overtime=OvertimePolicy.LOSS, **extra)
    loser = next(iter(t.prompt.actors))
    ft.wait(30.2 + extra.get("delay", 0))  # the fall is seen at the next tick, a fraction of a second late
    t.tick()
    assert t.is_over() and t.outcome.reason == f"{t.seat_name(loser)} ran out of time"
    assert t.clocks.remaining(loser) == 0
    face = face_for(t.clocks.status(loser), None, wide=True)
    assert face.time == "0:00" and face.state == "bad"
    ft.wait(5)
    assert format_time(t.clocks.remaining(loser)) == "0:00"
    r = Table.resume(j, t.key, clock=ft.mono, wall=ft.wall)
    assert format_time(r.clocks.remaining(loser)) == "0:00"
