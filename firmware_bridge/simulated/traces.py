"""Synthetic accelerometer traces of a die, and the telemetry trace file format.

Host-only (CPython, floats welcome). The traces are kinematic rather than a rigid-body
simulation: each scenario is a script of segments (rest, pick-up, shake, flight, impact,
tumble, wobble) that set the die's orientation and its linear acceleration over time. The
accelerometer reading is the specific force (acceleration minus gravity, so +1 g up at
rest) seen in the sensor's frame, which is mounted at an arbitrary rotation and a few mm
off the die's centre (so a tumbling die also feels centripetal acceleration), plus noise
and the sensor's quantisation. That is enough to exercise every branch of the detector
with realistic magnitudes and timing.

Ground truth rides along in ``Trace.meta``: the face that ends up, the state the detector
should report, and ``landed_ms``, the moment the die came down on its final face (the
damped wobble after it is part of settling), for settle-time checks.

File format (what ``python -m firmware_bridge monitor --record`` writes from TELEMETRY
frames, and what hardware/README.md documents)::

    # tabletop-companion telemetry 1
    # rate_hz=100
    # faces=6
    # label=clean roll
    t_ms,src,x_mg,y_mg,z_mg
    0,0,12,-3,1002
    10,0,9,-1,998

``#`` lines before the column header carry ``key=value`` metadata (unknown keys are kept,
not interpreted); each row is one sample of die ``src`` in integer milli-g with the
device's millisecond clock.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from firmware_bridge.shared import calibration

Quat = tuple[float, float, float, float]
Vec = tuple[float, float, float]
Sample = tuple[int, int, int, int]

FORMAT_LINE = "# tabletop-companion telemetry 1"
COLUMNS = "t_ms,src,x_mg,y_mg,z_mg"
G = 1000.0  # milli-g
UP: Vec = (0.0, 0.0, 1.0)


# -- small quaternion kit (w, x, y, z), die frame -> world ------------------------------

def q_mul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def q_conj(q: Quat) -> Quat:
    return (q[0], -q[1], -q[2], -q[3])


def q_axis_angle(axis: Vec, angle: float) -> Quat:
    n = math.sqrt(sum(c * c for c in axis))
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def q_rotate(q: Quat, v: Vec) -> Vec:
    p = q_mul(q_mul(q, (0.0, v[0], v[1], v[2])), q_conj(q))
    return (p[1], p[2], p[3])


def q_slerp(a: Quat, b: Quat, t: float) -> Quat:
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b = (-b[0], -b[1], -b[2], -b[3])
        dot = -dot
    if dot > 0.9995:
        q = tuple(x + (y - x) * t for x, y in zip(a, b))
    else:
        th = math.acos(dot)
        s = math.sin(th)
        wa = math.sin((1 - t) * th) / s
        wb = math.sin(t * th) / s
        q = tuple(wa * x + wb * y for x, y in zip(a, b))
    n = math.sqrt(sum(c * c for c in q))
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def q_angle(a: Quat, b: Quat) -> float:
    """The rotation angle (radians) between two orientations."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2 * math.acos(min(1.0, dot))


