"""Property tests: whatever the sequence of turns, pauses, undos and admin changes, the
clocks keep their promises."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clocks import ClockConfig, ClockMode, ClockSet, EventKind

from .clock_fakes import FakeTime

SEATS = ("a", "b", "c")
MS = st.integers(min_value=1, max_value=300_000)  # setting values, in milliseconds


def configs(mode: ClockMode) -> st.SearchStrategy[ClockConfig]:
    def sec(ms):
        return ms.map(lambda v: v / 1000)

    common = dict(
        warning=st.one_of(st.none(), sec(MS)),
        turn_limit=st.one_of(st.none(), sec(MS)),
    )
    if mode is ClockMode.SUDDEN_DEATH or mode is ClockMode.HOURGLASS:
        return st.builds(ClockConfig, st.just(mode), main=sec(MS), **common)
    if mode is ClockMode.FISCHER:
        return st.builds(ClockConfig, st.just(mode), main=sec(MS), increment=sec(MS), **common)
    if mode in (ClockMode.BRONSTEIN, ClockMode.SIMPLE_DELAY):
        return st.builds(ClockConfig, st.just(mode), main=sec(MS), delay=sec(MS), **common)
    if mode is ClockMode.BYO_YOMI:
        return st.builds(
            ClockConfig, st.just(mode), main=sec(st.integers(0, 300_000)), periods=st.integers(1, 6),
            period=sec(MS), **common,
        )
    if mode is ClockMode.CANADIAN:
        return st.builds(
            ClockConfig, st.just(mode), main=sec(st.integers(0, 300_000)), period=sec(MS),
            period_moves=st.integers(1, 5), **common,
        )
    return st.builds(ClockConfig, st.just(mode), overtime=st.just("none"), turn_limit=st.one_of(st.none(), sec(MS)))


ALL_CONFIGS = st.one_of(*[configs(m) for m in ClockMode])

seat_sets = st.frozensets(st.sampled_from(SEATS), max_size=3)
OP = st.one_of(
    st.tuples(st.just("wait"), st.integers(0, 120_000)),
    st.tuples(st.just("wait"), st.integers(0, 120_000)),
    st.tuples(st.just("switch"), seat_sets),
    st.tuples(st.just("switch"), st.sampled_from(SEATS).map(lambda s: frozenset([s]))),
    st.tuples(st.just("undo"), st.sampled_from(SEATS).map(lambda s: frozenset([s]))),
    st.tuples(st.just("pause")),
    st.tuples(st.just("resume")),
    st.tuples(st.just("tick")),
)
ADJUST = st.tuples(st.just("adjust"), st.sampled_from(SEATS), st.integers(-60_000, 60_000).filter(bool))
OPS = st.lists(OP, max_size=40)
OPS_WITH_ADJUST = st.lists(st.one_of(OP, ADJUST), max_size=40)


class Run:
    """Drives a ClockSet through ops while keeping the harness's own account of time."""

    def __init__(self, config: ClockConfig, seats=SEATS) -> None:
        self.t = FakeTime()
        self.cs = ClockSet(config, list(seats), clock=self.t.mono, wall=self.t.wall)
        self.config = config
        self.active: frozenset[str] = frozenset()
        self.paused = False
        self.charged_ms = 0  # Σ wait × number of running seats
        self.busy_ms = 0  # time during which at least one seat ran
        self.adjusted = {s: 0.0 for s in seats}
        self.events: list = []

    def apply(self, op) -> None:
        kind = op[0]
        cs = self.cs
        if kind == "wait":
            self.t.wait(op[1] / 1000)
            if not self.paused and self.active:
                self.charged_ms += op[1] * len(self.active)
                self.busy_ms += op[1]
        elif kind == "switch":
            cs.switch_to(op[1] or None)
            self.active = op[1]
        elif kind == "undo":
            cs.switch_to(op[1], undo=True)
            self.active = op[1]
        elif kind == "pause":
            cs.pause()
            self.paused = True
        elif kind == "resume":
            cs.resume()
            self.paused = False
        elif kind == "tick":
            self.events += cs.tick()
        elif kind == "adjust":
            if self.config.mode is ClockMode.UNTIMED:
                return
            cs.adjust(op[1], op[2] / 1000)
            self.adjusted[op[1]] += op[2] / 1000

    def finish(self) -> list:
        self.events += self.cs.tick()
        return self.events

    def used_total(self) -> float:
        return sum(self.cs.used(s) for s in self.cs.seats)


def close(x: float, y: float) -> bool:
    return math.isclose(x, y, abs_tol=1e-6)


