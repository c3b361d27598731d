"""The tablet build carries the features: ``buildozer.spec`` checked against the code and
against the packages' own metadata, since no APK can be built here (no Android SDK).

* every third-party module the app imports (at module level or inside a function: the
  phones' server, the Bluetooth dice, the QR codes) comes from a requirement of the spec, or
  is left out of the tablet on purpose, with the reason;
* every requirement's own dependencies, as its installed metadata states them for Android
  (``sys_platform == "android"``), are requirements too, and each pin satisfies what the
  packages that need it ask for;
* the permissions the phones' server needs are in the manifest (the Bluetooth ones are
  checked with the run-time request, in tests/test_packaging.py).

docs/android.md, "What was verified", says what these prove and what only a device can.
"""
from __future__ import annotations

import ast
import configparser
import importlib.metadata as md
import re
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "buildozer.spec"
PACKAGES = ("rules", "companion", "firmware_bridge")

# Modules the app imports that the tablet does not get from a requirement, each with why.
NOT_FROM_REQUIREMENTS = {
    "gpiozero": "Android has no GPIO header; only the bridge's GPIO source imports it",
    "zeroconf": "mDNS (the mdns extra) is not in the tablet build: Android delivers multicast to an "
                "app only under a Wi-Fi MulticastLock, which the app does not take (docs/android.md)",
    "jnius": "pyjnius: python-for-android builds it for the sdl2 bootstrap (and bleak's recipe depends on it)",
    "android": "python-for-android's own android module (android.permissions), part of every build",
    "fontTools": "only the font build tool companion/ui/data/fonts/make_font.py, run on a computer",
    "setuptools": "only the build hook companion/i18n/build.py, which compiles the catalogues when a "
                  "wheel is built, on a computer (the tablet gets them compiled)",
    # The hub's image on MicroPython flattens firmware_bridge/shared into top-level modules;
    # hubapp.py falls back to those names only there.
    "calibration": "the MicroPython hub image's flat module (firmware_bridge/shared/calibration.py)",
    "codec": "the MicroPython hub image's flat module (firmware_bridge/shared/codec.py)",
    "detector": "the MicroPython hub image's flat module (firmware_bridge/shared/detector.py)",
}
# python-for-android recipes that are not PyPI distributions.
P4A_ONLY = {"python3", "sqlite3"}
# Requirements built by a python-for-android recipe that brings the Python packages the
# requirement needs on Android itself (kivy/python-for-android at a608f593,
# pythonforandroid/recipes/kivy/__init__.py line 37: python_depends certifi, chardet, idna,
# requests, urllib3, filetype). aiohttp's recipe brings none (depends: setuptools only), so
# its dependencies are requirements of ours.
RECIPE_BRINGS_ITS_OWN = {"kivy"}
# Markers as Android's python-for-android build evaluates them; Python 3.11, the oldest the
# project supports, so that a dependency needed only on older Pythons is not missed.
ANDROID = {"sys_platform": "android", "platform_system": "Android", "os_name": "posix",
           "platform_machine": "aarch64", "implementation_name": "cpython",
           "platform_python_implementation": "CPython", "python_version": "3.11",
           "python_full_version": "3.11.0", "extra": ""}


def _requirements() -> dict[str, str]:
    """The spec's requirements as {canonical name: pinned version ('' if unpinned)}."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(SPEC.read_text(encoding="utf-8"))
    out = {}
    for item in parser["app"]["requirements"].split(","):
        name, _, version = item.strip().partition("==")
        # bleak's recipe checks out the git tag, which bleak spells v1.2.3.
        out[str(canonicalize_name(name))] = version.removeprefix("v")
    return out


def _imports() -> dict[str, set[str]]:
    """Top-level third-party module -> the files importing it, anywhere in the file."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in PACKAGES:
                        found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _needs(dist: str) -> list[Requirement]:
    """What an installed distribution requires on Android (no extras)."""
    needed = []
    for text in md.requires(dist) or ():
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(ANDROID):
            needed.append(req)
    return needed