def q_random(rng: random.Random) -> Quat:
    """A uniformly random orientation (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    return (a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
            b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3))


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _norm(v: Vec) -> Vec:
    n = math.sqrt(sum(c * c for c in v))
    return (v[0] / n, v[1] / n, v[2] / n)


def face_up(faces: int, face: int, yaw: float = 0.0) -> Quat:
    """The orientation with ``face`` up (its canonical normal along world +Z), turned
    ``yaw`` radians about the vertical."""
    n = _norm(tuple(c / 1000.0 for c in calibration.CANONICAL[faces][face]))  # type: ignore[arg-type]
    dot = n[2]
    if dot > 0.999999:
        base: Quat = (1.0, 0.0, 0.0, 0.0)
    elif dot < -0.999999:
        base = (0.0, 1.0, 0.0, 0.0)
    else:
        base = q_axis_angle(_cross(n, UP), math.acos(max(-1.0, min(1.0, dot))))
    return q_mul(q_axis_angle(UP, yaw), base)


# -- the die and its sensor ---------------------------------------------------------------

@dataclass(frozen=True)
class Mount:
    """Where the accelerometer sits in the die: ``rotation`` takes die-frame vectors to
    the sensor's frame; ``offset_mm`` is its distance from the centre (die frame)."""

    rotation: Quat = (1.0, 0.0, 0.0, 0.0)
    offset_mm: Vec = (0.0, 0.0, 0.0)

    @staticmethod
    def random(rng: random.Random, max_offset_mm: float = 4.0) -> "Mount":
        off = tuple(rng.uniform(-max_offset_mm, max_offset_mm) for _ in range(3))
        return Mount(q_random(rng), off)  # type: ignore[arg-type]

    def normals(self, faces: int) -> list[tuple[int, int, int]]:
        """The exact face normals in the sensor frame (what perfect calibration gives)."""
        out = []
        for n in calibration.CANONICAL[faces]:
            v = q_rotate(self.rotation, _norm(tuple(c / 1000.0 for c in n)))  # type: ignore[arg-type]
            out.append((round(v[0] * 1000), round(v[1] * 1000), round(v[2] * 1000)))
        return out


@dataclass(frozen=True)
class Sensor:
    """Sample rate, white noise (mg, one sigma per axis), resolution (mg per LSB) and
    full scale (mg) of the accelerometer. Defaults: a LIS3DH at 100 Hz, +-8 g,
    high-resolution mode (4 mg/LSB)."""

    rate_hz: int = 100
    noise_mg: float = 8.0
    lsb_mg: int = 4
    range_mg: int = 8000


@dataclass
class Trace:
    """Samples (t_ms, x, y, z) of one die plus ground truth / file metadata."""

    samples: list[Sample]
    rate_hz: int = 100
    src: int = 0
    meta: dict[str, str] = field(default_factory=dict)


# Per-instant kinematics: orientation (die -> world), linear acceleration of the centre
# (world, mg), angular velocity (world, rad/s) and angular acceleration (world, rad/s^2).
State = tuple[Quat, Vec, Vec, Vec]
Segment = tuple[float, Callable[[float], State]]  # (duration ms, f(t in 0..1) -> State)

_ZERO: Vec = (0.0, 0.0, 0.0)


