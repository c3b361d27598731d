"""The firmware's pure modules on real MicroPython (1.27, WebAssembly, under Node) give
the same results as under CPython: the host tests do exercise the board's code."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T
from hw_helpers import shared_sources

TRACES = Path(__file__).resolve().parent / "traces"

# Runs on both interpreters: parse recordings (TEXTS), run the detector, print JSON.
DETECT = """
import json
try:
    from firmware_bridge.shared import detector
except ImportError:
    import detector

def parse(text):
    normals = None
    samples = []
    faces = 6
    for line in text.split("\\n"):
        if line.startswith("# normals="):
            normals = [tuple(int(c) for c in p.split(",")) for p in line[10:].split(";")]
        elif line.startswith("# faces="):
            faces = int(line[8:])
        elif line and line[0] in "0123456789":
            t, s, x, y, z = line.split(",")
            samples.append((int(t), int(x), int(y), int(z)))
    return faces, normals, samples

def detect(text):
    faces, normals, samples = parse(text)
    cfg = detector.Config(flat_deg={6: 25, 20: 19}[faces])
    det = detector.Detector(normals, cfg)
    out = [list(e.as_tuple()) for e in detector.run(det, samples)]
    return {"events": out, "snapshot": list(det.snapshot()), "still": det.still_ms(),
            "rest": list(det.rest_vector() or ())}

print(json.dumps([detect(text) for text in TEXTS]))
"""


def _cpython(code: str, **names: object) -> str:
    """Run the same snippet under CPython, capturing what it prints."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(code, dict(names))
    return buf.getvalue()


@pytest.mark.parametrize("name", ["d6-clean-roll-face3", "d6-turned-in-hand", "d6-cocked-35deg",
                                  "d20-clean-roll"])
def test_detector_on_a_recording_matches_cpython(mpy, name: str) -> None:
    texts = [(TRACES / (name + ".csv")).read_text()]
    on_board = json.loads(mpy("TEXTS = %r\n" % texts + DETECT, shared_sources("detector")))
    on_host = json.loads(_cpython(DETECT, TEXTS=texts))
    assert on_board == on_host
    assert on_host[0]["events"][-1][0] in ("rolled", "onFace", "crooked")


def test_detector_on_synthetic_traces_matches_cpython(mpy) -> None:
    """Several scenarios in one MicroPython run, one of them clipped at +-16 g."""
    rng = random.Random(77)
    mount = T.Mount.random(rng)
    trs = [T.clean_roll(6, 2, rng, mount), T.gentle_roll(6, 5, rng, mount),
           T.nudge(6, rng, mount), T.drop(6, 0, rng, mount, T.Sensor(range_mg=16000, lsb_mg=12))]
    texts = []
    for tr in trs:
        tr.meta["normals"] = T.format_normals(mount.normals(6))
        lines = [T.FORMAT_LINE] + ["# %s=%s" % kv for kv in tr.meta.items()] + [T.COLUMNS]
        lines += ["%d,0,%d,%d,%d" % s for s in tr.samples]
        texts.append("\n".join(lines))
    on_board = json.loads(mpy("TEXTS = %r\n" % texts + DETECT, shared_sources("detector")))
    on_host = json.loads(_cpython(DETECT, TEXTS=texts))
    assert on_board == on_host
    assert [r["events"][-1][0] for r in on_host] == ["rolled", "rolled", "onFace", "rolled"]


CALIBRATE = """
import json
try:
    from firmware_bridge.shared import calibration, detector
except ImportError:
    import calibration, detector

out = {}
cal = calibration.three_face(FACES, SAMPLES, 7)
out["normals"] = [list(n) for n in cal.normals]
out["conf"] = cal.confidence
out["one_g"] = cal.one_g
blob = calibration.encode(cal)
out["blob"] = "".join("%02x" % b for b in blob)
out["back"] = calibration.decode(blob) == cal
new, moved = calibration.recalibrate_face(cal, 1, RECAL)
out["recal"] = [list(new.normals[1]), moved, new.revision]
errs = []
for bad in (blob[:-1] + bytes([blob[-1] ^ 1]), blob[:9], b"XCAL" + blob[4:]):
    try:
        calibration.decode(bad)
        errs.append(None)
    except calibration.CalibrationError as e:
        errs.append(e.code)
try:
    calibration.three_face(FACES, SAMPLES[:2])
except ValueError as e:
    errs.append(e.code)
out["errs"] = errs
out["crc"] = calibration.crc16(b"123456789")
out["isqrt"] = [detector.isqrt(n) for n in (0, 1, 15, 16, 1073741823, 1073741824, 10 ** 15 + 7)]
out["cos"] = [detector.cos1000(d) for d in range(0, 181, 15)]
cfg = detector.Config(settle_ms=300)
cfg.set(7, 45)
out["cfg"] = cfg.items()
print(json.dumps(out))
"""


