"""zeroconf/mDNS discovery (``--phones-mdns on``): while the phones' server listens it is
advertised on its interface, found by a zeroconf browser on loopback (multicast works on
this machine's loopback), with the server's address, port and game and no token; its
host name opens a seat's page; the advertisement is withdrawn when the server stops (a
goodbye the browser sees as "removed"); off by default. Where multicast is unavailable
(no loopback multicast) the browser tests skip, saying so."""
from __future__ import annotations

import threading
import urllib.request
from typing import Any

import pytest

zeroconf = pytest.importorskip("zeroconf", reason="the mdns extra (zeroconf) is not installed")

from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf  # noqa: E402

from companion.ui.phones_link import PhonesLink, PhonesModeError, resolve_mdns  # noqa: E402
from companion.web.discovery import SERVICE_TYPE, Advert, DiscoveryError, service_name  # noqa: E402

from .helpers import liberation_at_base  # noqa: E402

WAIT = 10.0  # seconds a browser may take to hear an announcement (normally a few ms)


def _multicast_on_loopback() -> bool:
    try:
        zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    except OSError:
        return False
    zc.close()
    return True


class Watch:
    """A zeroconf browser of our service type on loopback: the names added and removed."""

    def __init__(self) -> None:
        self.zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
        self.added: set[str] = set()
        self.removed: set[str] = set()
        self.changed = threading.Condition()
        self.browser = ServiceBrowser(self.zc, SERVICE_TYPE, handlers=[self._on])

    def _on(self, zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        with self.changed:
            if state_change is ServiceStateChange.Removed:
                self.removed.add(name)
            else:
                self.added.add(name)
            self.changed.notify_all()

    def until(self, test: Any) -> bool:
        with self.changed:
            return self.changed.wait_for(test, WAIT)

    def close(self) -> None:
        self.browser.cancel()
        self.zc.close()


@pytest.fixture
def watch():
    if not _multicast_on_loopback():
        pytest.skip("no multicast on loopback here")
    w = Watch()
    try:
        yield w
    finally:
        w.close()


def test_modes_and_names() -> None:
    assert resolve_mdns(None, {}) == "off" and resolve_mdns(None, {"TC_PHONES_MDNS": "ON"}) == "on"
    with pytest.raises(PhonesModeError):
        resolve_mdns("maybe", {})
    # An instance name is one DNS label: a long title is cut, the tag kept.
    long = service_name("A game with a very long title indeed, longer than any label", "ab12cd")
    assert long.endswith("(ab12cd)." + SERVICE_TYPE) and len(long.split("." + SERVICE_TYPE)[0].encode()) <= 63


def test_the_server_is_advertised_while_it_listens_and_withdrawn_when_it_stops(watch: Watch) -> None:
    quiet = PhonesLink("127.0.0.1")  # off by default: listening all along, never advertised
    quiet.follow(liberation_at_base(seed=5))
    assert quiet.listening and quiet.advert is None
    link = PhonesLink("127.0.0.1", mdns=True)
    t = liberation_at_base()
    link.follow(t)
    try:
        assert link.listening and link.mdns_error is None and link.advert is not None
        name = link.advert.name
        assert watch.until(lambda: name in watch.added), "the browser never saw the table"
        info = watch.zc.get_service_info(SERVICE_TYPE, name, timeout=int(WAIT * 1000))
        assert info is not None
        assert info.port == link.server.port and info.parsed_addresses() == ["127.0.0.1"]
        props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
        assert props == {"game": "liberation", "path": "/p/", "v": "1"}
        # Where the table is, never how to open a seat: no token anywhere in the record.
        token = link.url("lib").rsplit("/", 1)[1]
        assert token not in repr(info) and token not in name
        # The advertised host name is one the server accepts (a page opened by that name).
        host = f"{link.advert.host}:{link.server.port}"
        req = urllib.request.Request(link.url("lib") + "/state", headers={"Host": host})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200
        # A new game on the table: the old advertisement goes, a new one comes.
        t2 = liberation_at_base(seed=4)
        link.follow(t2)
        assert watch.until(lambda: name in watch.removed)
        second = link.advert.name
        assert watch.until(lambda: second in watch.added)
    finally:
        link.follow(None)
        quiet.close()
    assert not link.listening and link.advert is None
    assert watch.until(lambda: second in watch.removed), "the advertisement outlived the server"
    # Other tables on this machine may advertise meanwhile (the suite runs in parallel;
    # the phones UI scenario advertises a Tyranny table): the Liberation tables heard are
    # exactly the advertising link's two, never the quiet one's.
    heard = {n for n in watch.added if "— Liberation (" in n}
    assert heard == {name, second}, "only the link asked to advertise was heard"


def test_an_advert_on_an_address_that_is_not_this_machines_is_an_error_not_a_crash() -> None:
    bad = Advert("192.0.2.1", 8080, "Liberation")  # TEST-NET-1: no interface of this machine
    with pytest.raises(DiscoveryError):
        bad.start()
    assert not bad.advertising
    bad.stop()  # stopping what never started is harmless
