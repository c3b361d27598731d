"""Links between the app and its input devices, as the devices panel drives them
(connect, disconnect, counters). No Kivy here: events go to the ``on_event`` callable the
app gives (``app.post_event``, which marshals them to the UI thread)."""
from __future__ import annotations

from typing import Any, Callable

OnEvent = Callable[[Any], None]


class HubLink:
    """A dice hub on a serial port (or a pty, or ``loop://``), read by the bridge's
    HubConnection on its own thread. ``url`` may be a function returning the port (a hub
    found again by serial number after a replug)."""

    def __init__(self, url: str | Callable[[], str], device: str, on_event: OnEvent, **options: Any) -> None:
        self.url = url
        self.device = device
        self.on_event = on_event
        self.options = options
        self.connection: Any = None

    def connect(self) -> None:
        from firmware_bridge.serial import HubConnection

        if self.connection is None:
            self.connection = HubConnection(self.url, on_event=self.on_event, device=self.device, **self.options).start()

    def disconnect(self) -> None:
        conn, self.connection = self.connection, None
        if conn is not None:
            conn.close()

    def counters(self) -> Any:
        if self.connection is None:
            return "not connected"
        return self.connection.counters()

    @property
    def is_online(self) -> bool:
        return bool(self.connection is not None and self.connection.is_online)

    def close(self) -> None:
        self.disconnect()


def scan_hubs(on_event: OnEvent, known: set[str]) -> list[HubLink]:
    """Links for the hubs plugged in (found by USB VID:PID) that are not known yet; each
    is named ``hub<N>`` and found again by its serial number after a replug."""
    from firmware_bridge.serial import find_hubs
    from firmware_bridge.serial.discovery import find_hub

    links = []
    n = len(known)
    for port in find_hubs():
        n += 1
        sn = port.serial_number
        url: Any = (lambda sn=sn: find_hub(sn).device) if sn else port.device
        name = f"hub{n}"
        while name in known:
            n += 1
            name = f"hub{n}"
        known.add(name)
        links.append(HubLink(url, name, on_event))
    return links
