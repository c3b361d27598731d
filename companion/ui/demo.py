"""Demo mode: the simulated dice hub on a pseudo-terminal, connected through the real
serial bridge exactly as a hub on USB would be, and a new Tyranny game ready to play.

The simulated hub (``firmware_bridge.simulated.hub.SimulatedHub``) speaks the real
protocol on the pty's far end. By default it runs in its own process
(:class:`HubProcessLink`: ``python -m firmware_bridge simulate --control``), as a real hub
is a separate device: its detector loop then takes nothing from the UI thread (in this
process it competed for the GIL and delayed every frame), and the app's first frame does
not wait for it to boot. :class:`SimulatedHubLink` keeps it in this process (a custom
``roller``, or no subprocesses). Either owns a :class:`~companion.ui.links.HubLink`
reading the near end. "Throw the simulated die" (the dice tray shows it in demo mode) asks
the hub to roll, and the roll comes back as bytes on the pty like any other.

Next to the hub, ``ble=True`` (``--ble demo``, the default with ``--demo`` when bleak is
installed) adds a simulated Pixel and a simulated GoDice on the fake radio of
``firmware_bridge.ble.fake``, speaking the real byte protocols through bleak's front end
and the real ``BleDiceSource`` (:func:`companion.ui.ble_link.start_ble`): both are paired
once the table is on screen, and the devices panel's Bluetooth card throws them, tilts
them, or turns them by hand.
"""
from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from rules.plugins import GamePlugin
from rules.registry import demo_game

from ..errors import CompanionError
from ..journal import JournalError
from .links import HubLink
from .frames import after_first_frame
from .presenters.devices import DevicesModel

log = logging.getLogger("companion.ui.demo")

DEMO_DEVICE = "sim"


def demo_seats(game: GamePlugin) -> list[dict[str, Any]]:
    """The seats the demo game starts with: its card's, else the fewest it allows, named
    Player 1, Player 2…, factions alternating."""
    seats = (game.demo or {}).get("seats")
    if seats:
        return [dict(s) for s in seats]
    factions = game.factions or ("player",)
    return [{"id": f"{factions[i % len(factions)]}-{i + 1}", "faction": factions[i % len(factions)], "name": f"Player {i + 1}"}
            for i in range(game.min_seats)]


class _DemoLink:
    """What the devices panel asks of either demo hub, answered by its bridge link."""

    # The dice tray calls its dice "the demo die" (not by the hub's device id).
    simulated = True

    link: HubLink

    def disconnect(self) -> None:
        self.link.disconnect()

    def counters(self) -> Any:
        return self.link.counters()


class SimulatedHubLink(_DemoLink):
    """The simulated hub and the bridge's connection to it, as one device of the panel."""

    def __init__(self, on_event: Any, seed: int | None = None, dice: int = 1, roller: Any = None,
                 speed: float = 1.0) -> None:
        from firmware_bridge.simulated.hub import SimulatedHub

        self.device = DEMO_DEVICE
        # Tyranny uses one six-sided die (Contents); the hub runs the firmware's own logic.
        self.hub = SimulatedHub(dice=[6] * dice, seed=seed, roller=roller, speed=speed).start()
        # ``port`` is a stable path to the current pty (it survives an unplug/replug).
        self.link = HubLink(self.hub.port, DEMO_DEVICE, on_event)

    def connect(self) -> None:
        self.link.connect()

    def throw(self, die: int = 0, value: int | None = None, crooked: bool | None = None) -> Any:
        """Throw a simulated die (the roller decides, or ``value`` 1..6); the result
        arrives over the pty like a real hub's."""
        return self.hub.roll(die, value=value, crooked=crooked)

    def close(self) -> None:
        self.link.disconnect()
        self.hub.stop()


class HubProcessError(CompanionError, RuntimeError):
    """The simulated hub's process did not say where its port is."""


