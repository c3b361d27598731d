"""Face calibration (firmware_bridge/shared/calibration.py)."""
from __future__ import annotations

import binascii
import math
import random
from pathlib import Path

import pytest

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T


def _rest_reading(mount: T.Mount, faces: int, face: int, rng: random.Random,
                  noise: float = 8.0, tilt_deg: float = 0.0) -> tuple[int, int, int]:
    """What the firmware records for CALIBRATE_FACE: the detector's mean gravity over a
    still second of the die resting with ``face`` up (slightly off-flat if asked)."""
    q = T.face_up(faces, face, rng.uniform(0, 6.28))
    if tilt_deg:
        q = T.q_mul(T.q_axis_angle((1.0, 0.0, 0.0), math.radians(tilt_deg)), q)
    s = T.Script(faces, rng, q).rest(1000)
    det = D.Detector(C.canonical(faces))
    for t, x, y, z in s.render(mount, T.Sensor(noise_mg=noise)):
        det.update(t, x, y, z)
    v = det.rest_vector()
    assert v is not None
    return v


def _angle_deg(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b)) / (math.dist((0, 0, 0), a) * math.dist((0, 0, 0), b))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot))))


@pytest.mark.parametrize("faces", [6, 8, 12, 20])
def test_canonical_tables_are_unit_and_opposite(faces: int) -> None:
    n = C.canonical(faces)
    assert len(n) == faces and len(set(n)) == faces
    for i, v in enumerate(n):
        assert abs(math.dist((0, 0, 0), v) - 1000) <= 2
        assert n[faces - 1 - i] == tuple(-c for c in v)


def test_canonical_d6_is_right_handed() -> None:
    """1, 2, 3 run counter-clockwise round their corner seen from outside."""
    one, two, three = (C.canonical(6)[i] for i in range(3))
    cross = (two[1] * three[2] - two[2] * three[1], two[2] * three[0] - two[0] * three[2],
             two[0] * three[1] - two[1] * three[0])
    assert sum(a * b for a, b in zip(cross, one)) > 0


def test_unknown_die_type() -> None:
    with pytest.raises(C.CalibrationError) as e:
        C.canonical(7)
    assert e.value.code == "faces"


@pytest.mark.parametrize("faces", [6, 20])
def test_three_face_recovers_every_normal(faces: int, soak_factor: int) -> None:
    for seed in range(10 * soak_factor):
        rng = random.Random(seed)
        mount = T.Mount.random(rng)
        picks = rng.sample(range(faces), 3)
        samples = [(f, _rest_reading(mount, faces, f, rng)) for f in picks]
        cal = C.three_face(faces, samples)
        truth = mount.normals(faces)
        worst = max(_angle_deg(a, b) for a, b in zip(cal.normals, truth))
        assert worst < 1.5, (seed, picks, worst)
        assert cal.confidence >= 995 and cal.method == C.METHOD_THREE_FACE
        assert abs(cal.one_g - 1000) <= 10


def test_three_face_tolerates_a_slightly_uneven_table() -> None:
    rng = random.Random(7)
    mount = T.Mount.random(rng)
    samples = [(f, _rest_reading(mount, 6, f, rng, tilt_deg=2.0)) for f in (0, 1, 2)]
    cal = C.three_face(6, samples)
    assert max(_angle_deg(a, b) for a, b in zip(cal.normals, mount.normals(6))) < 5
    assert cal.confidence > 990


def test_an_opposite_pair_is_worked_around() -> None:
    rng = random.Random(8)
    mount = T.Mount.random(rng)
    samples = [(f, _rest_reading(mount, 6, f, rng)) for f in (0, 5, 1)]  # 1 and 6 opposite
    cal = C.three_face(6, samples)
    assert max(_angle_deg(a, b) for a, b in zip(cal.normals, mount.normals(6))) < 1.5


def test_a_misnamed_face_is_refused_or_shows_in_the_confidence() -> None:
    rng = random.Random(9)
    mount = T.Mount.random(rng)
    r = {f: _rest_reading(mount, 6, f, rng) for f in range(6)}
    # B was really the face opposite A: 180 degrees measured, 90 claimed.
    with pytest.raises(C.CalibrationError) as e:
        C.three_face(6, [(0, r[0]), (1, r[5]), (2, r[2])])
    assert e.value.code == "geometry"
    # Third face misnamed: accepted by geometry, but the confidence says it.
    cal = C.three_face(6, [(0, r[0]), (1, r[1]), (3, r[2])])
    assert cal.confidence < 0


def test_a_mirrored_die_shows_in_the_confidence() -> None:
    """A left-handed d6 (2 and 3 swapped round the corner) cannot be a rotation of the
    canonical one: the third face comes out far from where it was measured."""
    rng = random.Random(10)
    mount = T.Mount.random(rng)
    r = {f: _rest_reading(mount, 6, f, rng) for f in range(6)}
    cal = C.three_face(6, [(0, r[0]), (1, r[2]), (2, r[1])])  # faces 2 and 3 swapped
    assert cal.confidence < 100


@pytest.mark.parametrize("samples,code", [
    ([(0, (0, 0, 1000)), (1, (1000, 0, 0))], "count"),
    ([(0, (0, 0, 1000)), (0, (1000, 0, 0)), (2, (0, 1000, 0))], "repeat"),
    ([(0, (0, 0, 1000)), (6, (1000, 0, 0)), (2, (0, 1000, 0))], "face"),
    ([(0, (0, 0, 1000)), (1, (100, 0, 0)), (2, (0, 1000, 0))], "still"),
])
def test_three_face_input_errors(samples: list, code: str) -> None:
    with pytest.raises(C.CalibrationError) as e:
        C.three_face(6, samples)
    assert e.value.code == code


