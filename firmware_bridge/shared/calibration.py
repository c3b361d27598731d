"""Face calibration for an accelerometer die: canonical normals, the three-face method,
single-face re-calibration, and the versioned, CRC-checked storage format.

Runs unchanged on CPython (``firmware_bridge.shared.calibration``) and MicroPython
(top-level ``calibration``): integer maths, no dataclasses, no typing imports.

Conventions
-----------
* A face normal is the direction, in the sensor's frame, that the accelerometer reads at
  rest when that face is UP (a resting accelerometer reads +1 g pointing up). Normals are
  integer vectors of length 1000.
* Face indices follow the canonical tables below. Opposite faces are ``i`` and
  ``faces - 1 - i``, so the host's default mapping ``value = index + 1`` gives the usual
  opposite sums (7 on a d6, 21 on a d20). The index -> value mapping is the host's job.
* The canonical d6 is right-handed (1, 2, 3 counter-clockwise round their corner, as on
  most Western dice): 1 = +Z, 2 = +X, 3 = +Y, 4 = -Y, 5 = -X, 6 = -Z in the die's frame.

Three-face method (after Pixels): the die rests on face A, then B, then C (A and B not
opposite). A and B fix the rotation from the die's frame to the sensor's (TRIAD); every
normal is that rotation applied to the canonical table; C, predicted against measured,
gives the confidence (a mirrored number layout or a wrong face shows up there).
"""

try:
    from firmware_bridge.shared import detector as _det
except ImportError:  # on the board the shared modules are top-level
    import detector as _det

import struct

try:  # CPython: under the bridge's root error (firmware_bridge.errors)
    from firmware_bridge.errors import BridgeValueError as _ValueError
except ImportError:  # the hub's image has no firmware_bridge package
    _ValueError = ValueError

isqrt = _det.isqrt

# Canonical normals, x1000, index i opposite index (n - 1 - i).
CANONICAL = {
    6: (
        (0, 0, 1000), (1000, 0, 0), (0, 1000, 0),
        (0, -1000, 0), (-1000, 0, 0), (0, 0, -1000),
    ),
    8: (
        (577, 577, 577), (-577, 577, 577), (577, -577, 577), (-577, -577, 577),
        (577, 577, -577), (-577, 577, -577), (577, -577, -577), (-577, -577, -577),
    ),
    12: (
        (0, 526, 851), (0, -526, 851), (851, 0, 526), (-851, 0, 526),
        (526, 851, 0), (-526, 851, 0), (526, -851, 0), (-526, -851, 0),
        (851, 0, -526), (-851, 0, -526), (0, 526, -851), (0, -526, -851),
    ),
    20: (
        (0, 357, 934), (0, -357, 934), (577, 577, 577), (-577, 577, 577),
        (577, -577, 577), (-577, -577, 577), (934, 0, 357), (-934, 0, 357),
        (357, 934, 0), (-357, 934, 0), (357, -934, 0), (-357, -934, 0),
        (934, 0, -357), (-934, 0, -357), (577, 577, -577), (-577, 577, -577),
        (577, -577, -577), (-577, -577, -577), (0, 357, -934), (0, -357, -934),
    ),
}

# Crooked threshold per die type (degrees off the nearest normal): REFERENCE section 2.
FLAT_DEG = {6: 25, 8: 22, 12: 20, 20: 19}

MAGIC = b"TCAL"
FORMAT_VERSION = 1
METHOD_CANONICAL = 0
METHOD_SINGLE = 1
METHOD_THREE_FACE = 3
_HEADER = "<4sBBBBHhH"  # magic, version, faces, method, reserved, one_g, confidence, revision
_HEADER_LEN = 14

_S = 16384  # fixed-point scale for the rotation (2**14): finer than the stored x1000


