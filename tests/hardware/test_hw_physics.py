"""PhysicsRoller: the simulated hub's rolls pass through the firmware's detector."""
from __future__ import annotations

import collections
import random

import pytest

from firmware_bridge.shared import detector as D
from firmware_bridge.simulated.physics import PhysicsRoller
from firmware_bridge.simulated.rollers import RollOutcome


def test_roll_returns_the_hubs_roll_outcome() -> None:
    out = PhysicsRoller().roll(0, 6, random.Random(1))
    assert isinstance(out, RollOutcome)
    assert out.state == "rolled" and 0 <= out.face_index < 6 and out.confidence > 990
    assert D.Config().settle_ms <= out.settle_ms <= D.Config().settle_ms + 370


@pytest.mark.parametrize("faces", [6, 20])
def test_forced_faces_and_crooked_landings(faces: int) -> None:
    roller = PhysicsRoller()
    rng = random.Random(faces)
    for f in range(faces):
        out = roller.roll(1, faces, rng, face=f)
        assert (out.state, out.face_index) == ("rolled", f)
        out = roller.roll(1, faces, rng, face=f, crooked=True)
        assert (out.state, out.face_index) == ("crooked", f)
        assert out.confidence < 1000 * 0.95


def test_random_faces_are_fair_and_counters_run_per_die(soak_factor: int) -> None:
    roller = PhysicsRoller()
    rng = random.Random(7)
    n = 300 * soak_factor
    tally: collections.Counter[int] = collections.Counter()
    for i in range(n):
        out = roller.roll(i % 2, 6, rng)
        assert out.state == "rolled"
        tally[out.face_index] += 1
    # Chi-square with 5 degrees of freedom: 20.5 is the 0.1 % critical value.
    expected = n / 6
    chi2 = sum((tally[f] - expected) ** 2 / expected for f in range(6))
    assert chi2 < 20.5, tally
    for die in (0, 1):
        state = roller.die_state(die)
        assert state is not None and state.detector.counter == n // 2


def test_each_die_has_its_own_calibrated_mounting() -> None:
    roller = PhysicsRoller(mount_seed=3)
    rng = random.Random(3)
    roller.roll(0, 6, rng)
    roller.roll(1, 6, rng)
    a, b = roller.die_state(0), roller.die_state(1)
    assert a is not None and b is not None
    assert a.mount != b.mount
    assert a.calibration.confidence > 990 and a.calibration.method == 3
    # The same seed gives the same dice.
    again = PhysicsRoller(mount_seed=3)
    again.roll(0, 6, random.Random(0))
    assert again.die_state(0).mount == a.mount  # type: ignore[union-attr]


def test_events_of_the_last_roll_and_the_device_clock() -> None:
    roller = PhysicsRoller()
    rng = random.Random(4)
    roller.roll(0, 6, rng, face=2)
    first = roller.last_events(0)
    assert [e.name() for e in first] == ["handling", "rolling", "rolled"]
    roller.roll(0, 6, rng, face=5)
    second = roller.last_events(0)
    assert second[0].t_ms > first[-1].t_ms  # one clock across rolls
    assert second[-1].counter == first[-1].counter + 1


def test_noisy_sensor_and_threshold_overrides() -> None:
    from firmware_bridge.simulated import traces as T

    roller = PhysicsRoller(T.Sensor(noise_mg=25.0), config={"still_mg": 140, "still_dev_mg": 150, "move_mg": 250})
    rng = random.Random(5)
    for f in range(6):
        assert roller.roll(0, 6, rng, face=f).face_index == f
    assert roller.die_state(0).detector.config.still_mg == 140  # type: ignore[union-attr]


def test_bad_requests() -> None:
    roller = PhysicsRoller()
    with pytest.raises(ValueError, match="d7"):
        roller.roll(0, 7, random.Random(1))
    with pytest.raises(ValueError, match="out of range"):
        roller.roll(0, 6, random.Random(1), face=6)
