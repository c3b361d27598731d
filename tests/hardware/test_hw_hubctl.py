"""hardware/hubctl.py against the hub's logic on a simulated serial line: identify,
calibrate step by step, record a trace, set a threshold, reboot to the REPL, replay."""
from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import detector as D
from firmware_bridge.simulated import traces as T
from hw_helpers import FIRMWARE, ROOT

HERE = Path(__file__).resolve().parent


@pytest.fixture()
def mods(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ModuleType, ModuleType, ModuleType]]:
    monkeypatch.syspath_prepend(str(FIRMWARE))
    monkeypatch.syspath_prepend(str(HERE))
    before = set(sys.modules)
    import hubfakes

    from firmware_bridge.shared import hubapp

    spec = importlib.util.spec_from_file_location("hw_hubctl", ROOT / "hardware" / "hubctl.py")
    assert spec and spec.loader
    hubctl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hubctl)
    yield hubctl, hubapp, hubfakes
    for name in set(sys.modules) - before:
        del sys.modules[name]


class SimPort:
    """A serial port whose other end is the hub's logic; time is simulated: every read
    runs the hub 10 ms."""

    def __init__(self, hubfakes: ModuleType, hub: Any, link: Any, sensors: list[Any]) -> None:
        self.hubfakes, self.hub, self.link, self.sensors = hubfakes, hub, link, sensors
        self.t = 0

    def write(self, data: bytes) -> None:
        self.link.inbox += data

    def flush(self) -> None:
        pass

    def read(self, n: int) -> bytes:
        self.t = self.hubfakes.run_until(self.hub, self.sensors, self.t, self.t + 10)
        return self.link.take()

    def clock(self) -> float:
        return self.t / 1000.0

    def sleep(self, seconds: float) -> None:
        self.t = self.hubfakes.run_until(self.hub, self.sensors, self.t, self.t + int(seconds * 1000))


def _setup(mods: tuple[ModuleType, ModuleType, ModuleType], tmp_path: Path,
           samples: list[tuple[int, int, int, int]]) -> tuple[Any, SimPort, Any, Any]:
    hubctl, hubapp, hubfakes = mods
    hub, link, sensors, tokens, buttons, actions = hubfakes.make_hub(hubapp, [samples], str(tmp_path))
    port = SimPort(hubfakes, hub, link, sensors)
    return hubctl.HubLink(port, port.clock, port.sleep), port, hub, actions


def test_ident(mods: Any, tmp_path: Path) -> None:
    hubctl = mods[0]
    link, port, hub, _ = _setup(mods, tmp_path, T.rest(6, 3, random.Random(1), T.Mount(), seconds=5).samples)
    port.sleep(0.5)
    lines: list[str] = []
    assert hubctl.main(["ident"], link=link, out=lines.append) == 0
    assert lines[0].startswith("protocol ") and "firmware 0.1.0" in lines[0]
    assert "board 0102030405060708" in lines[0] and "boot 12345678" in lines[0]
    assert lines[1] == "dice: d6"
    assert lines[2] == "die 0: onFace face index 3 (confidence 1000), 0 rolls, calibration rev 0 (canonical)"
    assert lines[3] == "tokens 0b0  buttons 0b0"
    assert lines[-1].startswith("uptime ") and "rx_frames=" in lines[-1]


def test_calibrate_three_faces(mods: Any, tmp_path: Path) -> None:
    hubctl = mods[0]
    rng = random.Random(2)
    mount = T.Mount.random(rng)
    samples: list[tuple[int, int, int, int]] = []
    for k, face in enumerate((0, 1, 2)):
        tr = T.rest(6, face, rng, mount, seconds=2.0)
        samples += [(t + 2000 * k, x, y, z) for t, x, y, z in tr.samples]
    link, port, hub, _ = _setup(mods, tmp_path, samples)
    prompts: list[str] = []

    def wait(prompt: str) -> None:  # the user turns the die, then presses Enter
        prompts.append(prompt)
        port.sleep((2000 * len(prompts) - 1900 - port.t) / 1000.0)

    lines: list[str] = []
    assert hubctl.main(["calibrate", "--die", "0"], link=link, out=lines.append, wait=wait) == 0
    assert [p.split(" up")[0] for p in prompts] == [
        "Put die 0 down with face index %d (value %d)" % (i, i + 1) for i in range(3)]
    conf = int(lines[-1].split("confidence ")[1].split(" ")[0])
    assert conf > 990
    cal, why = C.load(str(tmp_path / "cal0.bin"), 6)
    assert why is None
    for n, m in zip(cal.normals, mount.normals(6)):  # every normal within 1.5 degrees
        cos = sum(a * b for a, b in zip(n, m)) / (math.dist((0, 0, 0), n) * math.dist((0, 0, 0), m))
        assert cos > math.cos(math.radians(1.5))


