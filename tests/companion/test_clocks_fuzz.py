"""Altered clock settings and altered saved clocks (as the Table reads them from the journal
on resume): only the typed error (or clocks) comes out, its message names the source and
the field, and no value can stall the restore (issue 15)."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given

from companion.clocks import ClockConfig, ClockConfigError, ClockDataError, ClockMode, ClockSet, presets
from tests.json_mutations import mutated, names_a_field, nest

from .clock_fakes import FakeTime

PRESETS = [json.loads(json.dumps(c.to_data())) for c in presets().values()]
FIELD = re.compile(r"^(?P<source>[^:]+): (?P<field>[^:]+): ")


def snapshot(overtime: str = "loss") -> dict[str, Any]:
    """A saved byo-yomi table mid-game: history, a queued event, an admin adjustment."""
    t = FakeTime()
    penalty = {"penalty_per_minute": 2} if overtime == "penalty" else {}
    cs = ClockSet(
        ClockConfig(ClockMode.BYO_YOMI, main=60, periods=3, period=10, warning=5, overtime=overtime, **penalty),
        ["a", "b", "c"], clock=t.mono, wall=t.wall,
    )
    cs.switch_to("a")
    t.wait(30)
    cs.switch_to("b")
    t.wait(70)
    cs.adjust("c", 5, "fix")
    cs.switch_to({"a", "c"})
    t.wait(40)
    return json.loads(json.dumps(cs.to_data()))


SNAPSHOT = snapshot()


def restore(data: Any, source: str = "journal") -> ClockSet:
    t = FakeTime()
    t.wait(200)
    return ClockSet.from_data(data, clock=t.mono, wall=t.wall, source=source)


@given(mutated(PRESETS[0]), mutated(PRESETS[-1]))
def test_altered_settings_give_settings_or_a_clock_config_error(a: Any, b: Any) -> None:
    for data in (a, b):
        try:
            ClockConfig.from_data(data, "presets.json")
        except ClockConfigError as e:
            m = FIELD.match(str(e))
            assert m and m["source"] == "presets.json" and names_a_field(m["field"]), str(e)


@given(mutated(SNAPSHOT))
def test_altered_saved_clocks_give_clocks_or_a_clock_data_error(data: Any) -> None:
    try:
        cs = restore(data)
    except ClockDataError as e:
        m = FIELD.match(str(e))
        assert m and m["source"] == "journal" and names_a_field(m["field"]), str(e)
    else:
        cs.tick()
        json.dumps(cs.to_data())  # restored clocks can be saved again


def altered(change: str, base: dict[str, Any] = SNAPSHOT) -> Any:
    ns = {"data": json.loads(json.dumps(base)), "nest": nest}
    exec(change, ns)
    return ns["data"]


# Each ended in TypeError, KeyError text without a path, OverflowError, RecursionError, or a
# restore that never finished.
CASES = [
    ("data = [1]", "(top)"),
    ("del data['state']", "(top)"),
    ("data['config'] = None", "config"),
    ("data['config']['main'] = 10**400", "config.main"),
    ("data['config']['periods'] = 10**30", "config.periods"),
    ("data['config']['mode'] = nest('byo-yomi', 5000)", "config.mode"),
    ("data['seats'] = 'abc'", "seats"),
    ("data['seats'][1] = 7", "seats[1]"),
    ("data['state']['a'] = None", "state.a"),
    ("data['state']['a']['main'] = 1.5", "state.a.main"),
    ("data['state']['a']['main'] = 10**30", "state.a.main"),
    ("data['state']['a']['periods_left'] = 10**12", "state.a.periods_left"),
    ("data['state']['a']['reported_periods'] = 10**12", "state.a.reported_periods"),
    ("data['state']['a']['penalty_minutes'] = -(10**30)", "state.a.penalty_minutes"),
    ("data['state']['a']['history'] = [[1, 2, 3]]", "state.a.history[0]"),
    ("data['state']['a']['history'] = None", "state.a.history"),
    ("data['state']['a']['warned'] = 'no'", "state.a.warned"),
    ("data['active'] = [['a']]", "active[0]"),
    ("data['paused'] = 'false'", "paused"),
    ("data['anchor']['mono_us'] = float('inf')", "anchor.mono_us"),
    ("data['anchor']['wall_us'] = '1700000000'", "anchor.wall_us"),
    ("data['anchor'] = []", "anchor"),
    ("data['pending'] = [None]", "pending[0]"),
    ("data['pending'] = [{'kind': 'warning', 'seat': 'zed', 'remaining': 1}]", "pending[0].seat"),
    ("data['pending'] = [{'kind': 'warning', 'seat': 'a', 'remaining': float('nan')}]", "pending[0].remaining"),
    ("data['log'][0]['delta'] = None", "log[0].delta"),
    ("data['log'][0]['seat'] = {'a': 1}", "log[0].seat"),
]


@pytest.mark.parametrize("change,field", CASES, ids=[c[0] for c in CASES])
def test_the_error_names_the_field(change: str, field: str) -> None:
    with pytest.raises(ClockDataError) as e:
        restore(altered(change), "journal")
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith(f"journal: {field}: "), str(e.value)
    assert e.value.field == field


def test_a_restore_charges_at_most_two_years_of_downtime() -> None:
    # A damaged wall-clock anchor (the epoch) read as 57 years of downtime; under the
    # penalty policy that queued one event per minute over, 30 million of them, and the
    # restore never ended.
    cs = restore(altered("data['anchor']['wall_us'] = 0"))
    assert cs.restored_gap == 2 * 366 * 24 * 3600
    cs.tick()
    assert cs.status("a").over and cs.status("c").over and not cs.status("b").over
