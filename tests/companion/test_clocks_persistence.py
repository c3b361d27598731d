"""Undo (time spent stays spent) and journal snapshots: round trips and crash restores."""
from __future__ import annotations

import json

import pytest

from companion.clocks import ClockConfig, ClockDataError, ClockMode, ClockSet, EventKind

from .clock_fakes import FakeTime, kinds, make


def cfg(mode, **kw):
    return ClockConfig(ClockMode(mode), **kw)


# --- undo ---------------------------------------------------------------------------------
def test_undo_takes_the_increment_back_and_time_spent_stays_spent():
    cs, t = make(cfg("fischer", main=60, increment=5))
    cs.switch_to("a")
    t.wait(4)
    cs.switch_to("b")  # a moved: 56 + 5
    t.wait(3)  # b thinks for 3 s before a asks for undo
    cs.switch_to("a", undo=True)
    assert cs.remaining("a") == 56 and cs.status("a").moves == 0
    assert cs.remaining("b") == 57  # b's 3 s stay spent, and no bonus for an abandoned turn
    assert cs.status("b").moves == 0
    t.wait(1)
    cs.switch_to("b")  # a plays its move again ("redo" or another move)
    assert cs.remaining("a") == 60  # 60 - 5 s used + one increment
    assert cs.status("a").moves == 1


def test_undo_cannot_farm_increments():
    cs, t = make(cfg("fischer", main=60, increment=5))
    cs.switch_to("a")
    t.wait(1)
    for _ in range(10):
        cs.switch_to("b")
        cs.switch_to("a", undo=True)
    cs.switch_to("b")
    assert cs.remaining("a") == 64


def test_undo_resumes_the_turn_so_no_delay_is_granted_twice():
    cs, t = make(cfg("simple-delay", main=60, delay=5))
    cs.switch_to("a")
    t.wait(4)
    cs.switch_to("b")
    cs.switch_to("a", undo=True)
    assert cs.status("a").delay_left == 1
    t.wait(3)
    assert cs.remaining("a") == 58


def test_undo_in_bronstein_does_not_refund_twice():
    cs, t = make(cfg("bronstein", main=60, delay=5))
    cs.switch_to("a")
    t.wait(4)
    cs.switch_to("b")
    assert cs.remaining("a") == 60
    cs.switch_to("a", undo=True)
    assert cs.remaining("a") == 56
    t.wait(4)
    cs.switch_to("b")
    assert cs.remaining("a") == 57  # 8 s used in the turn, refund capped at 5


def test_undo_in_byoyomi_restores_the_period_as_it_was():
    cs, t = make(cfg("byo-yomi", main=0, periods=2, period=10))
    cs.switch_to("a")
    t.wait(7)
    cs.switch_to("b")
    assert cs.status("a").period == 10
    cs.switch_to("a", undo=True)
    assert cs.status("a").period == 3
    t.wait(3)
    assert kinds(cs.tick()) == [("period-used", "a")]


def test_undo_restores_the_turn_timer():
    cs, t = make(cfg("sudden-death", main=600, turn_limit=60))
    cs.switch_to("a")
    t.wait(50)
    cs.switch_to("b")
    cs.switch_to("a", undo=True)
    assert cs.turn_remaining() == 10
    t.wait(10)
    assert kinds(cs.tick()) == [("turn-over", "a")]


def test_undo_to_a_seat_that_never_moved_starts_a_fresh_turn():
    cs, t = make(cfg("fischer", main=60, increment=5))
    cs.switch_to("a", undo=True)
    t.wait(2)
    assert cs.remaining("a") == 58 and cs.status("a").moves == 0


def test_undo_in_hourglass_keeps_the_flow():
    cs, t = make(cfg("hourglass", main=60))
    cs.switch_to("a")
    t.wait(10)
    cs.switch_to("b")
    t.wait(2)
    cs.switch_to("a", undo=True)
    assert (cs.remaining("a"), cs.remaining("b")) == (52, 68)


# --- snapshots ----------------------------------------------------------------------------
def scripted(cs: ClockSet, t: FakeTime) -> None:
    cs.switch_to("a")
    t.wait(20)
    cs.switch_to("b")
    t.wait(7)
    cs.adjust("a", 3, reason="spilled drink")


@pytest.mark.parametrize("anchor", ["monotonic", "wall"])
def test_round_trip_through_json_continues_identically(anchor):
    c = cfg("fischer", main=60, increment=2, warning=50, turn_limit=30)
    cs, t = make(c)
    scripted(cs, t)
    t.wait(1.5)
    data = json.loads(json.dumps(cs.to_data()))
    t.wait(2.5)  # the restore happens later (crash, restart…): that time is not given back
    twin = ClockSet.from_data(data, clock=t.mono, wall=t.wall, anchor=anchor)
    first, first_twin = cs.tick(), twin.tick()
    if anchor == "wall":
        assert [e.kind for e in first_twin].count(EventKind.RESTORED) == 1 and twin.restored_gap == 2.5
        first_twin = [e for e in first_twin if e.kind is not EventKind.RESTORED]
    assert first == first_twin
    for step in range(5):
        t.wait(7)
        if step == 2:
            cs.switch_to("a")
            twin.switch_to("a")
        assert cs.tick() == twin.tick()
        for seat in "ab":
            assert cs.status(seat) == twin.status(seat)
    assert [e for e in twin.log if e.kind == "adjusted"] == list(cs.log)


