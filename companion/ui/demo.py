"""Demo mode: the simulated dice hub on a pseudo-terminal, connected through the real
serial bridge exactly as a hub on USB would be, and a new Tyranny game ready to play.

The simulated hub (``firmware_bridge.simulated.hub.SimulatedHub``) speaks the real
protocol on the pty's far end; :class:`SimulatedHubLink` owns it and a
:class:`~companion.ui.links.HubLink` reading the near end. "Throw the simulated die"
(the dice tray shows it in demo mode) asks the hub to roll, and the roll comes back as
bytes on the pty like any other.
"""
from __future__ import annotations

import logging
import random
from typing import Any

from .links import HubLink
from .presenters.devices import DevicesModel

log = logging.getLogger("companion.ui.demo")

DEMO_DEVICE = "sim"
DEMO_SEATS = [
    {"id": "cops-1", "faction": "cops", "name": "Ann"},
    {"id": "criminals-1", "faction": "criminals", "name": "Bob"},
]


class SimulatedHubLink:
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

    def disconnect(self) -> None:
        self.link.disconnect()

    def counters(self) -> Any:
        return self.link.counters()

    def throw(self, die: int = 0, value: int | None = None, crooked: bool | None = None) -> Any:
        """Throw a simulated die (the roller decides, or ``value`` 1..6); the result
        arrives over the pty like a real hub's."""
        return self.hub.roll(die, value=value, crooked=crooked)

    def close(self) -> None:
        self.link.disconnect()
        self.hub.stop()


def start_demo(app: Any, seed: int | None = None, roller: Any = None, speed: float = 1.0) -> Any:
    """Connect the simulated hub and open a new Tyranny game. Returns the link (or None
    when the simulated hub cannot run here: the game still opens, and the devices panel
    says why)."""
    if app.devices is None:
        app.devices = DevicesModel()
    link = None
    try:
        link = SimulatedHubLink(app.post_event, seed=seed, roller=roller, speed=speed)
        app.devices.add_link(DEMO_DEVICE, link)
        app.add_closer(link.close)
        link.connect()
    except Exception as e:  # e.g. no pty on this platform
        log.exception("simulated hub unavailable")
        app.journal_error = f"Demo: the simulated dice hub cannot run here ({e}); manual entry and the app's roller still work."
    app.demo_link = link
    app.new_game("tyranny", DEMO_SEATS, {}, seed=seed if seed is not None else random.randrange(1 << 30))
    return link
