"""A simultaneous secret round (the kernel's secret duel) committed from two phones:
each choice goes through the Table's secret desk, neither phone learns the other's choice
before the reveal, and both see the reveal together."""
from __future__ import annotations

import json

from companion import Journal, Table

from ..table_helpers import seats_for
from .helpers import origin, path, receive, run


def duel() -> Table:
    return Table.create(Journal.open(":memory:"), game_id="mini-duel", seats=seats_for("mini-duel"), seed=1)


async def _state_at(ws, ply: int) -> dict:
    """The first pushed state at ``ply`` (earlier pushes may still be queued)."""
    while True:
        p = (await receive(ws, "state"))["payload"]
        if p["ply"] >= ply:
            return p


def _commit_red_then_look_as_blue(choice: str) -> tuple[str, dict, dict]:
    t = duel()

    async def body(client, server):
        red = await client.ws_connect(path(server.url_for("red-1")) + "/ws", headers=origin(client))
        blue = await client.ws_connect(path(server.url_for("blue-2")) + "/ws", headers=origin(client))
        r0 = (await receive(red, "state"))["payload"]
        b0 = (await receive(blue, "state"))["payload"]
        assert r0["must"]["commit"] and b0["must"]["commit"]
        pick = next(a for a in r0["actions"] if a["action"].get("choice") == choice)
        assert pick["secret"]
        await red.send_json({"type": "act", "id": 1, "ply": r0["ply"], "action": pick["action"]})
        await receive(red, "ok")
        b1 = (await receive(blue, "state"))["payload"]
        text = await (await client.get(path(server.url_for("blue-2")) + "/state")).text()
        # Blue commits too: the round is revealed, and both phones see it.
        bpick = b1["actions"][0]
        await blue.send_json({"type": "act", "id": 2, "ply": b1["ply"], "action": bpick["action"]})
        await receive(blue, "ok")
        r2 = await _state_at(red, b1["ply"] + 1)
        b2 = await _state_at(blue, b1["ply"] + 1)
        await red.close()
        await blue.close()
        return text, r2, b2

    text, r2, b2 = run(body, t)
    assert [e.source for e in t.journal.actions(t.key)] == ["phone", "phone"]
    return text, r2, b2


def test_a_phone_commits_and_the_other_phone_cannot_tell_what() -> None:
    three, r2, b2 = _commit_red_then_look_as_blue("three")
    one, _, _ = _commit_red_then_look_as_blue("one")
    assert three == one, "blue's page differs with red's secret choice before the reveal"
    assert json.loads(three)["must"]["commit"]
    # after both committed, the choices are revealed to both phones alike
    assert r2["view"]["log"] == b2["view"]["log"] and "three" in json.dumps(b2["view"])