def test_pending_events_survive_the_snapshot():
    cs, t = make(cfg("sudden-death", main=10, warning=5))
    cs.switch_to("a")
    t.wait(6)
    cs.switch_to("b")  # detects the warning; nobody ticked yet
    twin = ClockSet.from_data(cs.to_data(), clock=t.mono, wall=t.wall, anchor="monotonic")
    assert kinds(twin.tick()) == [("warning", "a")]


def test_crash_restore_charges_the_downtime_to_the_running_seat():
    c = cfg("sudden-death", main=600)
    cs, t = make(c)
    cs.switch_to("a")
    t.wait(30)
    cs.switch_to("b")
    journal = json.dumps(cs.to_data())  # the Table writes this with the action
    t.wait(40)  # b thinks; the app is killed after 40 s…
    t.wait(200)  # …and the machine reboots; it is back 200 s later
    t.reboot()
    restored = ClockSet.from_data(json.loads(journal), clock=t.mono, wall=t.wall)
    assert restored.remaining("b") == 600 - 240  # nothing given back
    assert restored.remaining("a") == 570
    assert restored.restored_gap == 240
    [entry] = restored.log
    assert (entry.kind, entry.seat, entry.delta) == ("restored", "b", -240)
    [e] = restored.tick()
    assert (e.kind, e.seat, e.delta) == (EventKind.RESTORED, "b", -240)
    assert "charged" in e.message()
    t.wait(10)
    assert restored.remaining("b") == 350  # and it keeps running on the new clock


def test_crash_restore_of_paused_clocks_charges_nothing():
    cs, t = make(cfg("sudden-death", main=600))
    cs.switch_to("a")
    t.wait(30)
    cs.pause()
    data = cs.to_data()
    t.wait(1000)
    t.reboot()
    restored = ClockSet.from_data(data, clock=t.mono, wall=t.wall)
    assert restored.remaining("a") == 570 and restored.is_paused and restored.log == ()
    restored.resume()
    t.wait(5)
    assert restored.remaining("a") == 565


def test_restore_when_the_wall_clock_went_backwards_charges_nothing():
    cs, t = make(cfg("sudden-death", main=600))
    cs.switch_to("a")
    t.wait(30)
    data = cs.to_data()
    t.wall_ms -= 3_600_000  # the clock was set back an hour
    restored = ClockSet.from_data(data, clock=t.mono, wall=t.wall)
    assert restored.remaining("a") == 570 and restored.restored_gap == 0


def test_restore_charges_the_downtime_through_modes_logic():
    cs, t = make(cfg("byo-yomi", main=5, periods=3, period=10))
    cs.switch_to("a")
    data = cs.to_data()
    t.wait(26)
    restored = ClockSet.from_data(data, clock=t.mono, wall=t.wall)
    assert kinds(restored.tick()) == [("restored", "a"), ("period-used", "a"), ("period-used", "a")]
    assert restored.status("a").periods_left == 1 and restored.remaining("a") == 9


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(version=99),
        lambda d: d.pop("state"),
        lambda d: d["state"].pop("b"),
        lambda d: d.update(active=["z"]),
        lambda d: d["state"]["a"].update(main="lots"),
        lambda d: d["state"]["a"].update(warned=3),
        lambda d: d["state"]["a"].update(history=[[1, 2]]),
        lambda d: d["config"].update(mode="blitz"),
        lambda d: d.update(seats=[]),
        lambda d: d.update(seats="ab"),
        lambda d: d["anchor"].pop("wall_us"),
        lambda d: d.update(pending=[{"kind": "nonsense"}]),
    ],
)
def test_damaged_data_is_refused_with_a_typed_error(damage):
    cs, t = make(cfg("fischer", main=60, increment=1))
    cs.switch_to("a")
    data = json.loads(json.dumps(cs.to_data()))
    damage(data)
    with pytest.raises(ClockDataError) as err:
        ClockSet.from_data(data, clock=t.mono, wall=t.wall)
    assert isinstance(err.value, ValueError)


def test_repr_says_what_runs():
    cs, t = make(cfg("fischer", main=60, increment=1))
    assert repr(cs) == "<ClockSet Fischer 1:00 + 1s per move; idle>"
    cs.switch_to("b")
    assert repr(cs) == "<ClockSet Fischer 1:00 + 1s per move; running b>"
    cs.pause()
    assert repr(cs) == "<ClockSet Fischer 1:00 + 1s per move; paused>"


def test_from_data_refuses_a_non_mapping_and_a_bad_anchor():
    cs, t = make(cfg("fischer", main=60, increment=1))
    with pytest.raises(ClockDataError):
        ClockSet.from_data([], clock=t.mono)  # type: ignore[arg-type]
    with pytest.raises(ClockDataError):
        ClockSet.from_data(cs.to_data(), clock=t.mono, anchor="sundial")