def test_single_face_recalibration() -> None:
    rng = random.Random(11)
    mount = T.Mount.random(rng)
    cal = C.three_face(6, [(f, _rest_reading(mount, 6, f, rng)) for f in (0, 1, 2)], revision=4)
    # The die's face 3 is ground 4 degrees off (a worn or cheap die): re-measure it.
    worn = _rest_reading(mount, 6, 3, rng, tilt_deg=4.0)
    new, moved = C.recalibrate_face(cal, 3, worn)
    assert 990 <= moved < 999
    assert _angle_deg(new.normals[3], worn) < 0.3
    assert new.normals[:3] == cal.normals[:3] and new.normals[4:] == cal.normals[4:]
    assert new.revision == 5 and new.method == C.METHOD_SINGLE
    with pytest.raises(C.CalibrationError) as e:
        C.recalibrate_face(cal, 3, _rest_reading(mount, 6, 0, rng))
    assert e.value.code == "wrong-face"
    with pytest.raises(C.CalibrationError) as e:
        C.recalibrate_face(C.default(6), 0, (0, 574, 819))  # still nearest face 0, but 35 deg off
    assert e.value.code == "too-far"
    with pytest.raises(C.CalibrationError):
        C.recalibrate_face(cal, 6, worn)


def test_single_face_calibration_of_every_face_needs_no_layout() -> None:
    """A d20 whose numbering differs from the canonical table can be calibrated face by
    face: start from a three-face estimate, then re-measure each face."""
    rng = random.Random(12)
    mount = T.Mount.random(rng)
    cal = C.three_face(20, [(f, _rest_reading(mount, 20, f, rng)) for f in (0, 2, 6)])
    for f in range(20):
        cal, _ = C.recalibrate_face(cal, f, _rest_reading(mount, 20, f, rng))
    assert cal.revision == 21
    assert max(_angle_deg(a, b) for a, b in zip(cal.normals, mount.normals(20))) < 1.0


# The storage format is pinned: a firmware update must read what an older one wrote.
DEFAULT_D6_HEX = (
    "5443414c01060000e803e803000000000000e803e803000000000000e803000000"
    "0018fc000018fc000000000000000018fca11f"
)


def test_storage_format_is_pinned() -> None:
    assert C.encode(C.default(6)).hex() == DEFAULT_D6_HEX
    assert C.crc16(b"123456789") == 0x29B1 == binascii.crc_hqx(b"123456789", 0xFFFF)
    data = bytes.fromhex(DEFAULT_D6_HEX)
    assert C.crc16(data[:-2]) == int.from_bytes(data[-2:], "little")


def test_storage_round_trip_and_every_corruption_is_caught() -> None:
    rng = random.Random(13)
    mount = T.Mount.random(rng)
    cal = C.three_face(20, [(f, _rest_reading(mount, 20, f, rng)) for f in (0, 2, 6)], revision=300)
    data = C.encode(cal)
    assert len(data) == 14 + 6 * 20 + 2
    assert C.decode(data) == cal and C.decode(bytearray(data)) == cal
    for i in range(len(data)):
        for bit in (0x01, 0x80):
            bad = bytearray(data)
            bad[i] ^= bit
            with pytest.raises(C.CalibrationError):
                C.decode(bytes(bad))
    for cut in (0, 10, 15, len(data) - 1):
        with pytest.raises(C.CalibrationError) as e:
            C.decode(data[:cut])
        assert e.value.code == "short"


def test_unknown_version_is_refused_even_with_a_good_crc() -> None:
    body = bytearray(C.encode(C.default(6))[:-2])
    body[4] = 2
    data = bytes(body) + C.crc16(bytes(body)).to_bytes(2, "little")
    with pytest.raises(C.CalibrationError) as e:
        C.decode(data)
    assert e.value.code == "version"


def test_save_and_load(tmp_path: Path) -> None:
    path = str(tmp_path / "cal0.bin")
    cal, why = C.load(path, 6)
    assert cal == C.default(6) and why == "missing"
    good = C.Calibration(6, C.canonical(6)[::-1], 1012, 998, C.METHOD_THREE_FACE, 2)
    C.save(path, good)
    C.save(path, good)  # replaces
    assert C.load(path, 6) == (good, None)
    assert not Path(path + ".tmp").exists()
    assert C.load(path, 20) == (C.default(20), "faces")
    raw = bytearray(Path(path).read_bytes())
    raw[20] ^= 0xFF
    Path(path).write_bytes(bytes(raw))
    assert C.load(path, 6) == (C.default(6), "crc")


def test_session_collects_three_faces() -> None:
    rng = random.Random(14)
    mount = T.Mount.random(rng)
    s = C.Session(6)
    assert s.add(0, _rest_reading(mount, 6, 0, rng)) is None
    assert s.add(1, (0, 0, 0)) is None  # a bad reading ...
    assert s.add(1, _rest_reading(mount, 6, 1, rng)) is None  # ... replaced by a retake
    cal = s.add(2, _rest_reading(mount, 6, 2, rng), revision=9)
    assert cal is not None and cal.revision == 9 and cal.confidence > 995
    assert s.samples == []


def test_calibrated_normals_read_a_real_roll() -> None:
    """End to end: calibrate a die with an arbitrary mount, then roll it."""
    rng = random.Random(15)
    mount = T.Mount.random(rng)
    cal = C.three_face(6, [(f, _rest_reading(mount, 6, f, rng)) for f in (2, 0, 4)])
    for face in range(6):
        tr = T.clean_roll(6, face, rng, mount)
        ev = D.run(D.Detector(cal.normals, D.Config(one_g_mg=cal.one_g)), tr.samples)
        assert ev[-1].name() == "rolled" and ev[-1].face == face and ev[-1].confidence > 990