def test_every_module_the_app_imports_comes_with_the_tablet_build():
    requirements = _requirements()
    distributions = md.packages_distributions()
    imports = _imports()
    missing = {}
    for module, files in sorted(imports.items()):
        if module in NOT_FROM_REQUIREMENTS:
            continue
        dists = distributions.get(module)
        assert dists, f"{module} (imported by {sorted(files)}) is not installed here: cannot tell its package"
        if not any(str(canonicalize_name(d)) in requirements for d in dists):
            missing[module] = sorted(files)
    assert not missing, f"imported by the app but not in buildozer.spec's requirements: {missing}"
    # No stale exception: each is still imported somewhere.
    assert set(NOT_FROM_REQUIREMENTS) <= set(imports), set(NOT_FROM_REQUIREMENTS) - set(imports)
    # The features the issue names are all there.
    for name in ("aiohttp", "segno", "bleak", "kivy", "pyserial"):
        assert name in requirements, name


def test_every_requirement_brings_its_own_dependencies():
    requirements = _requirements()
    missing = {}
    for name in requirements.keys() - P4A_ONLY - RECIPE_BRINGS_ITS_OWN:
        try:
            needs = _needs(name)
        except md.PackageNotFoundError:
            pytest.fail(f"{name} is not installed here: install the test extra (./dev test does)")
        absent = [str(r) for r in needs if str(canonicalize_name(r.name)) not in requirements]
        if absent:
            missing[name] = absent
    assert not missing, f"dependencies missing from buildozer.spec's requirements: {missing}"


def test_every_pin_satisfies_what_the_other_requirements_ask():
    requirements = _requirements()
    for name, pin in requirements.items():
        if name not in P4A_ONLY:
            assert re.fullmatch(r"\d+(\.\d+)+", pin), f"{name} is not pinned to a release: {pin!r}"
    clashes = []
    for name in requirements.keys() - P4A_ONLY - RECIPE_BRINGS_ITS_OWN:
        for req in _needs(name):
            dep = str(canonicalize_name(req.name))
            if dep in requirements and not req.specifier.contains(Version(requirements[dep]), prereleases=True):
                clashes.append(f"{name} needs {req}, the spec pins {dep}=={requirements[dep]}")
    assert not clashes, clashes


def test_aiohttp_pin_is_the_one_whose_requirements_were_read():
    """The requirements list copies aiohttp's dependencies for one version: the version the
    test environment has, whose metadata the two tests above read."""
    installed = md.version("aiohttp")
    pinned = _requirements()["aiohttp"]
    if installed != pinned:
        pytest.skip(f"aiohttp {installed} is installed here, the spec pins {pinned}: re-read its requirements")
    assert {str(canonicalize_name(r.name)) for r in _needs("aiohttp")} == {
        "aiohappyeyeballs", "aiosignal", "attrs", "frozenlist", "multidict", "propcache", "yarl",
        "typing-extensions"}


def test_the_manifest_lets_the_phones_server_listen():
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(SPEC.read_text(encoding="utf-8"))
    permissions = [p.strip() for p in parser["app"]["android.permissions"].split(",")]
    # Without INTERNET Android refuses the app any socket, the server's listening one too;
    # python-for-android's sdl2 bootstrap does not add it by itself.
    assert "android.permission.INTERNET" in permissions


def test_the_guide_says_what_works_on_the_tablet():
    guide = (ROOT / "docs" / "android.md").read_text(encoding="utf-8")
    for needle in ("packaging/android-recipes.sh", "buildozer android debug", "What was verified",
                   "USB dice hub", "does not work", "usbserial4a", "MulticastLock"):
        assert needle in guide, needle
    for module, reason in NOT_FROM_REQUIREMENTS.items():
        if module in ("gpiozero", "zeroconf"):
            assert f"`{module}`" in guide, module
