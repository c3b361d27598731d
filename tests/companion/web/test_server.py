"""The phones' server with aiohttp's test client: pages, state, live updates, secrets."""
from __future__ import annotations

import json

from rules.liberation.actions import PlaceBase

from .helpers import journal_rows, liberation_at_base, origin, path, receive, run


def test_page_assets_and_state_need_the_token() -> None:
    t = liberation_at_base()

    async def body(client, server):
        url = path(server.url_for("lib"))
        page = await client.get(url)
        assert page.status == 200 and "phone.js" in await page.text()
        assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert (await client.get(url + "/phone.js")).status == 200
        assert (await client.get(url + "/phone.css")).status == 200
        assert (await client.get(url + "/secrets.txt")).status == 404
        for bad in ("/p/nope", "/p/nope/state", "/p/nope/phone.js", "/p/" + "x" * 500 + "/state"):
            assert (await client.get(bad)).status == 403, bad
        state = await (await client.get(url + "/state")).json()
        assert state["seat"] == "lib" and state["name"] == "Lee" and state["must"]["now"]
        mine = t.private_view("lib")["hands"]["lib"]["cards"]
        assert [c["id"] for c in state["hand"]] == mine
        assert all(" (" in c["name"] for c in state["hand"])  # the city's name, not only its id
        assert {a["kind"] for a in state["actions"]} == {"place_base"}
        assert all(a["secret"] for a in state["actions"])
        assert state["view"] == json.loads(json.dumps(t.private_view("lib")))
        dyn = await (await client.get(path(server.url_for("dyn")) + "/state")).json()
        assert dyn["seat"] == "dyn" and not dyn["must"]["now"] and dyn["must"]["waiting_for"] == ["Lee"]
        assert dyn["actions"] == [] and "cards" not in dyn["view"]["hands"]["lib"]

    run(body, t)


def test_a_secret_base_from_the_phone_goes_through_the_table_and_reaches_only_its_seat() -> None:
    t = liberation_at_base()
    rows = journal_rows(t)

    async def body(client, server):
        lib = await client.ws_connect(path(server.url_for("lib")) + "/ws", headers=origin(client))
        dyn = await client.ws_connect(path(server.url_for("dyn")) + "/ws", headers=origin(client))
        first = (await receive(lib, "state"))["payload"]
        await receive(dyn, "state")
        assert server.attached() == {"lib", "dyn"}
        choice = first["actions"][1]
        await lib.send_json({"type": "act", "id": 7, "ply": first["ply"], "action": choice["action"]})
        assert (await receive(lib, "ok"))["id"] == 7
        base = choice["action"]["card"]
        assert t.private_view("lib")["base"] == {"placed": True, "city": base}
        assert t.journal.actions(t.key)[-1].source == "phone"
        after_lib = (await receive(lib, "state"))["payload"]
        after_dyn = (await receive(dyn, "state"))["payload"]
        assert after_lib["view"]["base"]["city"] == base and after_lib["ply"] == first["ply"] + 1
        assert after_dyn["view"]["base"] == {"placed": True} and after_dyn["must"]["now"]
        assert base not in json.dumps(after_dyn["view"]["hands"]) and base not in json.dumps(after_dyn["view"]["log"])
        await lib.close()
        await dyn.close()

    run(body, t)
    assert journal_rows(t) == rows + 1


def test_a_lost_connection_catches_up_on_reconnect() -> None:
    t = liberation_at_base()

    async def body(client, server):
        url = path(server.url_for("dyn")) + "/ws"
        ws = await client.ws_connect(url, headers=origin(client))
        before = (await receive(ws, "state"))["payload"]["ply"]
        await ws.close()
        t.submit(PlaceBase("lib", card=t.private_view("lib")["hands"]["lib"]["cards"][0]))  # while the phone was away
        ws = await client.ws_connect(url, headers=origin(client))
        now = (await receive(ws, "state"))["payload"]
        assert now["ply"] == before + 1 and now["must"]["now"]
        await ws.send_json({"type": "ping", "id": "p"})
        assert (await receive(ws, "pong"))["id"] == "p"
        await ws.close()

    run(body, t)


def test_host_and_origin_are_checked() -> None:
    t = liberation_at_base()

    async def body(client, server):
        url = path(server.url_for("lib"))
        # DNS rebinding: a page of another name that resolves to this address
        assert (await client.get(url + "/state", headers={"Host": "evil.example:80"})).status == 403
        assert (await client.get(url + "/state", headers={"Origin": "http://evil.example"})).status == 403
        for headers in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"}):
            r = await client.get(url + "/ws", headers={**headers, "Connection": "Upgrade", "Upgrade": "websocket",
                                                       "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
            assert r.status == 403, headers
        assert server.attached() == frozenset()

    run(body, t)


def test_the_server_listens_only_between_start_and_stop() -> None:
    import urllib.error
    import urllib.request

    from companion.web.server import PhoneServer

    t = liberation_at_base()
    s = PhoneServer(t)
    s.start()
    url = s.url_for("lib") + "/state"
    with urllib.request.urlopen(url, timeout=10) as r:
        assert json.loads(r.read())["seat"] == "lib"
    s.stop()
    assert not s.listening
    try:
        urllib.request.urlopen(url, timeout=5)
    except urllib.error.URLError as e:
        assert isinstance(e.reason, ConnectionRefusedError)
    else:
        raise AssertionError("still listening after stop()")
