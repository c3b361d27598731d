"""``python -m firmware_bridge`` answers bad input with one ``error:`` line on stderr and
exit status 2 (a bad argument) or 1 (it could not do it: no such port, no hub), never
a traceback. Each case runs as a subprocess, as a person at a terminal would run it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# (arguments, exit status). Found by trying the command line adversarially: missing and
# odd arguments, bad numbers (nan, inf, negative, zero, huge), a directory where a file
# or a port goes, ports that do not exist or are not serial ports.
CASES: list[tuple[list[str], int]] = [
    ([], 2),
    (["bogus"], 2),
    (["list", "extra"], 2),
    (["monitor", "--name", "a/b", "loop://"], 2),
    (["monitor", "--name", "", "loop://"], 2),
    (["monitor", "--silence", "0", "loop://"], 2),
    (["monitor", "--silence", "-1", "loop://"], 2),
    (["monitor", "--interval", "nan", "loop://"], 2),
    (["monitor", "--interval", "1e300", "loop://"], 2),
    (["monitor", "--timeout", "inf", "loop://"], 2),
    (["monitor", "--timeout", "1e300", "/dev/null"], 2),
    (["monitor", "--timeout", "abc", "loop://"], 2),
    (["monitor", "--seconds", "-5", "loop://"], 2),
    (["monitor", "--die", "99", "loop://"], 2),
    (["monitor", "--die", "-1", "loop://"], 2),
    (["monitor", "--rate", "0", "loop://"], 2),
    (["monitor", "--record", "/tmp", "loop://"], 2),
    (["monitor", "--record", "/no/such/folder/x.csv", "loop://"], 2),
    (["monitor", "loop://", "extra"], 2),
    (["simulate", "--speed", "nan"], 2),
    (["simulate", "--speed", "inf"], 2),
    (["simulate", "--speed", "0"], 2),
    (["simulate", "--speed", "-1"], 2),
    (["simulate", "--dice", "0"], 2),
    (["simulate", "--dice", "100"], 2),
    (["simulate", "--faces", "7"], 2),
    (["simulate", "--faces", "x"], 2),
    (["simulate", "--roll-every", "nan"], 2),
    (["simulate", "--seconds", "nan"], 2),
    (["monitor", "/no/such/port"], 1),
    (["monitor", "/tmp"], 1),
    (["monitor", "/dev/null", "--timeout", "1"], 1),
    (["monitor", "socket://127.0.0.1:1"], 1),
    (["monitor", "nosuch://x"], 1),
    (["monitor", "loop://", "--timeout", "0.3"], 1),
    (["monitor", "--serial", "NO-SUCH-HUB"], 1),
]


@pytest.mark.parametrize("args,status", CASES, ids=[" ".join(a) or "(nothing)" for a, _ in CASES])
def test_bad_input_is_one_line_and_a_status(args: list[str], status: int) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "firmware_bridge", *args], capture_output=True,
                       text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)
    assert "Traceback" not in r.stderr + r.stdout
    assert r.returncode == status, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "error: " in lines[0], r.stderr
