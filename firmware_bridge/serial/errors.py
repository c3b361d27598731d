"""What the serial source raises. Everything is a ``BridgeError``; input-like errors
(a hub speaking another protocol major) are also ``ValueError``, waits that ran out are
also ``TimeoutError``, a port that cannot be opened is also ``OSError``, so callers can
catch at whichever level suits them.

>>> e = ProtocolVersionError(hub_major=2, host_major=1)
>>> isinstance(e, ValueError), e.code
(True, 'protocol-version')
>>> print(e)
the hub speaks protocol 2.x but this bridge speaks 1.x: update the hub's firmware (hardware/deploy.py) or the app
"""

from __future__ import annotations

from firmware_bridge.errors import BridgeError

__all__ = [
    "BridgeError", "SerialBridgeError", "PortOpenError", "PortBusyError", "HubNotFoundError",
    "HandshakeError", "HandshakeTimeout", "ProtocolVersionError", "WrongHubError",
    "LinkLostError", "ConnectionClosedError", "CommandTimeout",
]


class SerialBridgeError(BridgeError):
    """Base of the serial source's errors."""

    code = "serial"


class PortOpenError(SerialBridgeError, OSError):
    """The port could not be opened: it does not exist (unplugged), we lack permission
    (on Linux: join the ``dialout`` group), or the URL is not one pyserial knows."""

    code = "port-open"

    def __init__(self, url: str, why: str) -> None:
        super().__init__("cannot open %s: %s" % (url, why))
        self.url = url


class PortBusyError(PortOpenError):
    """Another program holds the port exclusively (a second bridge, mpremote, a serial
    terminal): close it first."""

    code = "port-busy"


class HubNotFoundError(SerialBridgeError, LookupError):
    """Discovery found no hub matching what was asked for (serial number, VID:PID)."""

    code = "hub-not-found"


class HandshakeError(SerialBridgeError):
    """The device on the port did not complete HELLO → IDENT as a dice hub should."""

    code = "handshake"


class HandshakeTimeout(HandshakeError, TimeoutError):
    """No IDENT came back: not a hub, a hub in its REPL (safe mode, a crash), or a hub
    still booting."""

    code = "handshake-timeout"


class ProtocolVersionError(HandshakeError, ValueError):
    """The hub speaks another protocol major than this bridge. Majors are incompatible
    by definition (REFERENCE §1): the bridge refuses rather than misread frames.
    When every frame was of another major, so even the IDENT could not be read,
    ``hub_major`` is the major the frames showed (a major-1 hub's frames are recognised
    by their old framing), or None if not even that was readable."""

    code = "protocol-version"

    def __init__(self, hub_major: int | None, host_major: int) -> None:
        theirs = "another protocol" if hub_major is None else "protocol %d.x" % hub_major
        super().__init__(
            "the hub speaks %s but this bridge speaks %d.x: update the hub's "
            "firmware (hardware/deploy.py) or the app" % (theirs, host_major))
        self.hub_major = hub_major
        self.host_major = host_major


class WrongHubError(HandshakeError):
    """Another board answered on the port than the one this connection is for (device
    paths are reused: a different hub plugged in, a recycled pty number). The
    connection keeps trying for its own hub."""

    code = "wrong-hub"

    def __init__(self, url: str, found: bytes, expected: bytes) -> None:
        super().__init__("the hub on %s is board %s, not %s" % (url, found.hex(), expected.hex()))
        self.found = found
        self.expected = expected


class LinkLostError(SerialBridgeError):
    """A working link went down (``reason``: "unplugged", "silent", "error: ..."), as
    the ``DeviceOffline`` event said; ``HubConnection.last_error`` until the next
    attempt."""

    code = "link-lost"

    def __init__(self, device: str, reason: str) -> None:
        super().__init__("%s went offline: %s" % (device, reason))
        self.reason = reason


class ConnectionClosedError(SerialBridgeError):
    """The connection was closed (or never started) when a command was asked of it."""

    code = "closed"


class CommandTimeout(SerialBridgeError, TimeoutError):
    """A command got no ACK after its retries (REFERENCE §1: 3 tries at 200 ms)."""

    code = "command-timeout"
