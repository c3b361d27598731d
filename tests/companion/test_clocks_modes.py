"""Every clock mode, the warning and over-time events, the turn timer, pause and admin time."""
from __future__ import annotations

import math

import pytest

from companion.clocks import (
    ClockAdjustError,
    ClockConfig,
    ClockError,
    ClockMode,
    EventKind,
    OvertimePolicy,
    UnknownSeatError,
)

from .clock_fakes import kinds, make


def cfg(mode, **kw):
    return ClockConfig(ClockMode(mode), **kw)


# --- sudden death -------------------------------------------------------------------------
def test_sudden_death_only_the_running_seat_pays():
    cs, t = make(cfg("sudden-death", main=60))
    assert cs.running == frozenset() and cs.remaining("a") == 60
    cs.switch_to("a")
    t.wait(10)
    assert cs.remaining("a") == 50 and cs.remaining("b") == 60
    cs.switch_to("b")
    t.wait(5.5)
    assert cs.remaining("a") == 50 and cs.remaining("b") == 54.5
    assert cs.status("a").moves == 1 and cs.status("b").moves == 0


def test_sudden_death_flag_falls_at_zero_and_keeps_counting():
    cs, t = make(cfg("sudden-death", main=30, overtime="loss"))
    cs.switch_to("a")
    t.wait(29.999)
    assert cs.tick() == []
    t.wait(0.001)
    [e] = cs.tick()
    assert (e.kind, e.seat, e.consequence, e.remaining) == (EventKind.OVER_TIME, "a", OvertimePolicy.LOSS, 0)
    assert "loses on time" in e.message()
    t.wait(12)
    assert cs.tick() == []  # once per crossing
    assert cs.remaining("a") == -12 and cs.status("a").over


def test_no_bonus_in_sudden_death():
    cs, t = make(cfg("sudden-death", main=60))
    for _ in range(3):
        cs.switch_to("a")
        t.wait(1)
        cs.switch_to("b")
        t.wait(1)
    assert cs.remaining("a") == 57 and cs.remaining("b") == 57


# --- Fischer ------------------------------------------------------------------------------
def test_fischer_adds_the_increment_after_every_move_including_the_first():
    cs, t = make(cfg("fischer", main=60, increment=5))
    cs.switch_to("a")
    t.wait(2)
    cs.switch_to("b")  # a's move 1 completes
    assert cs.remaining("a") == 63
    t.wait(8)
    cs.switch_to("a")
    assert cs.remaining("b") == 57
    cs.switch_to("a")  # same seat goes on: no move completed
    assert cs.remaining("a") == 63 and cs.status("a").moves == 1
    cs.switch_to(None)  # a's move 2 completes, nobody to act
    assert cs.remaining("a") == 68 and cs.running == frozenset()
    t.wait(100)
    assert cs.remaining("a") == 68 and cs.remaining("b") == 57


def test_fischer_increment_can_bring_a_seat_back_and_the_next_crossing_reports_again():
    cs, t = make(cfg("fischer", main=10, increment=5, overtime="none", warning=4))
    cs.switch_to("a")
    t.wait(11)
    cs.switch_to("b")  # over by 1 s, then +5
    ev = cs.tick()
    assert kinds(ev) == [("warning", "a"), ("over-time", "a")]
    assert ev[1].consequence is OvertimePolicy.NONE
    assert cs.remaining("a") == 4 and not cs.status("a").over
    cs.switch_to("a")
    t.wait(4)
    assert kinds(cs.tick()) == [("over-time", "a")]  # still warned (never above 4 s): no new warning


# --- Bronstein ----------------------------------------------------------------------------
def test_bronstein_refunds_the_time_used_up_to_the_delay():
    cs, t = make(cfg("bronstein", main=60, delay=5))
    cs.switch_to("a")
    t.wait(3)
    assert cs.remaining("a") == 57  # the clock counts down during the delay…
    assert cs.status("a").delay_left == 2
    cs.switch_to("b")
    assert cs.remaining("a") == 60  # …and gets it back: a quick move costs nothing
    t.wait(12)
    cs.switch_to("a")
    assert cs.remaining("b") == 53  # refund capped at the delay


def test_bronstein_flag_falls_before_the_refund():
    cs, t = make(cfg("bronstein", main=2, delay=5))
    cs.switch_to("a")
    t.wait(3)
    assert kinds(cs.tick()) == [("over-time", "a")]
    cs.switch_to("b")
    assert cs.remaining("a") == 2  # the refund still comes for the completed move


