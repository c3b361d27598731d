"""The deploy step: the firmware image holds byte-identical copies of the single sources
of the shared modules, and flashing runs the right mpremote commands."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hw_helpers import FIRMWARE, ROOT, SHARED


def _deploy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hw_deploy", ROOT / "hardware" / "deploy.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def deploy() -> ModuleType:
    return _deploy()


def test_image_holds_exact_copies_of_the_shared_modules(deploy: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "image"
    files = deploy.build(out)
    names = {p.name for p in files}
    for shared in ("codec.py", "detector.py", "calibration.py", "debounce.py", "hubapp.py"):
        assert (out / shared).read_bytes() == (SHARED / shared).read_bytes()
    for p in FIRMWARE.glob("*.py"):
        assert (out / p.name).read_bytes() == p.read_bytes()
    assert names == {p.name for p in FIRMWARE.glob("*.py")} | {
        "codec.py", "detector.py", "calibration.py", "debounce.py", "hubapp.py", "version.py"}
    assert deploy.check(out) == []


def test_the_firmware_does_not_keep_its_own_copies(deploy: ModuleType) -> None:
    """One source each: a stale copy under hardware/ would be what the board runs."""
    shared = {"codec.py", "detector.py", "calibration.py", "debounce.py", "hubapp.py"}
    copies = [p for p in (ROOT / "hardware").rglob("*.py")
              if p.name in shared and "node_modules" not in p.parts]
    assert copies == []


def test_check_catches_a_stale_or_foreign_file(deploy: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "image"
    deploy.build(out)
    (out / "detector.py").write_bytes((out / "detector.py").read_bytes() + b"# edited on the board\n")
    (out / "notes.py").write_text("x = 1\n")
    (out / "codec.py").unlink()
    problems = deploy.check(out)
    assert any("differs" in p and "detector.py" in p for p in problems)
    assert "missing: codec.py" in problems
    assert "not from any source: notes.py" in problems
    assert deploy.main(["check", str(out)]) == 1


def test_version_py_pins_the_image(deploy: ModuleType, tmp_path: Path) -> None:
    a = tmp_path / "a"
    deploy.build(a)
    ns: dict[str, object] = {}
    exec((a / "version.py").read_text(), ns)
    assert ns["FIRMWARE_VERSION"] == deploy.FIRMWARE_VERSION
    assert isinstance(ns["IMAGE_DIGEST"], str) and len(ns["IMAGE_DIGEST"]) == 16
    (a / "version.py").write_text("FIRMWARE_VERSION = '9'\nIMAGE_DIGEST = 'x'\n")
    assert deploy.check(a) == ["version.py does not match the image"]


def test_flash_dry_run_prints_the_mpremote_commands(deploy: ModuleType, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy, "_mpremote", lambda: ["mpremote"])
    out = tmp_path / "img"
    assert deploy.main(["flash", "--port", "/dev/ttyACM7", "--out", str(out), "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mpremote connect /dev/ttyACM7 cp ") and lines[0].endswith(" :")
    for name in ("main.py", "boot.py", "codec.py", "detector.py", "calibration.py", "debounce.py", "hubapp.py",
                 "version.py"):
        assert str(out / name) in lines[0].split()
    assert lines[1] == "mpremote connect /dev/ttyACM7 reset"


def test_flash_asks_the_hub_for_the_repl_then_copies(deploy: ModuleType, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(deploy, "_mpremote", lambda: ["mpremote"])
    monkeypatch.setattr(deploy, "request_repl", lambda port: calls.append(("repl", port)) or True)
    monkeypatch.setattr(deploy.subprocess, "run", lambda cmd, check: calls.append(cmd[:3]))
    assert deploy.main(["flash", "--port", "loop://", "--out", str(tmp_path / "i")]) == 0
    assert calls == [("repl", "loop://"), ["mpremote", "connect", "loop://"],
                     ["mpremote", "connect", "loop://"]]


def test_missing_mpremote_is_a_clear_error(deploy: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deploy.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "mpremote", None)
    with pytest.raises(SystemExit, match="pip install mpremote"):
        deploy._mpremote()


def test_repl_request_to_a_silent_port_gives_up(deploy: ModuleType) -> None:
    """loop:// echoes our own REBOOT back and nothing ACKs it: no hub, flash goes on."""
    assert deploy.request_repl("loop://") is False