class Script:
    """Builds a trace segment by segment, carrying the orientation across segments."""

    def __init__(self, faces: int, rng: random.Random, start: Quat) -> None:
        self.faces = faces
        self.rng = rng
        self.q = start
        self.segments: list[Segment] = []
        self.t_ms = 0.0
        self.landed_ms = 0.0  # when the die came down on its final face (ground truth)

    # Each segment appends (duration, f) and updates self.q to its final orientation.

    def rest(self, ms: float) -> "Script":
        q = self.q
        self._add(ms, lambda t: (q, _ZERO, _ZERO, _ZERO), moving=False)
        return self

    def move(self, ms: float, to: Quat, accel: Callable[[float], Vec] | None = None) -> "Script":
        """Turn smoothly (ease in/out) to ``to`` while the centre accelerates as given."""
        q0, q1 = self.q, to
        angle = q_angle(q0, q1)
        axis = _rot_axis(q0, q1)
        dur = ms / 1000.0

        def f(t: float) -> State:
            s = (1 - math.cos(math.pi * t)) / 2  # eased progress
            w = angle * math.pi / 2 * math.sin(math.pi * t) / dur  # d(angle*s)/dt
            al = angle * (math.pi ** 2) / 2 * math.cos(math.pi * t) / dur ** 2
            a = accel(t) if accel else _ZERO
            return (q_slerp(q0, q1, s), a, _scale(axis, w), _scale(axis, al))

        self._add(ms, f)
        self.q = to
        return self

    def spin(self, ms: float, omega: Vec, accel: Vec) -> "Script":
        """Constant angular velocity (world, rad/s) with a constant centre acceleration:
        a flight (accel = -g, free fall) or a spin in the hand."""
        q0 = self.q
        wn = math.sqrt(sum(c * c for c in omega))

        def at(t: float) -> Quat:
            if wn == 0:
                return q0
            return q_mul(q_axis_angle(omega, wn * t * ms / 1000.0), q0)

        self._add(ms, lambda t: (at(t), accel, omega, _ZERO))
        self.q = at(1.0)
        return self

    def impact(self, peak_mg: float, ms: float = 10.0) -> "Script":
        """A landing: a short upward push of ``peak_mg`` above 1 g, sideways a little."""
        q = self.q
        side = (self.rng.uniform(-0.4, 0.4), self.rng.uniform(-0.4, 0.4))

        def f(t: float) -> State:
            p = peak_mg * math.sin(math.pi * t)
            return (q, (side[0] * p, side[1] * p, p), _ZERO, _ZERO)

        self._add(ms, f)
        return self

    def wobble(self, ms: float, amp_deg: float, hz: float = 12.0, tau_ms: float = 50.0) -> "Script":
        """Damped rocking after landing: part of settling, so it does not move
        ``landed_ms`` (the die is down on its final face when the wobble starts)."""
        q = self.q
        ax = _norm((self.rng.uniform(-1, 1), self.rng.uniform(-1, 1), 0.0))
        dur = ms / 1000.0

        def f(t: float) -> State:
            ts = t * dur
            env = math.exp(-ts * 1000.0 / tau_ms)
            ang = math.radians(amp_deg) * env * math.sin(2 * math.pi * hz * ts)
            w = math.radians(amp_deg) * env * 2 * math.pi * hz * math.cos(2 * math.pi * hz * ts)
            return (q_mul(q_axis_angle(ax, ang), q), (0.0, 0.0, 0.0), _scale(ax, w), _ZERO)

        self._add(ms, f, moving=False)
        return self

    def _add(self, ms: float, f: Callable[[float], State], moving: bool = True) -> None:
        self.segments.append((ms, f))
        self.t_ms += ms
        if moving:
            self.landed_ms = self.t_ms

    def render(self, mount: Mount, sensor: Sensor, t0_ms: int = 0) -> list[Sample]:
        """Sample the script: specific force at the sensor, in its frame, with noise."""
        rng = self.rng
        dt = 1000.0 / sensor.rate_hz
        out: list[Sample] = []
        bounds: list[float] = []
        acc = 0.0
        for ms, _ in self.segments:
            acc += ms
            bounds.append(acc)
        seg = 0
        n = int(self.t_ms // dt)
        r_die = tuple(c / 1000.0 for c in mount.offset_mm)  # metres
        for i in range(n):
            t = i * dt
            while seg < len(bounds) - 1 and t >= bounds[seg]:
                seg += 1
            start = bounds[seg] - self.segments[seg][0]
            ms, f = self.segments[seg]
            q, a_world, w, al = f(min(1.0, (t - start) / ms) if ms > 0 else 1.0)
            # Specific force at the centre, then the rigid-body terms at the offset.
            fx, fy, fz = a_world[0], a_world[1], a_world[2] + G
            r = q_rotate(q, r_die)  # type: ignore[arg-type]
            wxr = _cross(w, r)
            cen = _cross(w, wxr)  # m/s^2
            tan = _cross(al, r)
            k = G / 9.81  # m/s^2 -> mg
            fx += (cen[0] + tan[0]) * k
            fy += (cen[1] + tan[1]) * k
            fz += (cen[2] + tan[2]) * k
            v = q_rotate(mount.rotation, q_rotate(q_conj(q), (fx, fy, fz)))
            s = []
            for c in v:
                c += rng.gauss(0.0, sensor.noise_mg)
                c = max(-sensor.range_mg, min(sensor.range_mg, c))
                s.append(int(round(c / sensor.lsb_mg)) * sensor.lsb_mg)
            out.append((t0_ms + int(round(t)), s[0], s[1], s[2]))
        return out


def _rot_axis(a: Quat, b: Quat) -> Vec:
    """World-frame axis of the rotation taking orientation a to b."""
    d = q_mul(b, q_conj(a))
    v = (d[1], d[2], d[3])
    n = math.sqrt(sum(c * c for c in v))
    if n < 1e-12:
        return (0.0, 0.0, 1.0)
    sign = 1.0 if d[0] >= 0 else -1.0
    return (sign * v[0] / n, sign * v[1] / n, sign * v[2] / n)


def _scale(v: Vec, k: float) -> Vec:
    return (v[0] * k, v[1] * k, v[2] * k)


def _tilted(q: Quat, deg: float, rng: random.Random) -> Quat:
    ax = _norm((rng.uniform(-1, 1), rng.uniform(-1, 1), 0.0))
    return q_mul(q_axis_angle(ax, math.radians(deg)), q)


def _lift(peak_mg: float) -> Callable[[float], Vec]:
    """Up then brake: the hand lifts the die a few cm."""
    return lambda t: (0.0, 0.0, peak_mg * math.sin(2 * math.pi * t))


def _slide(peak_mg: float, heading: float) -> Callable[[float], Vec]:
    """A push along the table, then friction brings it back to rest."""
    def a(t: float) -> Vec:
        p = peak_mg * math.sin(2 * math.pi * t)
        return (p * math.cos(heading), p * math.sin(heading), 0.0)
    return a


# -- scenarios ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Scenario:
    """What a generated trace shows: ``expect`` is the detector's final state name,
    ``face`` the face index ending up (for crooked: the nearest face)."""

    name: str
    expect: str
    face: int
    tilt_deg: float = 0.0


def _finish(script: Script, mount: Mount, sensor: Sensor, sc: Scenario, start_face: int,
            extra: dict[str, str] | None = None) -> Trace:
    samples = script.render(mount, sensor)
    meta = {
        "label": sc.name,
        "faces": str(script.faces),
        "expect": sc.expect,
        "face": str(sc.face),
        "start_face": str(start_face),
        "landed_ms": str(int(round(script.landed_ms))),
    }
    if sc.tilt_deg:
        meta["tilt_deg"] = "%.1f" % sc.tilt_deg
    meta.update(extra or {})
    return Trace(samples, sensor.rate_hz, 0, meta)


def _start(faces: int, rng: random.Random, start_face: int | None) -> tuple[Script, int]:
    f = rng.randrange(faces) if start_face is None else start_face
    s = Script(faces, rng, face_up(faces, f, rng.uniform(0, 2 * math.pi)))
    s.rest(rng.uniform(500, 800))
    return s, f


def _pickup_and_shake(s: Script, rng: random.Random, shake: bool) -> None:
    s.move(rng.uniform(180, 260), _tilted(s.q, rng.uniform(10, 25), rng), _lift(rng.uniform(250, 450)))
    if shake:
        # Shaken in the closed hand: hard back-and-forth along a random axis, tumbling.
        ax = _norm((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.3, 0.3)))
        amp = rng.uniform(1500, 2800)
        hz = rng.uniform(5, 8)
        ms = rng.uniform(400, 800)
        for k in range(3):
            part = ms / 3
            s.move(part, q_random(rng),
                   lambda t, p=k: _scale(ax, amp * math.sin(2 * math.pi * hz * (p + t) * part / 1000.0)))


