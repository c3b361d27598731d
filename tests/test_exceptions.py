"""One root exception per layer: every exception class a layer defines derives from that
layer's root (``rules.RulesError``, ``companion.errors.CompanionError``,
``firmware_bridge.BridgeError``), so a caller catches "that layer said no" by name and
anything else (a programming error) reaches the crash report.

Every module of each package is imported and every exception class defined in it is
checked with ``issubclass``. The imports run in a child interpreter: the UI's modules bring
Kivy, which this test process must not load (see tests/test_doctests.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS = {
    "rules": "rules.core.errors.RulesError",
    "companion": "companion.errors.CompanionError",
    "firmware_bridge": "firmware_bridge.errors.BridgeError",
}

# Exceptions that are not a layer's answer to a caller, each with why:
ALLOWED = {
    # Raised and caught inside the journal's own open path (SQLite could not read even
    # the header): turned into NotAJournal / JournalDamaged before it leaves the module.
    "companion.journal_errors._Unreadable",
    # The read loops' "the link went down" signal, caught a few lines up in the same
    # class and turned into a LinkLostError (a BridgeError) or a reconnect.
    "firmware_bridge.ble.source._LinkDown",
    "firmware_bridge.serial.connection._LinkDown",
    # json.loads' parse_constant hook: caught at once and raised as a GameFileError.
    "rules.gamefile._Constant",
    # The invariant harness's verdict on an engine (a test's assertion, not a refusal a
    # caller acts on): an AssertionError on purpose, so no `except RulesError` hides it.
    "rules.core.harness.InvariantBroken",
}

WALK = r"""
import importlib, inspect, json, pkgutil, sys
out = {"classes": [], "failed": []}
for root in sys.argv[1:]:
    pkg = importlib.import_module(root)
    for m in [root] + [i.name for i in pkgutil.walk_packages(pkg.__path__, root + ".")]:
        try:
            mod = importlib.import_module(m)
        except BaseException as e:  # a module that cannot even be imported is reported
            out["failed"].append([m, repr(e)])
            continue
        for name, c in vars(mod).items():
            if inspect.isclass(c) and issubclass(c, BaseException) and c.__module__ == m:
                out["classes"].append([root, f"{m}.{c.__qualname__}", [f"{b.__module__}.{b.__qualname__}" for b in c.__mro__]])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def walked() -> dict[str, list[list[object]]]:
    env = {"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    proc = subprocess.run([sys.executable, "-c", WALK, *LAYERS], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_module_imports(walked: dict[str, list[list[object]]]) -> None:
    assert walked["failed"] == []


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_every_exception_derives_from_its_layers_root(walked: dict[str, list[list[object]]], layer: str) -> None:
    root = LAYERS[layer]
    classes = [(name, mro) for lay, name, mro in walked["classes"] if lay == layer]
    assert any(name == root for name, _ in classes), f"{root} itself was not found"
    # The walk finds the classes the issue counted: a layer has several, not one.
    assert len(classes) >= 5
    stray = [name for name, mro in classes if root not in mro and name not in ALLOWED]
    assert stray == [], f"exception classes of {layer} outside {root}: {stray}"


def test_the_allow_list_names_real_classes(walked: dict[str, list[list[object]]]) -> None:
    """An entry left behind after its class is gone (or has joined its root) goes too."""
    outside = {name for lay, name, mro in walked["classes"] if LAYERS[str(lay)] not in mro}
    assert ALLOWED <= outside, sorted(ALLOWED - outside)


def test_refusals_keep_the_builtin_base_callers_rely_on() -> None:
    """A layer's root joins the old base, it does not replace it: a ValueError stays one."""
    from companion.errors import CompanionError
    from companion.journal import JournalError, UnknownGameKey
    from companion.table import TableClosed
    from companion.undo import UndoRefused
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.events import EventError
    from firmware_bridge.shared.codec import PING, SRC_HUB, FrameError, decode_frame, encode_frame

    for cls in (JournalError, TableClosed, UndoRefused):
        assert issubclass(cls, CompanionError) and issubclass(cls, ValueError)
    assert issubclass(UnknownGameKey, KeyError)
    assert issubclass(EventError, BridgeError) and issubclass(EventError, ValueError)
    # The frame of the codec's own example (05 02 87 07 fe | bd ab cf, then the 00 that
    # ends it) with one bit of its seq flipped on the wire: a CRC mismatch.
    frame = bytearray(encode_frame(PING, 7, SRC_HUB)[:-1])
    assert frame.hex() == "05028707febdabcf"
    frame[3] ^= 1
    with pytest.raises(BridgeError) as e:  # a damaged frame from the wire: a bridge refusal
        decode_frame(bytes(frame))
    assert isinstance(e.value, FrameError) and isinstance(e.value, ValueError) and e.value.code == "crc"
