"""``simulate --control``: the simulated hub in a child process, driven through its stdin
(the demo's and the dice benchmark's hub), and the hub's report of a result frame written."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from firmware_bridge.shared import detector as D

sim = pytest.importorskip("firmware_bridge.simulated.hub")


def test_a_result_written_on_the_pty_is_reported_once() -> None:
    seen: list[tuple[int, int, float]] = []
    with sim.SimulatedHub(dice=[6], seed=2, speed=20) as hub:
        # The die's power-on rest (roll counter 0) may be written after the hook is in
        # place, depending on the thread's timing: the throw is the counter-1 result.
        hub.on_result_written = lambda die, state, t: (
            seen.append((die, state["face"], t)) if state["counter"] else None)
        before = time.monotonic()
        hub.roll(0, value=4, wait=True)
        deadline = time.monotonic() + 5
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
    assert len(seen) == 1
    die, face, t = seen[0]
    assert (die, face) == (0, 3) and before < t <= time.monotonic()


def test_simulate_takes_commands_on_stdin_and_stops_at_quit() -> None:
    child = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "simulate", "--control", "--dice", "1",
                              "--seed", "5", "--speed", "20"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().startswith("simulated hub on ")
        child.stdout.readline()  # "connect with: ..."
        child.stdin.write("roll 0 2\n")
        child.stdin.flush()
        # The die's power-on rest is a result frame too (onFace, state 5): when the child
        # got round to our command only after the die had settled (a loaded machine),
        # its "written" line comes before or after "ok roll". Read up to the roll's.
        lines: list[list[str]] = []
        while not (lines and lines[-1][:1] == ["written"] and "state=%d" % D.ON_FACE not in lines[-1]):
            assert len(lines) < 3, lines
            lines.append(child.stdout.readline().split())
        *before, written = lines
        assert ["ok", "roll"] in before, lines
        assert all(w == ["ok", "roll"] or w[:3] == ["written", "die=0", "state=%d" % D.ON_FACE]
                   for w in before), lines
        assert "die=0" in written and "state=%d" % D.ROLLED in written and "face=1" in written
        child.stdin.write("roll 9\n")
        child.stdin.flush()
        assert child.stdout.readline().startswith("error: no die 9")
        child.stdin.write("quit\n")
        child.stdin.flush()
        assert child.wait(10) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_simulate_stops_when_its_input_ends() -> None:
    """The parent has gone (its end of the pipe closed): the hub must not outlive it."""
    child = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "simulate", "--control", "--dice", "1"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().startswith("simulated hub on ")
        child.stdin.close()
        assert child.wait(10) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
