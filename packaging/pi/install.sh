#!/usr/bin/env bash
# Sets up Raspberry Pi OS (Bookworm, 64-bit) as a Tabletop Companion kiosk, in one command,
# from a checkout of the repository (the app runs from the checkout's .venv):
#
#   sudo packaging/pi/install.sh                 # the kiosk runs as the system user "companion"
#   sudo packaging/pi/install.sh --user NAME     # ... or as NAME (created if missing)
#   packaging/pi/install.sh --dry-run            # print what it would do; changes nothing
#
# What it does (docs/raspberry-pi-kiosk.md explains each step):
#   1. system packages from Debian's archive: Python's venv, the GL/EGL/GBM/DRM libraries and
#      libmtdev that Kivy's SDL2 window loads, BlueZ for the Bluetooth dice;
#   2. the kiosk's user, in the groups dialout (the dice hub), gpio (buttons, LEDs), bluetooth,
#      audio, video and render (the display), input (the touch panel);
#   3. a venv in <checkout>/.venv with the app and its pi, ble and phones extras;
#   4. the udev rule for the dice hub's USB serial port;
#   5. Kivy's config.ini for the touch panel (only if there is none yet);
#   6. screen blanking off (consoleblank=0 on the kernel command line);
#   7. the systemd unit (packaging/tabletop-companion.service), enabled for the next boot.
#
# Running it again changes only what differs. Without a running systemd or udev (a chroot,
# a container) it installs the files and enables the unit for the next boot.
set -euo pipefail

APP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PACKAGING=$APP_DIR/packaging
UNIT_NAME=tabletop-companion.service
SYSTEMD_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
STATE_DIR=/var/lib/tabletop-companion
EXTRAS="pi,ble,phones"
# The groups the kiosk's user needs: the hub's serial port, the GPIO chip, BlueZ's D-Bus
# policy, the sound card, the display (DRM/KMS), and the touch panel's event devices.
GROUPS_NEEDED=(dialout gpio bluetooth audio video render input)
# Debian package names (Bookworm). python3-venv brings ensurepip for the venv; libgl1,
# libegl1, libgles2, libgbm1 and libdrm2 are what the SDL2 inside Kivy's wheel loads for a
# KMS/DRM window; libmtdev1 is Kivy's mtdev touch provider; bluez (with dbus) is what bleak
# talks to on Linux; ca-certificates lets pip reach PyPI.
APT_PACKAGES=(python3 python3-venv ca-certificates libgl1 libegl1 libgles2 libgbm1 libdrm2
              libmtdev1 bluez)

KIOSK_USER=companion
DRY_RUN=0
SKIP_APT=0

usage() {
    sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --user NAME   the user the kiosk runs as (default: companion, a system user)
  --dry-run     print each change it would make, make none (no root needed)
  --no-apt      do not install system packages (they must already be there)
  -h, --help    this text
EOF
}

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# Every change goes through act (a command) or put (a file), so --dry-run changes nothing.
act() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '    would run: %s\n' "$*"
    else
        printf '    + %s\n' "$*"
        "$@"
    fi
}

