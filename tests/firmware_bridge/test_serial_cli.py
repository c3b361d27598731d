"""``python -m firmware_bridge``: list, monitor, simulate."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from types import SimpleNamespace

import pytest

from firmware_bridge.__main__ import build_parser, main


def _port(device, vid=None, pid=None, sn=None, desc="n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=sn, description=desc,
                           manufacturer=None, product=None, location=None)


def test_list_marks_hubs_by_vid_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    import serial.tools.list_ports as lp

    monkeypatch.setattr(lp, "comports", lambda: [
        _port("/dev/ttyS0"), _port("/dev/ttyACM0", 0x2E8A, 0x0005, "E66038B7134F2A2B", "Board in FS mode"),
        _port("/dev/ttyUSB0", 0x10C4, 0xEA60, "0001", "CP2102N")])
    lines: list[str] = []
    assert main(["list"], lines.append) == 0
    acm = next(line for line in lines if "/dev/ttyACM0" in line)
    assert acm.startswith("hub ") and "2E8A:0005" in acm and "E66038B7134F2A2B" in acm
    assert next(line for line in lines if "/dev/ttyUSB0" in line).startswith("hub?")
    assert next(line for line in lines if "/dev/ttyS0" in line).strip().startswith("/dev/ttyS0")
    assert lines[-1].startswith("3 port(s), 2 hub(s)")


def test_list_with_no_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    import serial.tools.list_ports as lp

    monkeypatch.setattr(lp, "comports", lambda: [])
    lines: list[str] = []
    assert main(["list"], lines.append) == 0 and lines == ["no serial ports"]


def test_monitor_reports_a_device_that_is_not_a_hub() -> None:
    lines: list[str] = []
    errors: list[str] = []
    # loop:// echoes our HELLO back: a line with no hub on it.
    assert main(["monitor", "loop://", "--timeout", "3"], lines.append, errors.append) == 1
    assert errors == [e for e in errors if e.startswith("error: no IDENT")] and len(errors) == 1
    assert not any(line.startswith("error") for line in lines)


def test_monitor_without_a_port_needs_a_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    import serial.tools.list_ports as lp

    monkeypatch.setattr(lp, "comports", lambda: [])
    errors: list[str] = []
    assert main(["monitor"], [].append, errors.append) == 1
    assert len(errors) == 1 and errors[0].startswith("error: no dice hub on any USB port")


def test_parser_knows_the_three_commands() -> None:
    p = build_parser()
    assert p.parse_args(["monitor", "--port", "/dev/x"]).port_opt == "/dev/x"
    with pytest.raises(SystemExit):
        p.parse_args(["frobnicate"])


def test_module_entry_point_runs() -> None:
    r = subprocess.run([sys.executable, "-m", "firmware_bridge", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "monitor" in r.stdout and "simulate" in r.stdout


def test_simulate_then_monitor_it() -> None:
    """``simulate`` in a child process prints its port; ``monitor`` on that port shows the
    hub coming online and its counters."""
    pytest.importorskip("firmware_bridge.simulated.hub")
    child = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "simulate", "--seed", "3",
                              "--speed", "20", "--roll-every", "0.3", "--seconds", "20"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert first.startswith("simulated hub on "), first
        port = first.split()[3]
        lines: list[str] = []
        assert main(["monitor", port, "--seconds", "1.5", "--interval", "0.5"], lines.append) == 0
        text = "\n".join(lines)
        assert "DeviceOnline" in text and "device:hub1" in text
        assert "DieRolled" in text or "DieMotion" in text  # a throw every 0.3 s
        assert any(line.startswith("bridge: good ") for line in lines)
        assert any(line.startswith("hub:    uptime") for line in lines)
        assert lines[-2].startswith("bridge: ") or lines[-1].startswith("hub: ")
    finally:
        child.send_signal(signal.SIGINT)  # Ctrl-C: the hub stops and cleans up
        assert child.wait(10) == 0
    assert not os.path.lexists(port)  # its pty link went with it


def test_simulate_refuses_an_impossible_die() -> None:
    pytest.importorskip("firmware_bridge.simulated.hub")
    errors: list[str] = []
    assert main(["simulate", "--faces", "7", "--seconds", "0"], [].append, errors.append) == 2
    assert len(errors) == 1 and "error: no d7" in errors[0]


def test_monitor_records_telemetry_in_the_recording_format(tmp_path) -> None:
    sim = pytest.importorskip("firmware_bridge.simulated.hub")
    from firmware_bridge.simulated import traces as T

    out = tmp_path / "roll.csv"
    with sim.SimulatedHub(dice=[6, 20], seed=4, speed=1) as hub:
        lines: list[str] = []
        assert main(["monitor", hub.port, "--record", str(out), "--die", "1", "--seconds", "1.0",
                     "--interval", "5"], lines.append) == 0
        assert hub.hub is not None and hub.hub.dice[1].telemetry_every == 0  # switched off again
    trace = T.read_trace(out)
    assert trace.meta["faces"] == "20" and trace.src == 1 and trace.rate_hz == 100
    assert len(trace.samples) >= 30  # about a second at 100 Hz, in batches of 6
    times = [s[0] for s in trace.samples]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert all(abs(s[1]) + abs(s[2]) + abs(s[3]) > 500 for s in trace.samples)  # gravity is there
    assert lines[-1].startswith("%d samples of die 1 -> " % len(trace.samples))