class CalibrationError(_ValueError):
    """A calibration step that cannot be accepted; ``code`` is a short stable reason."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), the protocol's CRC. Bitwise:
    calibration files are small and rare, so no table is worth its RAM here."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def canonical(faces):
    """The canonical normals of a die with ``faces`` faces (a list of tuples)."""
    if faces not in CANONICAL:
        raise CalibrationError("faces", "no canonical normals for a d%d" % faces)
    return [tuple(n) for n in CANONICAL[faces]]


def _unit(v, scale):
    m = isqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if m == 0:
        raise CalibrationError("zero", "zero vector")
    return ((v[0] * scale) // m, (v[1] * scale) // m, (v[2] * scale) // m)


def _cross(a, b, scale):
    return (
        (a[1] * b[2] - a[2] * b[1]) // scale,
        (a[2] * b[0] - a[0] * b[2]) // scale,
        (a[0] * b[1] - a[1] * b[0]) // scale,
    )


def _dot1000(a, b):
    """cos(angle) x 1000 between two non-zero vectors of any length."""
    ua = _unit(a, 1000)
    ub = _unit(b, 1000)
    d = (ua[0] * ub[0] + ua[1] * ub[1] + ua[2] * ub[2]) // 1000
    if d > 1000:  # rounding of the x1000 unit vectors
        return 1000
    if d < -1000:
        return -1000
    return d


def _triad(a, b):
    """An orthonormal frame (x _S) built from two non-parallel directions."""
    t1 = _unit(a, _S)
    t2 = _unit(_cross(a, b, 1), _S)
    t3 = _cross(t1, t2, _S)
    return t1, t2, t3


def rotation(canon_a, canon_b, meas_a, meas_b):
    """The rotation (3x3, x _S) taking die-frame directions to sensor-frame ones, from
    two faces' canonical normals and their measured gravity (TRIAD)."""
    t = _triad(canon_a, canon_b)
    s = _triad(meas_a, meas_b)
    r = []
    for i in range(3):
        row = []
        for j in range(3):
            row.append((s[0][i] * t[0][j] + s[1][i] * t[1][j] + s[2][i] * t[2][j]) // _S)
        r.append(row)
    return r


def rotate(r, v):
    """The rotation r applied to v, as a vector of length 1000."""
    out = (
        r[0][0] * v[0] + r[0][1] * v[1] + r[0][2] * v[2],
        r[1][0] * v[0] + r[1][1] * v[1] + r[1][2] * v[2],
        r[2][0] * v[0] + r[2][1] * v[1] + r[2][2] * v[2],
    )
    return _unit(out, 1000)


class Calibration:
    """The normals of one die and how they were obtained.

    ``confidence``: x1000 cosine between the third face's predicted and measured normal
    (1000 for canonical normals, which claim nothing). ``revision`` counts changes so the
    host can tell calibrations apart."""

    def __init__(self, faces, normals, one_g=1000, confidence=1000,
                 method=METHOD_CANONICAL, revision=0):
        if len(normals) != faces:
            raise CalibrationError("faces", "normals do not match the face count")
        self.faces = faces
        self.normals = [tuple(n) for n in normals]
        self.one_g = one_g
        self.confidence = confidence
        self.method = method
        self.revision = revision

    def __eq__(self, other):
        return (isinstance(other, Calibration) and self.faces == other.faces
                and self.normals == other.normals and self.one_g == other.one_g
                and self.confidence == other.confidence and self.method == other.method
                and self.revision == other.revision)

    def __repr__(self):
        return "Calibration(d%d method=%d one_g=%d conf=%d rev=%d)" % (
            self.faces, self.method, self.one_g, self.confidence, self.revision)


def default(faces):
    """Uncalibrated: canonical normals, as if the sensor's axes were the die's."""
    return Calibration(faces, canonical(faces))


def three_face(faces, samples, revision=1):
    """Calibrate from three rests: ``samples`` is [(face index, (x, y, z) mg), ...] with
    three different faces. The first pair that is not opposite fixes the rotation; the
    remaining face checks it. Returns a Calibration."""
    if len(samples) != 3:
        raise CalibrationError("count", "three faces are needed")
    canon = canonical(faces)
    idx = [s[0] for s in samples]
    for i in idx:
        if i < 0 or i >= faces:
            raise CalibrationError("face", "face index out of range")
    if idx[0] == idx[1] or idx[0] == idx[2] or idx[1] == idx[2]:
        raise CalibrationError("repeat", "the three faces must differ")
    # A and B must not be opposite: take the first pair (in the order given) that is not.
    for order in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
        if _dot1000(canon[idx[order[0]]], canon[idx[order[1]]]) >= -900:
            samples = [samples[order[0]], samples[order[1]], samples[order[2]]]
            idx = [s[0] for s in samples]
            break
    na = canon[idx[0]]
    nb = canon[idx[1]]
    ma = samples[0][1]
    mb = samples[1][1]
    for m in (ma, mb, samples[2][1]):
        if isqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) < 500:
            raise CalibrationError("still", "the die was not at rest")
    canon_cos = _dot1000(na, nb)
    if canon_cos < -900:
        raise CalibrationError("opposite", "two of the three faces must not be opposite")
    # The measured angle between A and B must match the die's geometry, else a face was
    # misnamed or the die moved: 15 degrees of slack (cos difference ~ 0.26 at 90 deg).
    meas_cos = _dot1000(ma, mb)
    if meas_cos - canon_cos > 260 or canon_cos - meas_cos > 260:
        raise CalibrationError("geometry", "faces A and B are not where the die says")
    r = rotation(na, nb, ma, mb)
    normals = [rotate(r, n) for n in canon]
    conf = _dot1000(normals[idx[2]], samples[2][1])
    one_g = 0
    for s in samples:
        m = s[1]
        one_g += isqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2])
    one_g //= 3
    if one_g > 2000:
        one_g = 2000
    return Calibration(faces, normals, one_g, conf, METHOD_THREE_FACE, revision)