# --- simple (US) delay --------------------------------------------------------------------
def test_simple_delay_starts_the_clock_after_the_delay_each_turn():
    cs, t = make(cfg("simple-delay", main=60, delay=5))
    cs.switch_to("a")
    t.wait(4)
    assert cs.remaining("a") == 60 and cs.status("a").delay_left == 1
    t.wait(3)
    assert cs.remaining("a") == 58 and cs.status("a").delay_left == 0
    cs.switch_to("b")
    assert cs.remaining("a") == 58  # no refund in simple delay
    t.wait(1)
    cs.switch_to("a")
    t.wait(5)
    assert cs.remaining("a") == 58  # a fresh delay for the new turn


def test_simple_delay_survives_a_pause_mid_delay():
    cs, t = make(cfg("simple-delay", main=60, delay=5))
    cs.switch_to("a")
    t.wait(3)
    cs.pause()
    t.wait(100)
    cs.resume()
    assert cs.status("a").delay_left == 2
    t.wait(4)
    assert cs.remaining("a") == 58


# --- hourglass ----------------------------------------------------------------------------
def test_hourglass_time_used_goes_to_the_opponent():
    cs, t = make(cfg("hourglass", main=60))
    cs.switch_to("a")
    t.wait(20)
    assert (cs.remaining("a"), cs.remaining("b")) == (40, 80)
    cs.switch_to("b")
    t.wait(5)
    assert (cs.remaining("a"), cs.remaining("b")) == (45, 75)


def test_hourglass_with_three_seats_shares_equally_and_exactly():
    cs, t = make(cfg("hourglass", main=60), seats=("a", "b", "c"))
    cs.switch_to("a")
    t.wait(0.001)  # 1000 µs: 500 each
    assert cs.remaining("b") == cs.remaining("c") == 60.0005
    t.wait(10)
    assert cs.remaining("b") == cs.remaining("c") == 65.0005
    assert sum(cs.remaining(s) for s in "abc") == 180


def test_hourglass_odd_microseconds_go_round_robin():
    from companion.clocks import ClockSet

    fake = [0.0]
    cs = ClockSet(cfg("hourglass", main=1), ["a", "b", "c"], clock=lambda: fake[0])
    cs.switch_to("a")
    gains = []
    for i in range(1, 5):
        fake[0] = i / 1_000_000
        cs.tick()
        gains.append((cs.status("b").main, cs.status("c").main))
    assert gains == [(1.000001, 1.0), (1.000001, 1.000001), (1.000002, 1.000001), (1.000002, 1.000002)]


def test_hourglass_needs_two_seats():
    with pytest.raises(ClockError):
        make(cfg("hourglass", main=60), seats=("a",))


def test_hourglass_flag():
    cs, t = make(cfg("hourglass", main=10, warning=3))
    cs.switch_to("a")
    t.wait(10)
    assert kinds(cs.tick()) == [("warning", "a"), ("over-time", "a")]
    assert cs.remaining("b") == 20


# --- byo-yomi -----------------------------------------------------------------------------
def byo(**kw):
    return cfg("byo-yomi", **{"main": 60, "periods": 3, "period": 10, **kw})


def test_byoyomi_main_time_first_then_periods():
    cs, t = make(byo())
    assert cs.remaining("a") == 90
    cs.switch_to("a")
    t.wait(59)
    s = cs.status("a")
    assert (s.main, s.period, s.periods_left, s.remaining) == (1, 10, 3, 31)
    assert cs.tick() == []
    t.wait(2)
    s = cs.status("a")
    assert (s.main, s.period, s.periods_left) == (0, 9, 3)
    assert cs.tick() == []  # entering byo-yomi uses no period


def test_byoyomi_a_move_inside_a_period_keeps_it():
    cs, t = make(byo(main=0))
    cs.switch_to("a")
    t.wait(9.5)
    cs.switch_to("b")
    s = cs.status("a")
    assert (s.period, s.periods_left) == (10, 3)
    assert cs.tick() == []


