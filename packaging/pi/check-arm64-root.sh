#!/usr/bin/env bash
# Runs the kiosk installer in a Debian Bookworm arm64 root under qemu-user, as far as a
# computer that is not a Raspberry Pi can check it, then runs a subset of the test suite
# there (rules of one game, the bridge, a real Kivy window under Xvfb):
#
#   sudo packaging/pi/check-arm64-root.sh [--tests-only] [ROOT_DIR]   # default /var/tmp/pi-root
#
# --tests-only runs only the tests, in a root an earlier run set up. The tests are a subset
# chosen to finish in about half an hour of emulation; CHECK_TESTS="tests/… tests/…" picks
# others (the whole suite takes many hours under qemu).
#
# Needs root, and Debian's debootstrap, qemu-user-static and binfmt-support
# (apt-get install debootstrap qemu-user-static binfmt-support). ROOT_DIR must be outside the
# repository; it is made once by debootstrap and reused. Every step's output goes to
# ROOT_DIR.logs/ and the key lines to the terminal. Emulation is slow: expect the first run
# to take an hour or more on two cores. What this proves and what needs a real Pi:
# docs/raspberry-pi-kiosk.md, "What was checked".
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TESTS_ONLY=0
if [ "${1:-}" = --tests-only ]; then TESTS_ONLY=1; shift; fi
ROOT_DIR=${1:-/var/tmp/pi-root}
LOGS=$ROOT_DIR.logs
APP=/opt/tabletop-companion
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
NICE=(nice -n 19)

