"""The root of the exceptions ``firmware_bridge`` raises about devices (gpiozero-style:
one base class a caller can catch for "the hardware layer said no").

>>> from firmware_bridge.serial.errors import HandshakeTimeout
>>> issubclass(HandshakeTimeout, BridgeError)
True
>>> from firmware_bridge.gpio import GpioError, PinMapError
>>> issubclass(GpioError, BridgeError) and issubclass(PinMapError, BridgeError)
True
"""

from __future__ import annotations


class BridgeError(Exception):
    """Something about a physical input device went wrong. ``code`` is a stable short
    string for logs and tests ("port-busy", "protocol-version", ...)."""

    code: str = "bridge"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class BridgeValueError(BridgeError, ValueError):
    """A value the bridge cannot take (a frame's bytes, a calibration step): a
    :class:`BridgeError` that stays a ``ValueError`` for callers that catch that. The
    modules the hub's firmware shares (``firmware_bridge/shared``) derive from it on
    CPython and from ``ValueError`` alone on the board, which has no ``firmware_bridge``."""