@given(ALL_CONFIGS, OPS)
def test_time_is_conserved(config, ops):
    run = Run(config)
    for op in ops:
        run.apply(op)
        assert close(run.used_total(), run.charged_ms / 1000)
        assert run.cs.running == (frozenset() if run.paused else run.active)


@given(ALL_CONFIGS, st.lists(st.one_of(
    st.tuples(st.just("wait"), st.integers(0, 120_000)),
    st.tuples(st.just("switch"), st.sampled_from(SEATS + (None,))),
    st.tuples(st.just("pause")), st.tuples(st.just("resume"))), max_size=40))
def test_one_seat_at_a_time_spends_exactly_the_wall_time(config, ops):
    run = Run(config)
    for op in ops:
        if op[0] == "switch":
            op = ("switch", frozenset() if op[1] is None else frozenset([op[1]]))
        run.apply(op)
    assert close(run.used_total(), run.busy_ms / 1000)


@given(configs(ClockMode.FISCHER), OPS_WITH_ADJUST)
def test_fischer_adds_exactly_one_increment_per_completed_move(config, ops):
    run = Run(config)
    completed = {s: 0 for s in SEATS}
    for op in ops:
        before = run.active
        run.apply(op)
        if op[0] == "switch":
            for s in before - op[1]:
                completed[s] += 1
        for s in SEATS:
            st_ = run.cs.status(s)
            expect = config.main + config.increment * st_.moves - st_.used + run.adjusted[s]
            assert close(st_.main, expect)
    if not any(op[0] == "undo" for op in ops):
        assert {s: run.cs.status(s).moves for s in SEATS} == completed


@given(configs(ClockMode.BRONSTEIN), OPS)
def test_bronstein_never_adds_more_than_was_used(config, ops):
    run = Run(config)
    for op in ops:
        run.apply(op)
        for s in SEATS:
            st_ = run.cs.status(s)
            refund = st_.main - (config.main - st_.used)
            assert -1e-6 <= refund <= st_.used + 1e-6
            assert refund <= config.delay * st_.moves + 1e-6
            assert st_.main <= config.main + 1e-6


@given(configs(ClockMode.SIMPLE_DELAY), OPS)
def test_simple_delay_never_charges_more_than_was_used(config, ops):
    run = Run(config)
    for op in ops:
        run.apply(op)
        for s in SEATS:
            st_ = run.cs.status(s)
            assert -1e-6 <= config.main - st_.main <= st_.used + 1e-6


@given(configs(ClockMode.HOURGLASS), OPS_WITH_ADJUST, st.integers(2, 3))
def test_hourglass_one_seats_loss_is_the_others_gain(config, ops, n):
    seats = SEATS[:n]
    run = Run(config, seats)
    total0 = config.main * n
    for op in ops:
        if op[0] in ("switch", "undo"):
            op = (op[0], frozenset(s for s in op[1] if s in seats))
        if op[0] == "adjust" and op[1] not in seats:
            continue
        run.apply(op)
        mains = [run.cs.status(s).main for s in seats]
        assert close(sum(mains), total0 + sum(run.adjusted.values()))
        if n == 2 and run.active and len(run.active) == 1 and not any(o[0] == "adjust" for o in ops):
            # two seats: what one has lost the other has won
            a, b = (run.cs.status(s) for s in seats)
            assert close(a.main - config.main, b.used - a.used)


@given(configs(ClockMode.BYO_YOMI), OPS)
def test_byoyomi_counts_each_period_once(config, ops):
    run = Run(config)
    seen = {s: config.periods for s in SEATS}
    for op in ops:
        run.apply(op)
        for s in SEATS:
            st_ = run.cs.status(s)
            assert st_.periods_left <= seen[s]  # periods never come back
            seen[s] = st_.periods_left
            assert 0 <= st_.main <= config.main + 1e-6
            if st_.periods_left:
                assert 0 < st_.period <= config.period + 1e-6
            else:
                assert st_.period <= 0
    events = run.finish()
    for s in SEATS:
        used = [e for e in events if e.seat == s and e.kind is EventKind.PERIOD_USED]
        assert len(used) == config.periods - run.cs.status(s).periods_left
        assert [e.periods_left for e in used] == list(range(config.periods - 1, run.cs.status(s).periods_left - 1, -1))
        overs = [e for e in events if e.seat == s and e.kind is EventKind.OVER_TIME]
        assert len(overs) == (1 if run.cs.status(s).periods_left == 0 else 0)


