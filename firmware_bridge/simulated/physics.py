"""A roller for the simulated hub that throws a virtual die through the firmware's own
code: a synthetic accelerometer trace (firmware_bridge.simulated.traces) of a pick-up,
a throw, bounces and a settle is fed to the roll detector the board runs
(firmware_bridge.shared.detector), with normals from the board's three-face calibration
(firmware_bridge.shared.calibration). Demo rolls therefore pass through the same state
machine, thresholds and face maths as a real die on the hub.

Each die keeps its own sensor mounting (fixed per die index), calibration, detector (so
the roll counter runs on) and device clock across rolls.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T


def _outcome_type() -> Any:
    """RollOutcome from the simulated hub's roller module (imported late: the hub imports
    this module, and this one must not need the hub at import time)."""
    from firmware_bridge.simulated.rollers import RollOutcome

    return RollOutcome


@dataclass
class _Die:
    faces: int
    mount: T.Mount
    calibration: C.Calibration
    detector: D.Detector
    face: int
    clock_ms: int = 0
    events: list[D.RollEvent] = field(default_factory=list)


class PhysicsRoller:
    """Implements the simulated hub's ``Roller`` protocol.

    ``sensor``: noise, rate and range of the virtual accelerometer. ``config``: detector
    threshold overrides (as SET_CONFIG would set them), applied to every die.
    ``mount_seed``: picks each die's sensor mounting; the same seed gives the same dice.
    """

    def __init__(self, sensor: T.Sensor | None = None, config: dict[str, int] | None = None,
                 mount_seed: int = 0) -> None:
        self.sensor = sensor or T.Sensor()
        self.config = dict(config or {})
        self.mount_seed = mount_seed
        self._dice: dict[int, _Die] = {}
        self.last_trace: T.Trace | None = None

    def die_state(self, die: int) -> _Die | None:
        """The virtual die (mount, calibration, detector), once it has been rolled."""
        return self._dice.get(die)

    def last_events(self, die: int) -> list[D.RollEvent]:
        """Every detector event of the die's last roll: handling, rolling, the result."""
        d = self._dice.get(die)
        return list(d.events) if d else []

    def prepare(self, die: int, faces: int) -> _Die:
        """The virtual die ``die`` as a d``faces``, created on first use (mounting,
        three-face calibration, detector, resting face): the simulated hub installs its
        calibration on the hub's own die before the first throw."""
        return self._die(die, faces)

    def _die(self, die: int, faces: int) -> _Die:
        d = self._dice.get(die)
        if d is not None and d.faces == faces:
            return d
        if faces not in C.CANONICAL:
            raise ValueError("the physics roller has no d%d (supported: %s)"
                             % (faces, sorted(C.CANONICAL)))
        setup = random.Random(self.mount_seed * 1000003 + die)
        mount = T.Mount.random(setup)
        cal = self._calibrate(faces, mount, setup)
        cfg = D.Config(flat_deg=C.FLAT_DEG[faces], one_g_mg=cal.one_g, **self.config)
        det = D.Detector(cal.normals, cfg)
        start = setup.randrange(faces)
        d = _Die(faces, mount, cal, det, start)
        # Power-on: the die rests on its start face until the detector reports it.
        boot = T.rest(faces, start, setup, mount, self.sensor, seconds=0.6)
        D.run(det, boot.samples)
        d.clock_ms = boot.samples[-1][0] + 1000 // self.sensor.rate_hz
        self._dice[die] = d
        return d

    def _calibrate(self, faces: int, mount: T.Mount, rng: random.Random) -> C.Calibration:
        """The three-face method on virtual rests, as a table would do it once."""
        session = C.Session(faces)
        cal = None
        for f in (0, 1, 2):
            det = D.Detector(C.canonical(faces))
            tr = T.rest(faces, f, rng, mount, self.sensor, seconds=0.5)
            D.run(det, tr.samples)
            v = det.rest_vector()
            assert v is not None, "a resting virtual die must read still"
            cal = session.add(f, v)
        assert cal is not None
        return cal

    def roll(self, die: int, faces: int, rng: random.Random, face: int | None = None,
             crooked: bool = False) -> Any:
        """Throw die ``die`` (a d``faces``); ``face`` forces the face index that ends up,
        ``crooked`` lands it leaning against a wall. Returns a RollOutcome with what the
        firmware's detector made of it; ``settle_ms`` is how long after the die came
        down on its final face the result was declared."""
        d = self._die(die, faces)
        target = rng.randrange(faces) if face is None else face
        if not 0 <= target < faces:
            raise ValueError("face index %d out of range for a d%d" % (target, faces))
        if crooked:
            # Leaning between "crooked" (beyond flat_deg) and tipping over to the
            # neighbouring face (half the edge angle): 30-40 degrees on a d6.
            lo, hi = C.FLAT_DEG[faces], T.edge_deg(faces) / 2
            mid, half = (lo + hi) / 2, (hi - lo) / 4
            tr = T.cocked(faces, target, rng, d.mount, self.sensor, start_face=d.face,
                          tilt_deg=rng.uniform(mid - half, mid + half))
        else:
            tr = T.clean_roll(faces, target, rng, d.mount, self.sensor, start_face=d.face,
                              bounces=rng.randint(0, 3))
        return self._play(d, tr)

    def turn(self, die: int, faces: int, rng: random.Random, face: int | None = None) -> Any:
        """Die ``die`` picked up, turned to ``face`` in the fingers and put down: the
        detector should say ``onFace``, not a roll."""
        d = self._die(die, faces)
        target = rng.randrange(faces) if face is None else face
        if not 0 <= target < faces:
            raise ValueError("face index %d out of range for a d%d" % (target, faces))
        return self._play(d, T.turned_in_hand(faces, target, rng, d.mount, self.sensor,
                                              start_face=d.face))

    def _play(self, d: _Die, tr: T.Trace) -> Any:
        # The trace opens with the die at rest on its current face; run it on the die's
        # own clock so timestamps keep increasing across rolls.
        samples = [(t + d.clock_ms, x, y, z) for t, x, y, z in tr.samples]
        d.clock_ms = samples[-1][0] + 1000 // self.sensor.rate_hz
        d.events = D.run(d.detector, samples)
        self.last_trace = tr
        results = [e for e in d.events if e.state in (D.ROLLED, D.ON_FACE, D.CROOKED)]
        if not results:
            raise RuntimeError("the detector reported no result for a simulated throw")
        res = results[-1]
        d.face = res.face
        landed = int(tr.meta["landed_ms"]) + (samples[0][0] - tr.samples[0][0])
        return _outcome_type()(
            state=D.STATE_NAMES[res.state],
            face_index=res.face,
            confidence=res.confidence,
            settle_ms=max(0, res.t_ms - landed),
        )