def _land(s: Script, rng: random.Random, final: Quat, bounces: int, gentle: bool) -> None:
    """Bounces, a short tumble across the table ending at ``final``, a wobble, rest."""
    peak = rng.uniform(1200, 1700) if gentle else rng.uniform(2500, 6000)
    for b in range(bounces + 1):
        s.impact(peak * (0.6 ** b))
        if b < bounces:
            w = _scale(_norm((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))),
                       rng.uniform(10, 25))
            s.spin(rng.uniform(60, 150) * (0.7 ** b), w, (0.0, 0.0, -G))
    _tumble(s, rng, final, rng.randint(1, 3))
    s.wobble(rng.uniform(200, 300), rng.uniform(2, 6))
    s.rest(rng.uniform(900, 1200))


def edge_deg(faces: int) -> float:
    """The turn (degrees) of one roll over an edge: the angle between neighbouring
    faces' normals (90 on a d6, 41.8 on a d20)."""
    n = [_norm(tuple(c / 1000.0 for c in v)) for v in calibration.CANONICAL[faces]]  # type: ignore[misc]
    best = max(sum(a * b for a, b in zip(n[0], m)) for m in n[1:])
    return math.degrees(math.acos(max(-1.0, min(1.0, best))))


def _tumble(s: Script, rng: random.Random, final: Quat, rolls: int,
            ms_per_quarter: tuple[float, float] = (60.0, 110.0)) -> None:
    """Come down on some face, then roll over ``rolls`` edges, ending at ``final``. The
    path is built backwards from the final orientation: each step tips a neighbouring
    face up, so every roll turns by the die's dihedral step (90 degrees on a d6)."""
    canon = [_norm(tuple(c / 1000.0 for c in n)) for n in calibration.CANONICAL[s.faces]]  # type: ignore[misc]
    path = [final]
    q = final
    up_face = max(range(s.faces), key=lambda i: q_rotate(q, canon[i])[2])
    came_from = -1
    for _ in range(rolls):
        # Never straight back over the edge it just crossed: a die keeps rolling on.
        near = sorted(((sum(a * b for a, b in zip(canon[up_face], canon[j])), j)
                       for j in range(s.faces) if j not in (up_face, came_from)), reverse=True)
        best = near[0][0]
        j = rng.choice([k for d, k in near if d > best - 0.01])
        n = q_rotate(q, canon[j])
        axis = _cross(n, UP)
        q = q_mul(q_axis_angle(axis, math.acos(max(-1.0, min(1.0, n[2])))), q)
        path.insert(0, q)
        came_from, up_face = up_face, j
    first = max(60.0, math.degrees(q_angle(s.q, path[0])) / 90.0 * rng.uniform(*ms_per_quarter))
    s.move(first, path[0], lambda t: (0.0, 0.0, 300.0 * math.sin(math.pi * t)))
    for q in path[1:]:
        step = math.degrees(q_angle(s.q, q))
        s.move(step / 90.0 * rng.uniform(*ms_per_quarter), q,
               lambda t: (0.0, 0.0, 250.0 * math.sin(math.pi * t)))


