"""Dice hubs on USB serial (pyserial): discovery by VID:PID and serial number, and
``HubConnection``, which reads one hub on its own thread and delivers typed events
(``firmware_bridge.events``) with handshake, watchdog, reconnect, resync and
de-duplication. See ``connection.py`` for the life of a connection.

    from firmware_bridge.serial import HubConnection, find_hub

    hub = HubConnection(find_hub().device, on_event=handle).connect()
    ...
    hub.close()
"""

from firmware_bridge.errors import BridgeError
from firmware_bridge.serial.backoff import Backoff
from firmware_bridge.serial.connection import BAUDRATE, SILENCE_S, HubConnection
from firmware_bridge.serial.counters import Counters
from firmware_bridge.serial.discovery import (HubId, PortInfo, find_hub, find_hubs, hub_ids,
                                              list_ports)
from firmware_bridge.serial.errors import (CommandTimeout, ConnectionClosedError,
                                           HandshakeError, HandshakeTimeout, HubNotFoundError,
                                           LinkLostError,
                                           PortBusyError, PortOpenError, ProtocolVersionError,
                                           SerialBridgeError, WrongHubError)
from firmware_bridge.serial.session import HubSession

__all__ = [
    "HubConnection", "HubSession", "Counters", "Backoff", "HubId", "PortInfo", "find_hub",
    "find_hubs", "hub_ids", "list_ports", "BridgeError", "SerialBridgeError", "PortOpenError",
    "PortBusyError", "HubNotFoundError", "HandshakeError", "HandshakeTimeout",
    "ProtocolVersionError", "WrongHubError", "LinkLostError", "ConnectionClosedError", "CommandTimeout",
    "SILENCE_S", "BAUDRATE",
]
