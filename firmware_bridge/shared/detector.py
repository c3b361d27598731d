"""Roll detector for an accelerometer die (REFERENCE.md section 2).

This module runs unchanged on CPython (as ``firmware_bridge.shared.detector``) and on
MicroPython (as the top-level module ``detector`` in the hub's image), so the host tests
exercise the very code the board runs. Hence: no dataclasses, no typing imports, no
f-strings, integer maths only (the RP2040 has no FPU and the results must not depend on
the port's float width).

Feed it samples in milli-g with a millisecond timestamp::

    d = Detector(normals)              # normals: one (x, y, z) unit vector x1000 per face
    ev = d.update(t_ms, x, y, z)       # None, or a RollEvent when the state changes

States use the Pixels vocabulary: the die starts ``unknown``, goes ``handling`` when it
moves, ``rolling`` on a shock, a free fall or a fast turn, and ends ``rolled`` (the
episode went through ``rolling``), ``onFace`` (it did not: picked up and put down, turned
in the hand, nudged) or ``crooked`` (a throw, or the boot, came to rest too far from any
face's normal; after a mere pick-up a slanted rest is taken for a die held in the hand and
the detector keeps waiting).
Every episode (handling -> result) bumps the roll counter, so the host can de-duplicate a
resent result by (boot id, die, counter).
"""

# Pixels' RollState numbering; ROLL_STATE frames carry these codes.
UNKNOWN = 0
ROLLED = 1
HANDLING = 2
ROLLING = 3
CROOKED = 4
ON_FACE = 5
STATE_NAMES = ("unknown", "rolled", "handling", "rolling", "crooked", "onFace")

# Largest reading kept per axis: +-16 g, the widest range of common parts. Clipping keeps
# x*x + y*y + z*z below 2**30, inside MicroPython's small-int range on 32-bit ports.
CLIP_MG = 16000

# cos(d degrees) x 1000 for d = 0..90: angle thresholds without floats.
_COS1000 = (
    1000, 1000, 999, 999, 998, 996, 995, 993, 990, 988, 985, 982, 978, 974, 970, 966,
    961, 956, 951, 946, 940, 934, 927, 921, 914, 906, 899, 891, 883, 875, 866, 857,
    848, 839, 829, 819, 809, 799, 788, 777, 766, 755, 743, 731, 719, 707, 695, 682,
    669, 656, 643, 629, 616, 602, 588, 574, 559, 545, 530, 515, 500, 485, 469, 454,
    438, 423, 407, 391, 375, 358, 342, 326, 309, 292, 276, 259, 242, 225, 208, 191,
    174, 156, 139, 122, 105, 87, 70, 52, 35, 17, 0,
)


def cos1000(deg):
    """cos(deg) x 1000 for a whole number of degrees in 0..180."""
    if deg < 0 or deg > 180:
        raise ValueError("angle out of range")
    if deg <= 90:
        return _COS1000[deg]
    return -_COS1000[180 - deg]


