"""Trace files in the TELEMETRY recording format, and the trace generator's physics."""
from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T

TRACE_FILES = sorted((Path(__file__).resolve().parent / "traces").glob("*.csv"))


def _dice_in(path: Path) -> list[int]:
    return sorted({int(line.split(",")[1]) for line in path.read_text().splitlines()
                   if line and line[0].isdigit()})


def test_the_example_recordings_are_there() -> None:
    names = {p.stem for p in TRACE_FILES}
    assert {"d6-clean-roll-face%d" % f for f in range(6)} <= names
    assert {"d6-turned-in-hand", "d6-nudge", "d6-bounces", "d6-drop-30cm", "d6-cocked-35deg",
            "d6-noisy-rest", "d6-gentle-roll", "d20-clean-roll", "d6-two-dice"} <= names


@pytest.mark.parametrize("path", TRACE_FILES, ids=lambda p: p.stem)
def test_recording_gives_its_expected_result(path: Path) -> None:
    for src in _dice_in(path):
        tr = T.read_trace(path, src=src)
        suffix = str(src) if ("expect%d" % src) in tr.meta else ""
        meta = {k[: len(k) - len(suffix)] if suffix and k.endswith(suffix) else k: v
                for k, v in tr.meta.items()}
        faces = int(meta["faces"])
        normals = T.parse_normals(meta["normals"]) if "normals" in meta else C.canonical(faces)
        det = D.Detector(normals, D.Config(flat_deg=C.FLAT_DEG[faces]))
        events = D.run(det, tr.samples)
        final = events[-1]
        assert final.name() == meta["expect"], events
        assert final.face == int(meta["face"])
        names = [e.name() for e in events]
        if meta["expect"] == "onFace":
            assert "rolling" not in names
        if meta["label"] == "rest":
            assert len(events) == 1
            continue
        assert events[0].face == int(meta["start_face"]) and events[0].counter == 0
        latency = final.t_ms - int(meta["landed_ms"])
        assert det.config.settle_ms - 40 <= latency <= det.config.settle_ms + 370


def test_write_read_round_trip(tmp_path: Path) -> None:
    rng = random.Random(1)
    mount = T.Mount.random(rng)
    a = T.clean_roll(6, 2, rng, mount)
    b = T.nudge(6, rng, mount)
    b.src = 1
    T.write_trace(tmp_path / "one.csv", a)
    back = T.read_trace(tmp_path / "one.csv")
    assert back.samples == a.samples and back.rate_hz == 100 and back.meta["face"] == "2"
    T.write_trace(tmp_path / "two.csv", [a, b])
    assert T.read_trace(tmp_path / "two.csv", src=1).samples == b.samples
    assert T.read_trace(tmp_path / "two.csv", src=0).samples == a.samples
    with pytest.raises(ValueError, match="pass src"):
        T.read_trace(tmp_path / "two.csv")


@pytest.mark.parametrize("text,match", [
    ("t_ms,src,x_mg,y_mg,z_mg\n0,0,1,2,3\n", "not a tabletop-companion"),
    (T.FORMAT_LINE + "\n# a=b\n", "no column header"),
    (T.FORMAT_LINE + "\nt,x,y,z\n", "column header"),
    (T.FORMAT_LINE + "\n" + T.COLUMNS + "\n0,0,1,2\n", "5 fields"),
    (T.FORMAT_LINE + "\n" + T.COLUMNS + "\n0,0,1,2,x\n", "invalid literal"),
])
def test_malformed_recordings_are_refused(tmp_path: Path, text: str, match: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(ValueError, match=match):
        T.read_trace(p)


def test_normals_metadata_round_trip() -> None:
    n = T.Mount.random(random.Random(2)).normals(20)
    assert T.parse_normals(T.format_normals(n)) == n


def test_face_up_puts_the_face_up() -> None:
    for faces in (6, 8, 12, 20):
        for f in range(faces):
            q = T.face_up(faces, f, yaw=1.3)
            n = [c / 1000 for c in C.CANONICAL[faces][f]]
            up = T.q_rotate(q, tuple(c / math.sqrt(sum(x * x for x in n)) for c in n))  # type: ignore[arg-type]
            assert up[2] == pytest.approx(1.0, abs=1e-9)


def test_resting_die_reads_its_face_normal() -> None:
    """At rest the sensor reads +1 g along the up face's normal, in its own frame."""
    rng = random.Random(3)
    mount = T.Mount.random(rng)
    for f in range(6):
        tr = T.rest(6, f, rng, mount, T.Sensor(noise_mg=0.0, lsb_mg=1), seconds=0.1)
        x, y, z = tr.samples[-1][1:]
        assert (x, y, z) == pytest.approx(mount.normals(6)[f], abs=2)


def test_free_fall_reads_near_zero_and_impacts_are_shocks() -> None:
    rng = random.Random(4)
    mount = T.Mount(offset_mm=(0.0, 0.0, 0.0))
    s = T.Script(6, rng, T.face_up(6, 0))
    s.rest(100).spin(200, (0.0, 0.0, 0.0), (0.0, 0.0, -T.G)).impact(3000, 20).rest(100)
    samples = s.render(mount, T.Sensor(noise_mg=0.0, lsb_mg=1))
    mags = [math.sqrt(x * x + y * y + z * z) for _, x, y, z in samples]
    assert max(mags[12:28]) < 5  # falling
    assert max(mags) > 3500  # the landing
    assert mags[-1] == pytest.approx(1000, abs=2)


def test_gentle_roll_has_no_shock_and_no_free_fall() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        tr = T.gentle_roll(6, 1, rng, T.Mount.random(rng))
        mags = [math.sqrt(x * x + y * y + z * z) for _, x, y, z in tr.samples]
        assert max(mags) < 2000 and min(mags) > 350