@pytest.mark.parametrize("faces", [6, 20])
def test_calibration_matches_cpython(mpy, faces: int) -> None:
    rng = random.Random(faces)
    mount = T.Mount.random(rng)
    truth = mount.normals(faces)
    picks = [0, 2, 7] if faces == 20 else [0, 1, 2]
    samples = [(f, tuple(c * 1013 // 1000 + rng.randint(-3, 3) for c in truth[f])) for f in picks]
    recal = tuple(c + rng.randint(-20, 20) for c in truth[1])
    names = {"FACES": faces, "SAMPLES": samples, "RECAL": recal}
    code = "".join("%s = %r\n" % kv for kv in names.items()) + CALIBRATE
    on_board = json.loads(mpy(code, shared_sources("detector", "calibration")))
    on_host = json.loads(_cpython(CALIBRATE, **names))
    assert on_board == on_host
    assert on_host["back"] is True and on_host["crc"] == 0x29B1
    assert on_host["errs"] == ["crc", "short", "magic", "count"]
    assert bytes.fromhex(on_host["blob"]) == C.encode(C.three_face(faces, samples, 7))
    assert on_host["isqrt"][-1] == D.isqrt(10 ** 15 + 7)


def test_modules_import_as_top_level_names_on_the_board(mpy) -> None:
    """No package-relative imports: calibration finds detector as a top-level module."""
    out = mpy("import calibration, detector, sys\n"
              "print(calibration._det is detector, sys.implementation.name)",
              shared_sources("detector", "calibration"))
    assert out.split() == ["True", "micropython"]


# The codec (firmware_bridge's, issue 4) on both interpreters: the same frames, byte for
# byte, and the same decoding of a dirty line.
CODEC = """
import json
try:
    from firmware_bridge.shared import codec
except ImportError:
    import codec

def hexs(b):
    return "".join("%02x" % x for x in b)

cases = [(0x42, 0, 0, b""), (0x43, 1, 0, b"\\x00"), (9, 255, 1, b"\\x00\\x00\\x00"),
         (5, 7, 0x40, bytes(range(58))), (0x81, 9, 0xFE, bytes([0] * 58)),
         (0x4A, 200, 0xFF, bytes([0xFF] * 58)),
         (2, 3, 2, b"\\x01\\x02\\x03\\x00\\x03\\x00\\x00\\x00\\x07\\x00")]
out = {"frames": [hexs(codec.encode_frame(k, s, src, p)) for k, s, src, p in cases]}
stream = b""
for k, s, src, p in cases:
    stream += codec.encode_frame(k, s, src, p) + b">>> \\x03garbage\\x00"
whole = codec.encode_frame(4, 4, 4, b"cut")
stream += whole[:5] + b"\\x00"
stream += codec.encode_frame(2, 3, 2, b"\\x01\\x02\\x03")  # too short for a ROLL_STATE
d = codec.Decoder()
got = []
for i in range(0, len(stream), 7):  # arrives in dribs and drabs
    for f in d.feed(stream[i:i + 7]):
        got.append([f.type, f.seq, f.src, hexs(f.payload)])
out["decoded"] = got
out["errors"] = d.errors()
print(json.dumps(out))
"""


def test_codec_gives_the_same_bytes_on_micropython(mpy) -> None:
    from firmware_bridge.shared import codec

    on_host = json.loads(_cpython(CODEC))
    on_board = json.loads(mpy(CODEC, {"codec.py": Path(codec.__file__).read_text()}))
    assert on_board == on_host
    assert len(on_host["decoded"]) == 7 and on_host["errors"] >= 8
