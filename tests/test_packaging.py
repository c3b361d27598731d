"""Packaging files: ``buildozer.spec`` (Android) and the Raspberry Pi kiosk's systemd unit.

The Android SDK cannot be downloaded on the build machines, so the spec is checked
statically: every key is one buildozer documents, the requirements are pyproject's runtime
dependencies, the version comes from pyproject, every data file type the packages ship is
included, and ``main.py`` starts the app.
"""
from __future__ import annotations

import ast
import configparser
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "buildozer.spec"
UNIT = ROOT / "packaging" / "tabletop-companion.service"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# The keys buildozer documents, from kivy/buildozer: ``buildozer/default.spec`` (the [app]
# basics and [buildozer]) and ``buildozer/default-android.json`` (the Android and p4a keys
# with their docs and defaults).
DOCUMENTED_APP_KEYS = frozenset({
    # default.spec
    "title", "package.name", "package.domain", "source.dir", "source.include_exts",
    "source.include_patterns", "source.exclude_exts", "source.exclude_dirs", "source.exclude_patterns",
    "version", "version.regex", "version.filename", "requirements", "presplash.filename",
    "icon.filename", "fullscreen",
    # default-android.json
    "android.aars", "android.accept_sdk_license", "android.activity_class_name", "android.adb_args",
    "android.add_activities", "android.add_assets", "android.add_compile_options",
    "android.add_gradle_repositories", "android.add_jars", "android.add_libs_arm64_v8a",
    "android.add_libs_armeabi", "android.add_libs_armeabi_v7a", "android.add_libs_mips", "android.add_libs_x86",
    "android.add_packaging_options", "android.add_resources", "android.add_src", "android.api",
    "android.ant_path", "android.apptheme", "android.archs", "android.allow_backup", "android.backup_rules",
    "android.blacklist_src", "android.copy_libs", "android.debug_artifact", "android.display_cutout",
    "android.enable_androidx", "android.entrypoint", "android.extra_manifest_application_arguments",
    "android.extra_manifest_xml", "android.features", "android.gradle_dependencies", "android.home_app",
    "android.library_references", "android.logcat_filters", "android.logcat_pid_only",
    "android.manifest.intent_filters", "android.manifest.launch_mode", "android.manifest.orientation",
    "android.manifest_placeholders", "android.meta_data", "android.minapi", "android.ndk", "android.ndk_api",
    "android.ndk_path", "android.no-byte-compile-python", "android.numeric_version", "android.ouya.category",
    "android.ouya.icon.filename", "android.permissions", "android.presplash_color", "android.presplash_lottie",
    "android.release_artifact", "android.res_xml", "android.sdk", "android.sdk_path",
    "android.service_class_name", "android.skip_update", "android.uses_library", "android.wakelock",
    "android.whitelist", "android.whitelist_src", "icon.adaptive_background.filename",
    "icon.adaptive_foreground.filename", "orientation", "p4a.branch", "p4a.bootstrap", "p4a.commit",
    "p4a.extra_args", "p4a.fork", "p4a.hook", "p4a.local_recipes", "p4a.port", "p4a.setup_py",
    "p4a.source_dir", "p4a.url", "services",
})
DOCUMENTED_BUILDOZER_KEYS = frozenset({"log_level", "warn_on_root", "build_dir", "bin_dir"})
ORIENTATIONS = frozenset({"landscape", "portrait", "portrait-reverse", "landscape-reverse"})

# Runtime dependencies deliberately not in the Android build, with the reason (docs/android.md).
ANDROID_LEFT_OUT = {"gpiozero": "Android has no GPIO header; only the bridge's GPIO source imports it"}
# python-for-android recipes that are not PyPI packages of ours.
P4A_ONLY = {"python3": "the interpreter", "sqlite3": "the standard library's sqlite3, for the journal"}
# pyproject extras the Android build includes (docs/android.md). The requirements also list
# what these need in turn (tests/packaging/test_android_build.py checks that from the
# packages' own metadata).
ANDROID_EXTRAS = {"ble": "Pixels and GoDice dice over Bluetooth LE",
                  "phones": "the players' phones: aiohttp's server and segno's QR codes"}