die() { printf 'check-arm64-root.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '==> %s\n' "$*"; }

[ "$(id -u)" = 0 ] || die "run it as root (debootstrap, chroot and mounts need it)"
case "$(realpath -m "$ROOT_DIR")/" in "$REPO"/*) die "ROOT_DIR must be outside the repository" ;; esac
for tool in debootstrap qemu-aarch64-static; do
    command -v "$tool" >/dev/null || die "$tool is missing: apt-get install debootstrap qemu-user-static binfmt-support"
done
mkdir -p "$LOGS"

if [ "$TESTS_ONLY" = 1 ]; then
    [ -x "$ROOT_DIR$APP/.venv/bin/pytest" ] || die "--tests-only needs a root an earlier full run set up"
elif [ ! -x "$ROOT_DIR/usr/bin/apt-get" ]; then
    say "debootstrap Debian Bookworm arm64 into $ROOT_DIR"
    "${NICE[@]}" debootstrap --arch=arm64 --variant=minbase --include=ca-certificates \
        bookworm "$ROOT_DIR" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1 || die "debootstrap failed: $LOGS/debootstrap.log"
fi

mounted=()
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
mount_in() { mkdir -p "$ROOT_DIR$1"; mount "${@:2}" "$ROOT_DIR$1"; mounted+=("$ROOT_DIR$1"); }
mount_in /proc -t proc proc
mount_in /sys -t sysfs sysfs
# The host's /dev with its pts and shm, as a slave: nothing mounted or unmounted under the
# root's /dev reaches the host's.
mount_in /dev --rbind /dev
mount --make-rslave "$ROOT_DIR/dev"
cp /etc/resolv.conf "$ROOT_DIR/etc/resolv.conf"
EXTRA_ENV=()
in_root() { "${NICE[@]}" chroot "$ROOT_DIR" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${EXTRA_ENV[@]}" "$@"; }
# A host behind a TLS-inspecting proxy trusts the proxy's certificate authority through its
# local CA folder; the root must trust the same to reach PyPI, and pip must use the system's
# CA bundle instead of its own.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    say "the host's local certificate authorities, for pip inside the root"
    mkdir -p "$ROOT_DIR/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT_DIR/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >"$LOGS/ca.log" 2>&1 || die "update-ca-certificates failed: $LOGS/ca.log"
    EXTRA_ENV=(PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
fi

if [ "$TESTS_ONLY" = 0 ]; then
say "what Raspberry Pi OS Lite has and a minbase root does not: systemd, udev, sudo, a boot partition"
# Raspberry Pi OS's kernel command line, as its images ship it (one line).
mkdir -p "$ROOT_DIR/boot/firmware"
[ -f "$ROOT_DIR/boot/firmware/cmdline.txt" ] ||
    echo "console=serial0,115200 console=tty1 root=PARTUUID=01234567-02 rootfstype=ext4 fsck.repair=yes rootwait" \
        >"$ROOT_DIR/boot/firmware/cmdline.txt"
in_root sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends systemd udev sudo' \
    >"$LOGS/base.log" 2>&1 || die "installing the base failed: $LOGS/base.log"

say "the project at $APP (git archive of HEAD, no venv)"
rm -rf "${ROOT_DIR:?}$APP"
mkdir -p "$ROOT_DIR$APP"
git -C "$REPO" archive HEAD | tar -x -C "$ROOT_DIR$APP"

for run in 1 2; do
    say "install.sh, run $run (log: $LOGS/install-$run.log)"
    in_root "$APP/packaging/pi/install.sh" >"$LOGS/install-$run.log" 2>&1 || {
        tail -30 "$LOGS/install-$run.log"; die "install.sh failed on run $run"; }
    grep -E '^==>|^    (\+ |wrote|unchanged|would|python |[a-z-]+ [0-9][^ ]*: imports|already|all installed|user exists|venv exists)|kept|warning' \
        "$LOGS/install-$run.log" | grep -v "Requirement already satisfied" || true
done

say "what the installer left behind"
in_root sh -c "id companion; ls -l /etc/systemd/system/multi-user.target.wants/tabletop-companion.service; \
    cat /etc/systemd/system/tabletop-companion.service.d/install.conf; cat /boot/firmware/cmdline.txt; \
    ls -l /etc/udev/rules.d/; systemd-analyze verify --man=no /etc/systemd/system/tabletop-companion.service 2>&1 || true; \
    $APP/.venv/bin/python -m pip list --format=freeze 2>/dev/null | grep -iE '^(kivy|bleak|dbus.fast|aiohttp|segno|lgpio|gpiozero|pyserial|platformdirs|tabletop.companion)=='" \
    2>&1 | tee "$LOGS/state.log"

say "the SDL2 inside Kivy's arm64 wheel: its video drivers (kmsdrm is the kiosk's)"
in_root "$APP/.venv/bin/python" - <<'EOF' 2>&1 | tee "$LOGS/sdl.log"
import ctypes, glob, os, kivy
libs = sorted(glob.glob(os.path.join(os.path.dirname(kivy.__file__), "..", "[Kk]ivy.libs", "libSDL2-2*.so*")))
sdl = ctypes.CDLL(libs[0])
sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
print(os.path.basename(libs[0]), [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())])
EOF

say "test tools in the venv (pytest, hypothesis) and Xvfb with Mesa for the window"
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends xvfb xauth libgl1-mesa-dri \
    && $APP/.venv/bin/pip install -q pytest pytest-timeout hypothesis" >"$LOGS/test-tools.log" 2>&1 ||
    die "installing the test tools failed: $LOGS/test-tools.log"
fi

# Rules of one game (without its long random-game harness), the bridge's events, its
# Bluetooth dice against fakes, the simulated hub on a real pty (without the long unplug
# cycles), the GPIO source on gpiozero's mock pins, and a real window: the privacy gate.
read -r -a TESTS <<<"${CHECK_TESTS:-tests/rules/tyranny/test_rules.py tests/rules/tyranny/test_cards.py \
tests/rules/tyranny/test_views.py tests/rules/tyranny/test_rulings.py tests/firmware_bridge/test_events.py \
tests/firmware_bridge/ble tests/firmware_bridge/test_serial_pty.py tests/firmware_bridge/test_gpio_source.py \
tests/ui/test_app.py::test_privacy_gate_never_shows_the_secret_before_the_hold}"
say "pytest in the arm64 root: ${TESTS[*]} (log: $LOGS/pytest.log)"
set +e
in_root sh -c "cd $APP && KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 KIVY_NO_FILELOG=1 KIVY_HOME=$APP/.kivy-test \
    $APP/.venv/bin/python -m pytest -p no:cacheprovider -q -o addopts='-ra' --timeout=1800 \
    --deselect tests/firmware_bridge/test_serial_pty.py::test_unplug_replug_cycles ${TESTS[*]}" \
    >"$LOGS/pytest.log" 2>&1
rc=$?
set -e
tail -5 "$LOGS/pytest.log"
say "pytest exit status $rc"

# The demo's roll, from the simulated hub on a pty through the serial bridge and the table to
# the screen, driven as tests/ui/test_app.py::test_demo_physical_roll_end_to_end drives it but
# without that test's 120 s limit on the app's process, which emulation exceeds.
say "the demo's physical roll in a real window (log: $LOGS/demo.log)"
set +e
in_root sh -c "cd $APP && rm -rf /tmp/demo && mkdir -p /tmp/demo && echo '{\"tour_seen\": true}' >/tmp/demo/settings.json \
    && KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 KIVY_HOME=/tmp/demo/kivy SDL_AUDIODRIVER=dummy PYTHONPATH=$APP \
    xvfb-run -a -s '-screen 0 1280x800x24 +extension GLX +render -noreset' $APP/.venv/bin/python -m tests.ui.driver \
    demo_physical_roll --size 800x480 --demo --journal /tmp/demo/journal.sqlite3 --out /tmp/demo/out \
    --result /tmp/demo/result.json --settings /tmp/demo/settings.json" >"$LOGS/demo.log" 2>&1
in_root $APP/.venv/bin/python -c "import json; r = json.load(open('/tmp/demo/result.json')); \
print('demo_physical_roll ok:', r.get('ok'), r.get('error') or '')" 2>&1 | tee -a "$LOGS/demo.log"
demo=$(grep -c "demo_physical_roll ok: True" "$LOGS/demo.log")
set -e
[ "$rc" = 0 ] && [ "$demo" = 1 ]
