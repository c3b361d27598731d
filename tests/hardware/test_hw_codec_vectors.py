"""The protocol's test vectors (hardware/protocol/vectors.json) hold for the codec on real
MicroPython exactly as on CPython: the board frames and parses every message the host
does, byte for byte, and drops the same invalid frames for the same reasons."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from firmware_bridge.shared import codec
from hw_helpers import ROOT

PROTOCOL = ROOT / "hardware" / "protocol"
sys.path.insert(0, str(PROTOCOL))
import vectors_check  # noqa: E402

PROGRAM = """
import json, codec, vectors_check
v = json.loads(open("/vectors.json").read())
report = vectors_check.check(codec, v)
report["crc_hqx"] = codec._crc_hqx is not None
print(json.dumps(report))
"""


def _vectors() -> dict[str, Any]:
    return json.loads((PROTOCOL / "vectors.json").read_text())


def test_vectors_hold_on_micropython(mpy: Any) -> None:
    files = {"codec.py": Path(codec.__file__).read_text(),
             "vectors_check.py": (PROTOCOL / "vectors_check.py").read_text(),
             "vectors.json": (PROTOCOL / "vectors.json").read_text()}
    board = json.loads(mpy(PROGRAM, files))
    host = vectors_check.check(codec, _vectors())
    assert board["failures"] == [] and host["failures"] == []
    assert board["crc_hqx"] is False  # the board computes the CRC with its table
    assert board["decoded"] == host["decoded"] and board["drops"] == host["drops"]
    assert len(board["decoded"]) == len(_vectors()["frames"])


def test_vectors_hold_on_cpython_with_the_table_crc() -> None:
    """The same vectors with the table path forced: both CRC paths are pinned."""
    assert vectors_check.check(codec, _vectors(), table_only=True)["failures"] == []