def clean_roll(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
               start_face: int | None = None, shake: bool = True, bounces: int = 1) -> Trace:
    """Pick up, shake, throw (free flight), bounce, tumble, settle on ``face``."""
    s, f0 = _start(faces, rng, start_face)
    _pickup_and_shake(s, rng, shake)
    w = _scale(_norm((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))), rng.uniform(12, 25))
    s.spin(rng.uniform(120, 220), w, (0.0, 0.0, -G))  # released: free fall
    _land(s, rng, face_up(faces, face, rng.uniform(0, 2 * math.pi)), bounces, gentle=False)
    return _finish(s, mount, sensor, Scenario("clean roll", "rolled", face), f0)


def gentle_roll(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
                start_face: int | None = None) -> Trace:
    """Let go just above a felt tray: no shock above 2 g and no real free fall; only the
    fast tumble tells it is a roll."""
    s, f0 = _start(faces, rng, start_face)
    _pickup_and_shake(s, rng, shake=False)
    # Two to four d6 edges' worth of turning: a d20 crosses more, smaller edges.
    rolls = math.ceil(rng.randint(2, 4) * 90.0 / edge_deg(faces))
    _tumble(s, rng, face_up(faces, face, rng.uniform(0, 2 * math.pi)), rolls, (100.0, 150.0))
    s.wobble(rng.uniform(200, 300), rng.uniform(1, 3))
    s.rest(rng.uniform(900, 1200))
    return _finish(s, mount, sensor, Scenario("gentle roll", "rolled", face), f0)


