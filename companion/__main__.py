"""Launch the app: ``python -m companion [--demo] [--size 800x480] [--journal PATH]``.

``--demo`` keeps its journal in ``demo.sqlite3`` in the user data folder (beside the real
journal; a second demo resumes the game the first left), starts the simulated dice hub on
a pseudo-terminal, connects to it through the real serial bridge exactly as to a hub on
USB, and opens the demo's Tyranny game (a new one when none is in progress).

``--gpio mock`` adds a simulated GPIO board (gpiozero's MockFactory: the devices panel
places tokens and presses buttons); on a Raspberry Pi the header's pins are used by
default (``--gpio pi``, lgpio); ``--gpio off`` leaves them alone.

``--phones on`` serves each seat's private view to the players' own phones over the local
network (``--phones-host`` picks the address, ``--phones-mdns on`` advertises it by
zeroconf/mDNS; see companion/web/README.md).

``--ble on`` offers Bluetooth dice (Pixels, GoDice) on the devices panel (the default when
bleak is installed); ``--ble demo`` a simulated Pixel and GoDice on a fake radio (the
default with ``--demo``); ``--ble off`` none (also what the others become without bleak).
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .errors import CompanionError
from .ui.ble_link import BLE_MODES  # Kivy-free, like everything this module imports
from .ui.gpio_link import GPIO_MODES


class SizeError(CompanionError, ValueError):
    """A --size that is not WIDTHxHEIGHT."""


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``.

    >>> parse_size("1280x800")
    (1280, 800)
    """
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SizeError(f"--size takes WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if w < 320 or h < 240:
        raise SizeError(f"--size {text}: the smallest window is 320x240")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m companion", description="Tabletop Companion: the referee beside the board.")
    p.add_argument("--demo", action="store_true", help="simulated dice hub on a pty and the catalogue's demo game, journal in <data>/demo.sqlite3")
    p.add_argument("--size", type=parse_size, default=None, metavar="WxH", help="window size, e.g. 800x480 (the Pi display)")
    p.add_argument("--journal", default=None, metavar="PATH", help="the SQLite journal (default: the user data folder)")
    p.add_argument("--settings", default=None, metavar="PATH", help="the settings file (default: the app's user data folder)")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen (kiosk mode)")
    p.add_argument("--seed", type=int, default=None, help="seed of the demo game (default: random)")
    p.add_argument("--gpio", choices=GPIO_MODES, default=None,
                   help="the GPIO header's token slots, buttons and lights: auto (default: on a Raspberry Pi only), "
                        "pi (gpiozero's pin factory, lgpio), mock (simulated pins, gpiozero's MockFactory), off; "
                        "default from TC_GPIO")
    p.add_argument("--pin-map", default=None, metavar="PATH",
                   help="the GPIO pin map (default: firmware_bridge/gpio/default_pinmap.json, or TC_PIN_MAP)")
    p.add_argument("--ble", choices=BLE_MODES, default=None,
                   help="Bluetooth dice (Pixels, GoDice): on (default when bleak is installed), demo (a simulated "
                        "Pixel and GoDice on a fake radio; the default with --demo), off; default from TC_BLE")
    p.add_argument("--phones", choices=("on", "off"), default=None,
                   help="players' own phones as private views over the local network: on, off (default; or TC_PHONES). "
                        "The devices panel shows each seat's QR code")
    p.add_argument("--phones-host", default=None, metavar="ADDRESS",
                   help="the address the phones' server listens on (default: TC_PHONES_HOST, else this computer's "
                        "address on the local network); 127.0.0.1 keeps it to this computer")
    p.add_argument("--phones-mdns", choices=("on", "off"), default=None,
                   help="advertise the phones' server by zeroconf/mDNS while it listens (the 'mdns' extra): on, off "
                        "(default; or TC_PHONES_MDNS)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Kivy stays inside companion.ui: the entry point only reads its command line.
    from .ui.launch import run

    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
