"""Fixtures for the hardware tests: paths, and MicroPython (WebAssembly) under Node."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "hardware" / "tools"
SHARED = ROOT / "firmware_bridge" / "shared"
TRACES = Path(__file__).resolve().parent / "traces"

MpyRunner = Callable[..., str]


@pytest.fixture(scope="session")
def traces_dir() -> Path:
    return TRACES


@pytest.fixture(scope="session")
def mpy() -> MpyRunner:
    """``mpy(code, files={"name.py": text})`` runs code on MicroPython 1.27 under Node and
    returns its standard output; a MicroPython exception fails the test with the
    traceback. Skips only when Node is not installed at all (``./dev test`` installs it
    on Debian); installs the npm package itself if ``./dev`` has not."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the MicroPython (WebAssembly) tests need Node.js")
    pkg = TOOLS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if not pkg.is_dir():
        npm = shutil.which("npm")
        assert npm is not None, "node is installed but npm is not: cannot install MicroPython"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=TOOLS, check=True)

    def run(code: str, files: dict[str, str] | None = None, timeout: float = 120.0) -> str:
        job = json.dumps({"files": files or {}, "code": code})
        proc = subprocess.run(
            [node, str(TOOLS / "run_mpy.mjs")], input=job, capture_output=True, text=True,
            timeout=timeout, cwd=TOOLS,
        )
        if proc.returncode != 0:
            pytest.fail("MicroPython failed (exit %d):\n%s" % (proc.returncode, proc.stderr))
        return proc.stdout

    return run