def turned_in_hand(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
                   start_face: int | None = None) -> Trace:
    """Picked up, slowly turned to ``face`` in the fingers, put down: not a roll."""
    s, f0 = _start(faces, rng, start_face)
    s.move(rng.uniform(200, 300), _tilted(s.q, rng.uniform(5, 15), rng), _lift(rng.uniform(200, 350)))
    target = face_up(faces, face, rng.uniform(0, 2 * math.pi))
    # Slow and steady: about 100-150 degrees per second, as fingers turn a die.
    secs = max(0.6, math.degrees(q_angle(s.q, target)) / rng.uniform(100, 150))
    mid = q_slerp(s.q, target, 0.5)
    s.move(secs * 500, mid)
    s.move(secs * 500, target)
    s.move(rng.uniform(200, 300), target, _lift(-rng.uniform(150, 300)))
    s.wobble(150, 1.0)
    s.rest(rng.uniform(900, 1200))
    return _finish(s, mount, sensor, Scenario("turned in the hand", "onFace", face), f0)


def look_and_put_back(faces: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
                      start_face: int | None = None) -> Trace:
    """Picked up, tilted 30-45 degrees to read it, put back on the same face."""
    s, f0 = _start(faces, rng, start_face)
    home = s.q
    s.move(rng.uniform(250, 350), _tilted(home, rng.uniform(30, 45), rng), _lift(rng.uniform(200, 400)))
    s.move(rng.uniform(300, 500), _tilted(s.q, 3, rng))  # held up while read: drifts a little
    s.move(rng.uniform(250, 350), home, _lift(-rng.uniform(200, 400)))
    s.wobble(150, 1.0)
    s.rest(rng.uniform(900, 1200))
    return _finish(s, mount, sensor, Scenario("look and put back", "onFace", f0), f0)


def nudge(faces: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
          start_face: int | None = None, peak_mg: float | None = None) -> Trace:
    """Pushed along the table by a finger or another die: moves, does not turn."""
    s, f0 = _start(faces, rng, start_face)
    peak = rng.uniform(250, 600) if peak_mg is None else peak_mg
    s.move(rng.uniform(80, 160), s.q, _slide(peak, rng.uniform(0, 2 * math.pi)))
    s.wobble(120, 0.5)
    s.rest(rng.uniform(900, 1200))
    expect = "onFace" if peak > 150 else "none"
    return _finish(s, mount, sensor, Scenario("nudge", expect, f0), f0,
                   {"peak_mg": "%d" % peak})


def drop(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
         start_face: int | None = None, height_cm: float = 20.0, bounces: int = 2) -> Trace:
    """Held still, then let go from ``height_cm``: a long free fall, bounces."""
    s, f0 = _start(faces, rng, start_face)
    s.move(rng.uniform(250, 350), _tilted(s.q, rng.uniform(5, 20), rng), _lift(rng.uniform(200, 400)))
    s.move(rng.uniform(200, 300), _tilted(s.q, 2, rng))  # held over the table
    fall_ms = 1000.0 * math.sqrt(2 * height_cm / 100.0 / 9.81)
    w = _scale(_norm((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))), rng.uniform(3, 10))
    s.spin(fall_ms, w, (0.0, 0.0, -G))
    _land(s, rng, face_up(faces, face, rng.uniform(0, 2 * math.pi)), bounces, gentle=False)
    return _finish(s, mount, sensor, Scenario("free fall", "rolled", face), f0,
                   {"height_cm": "%.0f" % height_cm})