class HubProcessLink(_DemoLink):
    """The simulated hub in a child process, driven through its stdin (``--control``),
    and the bridge's connection to its pty. ``on_written(die, face_index, t_monotonic)``
    hears when a result frame is on the pty (the hub's own report, on the system-wide
    monotonic clock; benchmarks start there)."""

    PORT_TIMEOUT_S = 20.0

    def __init__(self, on_event: Any, seed: int | None = None, dice: int = 1, speed: float = 1.0,
                 on_written: Callable[[int, int, float], None] | None = None) -> None:
        self.device = DEMO_DEVICE
        self.on_written = on_written
        self.port: str | None = None
        self._port_known = threading.Event()
        cmd = [sys.executable, "-m", "firmware_bridge", "simulate", "--control",
               "--dice", str(dice), "--speed", repr(float(speed))]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])  # where firmware_bridge is
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._cmd, self._env = cmd, env
        self.proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        # The connection asks for the port on its own thread, so nothing here waits for
        # the child to boot.
        self.link = HubLink(self._wait_port, DEMO_DEVICE, on_event)

    def start(self) -> None:
        """Start the hub's process (once). ``connect`` does it: the demo connects after
        the table's first frame, so the child's start-up (a Python interpreter, the
        firmware's code) does not take a core from the app's first frame on a 2-core
        board."""
        with self._lock:
            if self.proc is not None:
                return
            self.proc = subprocess.Popen(self._cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1, env=self._env)
        threading.Thread(target=self._read, name="sim-hub-output", daemon=True).start()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("simulated hub on ") and self.port is None:
                self.port = line.split()[3]
                self._port_known.set()
            elif line.startswith("written ") and self.on_written is not None:
                f = dict(w.partition("=")[::2] for w in line.split()[1:])
                self.on_written(int(f["die"]), int(f["face"]), int(f["t_ns"]) / 1e9)
            elif line.startswith("error"):
                log.warning("simulated hub: %s", line.strip())
        self._port_known.set()  # the child is gone: nobody waits for a port any more

    def _wait_port(self) -> str:
        if not self._port_known.wait(self.PORT_TIMEOUT_S) or self.port is None:
            code = self.proc.poll() if self.proc is not None else "not started"
            raise HubProcessError(f"the simulated hub's process gave no port (exit code {code})")
        return self.port

    def connect(self) -> None:
        self.start()
        self.link.connect()

    def throw(self, die: int = 0, value: int | None = None, crooked: bool | None = None) -> None:
        """Throw a simulated die (its roller decides, or ``value`` 1..6); the result
        arrives over the pty like a real hub's."""
        words = ["roll", str(die)] + ([str(value)] if value is not None else []) + (["crooked"] if crooked else [])
        self._send(" ".join(words))

    def _send(self, line: str) -> None:
        with self._lock:
            proc = self.proc
            if proc is None or proc.stdin is None or proc.stdin.closed:  # not started yet, or closed
                log.warning("simulated hub: cannot send %r (not started)", line)
                return
            try:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
            except OSError:  # the child has gone (a broken pipe)
                log.warning("simulated hub: cannot send %r (exit code %s)", line, proc.poll())

    def close(self) -> None:
        self.link.disconnect()
        with self._lock:
            proc = self.proc
            if proc is None:
                return
            try:
                if proc.stdin is not None:
                    proc.stdin.close()  # end of input: the child stops its hub and exits
            except OSError:
                pass
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_demo(app: Any, seed: int | None = None, roller: Any = None, speed: float = 1.0,
               in_process: bool | None = None, ble: bool = False) -> Any:
    """Connect the simulated hub and open the game in progress played last (any game:
    :meth:`~companion.journal.Journal.last_in_play`), or else a new demo game. Returns the link (or None
    when the simulated hub cannot run here: the game still opens, and the devices panel
    says why). The hub runs in a child process unless ``in_process`` (the default when a
    ``roller`` object is given, which cannot cross to another process)."""
    if app.devices is None:
        app.devices = DevicesModel()
    if in_process is None:
        in_process = roller is not None or os.environ.get("TC_DEMO_HUB") == "inprocess"
    link: Any = None
    try:
        if in_process:
            link = SimulatedHubLink(app.post_event, seed=seed, roller=roller, speed=speed)
        else:
            link = HubProcessLink(app.post_event, seed=seed, speed=speed)
        app.devices.add_link(DEMO_DEVICE, link)
        app.add_closer(link.close)
        # The bridge (pyserial, its reader thread) starts once the table is on screen:
        # the first frame does not wait for it, and the hub boots meanwhile.
        after_first_frame(link.connect)
    except Exception as e:  # e.g. no pty on this platform
        log.exception("simulated hub unavailable")
        app.journal_error = f"Demo: the simulated dice hub cannot run here ({e}); manual entry and the app's roller still work."
    app.demo_link = link
    if ble:
        from .ble_link import start_ble

        start_ble(app, "demo")
    # After a crash (or a plain quit) the table carries on with the game it was playing,
    # whichever game that is: only a journal with no game in progress starts the demo's
    # game, the first of the catalogue whose plugin card offers a demo
    # (rules.registry.demo_game), with the seats its card gives. Home lists the others.
    last = app.journal.last_in_play() if app.journal is not None else None
    if last is not None:
        try:
            app.resume_game(last.key)
        except JournalError as e:  # in use in another window, damaged: home says so and lists the rest
            log.warning("demo: cannot reopen game %s: %s", last.key, e)
            app.journal_error = str(e)
        except Exception:  # a record that does not replay: never a raw exception on screen
            log.exception("demo: reopening game %s", last.key)
            from .presenters.home import RESUME_FAILED

            app.journal_error = RESUME_FAILED
        return link
    game = demo_game()
    app.new_game(game.id, demo_seats(game), {}, seed=seed if seed is not None else random.randrange(1 << 30))
    return link
