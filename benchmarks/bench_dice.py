"""Dice-to-screen latency: a die result's frame written on the pty by the simulated hub →
the first frame on screen whose dice tray shows that result.

The real app runs in this process (demo mode, 800×480) under the display (Xvfb when there
is none): SimulatedHub on a pty → HubConnection's reader thread → ``app.post_event`` →
(a) the UI thread shows the die's reading in the tray ("4 · checking…") and (b) the input
pump's thread routes it through the Table (engine check, fsync'd journal commit) → the UI
thread shows the applied roll (tray, board map). Start = the hub's own report that the last
byte of the result frame is on the pty (``SimulatedHub.on_result_written``, system-wide
monotonic clock); end = right after the window's buffer swap (``Window.flip``) of the first
frame whose tray shows (a) the reading — the target's measure, "the frame on screen showing
the value" — and (b) the applied roll, reported beside it. Every roll is one the game waits
for (after each, the benchmark plays the rest of the turn through the Table), so the
measured path is the accepted one.

Target: p99 ≤ 20 ms on this machine.

``--hub=process`` (the default, and the honest setting: a real hub is a separate device)
runs the simulated hub in its own process, as the demo does
(``python -m firmware_bridge simulate --control``); ``--hub=inprocess`` keeps it in the
app's process, where its detector loop competes for the GIL (``TC_SIM_SPEED``, default
20, sets how hard); ``--hub=both`` runs one after the other, each in a fresh process.

``--source=ble`` measures a Bluetooth LE die instead: a fake Pixel (d6) or a fake GoDice
(D6 shell) on the fake radio of ``firmware_bridge.ble.fake`` (the makers' bytes, bleak's
real front end, the real ``BleDiceSource`` loop thread → ``app.post_event``), paired as
the app pairs it (``companion.ui.ble_link.start_ble``); ``--die=pixels|godice|both``
(default both, each in a process of its own). Start = the fake die hands its result (a
Pixel's ``rolled`` RollState, a GoDice's ``S`` x y z) to the fake bleak backend (the radio
excluded: the fake replaces it); end = the same frame swap as above. Each throw: picked
up, rolling, and 150 ms later at rest (a real one tumbles for half a second or more).

Run: ``.venv/bin/python -m benchmarks dice [--rolls=N] [--hub=process|inprocess|both]
[--source=hub|ble] [--die=pixels|godice|both]``.
"""
from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 +extension GLX +render -noreset"]
TARGET_P99_MS = 20.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100).

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)
    10
    >>> percentile([3, 1, 2], 50)
    2
    """
    v = sorted(values)
    k = max(0, min(len(v) - 1, int(-(-q * len(v) // 100)) - 1))
    return v[k]


def _demo_game() -> tuple[str, list[dict[str, str]]]:
    """The game the demo plays and its demo seats (from the games' cards): the dice
    measured are the demo's, whichever game that is."""
    from rules.registry import demo_game

    card = demo_game()
    seats = [{"id": s["id"], "faction": s["faction"]} for s in card.demo["seats"]]
    return card.id, seats


def _time_frames(window: Any, tray: Any, state: dict[str, Any], read: list[float], shown: list[float]) -> None:
    """Note when a reading, then a roll, is on screen: the frame drawn just before a buffer
    swap shows the tray as it is then, and is on screen once the swap returns (both
    sources, hub and Bluetooth, are timed this same way)."""
    swap = window.flip

    def flip() -> None:
        reading, seen = tray.model.readings_seen, tray.model.rolls_seen
        swap()
        now = time.monotonic()
        if reading > state["read"]:
            state["read"] = reading
            if state["measuring"]:
                read.append(now)
        if seen > state["seen"]:
            state["seen"] = seen
            if state["measuring"]:
                shown.append(now)
            state["waiting"] = False

    window.flip = flip


def run(rolls: int, hub_mode: str = "process") -> dict[str, float]:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from companion.ui.app import CompanionApp  # before kivy.clock: it picks the app's clock
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.ui.demo import start_demo
    from rules.core import RollRequest

    game_id, seats = _demo_game()

    folder = tempfile.mkdtemp(prefix="bench-dice-")
    written: list[float] = []
    read: list[float] = []  # the frame showing the die's reading swapped
    shown: list[float] = []  # the frame showing the applied roll swapped
    # Where the time goes, per measured roll: the event's own timestamp (made on the
    # reader thread), when the pump began and finished routing it.
    stages: list[tuple[float, float, float]] = []
    state = {"read": 0, "seen": 0, "left": rolls, "waiting": False, "t0": 0.0, "measuring": False}
    new_games: set[int] = set()  # measured rolls thrown just after a game ended and another began
    lock = threading.Lock()

    def on_written(_die: int, _face: int, t: float) -> None:
        with lock:
            if state["measuring"]:
                written.append(t)

    def on_ready(app: CompanionApp) -> None:
        speed = float(os.environ.get("TC_SIM_SPEED", "20"))
        link = start_demo(app, seed=1, speed=speed, in_process=hub_mode == "inprocess")
        if link is None:
            raise SystemExit("bench dice: the simulated hub did not start: " + app.journal_error)
        if hub_mode == "inprocess":
            link.hub.on_result_written = lambda die, st, t: on_written(die, st.get("face", -1), t)
        else:
            link.on_written = on_written
        route = app._route

        def timed_route(event: object) -> object:
            begin = time.monotonic()
            result = route(event)
            if type(event).__name__ == "DieRolled" and state["measuring"]:
                stages.append((getattr(event, "t", begin), begin, time.monotonic()))
            return result

        app._route = timed_route  # type: ignore[method-assign]
        scr = app.sm.get_screen(f"game:{game_id}")
        tray = scr.ids.dice
        _time_frames(Window, tray, state, read, shown)

        def advance_to_roll() -> None:
            # Play the rest of the turn through the Table until a roll is awaited again.
            t = app.table
            for _ in range(50):
                if t.outcome is not None:
                    new_games.add(rolls - state["left"])
                    app.new_game(game_id, seats, {}, seed=len(shown))
                    t = app.table
                if isinstance(t.prompt.awaiting, RollRequest):
                    return
                acts = [a for a in t.legal_actions() if not a.chance]
                if acts:
                    t.submit(acts[0])
                else:
                    t.roll_for_me()

        def wait(limit_s: float, why: str, every_s: float) -> None:
            """Look again in ``every_s``, or give up (stopping the app) after ``limit_s``."""
            if time.monotonic() - state["t0"] > limit_s:
                print(f"bench dice: {why}", file=sys.stderr)
                app.stop()
            else:
                Clock.schedule_once(step, every_s)

        def step(_dt: float) -> None:
            if state["waiting"]:
                wait(10, "a roll never reached the screen", 0.01)
                return
            if state["left"] == 0:
                app.stop()
                return
            if not link.link.is_online:
                wait(20, "the simulated hub never came online", 0.1)
                return
            advance_to_roll()
            with lock:
                state["measuring"] = True  # from the first throw on
            state["left"] -= 1
            state["waiting"] = True
            state["t0"] = time.monotonic()
            link.throw(0)
            Clock.schedule_once(step, 0.01)

        # Let the hub boot and its handshake finish before the first throw.
        state["t0"] = time.monotonic()
        Clock.schedule_once(step, 1.5)

    app = CompanionApp(journal_path=os.path.join(folder, "journal.sqlite3"),
                       settings_path=os.path.join(folder, "settings.json"), demo=True, on_ready=on_ready)
    app.settings = app.settings.with_changes(sound=False)
    app.run()
    shutil.rmtree(folder, ignore_errors=True)
    n = min(len(written), len(read), len(shown), len(stages))
    if not n:
        raise SystemExit("bench dice: no roll measured")
    lat = [(r - w) * 1000 for w, r in zip(written[:n], read[:n])]
    applied = [(s - w) * 1000 for w, s in zip(written[:n], shown[:n])]
    st = stages[:n]
    bridge = [(e - w) * 1000 for w, (e, _b, _r) in zip(written[:n], st)]
    marshal = [(b - e) * 1000 for e, b, _r in st]
    routing = [(r - b) * 1000 for _e, b, r in st]
    render = [(s - r) * 1000 for s, (_e, _b, r) in zip(shown[:n], st)]
    slowest = sorted(range(n), key=lambda i: applied[i], reverse=True)[:5]
    slow = [(i, lat[i], applied[i], bridge[i], marshal[i], routing[i], render[i], i in new_games) for i in slowest]
    return {"slowest": slow, "new_games": len(new_games), "n": n, **summary(lat), "applied": summary(applied),
            "bridge": statistics.median(bridge), "marshal": statistics.median(marshal),
            "route": statistics.median(routing), "render": statistics.median(render)}


def run_ble(rolls: int, die: str = "pixels") -> dict[str, float]:
    """A fake die's result notification → the frame showing its value (see the module doc);
    ``die``: "pixels" or "godice"."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from companion.ui.app import CompanionApp  # before kivy.clock: it picks the app's clock
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.ui.ble_link import start_ble
    from firmware_bridge.ble.fake import FakeGoDice, FakePixel, FakeRadio
    from rules.core import RollRequest

    game_id, seats = _demo_game()

    folder = tempfile.mkdtemp(prefix="bench-dice-ble-")
    written: list[float] = []
    read: list[float] = []
    shown: list[float] = []
    state = {"read": 0, "seen": 0, "left": rolls, "waiting": False, "t0": 0.0, "measuring": False}
    radio = FakeRadio()
    fake: Any
    if die == "godice":
        fake = radio.add(FakeGoDice("BE:NC:00:00:00:02", shell="D6"))

        def is_result(data: bytes) -> bool:
            return bytes(data[:1]) == b"S"  # stable after a roll (godiceapi.c)

        def throw() -> None:
            fake.notify(b"R")
            time.sleep(0.15)
            fake._stable("stable", random.randint(1, 6))
    else:
        fake = radio.add(FakePixel("BE:NC:00:00:00:01", pixel_id=0xBE4C0001, die_type="d6", name="Bench Pixel"))
        rolled = fake.roll_state()[:1] + bytes([1])  # RollState, state 1 = rolled (the firmware's)

        def is_result(data: bytes) -> bool:
            return bytes(data[:2]) == rolled

        def throw() -> None:
            fake._state("handling")
            fake._state("rolling")
            time.sleep(0.15)
            fake._state("rolled", fake._index(random.randint(1, 6)))
    notify = fake.notify

    def timed_notify(data: bytes) -> None:
        if is_result(data) and state["measuring"]:
            written.append(time.monotonic())
        notify(data)

    fake.notify = timed_notify

    stages: list[tuple[float, float]] = []  # per measured roll: the event made, the pump began

    def on_ready(app: CompanionApp) -> None:
        link = start_ble(app, "demo", radio=radio)
        route = app._route

        def timed_route(event: object) -> object:
            if type(event).__name__ == "DieRolled" and state["measuring"]:
                stages.append((getattr(event, "t", 0.0), time.monotonic()))
            return route(event)

        app._route = timed_route  # type: ignore[method-assign]
        app.new_game(game_id, seats, {}, seed=1)
        scr = app.sm.get_screen(f"game:{game_id}")
        tray = scr.ids.dice
        _time_frames(Window, tray, state, read, shown)

        def advance_to_roll() -> None:
            t = app.table
            for _ in range(50):
                if t.outcome is not None:
                    app.new_game(game_id, seats, {}, seed=len(shown))
                    t = app.table
                if isinstance(t.prompt.awaiting, RollRequest):
                    return
                acts = [a for a in t.legal_actions() if not a.chance]
                if acts:
                    t.submit(acts[0])
                else:
                    t.roll_for_me()

        def step(_dt: float) -> None:
            if state["waiting"]:
                if time.monotonic() - state["t0"] > 10:
                    print("bench dice: a Bluetooth roll never reached the screen", file=sys.stderr)
                    app.stop()
                else:
                    Clock.schedule_once(step, 0.01)
                return
            if state["left"] == 0:
                app.stop()
                return
            device = next(iter(link.paired), None)
            if device is None or not link.source.is_online(device):
                if time.monotonic() - state["t0"] > 20:
                    print(f"bench dice: the fake {die} die never came online", file=sys.stderr)
                    app.stop()
                else:
                    Clock.schedule_once(step, 0.1)
                return
            advance_to_roll()
            state["measuring"] = True
            state["left"] -= 1
            state["waiting"] = True
            state["t0"] = time.monotonic()
            # The die's side, on a thread of its own as a radio's notifications arrive:
            # picked up, rolling, and 150 ms later at rest (a real throw tumbles for half a
            # second or more, so the motion's frames are drawn before the result comes).
            threading.Thread(target=throw, daemon=True).start()
            Clock.schedule_once(step, 0.01)

        state["t0"] = time.monotonic()
        Clock.schedule_once(step, 1.0)

    app = CompanionApp(journal_path=os.path.join(folder, "journal.sqlite3"),
                       settings_path=os.path.join(folder, "settings.json"), on_ready=on_ready)
    app.settings = app.settings.with_changes(sound=False)
    app.run()
    shutil.rmtree(folder, ignore_errors=True)
    n = min(len(written), len(read), len(shown), len(stages))
    if not n:
        raise SystemExit("bench dice: no Bluetooth roll measured")
    lat = [(r - w) * 1000 for w, r in zip(written[:n], read[:n])]
    applied = [(s - w) * 1000 for w, s in zip(written[:n], shown[:n])]
    bridge = [(e - w) * 1000 for w, (e, _b) in zip(written[:n], stages)]
    marshal = [(b - e) * 1000 for e, b in stages[:n]]
    return {"n": n, **summary(lat), "applied": summary(applied),
            "bridge": statistics.median(bridge), "marshal": statistics.median(marshal)}


def summary(ms: list[float]) -> dict[str, float]:
    """min, p50, p95, p99 and max of a list of latencies.

    >>> summary([1.0, 2.0, 3.0])["p99"]
    3.0
    """
    return {"min": min(ms), "p50": statistics.median(ms), "p95": percentile(ms, 95), "p99": percentile(ms, 99), "max": max(ms)}


def line(r: dict[str, float]) -> str:
    return f"min {r['min']:.1f}  p50 {r['p50']:.1f}  p95 {r['p95']:.1f}  p99 {r['p99']:.1f}  max {r['max']:.1f}"


def main(argv: list[str]) -> int:
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            print("bench dice: no DISPLAY and no xvfb-run")
            return 2
        return subprocess.call([*XVFB, sys.executable, "-m", "benchmarks", "dice", *argv], cwd=ROOT)
    rolls = 100
    hub_mode = "process"
    for a in argv:
        if a.startswith("--rolls="):
            rolls = int(a.split("=", 1)[1])
        if a == "--quick":
            rolls = 30
        if a.startswith("--hub="):
            hub_mode = a.split("=", 1)[1]
    if "--source=ble" in argv:
        die = next((a.split("=", 1)[1] for a in argv if a.startswith("--die=")), "both")
        if die == "both":
            rest = [a for a in argv if not a.startswith("--die=")]
            return (subprocess.call([sys.executable, "-m", "benchmarks", "dice", "--die=pixels", *rest], cwd=ROOT)
                    | subprocess.call([sys.executable, "-m", "benchmarks", "dice", "--die=godice", *rest], cwd=ROOT))
        if die not in ("pixels", "godice"):
            print(f"bench dice: --die is pixels, godice or both, not {die!r}")
            return 2
        name = "Pixel (d6)" if die == "pixels" else "GoDice (D6 shell)"
        print(f"load average before: {os.getloadavg()[0]:.2f}; {rolls} rolls of a fake {name} (Bluetooth LE, "
              f"fake radio behind bleak), 800x480", flush=True)
        r = run_ble(rolls, die)
        print(f"BLE notification→screen ms (the reading shown): n={r['n']}  {line(r)}"
              f"   (target p99 ≤ {TARGET_P99_MS:.0f} ms: {'met' if r['p99'] <= TARGET_P99_MS else 'NOT met'})")
        print(f"BLE notification→screen ms (the roll applied):  n={r['n']}  {line(r['applied'])}")
        print(f"median stages ms: notification→event (bleak's loop thread) {r['bridge']:.1f}  "
              f"event→pump {r['marshal']:.1f}")
        print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
        return 0
    if hub_mode == "both":
        # Kivy runs one app per process: each variant gets its own.
        rest = [a for a in argv if not a.startswith("--hub=")]
        rc = 0
        for mode in ("process", "inprocess"):
            rc |= subprocess.call([sys.executable, "-m", "benchmarks", "dice", f"--hub={mode}", *rest], cwd=ROOT)
        return rc
    if hub_mode not in ("process", "inprocess"):
        print(f"bench dice: --hub is process, inprocess or both, not {hub_mode!r}")
        return 2
    speed = float(os.environ.get("TC_SIM_SPEED", "20"))
    where = "its own process" if hub_mode == "process" else "this process"
    print(f"load average before: {os.getloadavg()[0]:.2f}; {rolls} rolls, simulated hub in {where} "
          f"at {speed:g}x device speed, 800x480", flush=True)
    r = run(rolls, hub_mode)
    print(f"dice→screen ms (the reading shown): n={r['n']}  {line(r)}"
          f"   (target p99 ≤ {TARGET_P99_MS:.0f} ms: {'met' if r['p99'] <= TARGET_P99_MS else 'NOT met'})")
    print(f"dice→screen ms (the roll applied):  n={r['n']}  {line(r['applied'])}")
    print(f"median stages ms: pty→event {r['bridge']:.1f}  event→pump {r['marshal']:.1f}  "
          f"route+journal {r['route']:.1f}  →applied frame swapped {r['render']:.1f}")
    print(f"slowest applied rolls (games begun during the run: {r['new_games']}):")
    for i, reading, total, *parts, fresh in r["slowest"]:
        print(f"  roll #{i}: reading shown {reading:.1f} ms; applied {total:.1f} ms = pty→event {parts[0]:.1f} + event→pump {parts[1]:.1f} + "
              f"route {parts[2]:.1f} + →frame swapped {parts[3]:.1f}" + ("   (first roll of a new game)" if fresh else ""))
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