def test_byoyomi_periods_are_used_one_by_one_then_the_flag_falls():
    cs, t = make(byo(main=5))
    cs.switch_to("a")
    t.wait(15)  # main 5 + period 1 exactly
    [e] = cs.tick()
    assert (e.kind, e.periods_left) == (EventKind.PERIOD_USED, 2)
    t.wait(25)  # period 2 (10 s), period 3 (10 s), then 5 s over
    ev = cs.tick()
    assert kinds(ev) == [("period-used", "a"), ("period-used", "a"), ("over-time", "a")]
    assert [e.periods_left for e in ev[:2]] == [1, 0]
    assert cs.remaining("a") == -5 and cs.status("a").periods_left == 0


def test_byoyomi_periods_used_are_not_given_back_by_a_move():
    cs, t = make(byo(main=0))
    cs.switch_to("a")
    t.wait(14)
    cs.switch_to("b")
    s = cs.status("a")
    assert (s.period, s.periods_left, s.remaining) == (10, 2, 20)
    assert kinds(cs.tick()) == [("period-used", "a")]


def test_byoyomi_warning_counts_the_periods():
    cs, t = make(byo(main=10, warning=25))
    cs.switch_to("a")
    t.wait(14.999)
    assert cs.tick() == []
    t.wait(0.001)
    assert kinds(cs.tick()) == [("warning", "a")]


# --- Canadian -----------------------------------------------------------------------------
def canadian(**kw):
    return cfg("canadian", **{"main": 30, "period": 60, "period_moves": 3, **kw})


def play_moves(cs, t, seat, other, seconds):
    for sec in seconds:
        cs.switch_to(seat)
        t.wait(sec)
        cs.switch_to(other)


def test_canadian_main_time_then_blocks_of_moves():
    cs, t = make(canadian())
    assert cs.remaining("a") == 90
    play_moves(cs, t, "a", "b", [20])  # a move in main time does not count for the block
    s = cs.status("a")
    assert (s.main, s.period, s.block_moves) == (10, 60, 0)
    play_moves(cs, t, "a", "b", [25])  # 10 from main, 15 from the block: move 1 of 3
    s = cs.status("a")
    assert (s.main, s.period, s.block_moves, s.remaining) == (0, 45, 1, 45)
    play_moves(cs, t, "a", "b", [10, 20])  # moves 2 and 3 complete the block: a fresh one
    s = cs.status("a")
    assert (s.period, s.block_moves) == (60, 0)
    assert cs.tick() == []


def test_canadian_flag_falls_when_the_block_runs_out():
    cs, t = make(canadian(main=0, warning=10))
    play_moves(cs, t, "a", "b", [20, 20])
    cs.switch_to("a")
    t.wait(20)
    assert kinds(cs.tick()) == [("warning", "a"), ("over-time", "a")]
    cs.switch_to("b")  # a move after the flag fell brings no new block
    s = cs.status("a")
    assert (s.period, s.block_moves, s.remaining) == (0, 2, 0)


def test_canadian_undo_restores_the_block_count():
    cs, t = make(canadian(main=0))
    play_moves(cs, t, "a", "b", [5, 5, 5])  # third move: fresh block
    assert (cs.status("a").period, cs.status("a").block_moves) == (60, 0)
    cs.switch_to("a", undo=True)
    s = cs.status("a")
    assert (s.period, s.block_moves, s.turn_used) == (45, 2, 5)


def test_canadian_admin_time_taken_comes_from_the_block():
    cs, t = make(canadian(main=5))
    cs.adjust("a", -20)
    s = cs.status("a")
    assert (s.main, s.period) == (0, 45)


# --- untimed and the turn timer ----------------------------------------------------------
def test_untimed_counts_time_used_and_never_flags():
    cs, t = make(cfg("untimed", overtime="none"))
    cs.switch_to("a")
    t.wait(1e6)
    assert cs.remaining("a") == math.inf and cs.used("a") == 1e6
    assert cs.tick() == []
    with pytest.raises(ClockAdjustError):
        cs.adjust("a", 10)


def test_turn_timer_expires_once_per_turn():
    cs, t = make(cfg("sudden-death", main=600, turn_limit=120))
    assert cs.turn_remaining() is None
    cs.switch_to("a")
    t.wait(100)
    assert cs.turn_remaining() == 20 and cs.turn_remaining("a") == 20 and cs.turn_remaining("b") is None
    assert cs.status("a").turn_remaining == 20
    t.wait(20)
    [e] = cs.tick()
    assert (e.kind, e.seat) == (EventKind.TURN_OVER, "a")
    t.wait(30)
    assert cs.tick() == [] and cs.turn_remaining() == -30
    cs.switch_to("a")  # a continues: same turn
    assert cs.tick() == []
    cs.switch_to("b")
    assert cs.turn_remaining() == 120
    cs.switch_to("a")  # a's new turn
    assert cs.turn_remaining() == 120