# put SOURCE DEST MODE: install a file unless DEST already has exactly that content and mode.
put() {
    local src=$1 dest=$2 mode=$3
    if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "$mode" ]; then
        note "unchanged: $dest"
        return 0
    fi
    if [ "$DRY_RUN" = 1 ]; then
        printf '    would write: %s (mode %s)\n' "$dest" "$mode"
    else
        install -D -m "$mode" "$src" "$dest"
        printf '    wrote: %s\n' "$dest"
    fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --user) [ $# -ge 2 ] || die "--user needs a name"; KIOSK_USER=$2; shift 2 ;;
        --user=*) KIOSK_USER=${1#--user=}; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --no-apt) SKIP_APT=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

[[ "$KIOSK_USER" =~ ^[a-z_][a-z0-9_-]*$ ]] || die "not a user name: '$KIOSK_USER'"
[ "$KIOSK_USER" != root ] || die "the kiosk must not run as root: give --user another name"
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root (sudo $0 $*), or with --dry-run to see what it would do"
fi
if [ ! -f "$APP_DIR/pyproject.toml" ] || [ ! -f "$PACKAGING/$UNIT_NAME" ]; then
    die "run it from a checkout of Tabletop Companion (no pyproject.toml in $APP_DIR)"
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# systemd's own test for "booted with systemd" (sd_booted): a chroot or a container without
# systemd has no /run/systemd/system.
systemd_running() { [ -d /run/systemd/system ]; }
udev_running() { [ -S /run/udev/control ]; }

# ------------------------------------------------------------------ 0. the system
# shellcheck source=/dev/null
. /etc/os-release 2>/dev/null || true
ARCH=$(dpkg --print-architecture 2>/dev/null || uname -m)
say "Tabletop Companion kiosk: $APP_DIR, for user '$KIOSK_USER'$([ "$DRY_RUN" = 1 ] && echo ' (dry run)')"
note "system: ${PRETTY_NAME:-unknown}, $ARCH; systemd $(systemd_running && echo running || echo 'not running')"
[ "${VERSION_CODENAME:-}" = bookworm ] || warn "written for Debian/Raspberry Pi OS Bookworm, this is '${VERSION_CODENAME:-unknown}'"
[ "$ARCH" = arm64 ] || warn "written for 64-bit Raspberry Pi OS (arm64), this is $ARCH"

# ------------------------------------------------------------------ 1. system packages
say "System packages"
if [ "$SKIP_APT" = 1 ]; then
    note "skipped (--no-apt)"
else
    command -v apt-get >/dev/null || die "no apt-get: this installer is for Raspberry Pi OS / Debian"
    missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        note "all installed: ${APT_PACKAGES[*]}"
    else
        act env DEBIAN_FRONTEND=noninteractive apt-get update -q
        act env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
fi
# Debian's own Python (python3-venv is for it), not another one earlier on PATH.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3 || true)
if [ -n "$PYTHON" ]; then
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "Python 3.11 or newer is needed, $("$PYTHON" --version) is installed"
    note "$("$PYTHON" --version)"
elif [ "$DRY_RUN" = 0 ]; then
    die "python3 is missing"
fi

# ------------------------------------------------------------------ 2. the user and groups
say "User '$KIOSK_USER' and its groups"
if id "$KIOSK_USER" >/dev/null 2>&1; then
    note "user exists: $(id "$KIOSK_USER")"
else
    # A system user without a login shell: the kiosk is its only job. Its home is the
    # unit's state directory (saved games, settings, Kivy's config).
    act useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Tabletop Companion kiosk" "$KIOSK_USER"
fi
if ! getent group gpio >/dev/null; then
    # Raspberry Pi OS has a gpio group owning /dev/gpiochip*; plain Debian has neither. Make
    # both, so lgpio works for the kiosk's user without root.
    note "no gpio group (not Raspberry Pi OS): creating it, and a udev rule giving it /dev/gpiochip*"
    act groupadd --system gpio
    put "$PACKAGING/pi/60-tabletop-companion-gpio.rules" "$UDEV_DIR/60-tabletop-companion-gpio.rules" 644
fi
current=" $(id -nG "$KIOSK_USER" 2>/dev/null || true) "
add=()
for g in "${GROUPS_NEEDED[@]}"; do
    if [[ "$current" == *" $g "* ]]; then
        continue
    elif getent group "$g" >/dev/null || { [ "$DRY_RUN" = 1 ] && [ "$g" = gpio ]; }; then
        add+=("$g")
    elif [ "$DRY_RUN" = 1 ]; then
        note "group '$g' does not exist yet: would add $KIOSK_USER if the packages above create it"
    else
        # bluetooth comes with bluez, render and input with udev, the rest with the base
        # system: a missing one means a package is missing, and the unit's
        # SupplementaryGroups= would refuse to start the app.
        warn "group '$g' does not exist: $KIOSK_USER is not added to it"
    fi
done
if [ ${#add[@]} -eq 0 ]; then
    note "already in: ${GROUPS_NEEDED[*]}"
else
    act usermod --append --groups "$(IFS=,; echo "${add[*]}")" "$KIOSK_USER"
fi

# ------------------------------------------------------------------ 3. the app's venv
say "The app in $APP_DIR/.venv (extras: $EXTRAS)"
VENV_PY=$APP_DIR/.venv/bin/python
if [ -x "$VENV_PY" ]; then
    note "venv exists: $("$VENV_PY" --version)"
else
    act "${PYTHON:-python3}" -m venv "$APP_DIR/.venv"
fi
act "$VENV_PY" -m pip install --disable-pip-version-check --progress-bar off "${APP_DIR}[${EXTRAS}]"
if [ "$DRY_RUN" = 0 ]; then
    # The versions the kiosk got, and proof that each runtime module imports on this machine.
    KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1 KIVY_HOME="$TMP/kivy" "$VENV_PY" - <<'EOF'
import importlib
import importlib.metadata as md
import platform

print("    python", platform.python_version(), platform.machine())
for dist, module in (("tabletop-companion", "companion"), ("kivy", "kivy"), ("pyserial", "serial"),
                     ("gpiozero", "gpiozero"), ("lgpio", "lgpio"), ("platformdirs", "platformdirs"),
                     ("bleak", "bleak"), ("dbus-fast", "dbus_fast"), ("aiohttp", "aiohttp"), ("segno", "segno")):
    importlib.import_module(module)
    print(f"    {dist} {md.version(dist)}: imports")
EOF
fi
if id "$KIOSK_USER" >/dev/null 2>&1 && command -v runuser >/dev/null &&
        ! runuser -u "$KIOSK_USER" -- test -r "$APP_DIR/pyproject.toml" -a -x "$APP_DIR/.venv/bin/python"; then
    if [ "$DRY_RUN" = 1 ]; then
        warn "'$KIOSK_USER' cannot read $APP_DIR: put the checkout where it can (e.g. /opt/tabletop-companion)"
    else
        die "'$KIOSK_USER' cannot read $APP_DIR: put the checkout where it can (e.g. /opt/tabletop-companion)"
    fi
fi

# ------------------------------------------------------------------ 4. the dice hub's udev rule
say "udev rule for the dice hub"
put "$PACKAGING/pi/70-tabletop-companion-hub.rules" "$UDEV_DIR/70-tabletop-companion-hub.rules" 644
if udev_running; then
    act udevadm control --reload
    act udevadm trigger --subsystem-match=tty --subsystem-match=gpio --action=change
else
    note "udev is not running here: the rules apply from the next boot"
fi

# ------------------------------------------------------------------ 5. Kivy's config.ini
say "Kivy's config.ini (touch panel)"
KIVY_INI=$STATE_DIR/kivy/config.ini
if [ -e "$KIVY_INI" ]; then
    note "kept as it is: $KIVY_INI"
else
    # The panel read by Kivy itself (no window system under KMS/DRM): every multitouch device
    # under /sys/class/input through hidinput. Kivy fills in the rest on first start.
    cat >"$TMP/config.ini" <<'EOF'
[graphics]
fullscreen = auto
show_cursor = 0

[input]
mouse = mouse
%(name)s = probesysfs,provider=hidinput
EOF
    put "$TMP/config.ini" "$KIVY_INI" 644
    act chown -R "$KIOSK_USER:" "$STATE_DIR"
fi

# ------------------------------------------------------------------ 6. screen blanking off
say "Screen blanking off"
CMDLINE=
for c in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
    if [ -f "$c" ] && ! grep -q "^# *DO NOT EDIT" "$c"; then CMDLINE=$c; break; fi
done
if [ -z "$CMDLINE" ]; then
    note "no Raspberry Pi boot partition (/boot/firmware/cmdline.txt): add consoleblank=0 to the kernel command line yourself"
elif grep -qw "consoleblank=0" "$CMDLINE"; then
    note "already: consoleblank=0 in $CMDLINE"
else
    # cmdline.txt is one line; the kernel reads only that line.
    { sed 's/[[:space:]]*consoleblank=[0-9]*//g; s/[[:space:]]*$//' "$CMDLINE" | head -n1 | tr -d '\n'
      printf ' consoleblank=0\n'; } >"$TMP/cmdline.txt"
    put "$TMP/cmdline.txt" "$CMDLINE" "$(stat -c %a "$CMDLINE")"
    note "takes effect at the next boot"
fi

# ------------------------------------------------------------------ 7. the systemd unit
say "systemd unit $UNIT_NAME"
KIOSK_GROUP=$(id -gn "$KIOSK_USER" 2>/dev/null || echo "$KIOSK_USER")
put "$PACKAGING/$UNIT_NAME" "$SYSTEMD_DIR/$UNIT_NAME" 644
# The shipped unit names /opt/tabletop-companion and the user companion; a drop-in says
# where this checkout is and who runs it, so the shipped file stays as it is.
cat >"$TMP/install.conf" <<EOF
# Written by packaging/pi/install.sh: this checkout and the kiosk's user.
[Unit]
Documentation=file://$APP_DIR/docs/raspberry-pi-kiosk.md

[Service]
User=$KIOSK_USER
Group=$KIOSK_GROUP
WorkingDirectory=$APP_DIR
ExecStart=
ExecStart=$APP_DIR/.venv/bin/tabletop-companion --fullscreen
EOF
put "$TMP/install.conf" "$SYSTEMD_DIR/$UNIT_NAME.d/install.conf" 644
if systemd_running; then
    act systemctl daemon-reload
    act systemctl enable "$UNIT_NAME"
    note "start it now with: sudo systemctl start tabletop-companion (or reboot)"
elif command -v systemctl >/dev/null; then
    # systemctl enables offline (it only makes the [Install] symlinks) when systemd is not running.
    act systemctl enable "$UNIT_NAME"
    note "systemd is not running here: the kiosk starts at the next boot"
else
    die "no systemctl: Raspberry Pi OS always has systemd"
fi

say "Done. Reboot to start the kiosk: sudo reboot"
