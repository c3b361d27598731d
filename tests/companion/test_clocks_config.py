"""ClockConfig validation, serialisation, presets and the time format."""
from __future__ import annotations

import json
import math

import pytest

from companion.clocks import ClockConfig, ClockConfigError, ClockMode, OvertimePolicy, format_time, presets

VALID = [
    dict(mode="sudden-death", main=600),
    dict(mode="fischer", main=300, increment=3),
    dict(mode="bronstein", main=300, delay=5),
    dict(mode="simple-delay", main=300, delay=5),
    dict(mode="hourglass", main=60),
    dict(mode="byo-yomi", main=600, periods=5, period=30),
    dict(mode="byo-yomi", main=0, periods=3, period=10),
    dict(mode="untimed", overtime="none", turn_limit=120),
    dict(mode="canadian", main=600, period=300, period_moves=20),
    dict(mode="canadian", main=0, period=60, period_moves=1),
    dict(mode="sudden-death", main=600, overtime="penalty", penalty_per_minute=10, warning=60),
]


@pytest.mark.parametrize("data", VALID)
def test_valid_configs_round_trip(data):
    c = ClockConfig.from_data(data)
    assert isinstance(c.mode, ClockMode) and isinstance(c.overtime, OvertimePolicy)
    again = ClockConfig.from_data(json.loads(json.dumps(c.to_data())))
    assert again == c
    assert c.describe()


INVALID = [
    (dict(mode="blitz", main=1), "mode", "unknown-mode"),
    (dict(mode="sudden-death", main=1, overtime="shrug"), "overtime", "unknown-policy"),
    (dict(mode="sudden-death"), "main", "missing"),
    (dict(mode="sudden-death", main=-5), "main", "out-of-range"),
    (dict(mode="sudden-death", main=math.nan), "main", "not-finite"),
    (dict(mode="sudden-death", main=math.inf), "main", "not-finite"),
    (dict(mode="sudden-death", main="300"), "main", "not-a-number"),
    (dict(mode="sudden-death", main=True), "main", "not-a-number"),
    (dict(mode="sudden-death", main=60, increment=2), "increment", "not-used"),
    (dict(mode="sudden-death", main=60, delay=2), "delay", "not-used"),
    (dict(mode="sudden-death", main=60, periods=2, period=10), "periods", "not-used"),
    (dict(mode="fischer", main=60), "increment", "missing"),
    (dict(mode="fischer", main=60, increment=2, delay=1), "delay", "not-used"),
    (dict(mode="bronstein", main=60), "delay", "missing"),
    (dict(mode="simple-delay", main=60), "delay", "missing"),
    (dict(mode="simple-delay", main=60, delay=5, increment=1), "increment", "not-used"),
    (dict(mode="byo-yomi", main=60, period=10), "periods", "missing"),
    (dict(mode="byo-yomi", main=60, periods=3), "period", "missing"),
    (dict(mode="byo-yomi", main=60, periods=-1, period=5), "periods", "out-of-range"),
    (dict(mode="byo-yomi", main=60, periods=2.5, period=5), "periods", "out-of-range"),
    (dict(mode="byo-yomi", main=60, periods=2, period=5, increment=1), "increment", "not-used"),
    (dict(mode="untimed", main=60, overtime="none"), "main", "not-used"),
    (dict(mode="canadian", main=60, period=60), "period_moves", "missing"),
    (dict(mode="canadian", main=60, period_moves=5), "period", "missing"),
    (dict(mode="canadian", main=60, period=60, period_moves=5, periods=2), "periods", "not-used"),
    (dict(mode="canadian", main=60, period=60, period_moves=-1), "period_moves", "out-of-range"),
    (dict(mode="byo-yomi", main=60, periods=2, period=5, period_moves=3), "period_moves", "not-used"),
    (dict(mode="fischer", main=60, increment=1, period_moves=3), "period_moves", "not-used"),
    (dict(mode="untimed", overtime="loss"), "overtime", "not-used"),
    (dict(mode="untimed", overtime="none", warning=10), "warning", "not-used"),
    (dict(mode="sudden-death", main=60, warning=0), "warning", "out-of-range"),
    (dict(mode="sudden-death", main=60, turn_limit=-1), "turn_limit", "out-of-range"),
    (dict(mode="sudden-death", main=60, overtime="penalty"), "penalty_per_minute", "missing"),
    (dict(mode="sudden-death", main=60, overtime="penalty", penalty_per_minute=1.5), "penalty_per_minute", "not-a-number"),
    (dict(mode="sudden-death", main=60, overtime="loss", penalty_per_minute=3), "penalty_per_minute", "not-used"),
    (dict(main=60), "mode", "missing"),
    (dict(mode="sudden-death", main=60, colour="red"), "colour", "unknown-field"),
    # issue 15: numbers no clock needs, which overflowed or stalled the clocks
    (dict(mode="sudden-death", main=10**400), "main", "out-of-range"),
    (dict(mode="sudden-death", main=1e308), "main", "out-of-range"),
    (dict(mode="fischer", main=60, increment=366 * 24 * 3600 + 1), "increment", "out-of-range"),
    (dict(mode="byo-yomi", main=60, periods=10**30, period=5), "periods", "out-of-range"),
    (dict(mode="canadian", main=60, period=60, period_moves=10**30), "period_moves", "out-of-range"),
    (dict(mode="sudden-death", main=60, overtime="penalty", penalty_per_minute=10**30), "penalty_per_minute", "out-of-range"),
    (dict(mode=[[["fischer"]]], main=60), "mode", "unknown-mode"),
    (dict(mode="fischer", main=60, increment=1, overtime={"x": 1}), "overtime", "unknown-policy"),
]


@pytest.mark.parametrize("data,field,code", INVALID)
def test_invalid_configs_name_the_field(data, field, code):
    with pytest.raises(ClockConfigError) as err:
        ClockConfig.from_data(data)
    assert isinstance(err.value, ValueError)
    assert (err.value.field, err.value.code) == (field, code)
    assert str(err.value).startswith(f"clock settings: {field}: ")
    with pytest.raises(ClockConfigError, match=f"^journal row 3: {field}: "):
        ClockConfig.from_data(data, "journal row 3")


def test_from_data_refuses_a_non_mapping():
    with pytest.raises(ClockConfigError):
        ClockConfig.from_data(["fischer"])  # type: ignore[arg-type]


def test_presets_are_valid_and_named():
    p = presets()
    assert len(p) >= 6
    modes = {c.mode for c in p.values()}
    assert ClockMode.BYO_YOMI in modes and ClockMode.HOURGLASS in modes and ClockMode.UNTIMED in modes
    assert p["Turn timer 2:00 only"].turn_limit == 120


def test_describe():
    assert ClockConfig("byo-yomi", main=600, periods=5, period=30).describe() == "Byo-yomi 10:00 + 5 × 0:30"
    assert ClockConfig("untimed", overtime="none", turn_limit=120).describe() == "Untimed, turn timer 2:00"
    assert ClockConfig("simple-delay", main=90, delay=5).describe() == "Simple delay 1:30, 5s delay"
    assert ClockConfig("canadian", main=600, period=300, period_moves=20).describe() == \
        "Canadian 10:00 + 20 moves in 5:00"


@pytest.mark.parametrize(
    "seconds,text",
    [(0, "0:00"), (0.001, "0:01"), (59.2, "1:00"), (60, "1:00"), (-0.5, "-0:00"), (-61, "-1:01"), (math.inf, "∞"),
     (36000, "10:00:00")],
)
def test_format_time(seconds, text):
    assert format_time(seconds) == text