# What the extras' packages require, listed because python-for-android brings none of a
# recipe's PyPI dependencies (aiohttp is built by its recipe) and installs the other
# requirements with pip --no-deps, adding only the dependencies it finds as pure-Python wheels
# (pythonforandroid/build.py, process_python_modules and run_pymodules_install).
ANDROID_DEPENDENCIES = {"typing-extensions", "aiohappyeyeballs", "aiosignal", "attrs", "frozenlist",
                        "multidict", "propcache", "yarl", "idna"}


def _spec() -> configparser.ConfigParser:
    # Buildozer's option names are case-sensitive; no interpolation needed to check keys.
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(SPEC.read_text(encoding="utf-8"))
    return parser


def _list(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _satisfies(version: str, specifier: str) -> bool:
    """A small PEP 440 subset: comma-joined >=, <, <=, >, == clauses on release numbers."""
    ops = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "==": lambda a, b: a == b}
    v = _version(version)
    for clause in _list(specifier):
        op = re.match(r"(>=|<=|==|>|<)", clause)
        assert op, clause
        bound = _version(clause[op.end():])
        width = max(len(v), len(bound))
        if not ops[op.group(1)](v + (0,) * (width - len(v)), bound + (0,) * (width - len(bound))):
            return False
    return True


# ------------------------------------------------------------ buildozer.spec

def test_spec_has_only_documented_keys():
    spec = _spec()
    assert set(spec.sections()) == {"app", "buildozer"}
    unknown = [k for k in spec["app"] if k not in DOCUMENTED_APP_KEYS and not k.startswith("requirements.source.")]
    assert not unknown, f"keys buildozer does not document: {unknown}"
    assert set(spec["buildozer"]) <= DOCUMENTED_BUILDOZER_KEYS


def test_spec_basics():
    app = _spec()["app"]
    assert app["title"] == "Tabletop Companion"
    assert re.fullmatch(r"[a-z][a-z0-9]*", app["package.name"])
    assert re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)+", app["package.domain"])
    assert app["android.wakelock"] == "True"
    assert "android.permission.WAKE_LOCK" in _list(app["android.permissions"])
    orientations = set(_list(app["orientation"]))
    assert orientations <= ORIENTATIONS and {"portrait", "landscape"} <= orientations
    assert set(_list(app["android.archs"])) <= {"armeabi-v7a", "arm64-v8a", "x86", "x86_64"}
    assert int(app["android.minapi"]) <= int(app["android.api"])
    assert app["android.ndk_api"] == app["android.minapi"]
    assert "version" not in app, "one version: pyproject's, through version.regex"
    # No inline comments: buildozer would read them as part of the value.
    for key, value in app.items():
        assert " #" not in value, key


def test_spec_asks_the_bluetooth_permissions_of_every_android_version():
    """Android 12+ (API 31) grants Bluetooth LE by BLUETOOTH_SCAN and BLUETOOTH_CONNECT;
    API 30 and below by BLUETOOTH, BLUETOOTH_ADMIN and a location permission; bleak's
    Android scanner asks for location on every version, so location is never capped. The
    run-time request (firmware_bridge.ble.android) asks what the manifest lists."""
    from firmware_bridge.ble.android import needed_permissions

    listed = _list(_spec()["app"]["android.permissions"])
    assert {"android.permission.BLUETOOTH_SCAN", "android.permission.BLUETOOTH_CONNECT",
            "android.permission.ACCESS_FINE_LOCATION"} <= set(listed)
    for legacy in ("BLUETOOTH", "BLUETOOTH_ADMIN"):
        assert f"(name=android.permission.{legacy};maxSdkVersion=30)" in listed
    for api in (24, 30, 31, 35):
        assert set(needed_permissions(api)) <= set(listed)


def test_spec_builds_bleak_with_the_recipe_bleak_ships():
    app = _spec()["app"]
    recipes = app["p4a.local_recipes"]
    assert recipes == "./.p4a-recipes"
    assert ".p4a-recipes" in _list(app["source.exclude_dirs"])
    assert "/.p4a-recipes/" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    script = (ROOT / "packaging" / "android-recipes.sh").read_text(encoding="utf-8")
    assert "bleak/backends/p4android/recipes" in script and ".p4a-recipes" in script
    bleak = pytest.importorskip("bleak")
    shipped = Path(bleak.__file__).parent / "backends" / "p4android" / "recipes" / "bleak" / "__init__.py"
    assert shipped.is_file(), "the bleak installed here no longer ships its python-for-android recipe"