def recalibrate_face(cal, face, measured):
    """Replace one face's normal by a new measurement (the die rests with ``face`` up).

    Refuses when the measurement is nearer another face's normal (the wrong face is up)
    or when it moves the normal by more than 30 degrees. Returns (new Calibration, cos x
    1000 between the old and the new normal)."""
    if face < 0 or face >= cal.faces:
        raise CalibrationError("face", "face index out of range")
    u = _unit(measured, 1000)
    best, _ = _det.best_face(cal.normals, u[0], u[1], u[2])
    if best != face:
        raise CalibrationError("wrong-face", "another face is up")
    moved = _dot1000(cal.normals[face], u)
    if moved < 866:
        raise CalibrationError("too-far", "the face moved more than 30 degrees")
    normals = list(cal.normals)
    normals[face] = u
    new = Calibration(cal.faces, normals, cal.one_g, cal.confidence, METHOD_SINGLE,
                      (cal.revision + 1) & 0xFFFF)
    return new, moved


def encode(cal):
    """The storage format (little-endian), version 1::

        0   4   magic b"TCAL"
        4   1   format version (1)
        5   1   faces n
        6   1   method (0 canonical, 1 single-face edited, 3 three-face)
        7   1   reserved (0)
        8   2   one_g mg, u16
        10  2   confidence x1000, i16
        12  2   revision, u16
        14  6n  normals: n x (x, y, z) i16, length 1000
        ..  2   CRC-16/CCITT-FALSE over everything before it, u16
    """
    body = struct.pack(_HEADER, MAGIC, FORMAT_VERSION, cal.faces, cal.method, 0,
                       cal.one_g, cal.confidence, cal.revision & 0xFFFF)
    flat = []
    for n in cal.normals:
        flat.append(n[0])
        flat.append(n[1])
        flat.append(n[2])
    body += struct.pack("<%dh" % len(flat), *flat)
    return body + struct.pack("<H", crc16(body))


def decode(data):
    """Parse the storage format; raises CalibrationError on a bad magic, an unknown
    version, a short file or a CRC mismatch (the firmware then falls back to canonical)."""
    data = bytes(data)
    if len(data) < _HEADER_LEN + 2:
        raise CalibrationError("short", "calibration data too short")
    magic, version, faces, method, _res, one_g, conf, rev = struct.unpack(
        _HEADER, data[:_HEADER_LEN])
    if magic != MAGIC:
        raise CalibrationError("magic", "not a calibration file")
    if version != FORMAT_VERSION:
        raise CalibrationError("version", "unknown calibration format version")
    end = _HEADER_LEN + 6 * faces
    if len(data) < end + 2:
        raise CalibrationError("short", "calibration data too short")
    (crc,) = struct.unpack("<H", data[end:end + 2])
    if crc != crc16(data[:end]):
        raise CalibrationError("crc", "calibration CRC mismatch")
    flat = struct.unpack("<%dh" % (3 * faces), data[_HEADER_LEN:end])
    normals = [(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in range(faces)]
    return Calibration(faces, normals, one_g, conf, method, rev)


def save(path, cal):
    """Write atomically: a temporary file, then rename over the old one, so a power cut
    leaves either the old or the new calibration."""
    import os
    tmp = path + ".tmp"
    f = open(tmp, "wb")
    try:
        f.write(encode(cal))
    finally:
        f.close()
    try:
        os.remove(path)  # MicroPython's rename does not replace on every port
    except OSError:
        pass
    os.rename(tmp, path)


def load(path, faces):
    """The stored calibration, or the canonical one when the file is missing, damaged,
    or for another die type. Returns (Calibration, reason) with reason None when the file
    was good."""
    try:
        f = open(path, "rb")
    except OSError:
        return default(faces), "missing"
    try:
        data = f.read()
    finally:
        f.close()
    try:
        cal = decode(data)
    except CalibrationError as e:
        return default(faces), e.code
    if cal.faces != faces:
        return default(faces), "faces"
    return cal, None


class Session:
    """Collects the three rests of a three-face calibration for one die, as the
    CALIBRATE_FACE commands arrive one face at a time."""

    def __init__(self, faces):
        self.faces = faces
        self.samples = []

    def add(self, face, measured, revision=1):
        """Record a rest. Returns None until the third face, then the Calibration.
        A repeated face replaces its earlier sample (the user put it down again)."""
        kept = []
        for s in self.samples:
            if s[0] != face:
                kept.append(s)
        kept.append((face, tuple(measured)))
        self.samples = kept
        if len(self.samples) < 3:
            return None
        samples = self.samples
        self.samples = []
        return three_face(self.faces, samples, revision)