def cocked(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
           start_face: int | None = None, tilt_deg: float = 35.0) -> Trace:
    """A throw that ends leaning against a wall (or another die), ``tilt_deg`` off flat
    with ``face`` the nearest face."""
    s, f0 = _start(faces, rng, start_face)
    _pickup_and_shake(s, rng, shake=True)
    w = _scale(_norm((rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))), rng.uniform(12, 25))
    s.spin(rng.uniform(120, 220), w, (0.0, 0.0, -G))
    final = _lean(faces, face, tilt_deg, rng)
    _land(s, rng, final, 1, gentle=False)
    return _finish(s, mount, sensor, Scenario("cocked against a wall", "crooked", face, tilt_deg), f0)


def _lean(faces: int, face: int, tilt_deg: float, rng: random.Random) -> Quat:
    """``face`` up, then tipped ``tilt_deg`` towards a neighbouring face (as a die leans
    on a wall it hit), so ``face`` stays the nearest."""
    base = face_up(faces, face, rng.uniform(0, 2 * math.pi))
    n = calibration.CANONICAL[faces]
    up = _norm(tuple(c / 1000.0 for c in n[face]))  # type: ignore[arg-type]
    # Direction to the nearest other face, in the world after ``base``.
    best, best_d = None, -2.0
    for i, m in enumerate(n):
        if i == face:
            continue
        v = _norm(tuple(c / 1000.0 for c in m))  # type: ignore[arg-type]
        d = sum(a * b for a, b in zip(up, v))
        if d > best_d:
            best, best_d = v, d
    assert best is not None
    toward = q_rotate(base, best)
    horiz = _norm((toward[0], toward[1], 0.0))
    axis = _cross(UP, horiz)  # tipping about this axis brings ``toward`` up
    return q_mul(q_axis_angle(axis, math.radians(tilt_deg)), base)


def rest(faces: int, face: int, rng: random.Random, mount: Mount, sensor: Sensor = Sensor(),
         seconds: float = 10.0) -> Trace:
    """A die sitting still on ``face`` with sensor noise only."""
    s = Script(faces, rng, face_up(faces, face, rng.uniform(0, 2 * math.pi)))
    s.rest(seconds * 1000.0)
    return _finish(s, mount, sensor, Scenario("rest", "onFace", face), face)


SCENARIOS: dict[str, Callable[..., Trace]] = {
    "clean_roll": clean_roll,
    "gentle_roll": gentle_roll,
    "turned_in_hand": turned_in_hand,
    "look_and_put_back": look_and_put_back,
    "nudge": nudge,
    "drop": drop,
    "cocked": cocked,
    "rest": rest,
}


# -- trace files -------------------------------------------------------------------------

def write_trace(path: str | Path, traces: Trace | Sequence[Trace]) -> None:
    """Write one trace (or several dice, interleaved by time) in the recording format."""
    if isinstance(traces, Trace):
        traces = [traces]
    meta: dict[str, str] = {"rate_hz": str(traces[0].rate_hz)}
    for tr in traces:
        meta.update(tr.meta)
    rows = sorted((s[0], tr.src, s[1], s[2], s[3]) for tr in traces for s in tr.samples)
    lines = [FORMAT_LINE]
    lines += ["# %s=%s" % (k, v.replace("\n", " ")) for k, v in meta.items()]
    lines.append(COLUMNS)
    lines += ["%d,%d,%d,%d,%d" % r for r in rows]
    Path(path).write_text("\n".join(lines) + "\n", encoding="ascii")


def read_trace(path: str | Path, src: int | None = None) -> Trace:
    """Read a recording. With ``src`` only that die's samples; without it the file must
    hold a single die. Raises ValueError on a malformed file."""
    text = Path(path).read_text(encoding="ascii").splitlines()
    return parse_trace(text, src)


