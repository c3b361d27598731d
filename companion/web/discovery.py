"""Optional zeroconf/mDNS discovery: the table's phones' server advertised on the local
network while it listens (``--phones-mdns on``; the ``mdns`` extra, ``zeroconf``).

The advertisement says where the table is, never how to open a seat: its service is
``_tabletop._tcp`` (the companion's own type, so that generic web-service browsers do not
list a server whose every page needs a seat's token), its TXT record the game and the
page's path prefix, and its host name ``tabletop-XXXXXX.local`` (a name the server
accepts in the ``Host`` header, so a page opened by that name works). Tokens stay in the
QR codes only: anyone on the network can read an advertisement.

>>> service_name("Castle Run", "ab12cd")
'Tabletop Companion — Castle Run (ab12cd)._tabletop._tcp.local.'
>>> host_name("ab12cd")
'tabletop-ab12cd.local'
"""
from __future__ import annotations

import ipaddress
import logging
import secrets
from typing import Any

from ..errors import CompanionError

log = logging.getLogger("companion.web.discovery")

SERVICE_TYPE = "_tabletop._tcp.local."
MAX_INSTANCE = 63  # DNS-SD: an instance name is one DNS label, at most 63 bytes


class DiscoveryError(CompanionError, OSError):
    """The advertisement could not be made (no ``zeroconf``, an interface without multicast)."""


def service_name(title: str, tag: str, service_type: str = SERVICE_TYPE) -> str:
    """The advertised instance: the app and the game, with a tag telling two tables apart."""
    instance = f"Tabletop Companion — {title} ({tag})"
    while len(instance.encode("utf-8")) > MAX_INSTANCE:
        title = title[:-1]
        instance = f"Tabletop Companion — {title}… ({tag})"
    return f"{instance}.{service_type}"


def host_name(tag: str) -> str:
    """The table's mDNS host name (without the final dot: as a ``Host`` header names it)."""
    return f"tabletop-{tag}.local"


def new_tag() -> str:
    return secrets.token_hex(3)


class Advert:
    """One advertisement of a server listening on ``address``:``port``; :meth:`start`
    registers it (announced on ``address``'s interface only), :meth:`stop` unregisters it
    (a goodbye packet, so browsers drop it at once) and closes zeroconf.

    ``tag`` names the table (the host name and the instance's suffix): give the same one
    to the server's accepted names (:attr:`host`)."""

    def __init__(self, address: str, port: int, title: str, *, tag: str | None = None,
                 service_type: str = SERVICE_TYPE, game: str = "") -> None:
        self.address = address
        self.port = port
        self.tag = tag or new_tag()
        self.service_type = service_type
        self.name = service_name(title, self.tag, service_type)
        self.host = host_name(self.tag)
        self.game = game
        self._zc: Any = None
        self._info: Any = None

    @property
    def advertising(self) -> bool:
        return self._info is not None

    def start(self) -> None:
        if self._info is not None:
            return
        try:
            from zeroconf import IPVersion, ServiceInfo, Zeroconf
        except ImportError as e:
            raise DiscoveryError(f"mDNS discovery needs the 'mdns' extra (zeroconf): {e}") from e
        ip = ipaddress.ip_address(self.address)
        info = ServiceInfo(self.service_type, self.name, addresses=[ip.packed], port=self.port,
                           properties={"game": self.game, "path": "/p/", "v": "1"}, server=self.host + ".")
        try:
            zc = Zeroconf(interfaces=[self.address],
                          ip_version=IPVersion.V6Only if ip.version == 6 else IPVersion.V4Only)
        except OSError as e:
            raise DiscoveryError(f"mDNS discovery cannot use {self.address}: {e}") from e
        try:
            zc.register_service(info, allow_name_change=True)
        except Exception as e:  # a name conflict it could not resolve, a socket error
            zc.close()
            raise DiscoveryError(f"mDNS discovery could not advertise the table: {e}") from e
        self.name = info.name  # allow_name_change may have added " (2)"
        self._zc, self._info = zc, info

    def stop(self) -> None:
        zc, info = self._zc, self._info
        self._zc = self._info = None
        if zc is None:
            return
        try:
            if info is not None:
                zc.unregister_service(info)
        except Exception:  # the network went away: closing is all that is left to do
            log.exception("mDNS: unregistering failed")
        finally:
            zc.close()