def test_spec_version_comes_from_pyproject():
    app = _spec()["app"]
    assert app["version.filename"] == "%(source.dir)s/pyproject.toml"
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    # Buildozer does re.search(version.regex, file contents) and takes group 1.
    match = re.search(app["version.regex"], text)
    assert match and match.group(1) == PYPROJECT["project"]["version"]


def test_spec_requirements_match_pyproject_runtime_dependencies():
    requirements = _list(_spec()["app"]["requirements"])
    android = {_name(r): r for r in requirements}
    extras = [d for x in ANDROID_EXTRAS for d in PYPROJECT["project"]["optional-dependencies"][x]]
    runtime = {_name(d): d for d in PYPROJECT["project"]["dependencies"] + extras}
    for name, dep in runtime.items():
        if name in ANDROID_LEFT_OUT:
            assert name not in android, name
            continue
        assert name in android, f"runtime dependency {dep!r} missing from buildozer.spec requirements"
        pinned = re.search(r"==v?([\d.]+)$", android[name])
        spec = dep[len(name):].strip()
        if pinned and spec:
            assert _satisfies(pinned.group(1), spec), f"{android[name]} is outside pyproject's {dep!r}"
    extra = set(android) - set(runtime) - set(P4A_ONLY) - ANDROID_DEPENDENCIES
    assert not extra, f"requirements pyproject does not list: {extra}"
    assert re.fullmatch(r"kivy==2\.3\.\d+", android["kivy"])


def test_spec_ships_every_data_file_type_the_packages_hold():
    app = _spec()["app"]
    include = set(_list(app["source.include_exts"]))
    excluded = set(_list(app["source.exclude_dirs"]))
    for package in ("rules", "companion", "firmware_bridge"):
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc",):
                assert path.suffix.lstrip(".") in include, f"{path.relative_to(ROOT)} would not be packaged"
    assert {"tests", "benchmarks", "hardware", ".venv"} <= excluded
    assert not {"rules", "companion", "firmware_bridge"} & excluded


def test_main_py_starts_the_app():
    source = ROOT / _spec()["app"]["source.dir"] / "main.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert any(n.module == "companion.__main__" and [a.name for a in n.names] == ["main"] for n in imports)
    scripts = PYPROJECT["project"]["scripts"]
    assert scripts["tabletop-companion"] == "companion.__main__:main"


def test_gpiozero_is_never_imported_at_module_level_by_the_app():
    """The Android build leaves gpiozero out: a module-level import in anything the app
    loads unconditionally would crash it there. Only the bridge's GPIO package
    (``firmware_bridge/gpio``) may import gpiozero at module level, and nothing outside it
    may import that package at module level (it is loaded when a GPIO source is opened)."""
    offenders = []
    for package in ("rules", "companion", "firmware_bridge"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT)
            in_gpio_package = rel.parts[:2] == ("firmware_bridge", "gpio")
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                if in_gpio_package:
                    continue
                if any(n.split(".")[0] == "gpiozero" or n.startswith("firmware_bridge.gpio") for n in names):
                    offenders.append(str(rel))
    assert not offenders, offenders


# ------------------------------------------------------- the kiosk's systemd unit

