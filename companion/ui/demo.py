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

    def __init__(self, on_event: Any, seed: int | None = None, dice: int = 1, roller: Any = None) -> None:
        from firmware_bridge.simulated.hub import SimulatedHub

        self.device = DEMO_DEVICE
        kw: dict[str, Any] = {"dice": dice, "seed": seed}
        if roller is not None:
            kw["roller"] = roller
        self.hub = SimulatedHub(**kw)
        self.path = self.hub.open_pty()
        self.link = HubLink(self.path, DEMO_DEVICE, on_event)

    def connect(self) -> None:
        self.link.connect()

    def disconnect(self) -> None:
        self.link.disconnect()

    def counters(self) -> Any:
        return self.link.counters()

    def throw(self, die: int = 0, face: int | None = None) -> None:
        """Roll a simulated die (a random face, or ``face`` 1..6)."""
        self.hub.roll(die, face=None if face is None else face - 1)

    def close(self) -> None:
        self.link.disconnect()
        self.hub.close()


def start_demo(app: Any, seed: int | None = None, roller: Any = None) -> Any:
    """Connect the simulated hub and open a new Tyranny game. Returns the link (or None
    when the simulated hub cannot run here: the game still opens, and the devices panel
    says why)."""
    if app.devices is None:
        app.devices = DevicesModel()
    link = None
    try:
        link = SimulatedHubLink(app.post_event, seed=seed, roller=roller)
        app.devices.add_link(DEMO_DEVICE, link)
        app.add_closer(link.close)
        link.connect()
    except Exception as e:  # e.g. no pty on this platform
        log.exception("simulated hub unavailable")
        app.journal_error = f"Demo: the simulated dice hub cannot run here ({e}); manual entry and the app's roller still work."
    app.demo_link = link
    app.new_game("tyranny", DEMO_SEATS, {}, seed=seed if seed is not None else random.randrange(1 << 30))
    return link
