"""The firmware's thin hardware modules, with fake hardware: the LIS3DH driver against a
register-level fake, the debouncer, the board profiles, safe mode; and every firmware
file compiles on MicroPython."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

from hw_helpers import FIRMWARE, SHARED


@pytest.fixture()
def fw(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """hardware/firmware on sys.path, and its modules forgotten afterwards."""
    monkeypatch.syspath_prepend(str(FIRMWARE))
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        del sys.modules[name]


class FakeLIS3DH:
    """Register file of a LIS3DH on a fake I2C bus, with the FIFO behind OUT_X_L."""

    def __init__(self, addr: int = 0x18, who: int = 0x33) -> None:
        self.addr = addr
        self.regs = {0x0F: who}
        self.fifo: list[bytes] = []
        self.writes: list[tuple[int, int]] = []
        self.overrun = False

    def scan(self) -> list[int]:
        return [self.addr, 0x3C]

    def _check(self, addr: int) -> None:
        if addr != self.addr:
            raise OSError(19, "ENODEV")

    def writeto_mem(self, addr: int, reg: int, buf: bytes) -> None:
        self._check(addr)
        for i, b in enumerate(buf):
            self.regs[reg + i] = b
            self.writes.append((reg + i, b))
            if reg + i == 0x2E and b & 0xC0 == 0:
                self.fifo.clear()  # bypass mode empties the FIFO

    def readfrom_mem(self, addr: int, reg: int, n: int) -> bytes:
        self._check(addr)
        if reg == 0x2F:
            n_waiting = min(len(self.fifo), 31) if not self.overrun else 0
            return bytes([(0x40 if self.overrun else 0) | n_waiting])
        return bytes(self.regs.get(reg + i, 0) for i in range(n))

    def readfrom_mem_into(self, addr: int, reg: int, buf: bytearray) -> None:
        self._check(addr)
        assert reg == 0x28 | 0x80, "burst reads must set the auto-increment bit"
        data = self.fifo.pop(0) if self.fifo else bytes(6)
        buf[:] = data
        if self.overrun and not self.fifo:
            self.overrun = False

    def push(self, x_mg: int, y_mg: int, z_mg: int, mg_per_digit: int = 4) -> None:
        out = b""
        for v in (x_mg, y_mg, z_mg):
            raw = ((v // mg_per_digit) << 4) & 0xFFFF
            out += raw.to_bytes(2, "little")
        self.fifo.append(out)


def test_lis3dh_configures_the_chip_and_reads_the_fifo(fw: None) -> None:
    import lis3dh

    bus = FakeLIS3DH(0x19)
    acc = lis3dh.LIS3DH(bus, 0x19, rate_hz=100, range_g=8)
    regs = dict(bus.writes)
    assert regs[0x20] == 0x57  # 100 Hz, X/Y/Z on
    assert regs[0x23] == 0xA8  # BDU, +-8 g, high resolution
    assert regs[0x24] & 0x40  # FIFO enabled
    assert bus.regs[0x2E] == 0x80  # stream mode
    for v in [(0, 0, 1000), (-4, 8, -1000), (7996, -8000, 0)]:
        bus.push(*v)
    assert acc.read_fifo() == [(0, 0, 1000), (-4, 8, -1000), (7996, -8000, 0)]
    assert acc.read_fifo() == []
    assert lis3dh.probe(bus) == [0x19]


def test_lis3dh_counts_fifo_overruns(fw: None) -> None:
    import lis3dh

    bus = FakeLIS3DH()
    acc = lis3dh.LIS3DH(bus)
    for i in range(32):
        bus.push(i * 4, 0, 1000)
    bus.overrun = True
    got = acc.read_fifo()
    assert len(got) == 32 and got[5] == (20, 0, 1000)
    assert acc.overruns == 1


def test_lis3dh_refuses_another_chip(fw: None) -> None:
    import lis3dh

    with pytest.raises(OSError, match="no LIS3DH"):
        lis3dh.LIS3DH(FakeLIS3DH(who=0x44))
    with pytest.raises(ValueError):
        lis3dh.ctrl_reg1(300)
    with pytest.raises(ValueError):
        lis3dh.ctrl_reg4(3)


@pytest.mark.parametrize("range_g,k", [(2, 1), (4, 2), (8, 4), (16, 12)])
def test_lis3dh_conversion(fw: None, range_g: int, k: int) -> None:
    import lis3dh

    assert lis3dh.mg_per_digit(range_g) == k
    # 12-bit two's complement, left-justified: 0x7FF0 is the largest, 0x8000 the smallest.
    buf = bytes([0xF0, 0x7F, 0x00, 0x80, 0x10, 0x00])
    assert lis3dh.to_mg(buf, range_g) == (2047 * k, -2048 * k, k)
    assert lis3dh.ctrl_reg4(range_g) & 0x30 == {2: 0, 4: 0x10, 8: 0x20, 16: 0x30}[range_g]


def test_debouncer_ignores_chatter_and_reports_stable_changes() -> None:
    from firmware_bridge.shared.debounce import Debouncer

    d = Debouncer(3, stable_ms=20)
    assert d.update(0, [False, True, False]) == []  # boot state, not news
    assert d.bits() == 0b010
    # Input 0 chatters for 15 ms then settles active; input 2 flickers once.
    timeline = [(2, [1, 1, 1]), (4, [0, 1, 0]), (6, [1, 1, 0]), (9, [0, 1, 0]), (12, [1, 1, 0])]
    events = []
    for t, lv in timeline:
        events += d.update(t, lv)
    assert events == []
    for t in range(13, 60):
        events += [(t, *e) for e in d.update(t, [1, 1, 0])]
    assert events == [(32, 0, True)]
    assert d.bits() == 0b011 and d.changes == 1
    # A button pressed and released within the debounce time never shows.
    assert d.update(61, [1, 0, 0]) == [] and d.update(70, [1, 1, 0]) == []
    assert d.update(100, [1, 1, 0]) == []
    assert d.update(101, [0, 1, 0]) == [] and d.update(121, [0, 1, 0]) == [(0, False)]


def test_board_profiles(fw: None) -> None:
    import hubconfig

    for name in ("rp2", "esp32"):
        p = hubconfig.current(name)
        pins = list(p["tokens"]) + list(p["buttons"]) + [p["safe_mode"]]
        pins += [n for pair in p["i2c"].values() for n in pair]
        assert len(pins) == len(set(pins)), "a pin is used twice on " + name
        assert {a for _, a, _ in p["dice"]} <= {0x18, 0x19}
    esp = hubconfig.current("esp32")
    strapping = {0, 2, 5, 12, 15}
    no_pullup = {34, 35, 36, 37, 38, 39}
    assert not (set(esp["tokens"]) | set(esp["buttons"]) | {esp["safe_mode"]}) & (strapping | no_pullup)
    with pytest.raises(ValueError):
        hubconfig.current("linux")


class _Pin:
    def __init__(self, values: list[int]) -> None:
        self.values = values

    def value(self) -> int:
        return self.values.pop(0) if len(self.values) > 1 else self.values[0]


def _fresh_safemode(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    import hubconfig

    monkeypatch.setattr(sys, "platform", "rp2")
    importlib.reload(hubconfig)
    if "safemode" in sys.modules:
        del sys.modules["safemode"]
    import safemode

    return safemode


def test_safe_mode_pin_held(fw: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    sm = _fresh_safemode(monkeypatch)
    asked: list[int] = []
    assert sm.check(lambda n: asked.append(n) or _Pin([0, 0, 0])) == "pin"
    assert asked == [22]
    assert sm.check(lambda n: _Pin([1])) == "pin"  # decided once per boot


def test_safe_mode_glitch_is_not_held(fw: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    sm = _fresh_safemode(monkeypatch)
    assert sm.check(lambda n: _Pin([0, 1, 0])) is None


def test_repl_flag_is_one_shot(fw: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    sm = _fresh_safemode(monkeypatch)
    sm.request_repl()
    assert (tmp_path / "repl.flag").exists()
    assert sm.check(lambda n: _Pin([1])) == "flag"
    assert not (tmp_path / "repl.flag").exists()
    sm = _fresh_safemode(monkeypatch)
    assert sm.check(lambda n: _Pin([1])) is None


def test_every_firmware_file_compiles_on_micropython(mpy) -> None:
    files = {p.name: p.read_text() for p in sorted(FIRMWARE.glob("*.py"))}
    assert {"main.py", "boot.py", "lis3dh.py", "hubconfig.py", "safemode.py",
            "usbio.py", "inputs.py"} <= set(files)
    files["debounce.py"] = (SHARED / "debounce.py").read_text()  # inputs.py imports it
    code = ("import json\nok = []\nfor name in NAMES:\n"
            "    compile(open('/' + name).read(), name, 'exec')\n    ok.append(name)\n"
            "print(json.dumps(ok))\n")
    out = mpy("NAMES = %r\n" % sorted(files) + code, files)
    assert json.loads(out) == sorted(files)


def test_pure_firmware_modules_run_on_micropython(mpy) -> None:
    """The debouncer and the LIS3DH conversion behave the same on the board's Python."""
    code = """
import json, debounce, lis3dh, hubconfig
d = debounce.Debouncer(2, 20)
ev = []
for t, lv in ((0, [0, 0]), (5, [1, 0]), (10, [0, 0]), (15, [1, 0]), (40, [1, 1]), (70, [1, 1])):
    ev += [list(e) for e in d.update(t, lv)]
out = {"ev": ev, "bits": d.bits(),
       "mg": list(lis3dh.to_mg(bytes([0xF0, 0x7F, 0x00, 0x80, 0x10, 0x00]), 8)),
       "r1": lis3dh.ctrl_reg1(100), "r4": lis3dh.ctrl_reg4(8),
       "pico": hubconfig.current("rp2")["safe_mode"]}
print(json.dumps(out))
"""
    files = {n: (FIRMWARE / n).read_text() for n in ("lis3dh.py", "hubconfig.py")}
    files["debounce.py"] = (SHARED / "debounce.py").read_text()
    out = json.loads(mpy(code, files))
    assert out == {"ev": [[0, True], [1, True]], "bits": 3, "mg": [8188, -8192, 4],
                   "r1": 0x57, "r4": 0xA8, "pico": 22}