def _unit() -> dict[str, list[tuple[str, str]]]:
    """systemd unit as {section: [(key, value), …]}: keys may repeat (Environment=)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            assert line.endswith("]"), raw
            current = line[1:-1]
            assert current not in sections, f"section {current} twice"
            sections[current] = []
            continue
        assert current is not None and "=" in line, raw
        key, value = line.split("=", 1)
        assert key == key.strip() and key, raw
        sections[current].append((key, value.strip()))
    return sections


def _values(section: list[tuple[str, str]], key: str) -> list[str]:
    return [v for k, v in section if k == key]


def test_unit_sections_and_keys():
    unit = _unit()
    assert list(unit) == ["Unit", "Service", "Install"]
    known = {
        "Unit": {"Description", "Documentation", "After", "Wants", "Requires", "Conflicts", "StartLimitIntervalSec", "StartLimitBurst"},
        "Service": {"Type", "User", "Group", "SupplementaryGroups", "WorkingDirectory", "Environment", "StateDirectory",
                    "ExecStart", "Restart", "RestartSec", "StandardOutput", "StandardError"},
        "Install": {"WantedBy"},
    }
    for name, entries in unit.items():
        keys = [k for k, _ in entries]
        assert set(keys) <= known[name], set(keys) - known[name]
        repeated = {k for k in keys if keys.count(k) > 1}
        assert repeated <= {"Environment"}, repeated


def test_unit_runs_the_app_as_a_kiosk():
    service = _unit()["Service"]
    (exec_start,) = _values(service, "ExecStart")
    command, *args = exec_start.split()
    assert command.startswith("/") and Path(command).name in PYPROJECT["project"]["scripts"]
    assert "--fullscreen" in args and "--demo" not in args
    (user,) = _values(service, "User")
    assert user and user != "root"
    groups = set(" ".join(_values(service, "SupplementaryGroups")).split())
    assert {"video", "render", "input", "dialout", "gpio"} <= groups
    env = dict(e.split("=", 1) for e in _values(service, "Environment"))
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["KIVY_HOME"].startswith("/var/lib/") and env["XDG_DATA_HOME"].startswith("/var/lib/")
    assert _values(service, "Restart") == ["on-failure"]
    assert _values(_unit()["Install"], "WantedBy") == ["multi-user.target"]
    assert "getty@tty1.service" in " ".join(_values(_unit()["Unit"], "Conflicts"))
    assert "lgpio" in "".join(PYPROJECT["project"]["optional-dependencies"]["pi"])


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path):
    # verify checks syntax and semantics; the only complaint allowed is the app not being
    # installed at its /opt path on this machine.
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    lines = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.strip()]
    problems = [ln for ln in lines if "is not executable: No such file or directory" not in ln]
    assert not problems, problems


# -------------------------------------------------------------------- the guides

def test_guides_describe_what_is_shipped():
    android = (ROOT / "docs" / "android.md").read_text(encoding="utf-8")
    assert "buildozer android debug" in android and "cannot download" in android
    for name in ANDROID_LEFT_OUT:
        assert f"`{name}`" in android
    kiosk = (ROOT / "docs" / "raspberry-pi-kiosk.md").read_text(encoding="utf-8")
    assert "packaging/tabletop-companion.service" in kiosk
    for needle in ("GPIOZERO_PIN_FACTORY=lgpio", "SDL_VIDEODRIVER=kmsdrm", "[input]", "provider=hidinput",
                   "consoleblank=0", "Overlay File System", '".[pi,ble,phones]"', "packaging/pi/install.sh",
                   "network-online.target", "70-tabletop-companion-hub.rules", "What was checked"):
        assert needle in kiosk, needle


def test_the_source_tree_alone_finds_its_games_through_pyproject(tmp_path):
    """The tablet build ships the sources and pyproject.toml, not an installed wheel's
    metadata: the games are still found, through the entry points pyproject.toml declares
    (and without it, none are: the declaration is what finds them)."""
    import sys

    app = tmp_path / "app"
    shutil.copytree(ROOT / "rules", app / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", app / "pyproject.toml")
    assert "pyproject.toml" in {p.name for p in app.iterdir()}
    assert "toml" in _list(_spec()["app"]["source.include_exts"])
    probe = "import rules; print(sorted(g.id for g in rules.catalog()))"
    # -S: no site-packages, so no installed distribution's metadata (as on the tablet).
    run = lambda: subprocess.run([sys.executable, "-S", "-c", probe], cwd=app, capture_output=True, text=True,
                                 timeout=60, check=True).stdout.strip()
    declared = sorted(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
                      ["tabletop_companion.games"])
    assert run() == str(declared) and len(declared) == 5
    (app / "pyproject.toml").unlink()
    assert run() == "[]"
