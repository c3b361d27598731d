"""The Raspberry Pi kiosk installer, ``packaging/pi/install.sh``, checked without changing
this machine: its syntax (``bash -n``, and ShellCheck where installed), its ``--dry-run``
(which must print every change and make none: the commands that would change the system are
replaced by traps that fail the test if called), its refusals, and that what it installs
agrees with the rest of the repository (the hub's USB ids, the unit's groups, pyproject's
extras) and with Debian's archive (the packages it asks apt for).

Running it for real happened in a Debian Bookworm arm64 root under qemu: see
docs/raspberry-pi-kiosk.md, "What was checked".
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "pi" / "install.sh"
HUB_RULES = ROOT / "packaging" / "pi" / "70-tabletop-companion-hub.rules"
GPIO_RULES = ROOT / "packaging" / "pi" / "60-tabletop-companion-gpio.rules"
UNIT = ROOT / "packaging" / "tabletop-companion.service"
HUB_IDS = ROOT / "firmware_bridge" / "serial" / "hub_ids.json"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# Every command the script may use to change the system (rm and sed only touch its own
# temporary folder). In a dry run none may be called.
CHANGERS = ("apt-get", "useradd", "groupadd", "usermod", "install", "chown", "systemctl",
            "udevadm", "cp", "mv", "ln", "tee", "mkdir", "chmod", "passwd", "adduser", "addgroup")


def _bash_array(name: str) -> list[str]:
    """A bash array assignment of the script (``NAME=(a b c)``, possibly over lines)."""
    text = SCRIPT.read_text(encoding="utf-8")
    match = re.search(rf"^{name}=\(([^)]*)\)", text, re.M)
    assert match, name
    return match.group(1).split()


def _bash_value(name: str) -> str:
    match = re.search(rf'^{name}="?([^"\n]*)"?$', SCRIPT.read_text(encoding="utf-8"), re.M)
    assert match, name
    return match.group(1)


def _traps(tmp_path: Path, uid: int | None = None) -> tuple[dict[str, str], Path]:
    """An environment whose PATH starts with a trap for every changing command: each
    records its call in ``calls`` and fails. ``uid`` makes ``id -u`` answer it."""
    bin_dir = tmp_path / "traps"
    bin_dir.mkdir(parents=True)
    calls = tmp_path / "calls"
    calls.touch()
    for name in CHANGERS:
        trap = bin_dir / name
        trap.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\nexit 97\n', encoding="utf-8")
        trap.chmod(trap.stat().st_mode | stat.S_IXUSR)
    if uid is not None:
        real_id = shutil.which("id")
        fake = bin_dir / "id"
        fake.write_text(f'#!/bin/sh\n[ "$1" = -u ] && {{ echo {uid}; exit 0; }}\nexec {real_id} "$@"\n',
                        encoding="utf-8")
        fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    return env, calls


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=120)


def test_the_script_parses_and_is_executable():
    assert os.access(SCRIPT, os.X_OK), "install.sh must be executable (git mode 100755)"
    assert SCRIPT.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    run = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt-get install shellcheck)")
def test_shellcheck_finds_nothing():
    run = subprocess.run(["shellcheck", "--shell=bash", str(SCRIPT)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    env, calls = _traps(tmp_path)
    run = _run(["--dry-run", "--user", "tc-kiosk-test"], env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert calls.read_text() == "", f"a dry run called: {calls.read_text()}"
    out = run.stdout
    steps = [line[4:] for line in out.splitlines() if line.startswith("==> ")]
    assert [s.split()[0] for s in steps] == ["Tabletop", "System", "User", "The", "udev", "Kivy's", "Screen",
                                             "systemd", "Done."], steps
    assert "(dry run)" in steps[0] and f"{ROOT}" in steps[0]
    # The changes it would make, each announced and none made.
    assert re.search(r"would run: useradd --system .* tc-kiosk-test$", out, re.M)
    assert re.search(r"would run: usermod --append --groups \S+ tc-kiosk-test$", out, re.M)
    assert re.search(rf"would run: \S+ -m pip install .* {re.escape(str(ROOT))}\[pi,ble,phones\]$", out, re.M)
    for dest in ("/etc/udev/rules.d/70-tabletop-companion-hub.rules",
                 "/etc/systemd/system/tabletop-companion.service",
                 "/etc/systemd/system/tabletop-companion.service.d/install.conf",
                 "/var/lib/tabletop-companion/kivy/config.ini"):
        assert re.search(rf"(would write|unchanged): {re.escape(dest)}\b", out), dest
    assert "would run: systemctl enable tabletop-companion.service" in out or \
        "would run: systemctl daemon-reload" in out
    for path in ("/etc/udev/rules.d/70-tabletop-companion-hub.rules",
                 "/etc/systemd/system/tabletop-companion.service.d/install.conf"):
        assert not Path(path).exists() or "unchanged: " + path in out, f"{path} appeared during a dry run"


def test_dry_run_adds_the_user_to_every_group_that_exists(tmp_path):
    env, calls = _traps(tmp_path)
    out = _run(["--dry-run", "--user", "tc-kiosk-test"], env).stdout
    (groups,) = re.findall(r"usermod --append --groups (\S+) ", out)
    table = subprocess.run(["getent", "group"], capture_output=True, text=True, timeout=60).stdout
    existing = {line.split(":")[0] for line in table.splitlines()}
    wanted = set(_bash_array("GROUPS_NEEDED"))
    assert set(groups.split(",")) == (wanted & existing) | {"gpio"}
    for g in wanted - existing - {"gpio"}:
        assert f"group '{g}' does not exist yet" in out


def test_refusals_are_clear_and_change_nothing(tmp_path):
    env, calls = _traps(tmp_path / "as-user", uid=1000)
    not_root = _run([], env)
    assert not_root.returncode == 1 and "run it as root" in not_root.stderr and "--dry-run" in not_root.stderr
    assert calls.read_text() == ""
    env, calls = _traps(tmp_path / "as-root")
    for args, message in ((["--frobnicate"], "unknown option: --frobnicate"),
                          (["--dry-run", "--user", "Bad;Name"], "not a user name"),
                          (["--dry-run", "--user", "root"], "must not run as root"),
                          (["--dry-run", "--user"], "--user needs a name")):
        run = _run(args, env)
        assert run.returncode != 0 and message in run.stderr, (args, run.stderr)
        assert "==> System packages" not in run.stdout
    assert calls.read_text() == ""


def test_the_hub_rule_covers_exactly_the_hub_ids():
    ids = json.loads(HUB_IDS.read_text(encoding="utf-8"))["ids"]
    wanted = {(i["vid"].lower(), i["pid"].lower()) for i in ids}
    rules = [ln for ln in HUB_RULES.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    seen = set()
    for rule in rules:
        vid = re.search(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', rule)
        pid = re.search(r'ATTRS\{idProduct\}=="([0-9a-f]{4})"', rule)
        assert vid and pid, rule
        # sysfs spells the ids in lower-case hex; udev compares strings.
        assert 'SUBSYSTEM=="tty"' in rule and 'GROUP="dialout"' in rule and 'MODE="0660"' in rule, rule
        assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule, rule
        seen.add((vid.group(1), pid.group(1)))
    assert seen == wanted and len(rules) == len(wanted)
    gpio = [ln for ln in GPIO_RULES.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    assert gpio == ['SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"']


@pytest.mark.skipif(shutil.which("udevadm") is None, reason="udevadm is not installed")
def test_udev_accepts_the_rules():
    run = subprocess.run(["udevadm", "verify", str(HUB_RULES), str(GPIO_RULES)], capture_output=True, text=True,
                         timeout=60)
    if "Unknown command" in run.stderr or "invalid option" in run.stderr:
        pytest.skip("this udevadm has no verify (systemd < 254)")
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_script_agrees_with_the_unit_and_pyproject():
    groups = set(_bash_array("GROUPS_NEEDED"))
    assert groups == {"dialout", "gpio", "bluetooth", "audio", "video", "render", "input"}
    unit = UNIT.read_text(encoding="utf-8")
    (supplementary,) = re.findall(r"^SupplementaryGroups=(.*)$", unit, re.M)
    assert groups <= set(supplementary.split())
    # The phones' server binds to the table's address when the app starts.
    assert re.search(r"^After=.*\bnetwork-online\.target\b", unit, re.M)
    assert re.search(r"^Wants=.*\bnetwork-online\.target\b", unit, re.M)
    extras = _bash_value("EXTRAS").split(",")
    assert extras == ["pi", "ble", "phones"]
    assert set(extras) <= set(PYPROJECT["project"]["optional-dependencies"])
    assert _bash_value("UNIT_NAME") == UNIT.name
    assert _bash_value("STATE_DIR") in unit  # the unit's KIVY_HOME / XDG_DATA_HOME live there


def _apt_knows(package: str) -> bool:
    run = subprocess.run(["apt-cache", "show", "--no-all-versions", package], capture_output=True, text=True,
                         timeout=60)
    return run.returncode == 0 and f"Package: {package}" in run.stdout


@pytest.mark.skipif(shutil.which("apt-cache") is None, reason="not a Debian system")
def test_the_system_packages_are_in_debians_archive():
    if not _apt_knows("bash"):
        pytest.skip("apt has no package lists here (apt-get update)")
    packages = _bash_array("APT_PACKAGES")
    assert packages, "no packages"
    unknown = [p for p in packages if not _apt_knows(p)]
    assert not unknown, f"not in this system's Debian archive: {unknown}"


def test_the_guide_shows_the_kivy_config_the_installer_writes():
    text = SCRIPT.read_text(encoding="utf-8")
    match = re.search(r"cat >\"\$TMP/config\.ini\" <<'EOF'\n(.*?)\nEOF\n", text, re.S)
    assert match, "install.sh no longer writes config.ini from a heredoc"
    guide = (ROOT / "docs" / "raspberry-pi-kiosk.md").read_text(encoding="utf-8")
    assert match.group(1) in guide
    assert "[input]" in match.group(1) and "provider=hidinput" in match.group(1)
