"""Electronic dice people already own, Pixels and GoDice, over Bluetooth LE: the same
typed events as the serial hub (``DieRolled``, ``DieMotion``, ``ThrowsMissed``,
``DeviceOnline``/``DeviceOffline``, ``BatteryLevel``), from bleak's asyncio loop on a thread
of its own.

    from firmware_bridge.ble import BleDiceSource

    source = BleDiceSource(on_event=handle).start()
    for die in source.scan(5.0):          # FoundDie(address, kind, name, die_type, ...)
        ...
    px = source.add_pixel(address)       # or source.add_godice(address, shell="D20")
    source.blink(px); source.status(px); source.counters(px)
    source.close()

The codecs (``pixels``, ``godice``) and the session rules (``session``) are pure and need
no bleak; ``BleDiceSource`` needs it when it first connects or scans
(``pip install '.[ble]'``); ``fake`` (fake dice behind bleak backends) needs it to import.
See firmware_bridge/README.md, "Bluetooth LE dice".
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from firmware_bridge.ble.errors import (BleBridgeError, BleUnavailableError, CommandError,
                                        ConnectionClosedError, ConnectTimeout, DieNotFoundError,
                                        IdentifyTimeout, LinkLostError, MessageError,
                                        NotADieError, PixelsApiVersionError, WrongDieError,
                                        WrongShellError)
from firmware_bridge.ble.factory import BleakFactory, BleFactory, bleak_available

# The source and the sessions (and, through them, the bridge's events, the codecs and the
# serial backoff) are imported on first use (PEP 562): the app asks this package whether
# Bluetooth dice can run (``bleak_available``) and makes its demo radio before its first
# frame, and neither needs them.
_LAZY = {
    "BleCounters": "session", "DieStatus": "session",
    "BleDiceSource": "source", "FoundDie": "source", "classify": "source",
}

__all__ = [
    "BleDiceSource", "FoundDie", "DieStatus", "BleCounters", "BleFactory", "BleakFactory",
    "bleak_available", "classify", "BleBridgeError", "BleUnavailableError", "MessageError",
    "DieNotFoundError", "ConnectTimeout", "IdentifyTimeout", "PixelsApiVersionError",
    "WrongDieError", "NotADieError", "WrongShellError", "LinkLostError",
    "ConnectionClosedError", "CommandError",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what type checkers and IDEs see
    from firmware_bridge.ble.session import BleCounters, DieStatus
    from firmware_bridge.ble.source import BleDiceSource, FoundDie, classify