def test_turn_timer_with_simultaneous_seats_and_pause():
    cs, t = make(cfg("untimed", overtime="none", turn_limit=60), seats=("a", "b", "c"))
    cs.switch_to({"a", "b"})
    t.wait(30)
    cs.switch_to("b")  # a committed; b keeps thinking on the same turn
    cs.pause()
    t.wait(1000)
    assert cs.turn_remaining("b") == 30
    cs.resume()
    t.wait(30)
    assert kinds(cs.tick()) == [("turn-over", "b")]


def test_no_turn_timer_configured():
    cs, t = make(cfg("sudden-death", main=60))
    cs.switch_to("a")
    assert cs.turn_remaining() is None and cs.turn_remaining("a") is None


# --- warnings, penalties ----------------------------------------------------------------
def test_warning_once_per_crossing_and_again_after_time_is_given_back():
    cs, t = make(cfg("sudden-death", main=100, warning=30))
    cs.switch_to("a")
    t.wait(70)
    [e] = cs.tick()
    assert (e.kind, e.remaining) == (EventKind.WARNING, 30)
    t.wait(10)
    assert cs.tick() == []
    cs.adjust("a", 60, reason="table talk")
    assert kinds(cs.tick()) == [("adjusted", "a")]
    t.wait(50)
    assert kinds(cs.tick()) == [("warning", "a")]


def test_a_seat_that_starts_below_the_warning_is_not_warned():
    cs, t = make(cfg("sudden-death", main=20, warning=30))
    cs.switch_to("a")
    t.wait(5)
    assert cs.tick() == []


def test_penalty_per_started_minute_over():
    cs, t = make(cfg("sudden-death", main=60, overtime="penalty", penalty_per_minute=10))
    cs.switch_to("a")
    t.wait(60)
    ev = cs.tick()
    assert kinds(ev) == [("over-time", "a"), ("penalty", "a")]
    assert ev[0].consequence is OvertimePolicy.PENALTY
    assert (ev[1].minute, ev[1].points) == (1, 10)
    t.wait(60)
    assert cs.tick() == []  # still inside the first minute (exactly 60 s over)
    t.wait(0.001)
    [e] = cs.tick()
    assert (e.kind, e.minute, e.points) == (EventKind.PENALTY, 2, 10)
    t.wait(185)  # 245.001 s over: minutes 3, 4, 5
    assert [e.minute for e in cs.tick()] == [3, 4, 5]
    assert cs.status("a").penalty_minutes == 5


def test_penalty_is_not_charged_twice_for_the_same_minute():
    cs, t = make(cfg("fischer", main=10, increment=30, overtime="penalty", penalty_per_minute=1))
    cs.switch_to("a")
    t.wait(20)  # 10 s over: minute 1
    cs.switch_to("b")  # +30: back to 20 s
    assert [e.kind.value for e in cs.tick()] == ["over-time", "penalty"]
    cs.switch_to("a")
    t.wait(40)  # 20 s over again: the same first minute
    assert kinds(cs.tick()) == [("over-time", "a")]
    assert cs.status("a").penalty_minutes == 1


def test_events_are_not_lost_when_tick_is_late():
    cs, t = make(cfg("fischer", main=10, increment=20, warning=5, overtime="none"))
    cs.switch_to("a")
    t.wait(12)
    cs.switch_to("b")  # crossed twice, then the increment lifted a above both lines
    assert kinds(cs.tick()) == [("warning", "a"), ("over-time", "a")]


# --- pause --------------------------------------------------------------------------------
def test_pause_stops_every_clock_and_switching_still_works():
    cs, t = make(cfg("fischer", main=60, increment=2, turn_limit=30))
    cs.switch_to("a")
    t.wait(10)
    cs.pause()
    cs.pause()  # twice is harmless
    assert cs.is_paused and cs.running == frozenset() and cs.active == {"a"}
    t.wait(500)
    assert cs.remaining("a") == 50 and cs.turn_remaining() == 20
    cs.switch_to("b")  # the Table may take an action while paused: a's move completes
    assert cs.remaining("a") == 52
    t.wait(500)
    cs.resume()
    cs.resume()
    assert cs.running == {"b"}
    t.wait(1)
    assert cs.remaining("b") == 59 and cs.remaining("a") == 52