def parse_trace(lines: Iterable[str], src: int | None = None) -> Trace:
    it = iter(lines)
    first = next(it, "")
    if first.strip() != FORMAT_LINE:
        raise ValueError("not a tabletop-companion telemetry recording (version 1)")
    meta: dict[str, str] = {}
    for line in it:
        line = line.strip()
        if line.startswith("#"):
            k, sep, v = line[1:].strip().partition("=")
            if sep:
                meta[k.strip()] = v.strip()
            continue
        if line != COLUMNS:
            raise ValueError("expected the column header %r, got %r" % (COLUMNS, line))
        break
    else:
        raise ValueError("no column header")
    samples: list[Sample] = []
    seen: set[int] = set()
    for n, line in enumerate(it, start=1):
        if not line.strip():
            continue
        parts = line.split(",")
        if len(parts) != 5:
            raise ValueError("row %d: expected 5 fields" % n)
        t, s, x, y, z = (int(p) for p in parts)
        seen.add(s)
        if src is None or s == src:
            samples.append((t, x, y, z))
    if src is None and len(seen) > 1:
        raise ValueError("recording holds dice %s: pass src" % sorted(seen))
    rate = int(meta.get("rate_hz", "100"))
    return Trace(samples, rate, src if src is not None else (seen.pop() if seen else 0), meta)


# -- the committed example recordings -----------------------------------------------------

def format_normals(normals: Sequence[Sequence[int]]) -> str:
    """The ``normals`` metadata value: the die's calibrated normals, ``x,y,z;x,y,z;...``."""
    return ";".join("%d,%d,%d" % tuple(n) for n in normals)


def parse_normals(text: str) -> list[tuple[int, int, int]]:
    out = []
    for part in text.split(";"):
        x, y, z = (int(c) for c in part.split(","))
        out.append((x, y, z))
    return out


def example_set(seed: int = 2026) -> dict[str, list[Trace]]:
    """The recordings committed under tests/hardware/traces/: one file per scenario,
    each with its ground truth and the die's normals in the header."""
    out: dict[str, list[Trace]] = {}

    def one(name: str, faces: int, k: int, make: Callable[[random.Random, Mount], Trace]) -> None:
        rng = random.Random(seed * 100 + k)
        mount = Mount.random(rng)
        tr = make(rng, mount)
        tr.meta["normals"] = format_normals(mount.normals(faces))
        out[name] = [tr]

    for f in range(6):
        one("d6-clean-roll-face%d" % f, 6, f, lambda r, m, f=f: clean_roll(6, f, r, m))
    one("d6-gentle-roll", 6, 10, lambda r, m: gentle_roll(6, 4, r, m))
    one("d6-turned-in-hand", 6, 11, lambda r, m: turned_in_hand(6, 2, r, m, start_face=0))
    one("d6-look-and-put-back", 6, 12, lambda r, m: look_and_put_back(6, r, m))
    one("d6-nudge", 6, 13, lambda r, m: nudge(6, r, m, peak_mg=400))
    one("d6-drop-30cm", 6, 14, lambda r, m: drop(6, 1, r, m, height_cm=30))
    one("d6-bounces", 6, 15, lambda r, m: clean_roll(6, 3, r, m, bounces=3))
    one("d6-cocked-35deg", 6, 16, lambda r, m: cocked(6, 5, r, m, tilt_deg=35))
    one("d6-noisy-rest", 6, 17, lambda r, m: rest(6, 2, r, m, Sensor(noise_mg=12), seconds=5))
    one("d20-clean-roll", 20, 18, lambda r, m: clean_roll(20, 13, r, m))
    # Two dice on one hub (Outrage!), thrown together: interleaved rows, src 0 and 1.
    rng = random.Random(seed * 100 + 19)
    pair = []
    for src, face in ((0, 1), (1, 4)):
        mount = Mount.random(rng)
        tr = clean_roll(6, face, rng, mount)
        tr.src = src
        tr.meta = {k + str(src) if k not in ("faces",) else k: v for k, v in tr.meta.items()}
        tr.meta["normals%d" % src] = format_normals(mount.normals(6))
        pair.append(tr)
    out["d6-two-dice"] = pair
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_bridge.simulated.traces DIR``: write the example recordings."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("out", type=Path, help="folder for the .csv recordings")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, trs in example_set(args.seed).items():
        write_trace(args.out / (name + ".csv"), trs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
