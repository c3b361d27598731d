"""Start the Kivy app from the parsed command line of ``python -m companion``.

Kept apart from ``companion/__main__.py`` so that the entry point (and anything that
imports it, e.g. to build its parser) never imports Kivy: only ``companion.ui`` does.
"""
from __future__ import annotations

import argparse
import os


def run(args: argparse.Namespace) -> None:
    """Configure Kivy from ``args`` and run the app until its window closes."""
    from . import collector

    collector.hold()  # until the first screen is up (CompanionApp settles it)
    # Kivy reads its command line and config at import: configure it first.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    if args.size:
        Config.set("graphics", "width", str(args.size[0]))
        Config.set("graphics", "height", str(args.size[1]))
    if args.fullscreen:
        Config.set("graphics", "fullscreen", "auto")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click

    from .app import CompanionApp

    from .ble_link import resolve_mode

    # Bluetooth dice: --ble, else TC_BLE, else the fake radio's in demo mode and the real
    # one otherwise; off without bleak (said on screen when it was asked for).
    ble_mode, ble_why = resolve_mode(getattr(args, "ble", None), demo=bool(args.demo))
    from .phones_link import resolve_mdns, resolve_mode as phones_mode_of

    phones_mode = phones_mode_of(getattr(args, "phones", None))  # off unless asked for
    phones_mdns = resolve_mdns(getattr(args, "phones_mdns", None))  # advertised only when asked for
    journal = args.journal
    settings = args.settings
    on_ready = None
    if args.demo:
        # A fixed file in the user data folder: a second demo resumes, and a killed one
        # leaves no temporary folder behind.
        from ..journal import default_path

        folder = default_path().parent
        journal = journal or os.path.join(folder, "demo.sqlite3")
        settings = settings or os.path.join(folder, "demo-settings.json")
        from .demo import start_demo

        def on_ready(app: "CompanionApp") -> None:
            start_demo(app, seed=args.seed, ble=ble_mode == "demo")

    demo_ready = on_ready

    def on_ready(app: "CompanionApp") -> None:  # noqa: F811 (the demo's, then the dice's)
        if demo_ready is not None:
            demo_ready(app)
        if ble_mode != "off" and not (args.demo and ble_mode == "demo"):
            from .ble_link import start_ble

            start_ble(app, ble_mode)
        elif ble_why and getattr(args, "ble", None) not in (None, "off"):
            app.journal_error = app.journal_error or f"--ble {args.ble}: {ble_why}"
        if phones_mode == "on":
            from .phones_link import start_phones

            start_phones(app, getattr(args, "phones_host", None), phones_mdns)

    from . import bench_hooks  # does nothing unless TC_BENCH_FIRST_FRAME=1 (benchmarks/bench_ui.py)

    bench_hooks.install()
    try:
        CompanionApp(journal_path=journal, settings_path=settings, demo=args.demo, on_ready=on_ready,
                     gpio=getattr(args, "gpio", None), pin_map=getattr(args, "pin_map", None)).run()
    finally:
        collector.resume()  # had the app failed before its first screen