def isqrt(n):
    """Integer square root (floor). Digit by digit below 2**30 so the per-sample path
    stays in small ints on a 32-bit board; Newton's method above that."""
    if n < 0:
        raise ValueError("isqrt of a negative number")
    if n < 1073741824:
        res = 0
        bit = 268435456  # 4**14, the largest power of four below 2**30
        while bit > n:
            bit >>= 2
        while bit:
            if n >= res + bit:
                n -= res + bit
                res = (res >> 1) + bit
            else:
                res >>= 1
            bit >>= 2
        return res
    x = 1
    while x * x < n:
        x <<= 1
    while True:
        y = (x + n // x) >> 1
        if y >= x:
            return x
        x = y


def unit1000(x, y, z):
    """The direction of (x, y, z) as a vector of length 1000, or None for a zero vector."""
    m = isqrt(x * x + y * y + z * z)
    if m == 0:
        return None
    return ((x * 1000) // m, (y * 1000) // m, (z * 1000) // m)


def best_face(normals, x, y, z):
    """(face index, dot x1000) of the face normal closest to the direction (x, y, z).

    The dot product is the cosine of the angle between the measured gravity and the
    face's normal: 1000 is perfectly flat."""
    m = isqrt(x * x + y * y + z * z)
    if m == 0:
        return 0, 0
    best = 0
    best_dot = -2000000
    i = 0
    for n in normals:
        d = n[0] * x + n[1] * y + n[2] * z
        if d > best_dot:
            best_dot = d
            best = i
        i += 1
    best_dot //= m
    if best_dot > 1000:  # rounding of the x1000 normals
        best_dot = 1000
    return best, best_dot


# Tunable thresholds: (id, name, default, minimum, maximum). The ids are stable: SET_CONFIG
# carries (id, value) pairs, so new keys are appended, never renumbered.
CONFIG_KEYS = (
    (1, "window_ms", 160, 40, 1000),  # sliding window for spread / orientation
    (2, "move_mg", 150, 20, 4000),  # rest -> handling: spread or |a|-1g above this
    (3, "move_samples", 2, 1, 50),  # ... for this many samples running
    (4, "shock_mg", 2000, 1100, 16000),  # handling -> rolling: |a| above this
    (5, "freefall_mg", 350, 0, 900),  # handling -> rolling: |a| below this ...
    (6, "freefall_ms", 30, 0, 1000),  # ... for at least this long
    (7, "turn_deg", 60, 5, 180),  # handling -> rolling: orientation turned this much ...
    (8, "turn_ms", 200, 0, 5000),  # ... within this long (0: since pick-up, any speed)
    (9, "still_mg", 60, 5, 1000),  # settled: per-axis spread below this ...
    (10, "still_dev_mg", 100, 5, 1000),  # ... and ||a|-1g| below this ...
    (11, "settle_ms", 280, 20, 5000),  # ... for this long
    (12, "flat_deg", 25, 1, 89),  # crooked when further than this from every face normal
    (13, "one_g_mg", 1000, 500, 2000),  # what this die's sensor reads at rest
)


class Config:
    """Detector thresholds. Attribute names follow CONFIG_KEYS."""

    def __init__(self, **values):
        for key in CONFIG_KEYS:
            setattr(self, key[1], key[2])
        for name in values:
            self.set(name, values[name])

    def set(self, key, value):
        """Set one threshold by name or numeric id; raises ValueError if unknown or out
        of range (the firmware answers SET_CONFIG with a NAK then)."""
        for k in CONFIG_KEYS:
            if k[0] == key or k[1] == key:
                value = int(value)
                if value < k[3] or value > k[4]:
                    raise ValueError("config value out of range")
                setattr(self, k[1], value)
                return k[1]
        raise ValueError("unknown config key")

    def get(self, key):
        for k in CONFIG_KEYS:
            if k[0] == key or k[1] == key:
                return getattr(self, k[1])
        raise ValueError("unknown config key")

    def items(self):
        """[(id, value), ...] in id order, for a snapshot or a config dump."""
        return [(k[0], getattr(self, k[1])) for k in CONFIG_KEYS]


class RollEvent:
    """A state change of one die. ``settle_ms`` is how long the die had been still when
    the result was declared (0 for handling / rolling)."""

    def __init__(self, state, face, confidence, t_ms, counter, settle_ms):
        self.state = state
        self.face = face
        self.confidence = confidence
        self.t_ms = t_ms
        self.counter = counter
        self.settle_ms = settle_ms

    def name(self):
        return STATE_NAMES[self.state]

    def as_tuple(self):
        return (STATE_NAMES[self.state], self.face, self.confidence, self.t_ms,
                self.counter, self.settle_ms)

    def __repr__(self):
        return "RollEvent(%s face=%d conf=%d t=%d n=%d settle=%d)" % self.as_tuple()


# Internal phases. REST covers the three settled results; UNKNOWN is before the first one.
_P_UNKNOWN = 0
_P_REST = 1
_P_HANDLING = 2
_P_ROLLING = 3

_HISTORY_CAP = 256  # orientation history bound whatever the sample rate


class Detector:
    """The state machine for one die.

    ``normals``: a list of (x, y, z) face normals of length 1000 in the sensor's frame
    (from calibration); index i is face index i. ``config``: a Config (shared config
    objects are fine: the detector reads thresholds on every sample, so SET_CONFIG takes
    effect at once)."""

    def __init__(self, normals, config=None):
        self.normals = [tuple(n) for n in normals]
        self.config = config if config is not None else Config()
        self.counter = 0
        self.reset()

    def reset(self):
        """Forget the motion history; the next rest is reported as the boot state. The
        roll counter is kept so results stay unique for the host."""
        self.phase = _P_UNKNOWN
        self.state = UNKNOWN
        self.face = 0
        self.confidence = 0
        self.t_ms = 0
        # Sliding window (lists of equal length) with running sums for its mean.
        self._wt = []
        self._wx = []
        self._wy = []
        self._wz = []
        self._sx = 0
        self._sy = 0
        self._sz = 0
        self._move_run = 0
        self._ff_since = None
        # Stillness box: per-axis min/max and sums since _still_since.
        self._still_since = None
        self._bmin = [0, 0, 0]
        self._bmax = [0, 0, 0]
        self._bsum = [0, 0, 0]
        self._bn = 0
        self._rest_vec = None  # orientation (unit x1000) of the last rest
        self._hist = []  # [(t, ux, uy, uz)] window orientations while handling
        self._pickup = None

    def set_normals(self, normals):
        """Install new face normals (after calibration); the current rest is re-judged
        at the next settle."""
        self.normals = [tuple(n) for n in normals]

    # -- per-sample work ------------------------------------------------------------

    def update(self, t_ms, x, y, z):
        """Feed one sample; returns a RollEvent when the reported state changes."""
        cfg = self.config
        if x > CLIP_MG:
            x = CLIP_MG
        elif x < -CLIP_MG:
            x = -CLIP_MG
        if y > CLIP_MG:
            y = CLIP_MG
        elif y < -CLIP_MG:
            y = -CLIP_MG
        if z > CLIP_MG:
            z = CLIP_MG
        elif z < -CLIP_MG:
            z = -CLIP_MG
        self.t_ms = t_ms
        spread = self._window_push(t_ms, x, y, z, cfg.window_ms)
        mag = isqrt(x * x + y * y + z * z)
        dev = mag - cfg.one_g_mg
        if dev < 0:
            dev = -dev
        settled_ms = self._still_update(t_ms, x, y, z, dev, cfg)

        phase = self.phase
        if phase == _P_REST or phase == _P_UNKNOWN:
            if spread > cfg.move_mg or dev > cfg.move_mg:
                self._move_run += 1
            else:
                self._move_run = 0
            if self._move_run >= cfg.move_samples:
                return self._start_handling(t_ms)
            if phase == _P_UNKNOWN and settled_ms >= cfg.settle_ms:
                return self._settle(t_ms, settled_ms, False)
            return None

        if phase == _P_HANDLING:
            if self._is_throw(t_ms, mag, cfg):
                self.phase = _P_ROLLING
                self.state = ROLLING
                self._hist = []
                return RollEvent(ROLLING, self.face, self.confidence, t_ms, self.counter, 0)
        if settled_ms >= cfg.settle_ms:
            return self._settle(t_ms, settled_ms, self.phase == _P_ROLLING)
        return None

    def _window_push(self, t, x, y, z, window_ms):
        """Add a sample to the sliding window; returns the largest per-axis spread."""
        wt = self._wt
        wt.append(t)
        self._wx.append(x)
        self._wy.append(y)
        self._wz.append(z)
        self._sx += x
        self._sy += y
        self._sz += z
        while len(wt) > 1 and t - wt[0] > window_ms:
            wt.pop(0)
            self._sx -= self._wx.pop(0)
            self._sy -= self._wy.pop(0)
            self._sz -= self._wz.pop(0)
        spread = 0
        for axis in (self._wx, self._wy, self._wz):
            s = max(axis) - min(axis)
            if s > spread:
                spread = s
        return spread

    def _still_update(self, t, x, y, z, dev, cfg):
        """Track the current still run; returns for how long (ms) the die has been still,
        or -1. A sample far from 1 g ends the run (free fall is not rest); a sample that
        widens the run's box past still_mg starts a new run at itself."""
        if dev >= cfg.still_dev_mg:
            self._still_since = None
            return -1
        if self._still_since is not None:
            bmin = self._bmin
            bmax = self._bmax
            v = (x, y, z)
            wide = False
            for i in range(3):
                lo = bmin[i] if bmin[i] < v[i] else v[i]
                hi = bmax[i] if bmax[i] > v[i] else v[i]
                if hi - lo >= cfg.still_mg:
                    wide = True
                    break
            if not wide:
                for i in range(3):
                    if v[i] < bmin[i]:
                        bmin[i] = v[i]
                    if v[i] > bmax[i]:
                        bmax[i] = v[i]
                self._bsum[0] += x
                self._bsum[1] += y
                self._bsum[2] += z
                self._bn += 1
                return t - self._still_since
        self._still_since = t
        self._bmin = [x, y, z]
        self._bmax = [x, y, z]
        self._bsum = [x, y, z]
        self._bn = 1
        return 0

    def _start_handling(self, t):
        self.counter += 1
        self.phase = _P_HANDLING
        self.state = HANDLING
        self._move_run = 0
        self._ff_since = None
        # The pick-up orientation is that of the last rest; at boot, the window's mean.
        pick = self._rest_vec
        if pick is None:
            pick = unit1000(self._sx, self._sy, self._sz)
        self._pickup = pick
        self._hist = []
        if pick is not None:
            self._hist.append((t, pick[0], pick[1], pick[2]))
        return RollEvent(HANDLING, self.face, self.confidence, t, self.counter, 0)

    def _is_throw(self, t, mag, cfg):
        """A shock, a free fall, or a fast turn: what tells a throw from handling."""
        if mag > cfg.shock_mg:
            return True
        if mag < cfg.freefall_mg:
            if self._ff_since is None:
                self._ff_since = t
            if t - self._ff_since >= cfg.freefall_ms:
                return True
        else:
            self._ff_since = None
        u = unit1000(self._sx, self._sy, self._sz)
        if u is None:
            return False
        hist = self._hist
        hist.append((t, u[0], u[1], u[2]))
        if cfg.turn_ms > 0:
            # Reference: the newest orientation at least turn_ms old (or the oldest kept).
            while len(hist) > 1 and hist[1][0] <= t - cfg.turn_ms:
                hist.pop(0)
            ref = hist[0]
            ref = (ref[1], ref[2], ref[3])
        else:
            ref = self._pickup
            if len(hist) > 1:
                hist.pop(0)
        if len(hist) > _HISTORY_CAP:
            hist.pop(0)
        if ref is None:
            return False
        cos = (u[0] * ref[0] + u[1] * ref[1] + u[2] * ref[2]) // 1000
        return cos < cos1000(cfg.turn_deg)

    def _settle(self, t, settled_ms, rolled):
        n = self._bn
        gx = self._bsum[0] // n
        gy = self._bsum[1] // n
        gz = self._bsum[2] // n
        face, conf = best_face(self.normals, gx, gy, gz)
        if conf < cos1000(self.config.flat_deg):
            if self.phase == _P_HANDLING:
                # Held still at a slant after a mere pick-up: a die in the hand being
                # read, not one that landed cocked. Keep waiting for it to be put down.
                return None
            state = CROOKED
        elif rolled:
            state = ROLLED
        else:
            state = ON_FACE
        self.phase = _P_REST
        self.state = state
        self.face = face
        self.confidence = conf
        self._rest_vec = unit1000(gx, gy, gz)
        self._move_run = 0
        self._hist = []
        return RollEvent(state, face, conf, t, self.counter, settled_ms)

    # -- reading ----------------------------------------------------------------------

    def rest_vector(self):
        """Mean gravity (mg) of the current still run, or None while moving: what the
        calibration records for CALIBRATE_FACE."""
        if self._still_since is None or self._bn == 0:
            return None
        n = self._bn
        return (self._bsum[0] // n, self._bsum[1] // n, self._bsum[2] // n)

    def still_ms(self):
        """How long the die has been still (ms), or -1 while it moves."""
        if self._still_since is None:
            return -1
        return self.t_ms - self._still_since

    def snapshot(self):
        """(state, face, confidence, t_ms, counter) for SNAPSHOT / REQUEST_STATE."""
        return (self.state, self.face, self.confidence, self.t_ms, self.counter)


def run(detector, samples):
    """Feed (t_ms, x, y, z) samples; returns the list of RollEvents. Used by the host
    tests, the simulated hub and the MicroPython-under-Node runner alike."""
    events = []
    for s in samples:
        ev = detector.update(s[0], s[1], s[2], s[3])
        if ev is not None:
            events.append(ev)
    return events