@given(configs(ClockMode.CANADIAN), OPS)
def test_canadian_blocks(config, ops):
    run = Run(config)
    for op in ops:
        run.apply(op)
        run.cs.tick()  # flags are brought up to date by tick (and switch, pause, adjust)
        for s in SEATS:
            st_ = run.cs.status(s)
            assert 0 <= st_.block_moves < config.period_moves
            assert 0 <= st_.main <= config.main + 1e-6
            assert st_.period <= config.period + 1e-6
            if st_.main > 0:  # the block has not started
                assert (st_.period, st_.block_moves) == (config.period, 0)
            assert st_.over == (st_.remaining <= 0)


@given(ALL_CONFIGS, OPS_WITH_ADJUST, st.integers(1, 120_000))
def test_pause_stops_everything(config, ops, wait_ms):
    run = Run(config)
    for op in ops:
        run.apply(op)
    run.apply(("pause",))
    run.cs.tick()  # hand out what happened before the pause
    before = [run.cs.status(s) for s in SEATS], run.cs.turn_remaining()
    run.t.wait(wait_ms / 1000)
    assert ([run.cs.status(s) for s in SEATS], run.cs.turn_remaining()) == before
    assert run.cs.tick() == []


@given(configs(ClockMode.SUDDEN_DEATH), OPS)
def test_sudden_death_warns_and_flags_once(config, ops):
    run = Run(config)
    for op in ops:
        run.apply(op)
    events = run.finish()
    for s in SEATS:
        rem = run.cs.remaining(s)
        warnings = [e for e in events if e.seat == s and e.kind is EventKind.WARNING]
        overs = [e for e in events if e.seat == s and e.kind is EventKind.OVER_TIME]
        expect_warn = config.warning is not None and rem <= config.warning < config.main
        assert len(warnings) == int(expect_warn)
        assert len(overs) == int(rem <= 0)


@given(st.integers(1, 300_000), st.integers(1, 20), OPS)
def test_penalty_minutes_follow_the_deepest_overrun(main_ms, points, ops):
    config = ClockConfig(ClockMode.SUDDEN_DEATH, main=main_ms / 1000, overtime="penalty", penalty_per_minute=points)
    run = Run(config)
    for op in ops:
        run.apply(op)
    events = run.finish()
    for s in SEATS:
        rem = run.cs.remaining(s)
        pens = [e for e in events if e.seat == s and e.kind is EventKind.PENALTY]
        expect = 0 if rem > 0 else max(1, math.ceil(round(-rem * 1e6) / 60e6))
        assert [e.minute for e in pens] == list(range(1, expect + 1))
        assert all(e.points == points for e in pens)


@given(ALL_CONFIGS, OPS_WITH_ADJUST, OPS_WITH_ADJUST, st.sampled_from(["monotonic", "wall"]), st.integers(0, 60_000))
def test_snapshot_round_trip_gives_identical_future_behaviour(config, before, after, anchor, gap_ms):
    run = Run(config)
    for op in before:
        run.apply(op)
    data = json.loads(json.dumps(run.cs.to_data()))
    if anchor == "wall":
        run.t.wait(gap_ms / 1000)  # the restart takes a while; a paused table is not charged
    twin = ClockSet.from_data(data, clock=run.t.mono, wall=run.t.wall, anchor=anchor)
    cs = run.cs
    for op in after + [("tick",)]:
        if op[0] == "tick":
            mine = cs.tick()
            theirs = [e for e in twin.tick() if e.kind is not EventKind.RESTORED]
            assert mine == theirs
        else:
            run.apply(op)
            run.cs = twin
            run.apply(op) if op[0] != "wait" else None
            run.cs = cs
        for s in SEATS:
            assert cs.status(s) == twin.status(s)
        assert cs.turn_remaining() == twin.turn_remaining()
        assert (cs.running, cs.is_paused) == (twin.running, twin.is_paused)


@settings(max_examples=30)
@given(ALL_CONFIGS, OPS)
def test_tick_frequency_does_not_change_the_outcome(config, ops):
    """Ticking every 10 ms or never in between: same clocks, same events (their
    ``remaining`` aside, which says when they were noticed)."""
    sparse, dense = Run(config), Run(config)
    for op in ops:
        sparse.apply(op)
        if op[0] == "wait":
            for _ in range(min(op[1] // 10, 50)):
                dense.apply(("wait", 10))
                dense.apply(("tick",))
            dense.apply(("wait", op[1] - 10 * min(op[1] // 10, 50)))
        else:
            dense.apply(op)
    a, b = sparse.finish(), dense.finish()
    def key(e):
        return (e.kind.value, e.seat, e.minute, e.periods_left or 0)

    assert sorted(map(key, a)) == sorted(map(key, b))
    for s in SEATS:
        x, y = sparse.cs.status(s), dense.cs.status(s)
        assert (x.main, x.period, x.periods_left, x.used, x.moves) == (y.main, y.period, y.periods_left, y.used, y.moves)
