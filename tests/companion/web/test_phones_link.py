"""The app's phones link (no Kivy): it listens only while a game is on the table, gives
each seat a URL and a QR code, re-issues a seat's code, and says who is attached."""
from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from companion.ui.phones_link import PhonesLink, PhonesModeError, lan_address, resolve_mode

from .helpers import http_status as _status, liberation_at_base


def test_modes() -> None:
    assert resolve_mode(None, {}) == "off"
    with pytest.raises(PhonesModeError):
        resolve_mode("maybe", {})
    assert isinstance(lan_address(), str)


def test_the_link_follows_the_table_and_reissues_codes() -> None:
    changes: list[int] = []
    link = PhonesLink("127.0.0.1", on_change=lambda: changes.append(1))
    assert link.url("lib") is None and link.qr_png("lib") is None and not link.listening
    t = liberation_at_base()
    link.follow(t)
    try:
        assert link.listening and link.error is None and changes
        old = link.url("lib")
        assert old == link.url("lib")  # the same code until it is re-issued
        with urllib.request.urlopen(old + "/state", timeout=10) as r:
            assert json.loads(r.read())["seat"] == "lib"
        png = link.qr_png("lib")
        assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
        new = link.reissue("lib")
        assert new != old and _status(old + "/state") == 403 and _status(new + "/state") == 200

        # a phone attaching is told to the app
        seen_before = len(changes)
        import aiohttp

        async def attach() -> frozenset[str]:
            async with aiohttp.ClientSession() as s:
                host = new.split("/")[2]
                async with s.ws_connect(new + "/ws", headers={"Origin": f"http://{host}"}) as ws:
                    await ws.receive()
                    return link.attached()

        assert asyncio.run(attach()) == {"lib"}
        assert len(changes) > seen_before
    finally:
        link.follow(None)
    assert not link.listening and not t._subs
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(new + "/state", timeout=5)
    link.close()


def test_a_server_that_cannot_start_is_an_error_not_an_exception() -> None:
    t = liberation_at_base()
    link = PhonesLink("203.0.113.7")  # TEST-NET-3: not an address of this computer
    link.follow(t)
    assert not link.listening and link.error and "cannot listen" in link.error
    assert not t._subs, "a server that never listened left no subscriber on the Table"


def test_every_interface_at_once_is_refused_with_a_reason() -> None:
    link = PhonesLink("0.0.0.0")
    link.follow(liberation_at_base())
    assert not link.listening and "every interface" in (link.error or "")