def test_calibrate_retries_while_the_die_moves(mods: Any, tmp_path: Path) -> None:
    hubctl = mods[0]
    rng = random.Random(3)
    roll = T.clean_roll(6, 4, rng, T.Mount(), start_face=0)
    link, port, hub, _ = _setup(mods, tmp_path, roll.samples)
    landed = int(roll.meta["landed_ms"])
    prompts: list[str] = []

    def wait(prompt: str) -> None:
        prompts.append(prompt)
        if len(prompts) == 1:
            port.sleep((landed - 700 - port.t) / 1000.0)  # still tumbling at the reading
        else:
            port.sleep((landed + 100 - port.t) / 1000.0)

    lines: list[str] = []
    assert hubctl.main(["calibrate", "--die", "0", "--single", "4"], link=link, out=lines.append, wait=wait) == 0
    assert lines[0] == "The die was still moving: again."
    assert len(prompts) == 2 and hub.dice[0].cal.method == C.METHOD_SINGLE


def test_record_writes_a_replayable_trace(mods: Any, tmp_path: Path) -> None:
    hubctl = mods[0]
    rng = random.Random(4)
    roll = T.clean_roll(6, 2, rng, T.Mount(), start_face=5)
    link, port, hub, _ = _setup(mods, tmp_path, roll.samples)
    out = tmp_path / "roll.csv"
    lines: list[str] = []
    seconds = (roll.samples[-1][0] + 100) / 1000
    assert hubctl.main(["record", str(out), "--seconds", str(seconds), "--label", "test"],
                       link=link, out=lines.append) == 0
    rec = T.read_trace(out)
    assert rec.meta["label"] == "test" and rec.rate_hz == 100
    by_t = {s[0]: s for s in roll.samples}
    assert len(rec.samples) > 0.9 * len(roll.samples)
    assert all(by_t[s[0]] == s for s in rec.samples)
    assert lines[-1] == "rolled faces: 2: 1"
    assert hub.dice[0].telemetry_every == 0  # switched off afterwards
    replay: list[str] = []
    assert hubctl.main(["replay", str(out)], out=replay.append) == 0
    assert "rolled" in replay[-1] and "face index  2" in replay[-1]


def test_replay_with_a_threshold_override(mods: Any) -> None:
    hubctl = mods[0]
    path = HERE / "traces" / "d6-turned-in-hand.csv"
    plain: list[str] = []
    hubctl.main(["replay", str(path)], out=plain.append)
    strict: list[str] = []
    hubctl.main(["replay", str(path), "--set", "turn_ms=0"], out=strict.append)
    assert "onFace" in plain[-1] and "rolling" not in " ".join(plain)
    assert "rolled" in strict[-1]


def test_config_and_reboot(mods: Any, tmp_path: Path) -> None:
    hubctl = mods[0]
    link, port, hub, actions = _setup(mods, tmp_path, [])
    lines: list[str] = []
    assert hubctl.main(["config", "settle_ms", "400"], link=link, out=lines.append) == 0
    assert hub.dice[0].detector.config.settle_ms == 400
    assert hubctl.main(["config", "settle_ms", "5"], link=link, out=lines.append) == 1
    assert lines == ["ok", "refused (status 4)"]
    with pytest.raises(SystemExit, match="unknown key"):
        hubctl.main(["config", "nonsense", "1"], link=link, out=lines.append)
    assert hubctl.main(["reboot", "--repl"], link=link, out=lines.append) == 0
    port.sleep(0.02)
    assert actions.done == ["repl"]


def test_no_answer_is_a_timeout(mods: Any) -> None:
    hubctl = mods[0]

    class Silent:
        t = 0.0

        def write(self, data: bytes) -> None:
            pass

        def flush(self) -> None:
            pass

        def read(self, n: int) -> bytes:
            Silent.t += 0.01
            return b""

    link = hubctl.HubLink(Silent(), lambda: Silent.t, lambda s: None)
    with pytest.raises(TimeoutError):
        hubctl.main(["config", "settle_ms", "300"], link=link, out=lambda s: None)
    assert D.Config().settle_ms == 280
