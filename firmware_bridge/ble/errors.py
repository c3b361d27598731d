"""What the Bluetooth LE dice source raises. Like the serial source's errors: everything is
a ``BridgeError`` with a stable ``code``; input-like errors (a message that cannot be
read, a die speaking another API version, a shell that does not fit) are also
``ValueError``, waits that ran out are also ``TimeoutError``, a die that cannot be found
is also ``LookupError``.

>>> e = PixelsApiVersionError(die_api=0x200, die_compat=0x200, ours=0x100, our_compat=0x100)
>>> isinstance(e, ValueError), e.code
(True, 'api-version')
>>> print(e)
the die speaks Pixels API 0x200 (needs at least 0x200) but this app speaks 0x100: update the app
>>> print(DieNotFoundError("AA:BB:CC:DD:EE:FF", "Pixel 'Red d20'"))
Pixel 'Red d20' (AA:BB:CC:DD:EE:FF) is not advertising: it is switched off, asleep, out of range, or connected to another phone or app (a die talks to one host at a time: disconnect it there)
"""

from __future__ import annotations

from firmware_bridge.errors import BridgeError

__all__ = [
    "BleBridgeError", "BleUnavailableError", "MessageError", "DieNotFoundError",
    "ConnectTimeout", "IdentifyTimeout", "PixelsApiVersionError", "WrongDieError",
    "NotADieError", "WrongShellError", "LinkLostError", "ConnectionClosedError",
    "CommandError",
]


class BleBridgeError(BridgeError):
    """Base of the BLE source's errors."""

    code = "ble"


class BleUnavailableError(BleBridgeError, RuntimeError):
    """bleak is not installed (``pip install '.[ble]'``) or the platform has no Bluetooth
    stack bleak can use (no adapter, BlueZ not running, permission refused)."""

    code = "ble-unavailable"


class MessageError(BleBridgeError, ValueError):
    """A notification that is not a well-formed message of the die's protocol (too
    short, an impossible field). Sources drop and count these; the codecs raise them."""

    code = "bad-message"

    def __init__(self, message: str, reason: str = "malformed") -> None:
        super().__init__(message)
        self.reason = reason


class DieNotFoundError(BleBridgeError, LookupError):
    """The die does not answer a scan or a connection: switched off, asleep, out of range,
    or connected to another host (a BLE die stops advertising while connected, and takes
    one connection at a time)."""

    code = "die-not-found"

    def __init__(self, address: str, what: str = "the die") -> None:
        super().__init__(
            "%s (%s) is not advertising: it is switched off, asleep, out of range, or "
            "connected to another phone or app (a die talks to one host at a time: "
            "disconnect it there)" % (what, address))
        self.address = address


class ConnectTimeout(BleBridgeError, TimeoutError):
    """The connection did not complete in time (the die moved out of range, the adapter
    is busy, another host took the die first)."""

    code = "connect-timeout"


class IdentifyTimeout(BleBridgeError, TimeoutError):
    """Connected, but the die never answered WhoAreYou with an IAmADie."""

    code = "identify-timeout"


class PixelsApiVersionError(BleBridgeError, ValueError):
    """The die's message API and ours are not compatible (pixels-js rule: the die's API
    version must be at least our compatible version, and the die's compatible version at
    most ours). The source refuses rather than misread messages."""

    code = "api-version"

    def __init__(self, die_api: int, die_compat: int, ours: int, our_compat: int) -> None:
        if die_api < our_compat:
            fix = "update the die's firmware with the Pixels app"
        else:
            fix = "update the app"
        super().__init__("the die speaks Pixels API 0x%x (needs at least 0x%x) but this app "
                         "speaks 0x%x: %s" % (die_api, die_compat, ours, fix))
        self.die_api, self.die_compat = die_api, die_compat
        self.ours, self.our_compat = ours, our_compat


class WrongDieError(BleBridgeError):
    """Another die answered than the one this link is for (a reconnect that landed on a
    different Pixel id). The link keeps trying for its own die."""

    code = "wrong-die"

    def __init__(self, address: str, found: str, expected: str) -> None:
        super().__init__("the die at %s is %s, not %s" % (address, found, expected))
        self.found = found
        self.expected = expected


class NotADieError(BleBridgeError, LookupError):
    """Connected, but the device has none of the dice's GATT services."""

    code = "not-a-die"


class WrongShellError(BleBridgeError, ValueError):
    """A GoDice reading sits on no face of the shell it is set to but squarely on a face
    of another shell: the die is in another shell than the devices panel says."""

    code = "wrong-shell"

    def __init__(self, device: str, shell: str, looks_like: str) -> None:
        super().__init__("GoDice %s is set to the %s shell, but it reads like a %s shell: "
                         "set its shell on the devices panel" % (device, shell, looks_like))
        self.device, self.shell, self.looks_like = device, shell, looks_like


class LinkLostError(BleBridgeError):
    """A working link went down (``reason``: "disconnected", "error: ..."), as the
    ``DeviceOffline`` event said; ``last_error`` until the next attempt."""

    code = "link-lost"

    def __init__(self, device: str, reason: str) -> None:
        super().__init__("%s went offline: %s" % (device, reason))
        self.reason = reason


class ConnectionClosedError(BleBridgeError):
    """The source is closed, or the die is not connected, when a command was asked."""

    code = "closed"


class CommandError(BleBridgeError):
    """A command (blink, a battery request) could not be written to the die."""

    code = "command"
