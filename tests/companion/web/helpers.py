"""A Liberation table brought to the Liberation's secret base, and the aiohttp test client
around a PhoneServer (no pytest plugin: each test runs its own loop with asyncio.run)."""
from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
import weakref
from typing import Any, Awaitable, Callable

import pytest

pytest.importorskip("aiohttp", reason="the phones extra (aiohttp) is not installed")

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from companion import Journal, Table  # noqa: E402
from companion.web.server import PhoneServer  # noqa: E402

def http_status(url: str) -> int:
    """The HTTP status a plain GET of ``url`` gets (an error status too, not an exception)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


SEATS = [{"id": "dyn", "faction": "dynasty", "name": "Dana"}, {"id": "lib", "faction": "liberation", "name": "Lee"}]


def liberation_at_base(seed: int = 3) -> Table:
    """Dealt (the app's deck), the Dynasty's first City placed: the Liberation must place its base."""
    t = Table.create(Journal.open(":memory:"), game_id="liberation", seats=SEATS, options={"balance": 0}, seed=seed)
    while t.state.phase == "deal":
        t.roll_for_me()
    t.submit(next(iter(t.legal_actions())))
    assert t.state.phase == "base"
    return t


def journal_rows(t: Table) -> int:
    return len(t.journal.actions(t.key))


def run(test: Callable[[TestClient, PhoneServer], Awaitable[Any]], table: Table, **server_kw: Any) -> Any:
    """Serve ``table`` on loopback and run ``test(client, server)``."""
    async def main() -> Any:
        server = PhoneServer(table, **server_kw)
        client = TestClient(TestServer(server.make_app(), host="127.0.0.1"))
        await client.start_server()
        server.port = client.server.port
        try:
            return await test(client, server)
        finally:
            await client.close()

    return asyncio.run(main())


def path(url: str) -> str:
    """The path part of a seat's URL (the test client adds its own host)."""
    return "/" + url.split("/", 3)[3]


def origin(client: TestClient) -> dict[str, str]:
    return {"Origin": f"http://127.0.0.1:{client.server.port}"}


_unread: "weakref.WeakKeyDictionary[Any, list[dict[str, Any]]]" = weakref.WeakKeyDictionary()


async def receive(ws: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of ``kind``; others are kept, in order, for a later call (a state
    push may overtake the "ok" of the action that caused it)."""
    kept = _unread.setdefault(ws, [])
    for i, data in enumerate(kept):
        if data["type"] == kind:
            return kept.pop(i)
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        if msg.type.name != "TEXT":
            raise AssertionError(f"socket ended: {msg.type} {msg.data!r}")
        data = json.loads(msg.data)
        if data["type"] == kind:
            return data
        kept.append(data)