# --- simultaneous actors ----------------------------------------------------------------
def test_simultaneous_actors_all_run_and_complete_separately():
    cs, t = make(cfg("fischer", main=60, increment=5), seats=("a", "b", "c"))
    cs.switch_to(["a", "b"])
    assert cs.running == {"a", "b"}
    t.wait(4)
    cs.switch_to("b")  # a committed
    t.wait(6)
    cs.switch_to("c")  # b committed
    assert cs.remaining("a") == 61 and cs.remaining("b") == 55 and cs.remaining("c") == 60
    assert cs.used("a") == 4 and cs.used("b") == 10


# --- admin time ---------------------------------------------------------------------------
def test_adjust_adds_and_removes_time_and_logs_it():
    cs, t = make(cfg("sudden-death", main=60))
    cs.switch_to("a")
    t.wait(10)
    cs.adjust("a", 30, reason="phone call")
    cs.adjust("b", -15.5)
    assert cs.remaining("a") == 80 and cs.remaining("b") == 44.5
    log = cs.log
    assert [(e.kind, e.seat, e.delta, e.reason) for e in log] == [
        ("adjusted", "a", 30, "phone call"),
        ("adjusted", "b", -15.5, ""),
    ]
    assert log[0].wall == pytest.approx(t.wall())
    ev = cs.tick()
    assert [(e.kind, e.delta) for e in ev] == [(EventKind.ADJUSTED, 30), (EventKind.ADJUSTED, -15.5)]
    assert "added" in ev[0].message() and "removed" in ev[1].message()


def test_adjust_can_flag_a_seat():
    cs, t = make(cfg("sudden-death", main=60))
    cs.adjust("b", -60)
    assert kinds(cs.tick()) == [("adjusted", "b"), ("over-time", "b")]


def test_adjust_byoyomi_takes_from_main_then_the_period():
    cs, t = make(byo(main=5))
    cs.adjust("a", -12)
    s = cs.status("a")
    assert (s.main, s.period, s.periods_left) == (0, 3, 3)
    cs.adjust("a", 7)
    assert cs.status("a").main == 7
    cs.adjust("a", -20)  # 7 from main, 3 empties the current period, 10 the next one
    assert kinds(cs.tick()) == [("adjusted", "a")] * 3 + [("period-used", "a")] * 2
    s = cs.status("a")
    assert (s.main, s.period, s.periods_left, s.remaining) == (0, 10, 1, 10)


def test_adjust_rejects_nonsense():
    cs, t = make(cfg("sudden-death", main=60))
    for bad in (0, 0.0000001, math.nan, math.inf, "5", True):
        with pytest.raises(ClockAdjustError):
            cs.adjust("a", bad)
    with pytest.raises(UnknownSeatError):
        cs.adjust("z", 5)
    assert cs.log == () and cs.tick() == []


def test_unknown_seats_are_refused_everywhere():
    cs, t = make(cfg("sudden-death", main=60))
    for call in (lambda: cs.switch_to("z"), lambda: cs.switch_to(["a", "z"]), lambda: cs.remaining("z"),
                 lambda: cs.status("z"), lambda: cs.used("z"), lambda: cs.turn_remaining("z")):
        with pytest.raises(UnknownSeatError) as err:
            call()
        assert isinstance(err.value, ValueError) and "'z'" in str(err.value)
    assert cs.active == frozenset()


def test_seat_lists_are_checked():
    with pytest.raises(ClockError):
        make(cfg("sudden-death", main=60), seats=())
    with pytest.raises(ClockError):
        make(cfg("sudden-death", main=60), seats=("a", "a"))


def test_a_clock_going_backwards_gives_no_time_back():
    fake = [100.0]
    from companion.clocks import ClockSet

    cs = ClockSet(cfg("sudden-death", main=60), ["a", "b"], clock=lambda: fake[0])
    cs.switch_to("a")
    fake[0] = 110.0
    assert cs.remaining("a") == 50
    fake[0] = 90.0
    assert cs.remaining("a") == 50
    fake[0] = 95.0
    assert cs.remaining("a") == 45
