"""The roll detector (firmware_bridge/shared/detector.py) on synthetic traces."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T
from hw_helpers import die, results, run_detector

SETTLE = D.Config().settle_ms


def _check_settle(ev: D.RollEvent, trace: T.Trace) -> None:
    """Declared once the die had been still for settle_ms (to within one sample), and
    within 0.3-0.65 s of coming down on its final face (the wobble is part of it)."""
    period = 1000 // trace.rate_hz
    assert SETTLE <= ev.settle_ms <= SETTLE + period
    latency = ev.t_ms - int(trace.meta["landed_ms"])
    assert SETTLE - 40 <= latency <= SETTLE + 370, latency


def _boot_then(events: list[D.RollEvent], trace: T.Trace) -> list[D.RollEvent]:
    """Every trace starts at rest: the first event is the boot state, counter 0."""
    assert events[0].state == D.ON_FACE and events[0].counter == 0
    assert events[0].face == int(trace.meta["start_face"])
    return events[1:]


@pytest.mark.parametrize("face", range(6))
def test_clean_roll_lands_on_every_face(face: int, soak_factor: int) -> None:
    for seed in range(3 * soak_factor):
        rng, mount = die(1000 * face + seed)
        tr = T.clean_roll(6, face, rng, mount)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        assert [e.name() for e in ev] == ["handling", "rolling", "rolled"]
        assert ev[-1].face == face and ev[-1].counter == 1
        assert ev[-1].confidence >= 990
        _check_settle(ev[-1], tr)


def test_boot_state_reports_the_face_up() -> None:
    rng, mount = die(5)
    for face in range(6):
        tr = T.rest(6, face, rng, mount, seconds=1.0)
        ev = run_detector(tr, mount.normals(6))
        assert [(e.name(), e.face, e.counter) for e in ev] == [("onFace", face, 0)]
        assert ev[0].t_ms == SETTLE


def test_bounces_and_free_fall(soak_factor: int) -> None:
    for seed in range(10 * soak_factor):
        rng, mount = die(seed)
        face = rng.randrange(6)
        tr = T.clean_roll(6, face, rng, mount, bounces=3)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        assert ev[-1].name() == "rolled" and ev[-1].face == face
        _check_settle(ev[-1], tr)
        tr = T.drop(6, face, rng, mount, height_cm=rng.uniform(10, 40))
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        assert ev[-1].name() == "rolled" and ev[-1].face == face
        assert "rolling" in [e.name() for e in ev]
        _check_settle(ev[-1], tr)


def test_free_fall_alone_is_a_throw() -> None:
    """A drop without any shock above 2 g (landing on a thick mat) still counts."""
    rng, mount = die(11)
    samples = [(t, 0, 0, 1000) for t in range(0, 600, 10)]
    samples += [(t, 0, 0, 1000 + (300 if t < 650 else 0)) for t in range(600, 700, 10)]
    samples += [(t, 5, -5, 20) for t in range(700, 900, 10)]  # 200 ms falling
    samples += [(t, 0, 1000, 0) for t in range(900, 1600, 10)]  # lands on +Y (face 2), softly
    ev = D.run(D.Detector([n for n in T.Mount().normals(6)]), samples)
    assert [e.name() for e in ev] == ["onFace", "handling", "rolling", "rolled"]
    assert ev[-1].face == 2


def test_gentle_roll_is_told_by_its_turn(soak_factor: int) -> None:
    """No shock, no free fall: only the fast tumble makes it a roll."""
    for seed in range(20 * soak_factor):
        rng, mount = die(seed)
        face = rng.randrange(6)
        tr = T.gentle_roll(6, face, rng, mount)
        peak = max(math.sqrt(x * x + y * y + z * z) for _, x, y, z in tr.samples)
        assert peak < D.Config().shock_mg
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        assert ev[-1].name() == "rolled" and ev[-1].face == face
        _check_settle(ev[-1], tr)


def test_die_turned_in_the_hand_is_not_a_roll(soak_factor: int) -> None:
    for seed in range(20 * soak_factor):
        rng, mount = die(seed)
        start = rng.randrange(6)
        target = rng.choice([f for f in range(6) if f != start])
        tr = T.turned_in_hand(6, target, rng, mount, start_face=start)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        names = [e.name() for e in ev]
        assert "rolling" not in names and "rolled" not in names and "crooked" not in names
        assert ev[-1].name() == "onFace" and ev[-1].face == target
        _check_settle(ev[-1], tr)


def test_reference_turn_rule_counts_any_turn_from_pick_up() -> None:
    """turn_ms = 0 is REFERENCE.md's literal rule: a 90 degree turn in the hand is then a
    roll. The default (200 ms) is what keeps it onFace in the test above."""
    rng, mount = die(3)
    tr = T.turned_in_hand(6, 1, rng, mount, start_face=0)
    ev = run_detector(tr, mount.normals(6), turn_ms=0)
    assert [e.name() for e in ev][-2:] == ["rolling", "rolled"]
    assert ev[-1].face == 1


def test_look_and_put_back(soak_factor: int) -> None:
    for seed in range(20 * soak_factor):
        rng, mount = die(seed)
        tr = T.look_and_put_back(6, rng, mount)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        names = [e.name() for e in ev]
        assert "rolling" not in names and "crooked" not in names
        assert ev[-1].name() == "onFace" and ev[-1].face == int(tr.meta["start_face"])


def test_die_held_slanted_in_the_hand_is_not_crooked() -> None:
    """Held still at 40 degrees after a pick-up: no result until it is put down."""
    up = (0, 0, 1000)
    slant = (0, round(1000 * math.sin(math.radians(40))), round(1000 * math.cos(math.radians(40))))
    samples = [(t, *up) for t in range(0, 500, 10)]
    samples += [(t, 0, 400, 900) for t in range(500, 560, 10)]  # picked up
    samples += [(t, *slant) for t in range(560, 2000, 10)]  # held still, slanted
    samples += [(t, 0, 300, 800) for t in range(2000, 2050, 10)]  # put down
    samples += [(t, *up) for t in range(2050, 2600, 10)]
    ev = D.run(D.Detector(T.Mount().normals(6)), samples)
    assert [(e.name(), e.face) for e in ev] == [("onFace", 0), ("handling", 0), ("onFace", 0)]


def test_nudge_is_on_face_and_a_tiny_bump_is_nothing(soak_factor: int) -> None:
    for seed in range(20 * soak_factor):
        rng, mount = die(seed)
        tr = T.nudge(6, rng, mount)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        assert [e.name() for e in ev] == ["handling", "onFace"]
        assert ev[-1].face == int(tr.meta["start_face"]) and ev[-1].counter == 1
        _check_settle(ev[-1], tr)
        tr = T.nudge(6, rng, mount, peak_mg=60)
        ev = run_detector(tr, mount.normals(6))
        assert len(ev) == 1  # the boot state only


@pytest.mark.parametrize("tilt", [30.0, 35.0, 40.0])
def test_cocked_against_a_wall_is_crooked_with_its_confidence(tilt: float, soak_factor: int) -> None:
    for seed in range(5 * soak_factor):
        rng, mount = die(seed)
        face = rng.randrange(6)
        tr = T.cocked(6, face, rng, mount, tilt_deg=tilt)
        ev = _boot_then(run_detector(tr, mount.normals(6)), tr)
        last = ev[-1]
        assert last.name() == "crooked" and last.face == face
        assert abs(last.confidence - 1000 * math.cos(math.radians(tilt))) <= 25
        _check_settle(last, tr)


def test_slight_lean_is_still_flat() -> None:
    rng, mount = die(8)
    tr = T.cocked(6, 3, rng, mount, tilt_deg=12.0)
    ev = run_detector(tr, mount.normals(6))
    assert ev[-1].name() == "rolled" and ev[-1].face == 3


# The default thresholds (REFERENCE.md: settled below 60 mg of spread) suit a sensor
# with up to ~12 mg of noise per axis (a LIS3DH at 100 Hz shows 2-5 mg); a noisier part
# needs still_mg / still_dev_mg / move_mg raised over SET_CONFIG (hardware/README.md).
NOISY = {"still_mg": 140, "still_dev_mg": 150, "move_mg": 250}


@pytest.mark.parametrize("noise,cfg", [(4.0, {}), (8.0, {}), (12.0, {}), (25.0, NOISY)])
def test_noise_at_rest_makes_no_events(noise: float, cfg: dict[str, int], soak_factor: int) -> None:
    rng, mount = die(int(noise))
    tr = T.rest(6, 4, rng, mount, T.Sensor(noise_mg=noise), seconds=20.0 * soak_factor)
    ev = run_detector(tr, mount.normals(6), **cfg)
    assert [(e.name(), e.face) for e in ev] == [("onFace", 4)]


@pytest.mark.parametrize("noise,cfg", [(12.0, {}), (25.0, NOISY)])
def test_noisy_roll_still_reads_right(noise: float, cfg: dict[str, int], soak_factor: int) -> None:
    for seed in range(10 * soak_factor):
        rng, mount = die(seed)
        face = rng.randrange(6)
        tr = T.clean_roll(6, face, rng, mount, T.Sensor(noise_mg=noise))
        ev = run_detector(tr, mount.normals(6), **cfg)
        assert ev[-1].name() == "rolled" and ev[-1].face == face


def test_too_much_noise_for_the_defaults_never_settles() -> None:
    """The other side of the bargain: 25 mg of noise at the default 60 mg spread limit
    never looks still, so the firmware reports nothing rather than a wrong face."""
    rng, mount = die(25)
    tr = T.rest(6, 4, rng, mount, T.Sensor(noise_mg=25.0), seconds=5.0)
    ev = run_detector(tr, mount.normals(6))
    assert [e.name() for e in ev if e.name() != "handling"] == []


def test_other_sample_rates() -> None:
    for rate, seed in ((50, 1), (200, 2), (400, 3)):
        rng, mount = die(seed)
        tr = T.clean_roll(6, 2, rng, mount, T.Sensor(rate_hz=rate))
        ev = run_detector(tr, mount.normals(6))
        assert ev[-1].name() == "rolled" and ev[-1].face == 2
        assert SETTLE <= ev[-1].settle_ms <= SETTLE + 1000 // rate


def test_d20_rolls_on_every_face() -> None:
    for face in range(20):
        rng, mount = die(100 + face)
        tr = T.clean_roll(20, face, rng, mount)
        ev = run_detector(tr, mount.normals(20), flat_deg=19)
        assert ev[-1].name() == "rolled" and ev[-1].face == face, (face, ev)
    rng, mount = die(7)
    tr = T.cocked(20, 5, rng, mount, tilt_deg=26.0)
    ev = run_detector(tr, mount.normals(20), flat_deg=19)
    assert ev[-1].name() == "crooked" and ev[-1].face == 5


def test_counter_increments_once_per_episode() -> None:
    rng, mount = die(21)
    det = D.Detector(mount.normals(6))
    t0 = 0
    counters = []
    for i in range(4):
        tr = T.clean_roll(6, i, rng, mount, start_face=(i - 1) % 6 if i else 0)
        samples = [(t + t0, x, y, z) for t, x, y, z in tr.samples]
        t0 = samples[-1][0] + 10
        ev = D.run(det, samples)
        counters.append([(e.name(), e.counter) for e in ev if e.name() != "onFace"])
    assert counters == [[("handling", n), ("rolling", n), ("rolled", n)] for n in (1, 2, 3, 4)]
    assert det.snapshot()[4] == 4 and det.snapshot()[0] == D.ROLLED


def test_config_changes_take_effect_at_once() -> None:
    cfg = D.Config()
    rng, mount = die(4)
    tr = T.clean_roll(6, 1, rng, mount)
    det = D.Detector(mount.normals(6), cfg)
    assert cfg.set(11, 600) == "settle_ms"  # by id, as SET_CONFIG sends it
    ev = D.run(det, tr.samples)
    assert ev[-1].settle_ms >= 600 and ev[-1].face == 1
    assert cfg.get("settle_ms") == 600 and (11, 600) in cfg.items()
    with pytest.raises(ValueError):
        cfg.set("settle_ms", 10)  # below its minimum
    with pytest.raises(ValueError):
        cfg.set(99, 1)
    with pytest.raises(ValueError):
        D.Config(nonsense=3)
    ids = [k[0] for k in D.CONFIG_KEYS]
    assert ids == sorted(set(ids)), "config ids are stable, unique and append-only"
    assert all(k[3] <= k[2] <= k[4] for k in D.CONFIG_KEYS)


def test_one_g_offset_is_configurable() -> None:
    """A sensor reading 1080 mg at rest never settles with the default dev limit of
    100 mg... it does (80 < 100); one reading 1150 does not until one_g_mg is set."""
    samples = [(t, 0, 0, 1150) for t in range(0, 1000, 10)]
    assert D.run(D.Detector(T.Mount().normals(6)), samples) == []
    ev = D.run(D.Detector(T.Mount().normals(6), D.Config(one_g_mg=1150)), samples)
    assert [(e.name(), e.face) for e in ev] == [("onFace", 0)]


def test_extreme_readings_are_clipped_not_fatal() -> None:
    det = D.Detector(T.Mount().normals(6))
    samples = [(t, 0, 0, 1000) for t in range(0, 400, 10)]
    samples += [(400, 10**9, -10**9, 10**9), (410, -(10**7), 0, 0)]
    samples += [(t, 1000, 0, 0) for t in range(420, 1200, 10)]
    ev = D.run(det, samples)
    assert [e.name() for e in ev] == ["onFace", "handling", "rolling", "rolled"]
    assert ev[-1].face == 1


def test_rest_vector_and_still_time() -> None:
    det = D.Detector(T.Mount().normals(6))
    assert det.rest_vector() is None and det.still_ms() == -1
    for t in range(0, 300, 10):
        det.update(t, 3, -2, 1001)
    assert det.rest_vector() == (3, -2, 1001) and det.still_ms() == 290


@given(st.integers(min_value=0, max_value=10**15))
def test_isqrt_matches_math(n: int) -> None:
    assert D.isqrt(n) == math.isqrt(n)


def test_isqrt_edges_and_cos_table() -> None:
    for n in [0, 1, 2, 3, 4, 2**30 - 1, 2**30, 2**30 + 1, 3 * 16000**2]:
        assert D.isqrt(n) == math.isqrt(n)
    with pytest.raises(ValueError):
        D.isqrt(-1)
    for d in range(181):
        assert D.cos1000(d) == round(1000 * math.cos(math.radians(d))) or (
            d > 90 and D.cos1000(d) == -round(1000 * math.cos(math.radians(180 - d))))
    with pytest.raises(ValueError):
        D.cos1000(181)


def test_best_face_picks_the_nearest_normal() -> None:
    normals = T.Mount().normals(6)
    rng = random.Random(9)
    for _ in range(500):
        v = [rng.uniform(-1, 1) for _ in range(3)]
        k = 1000 / math.sqrt(sum(c * c for c in v))
        v = [c * k for c in v]  # about 1 g, as the firmware's mean gravity is
        face, dot = D.best_face(normals, *(int(c) for c in v))
        exact = max(range(6), key=lambda i: sum(a * b for a, b in zip(normals[i], v)))
        assert face == exact
        assert abs(dot - max(sum(a * b for a, b in zip(n, v)) / 1000 for n in normals)) <= 2
