"""Phones: how soon an update reaches every phone of a 6-seat Outrage! table on loopback.

Six phones attach to the phones' server (companion/web) over real WebSockets. Turn after
turn, the seat that must act takes the first action its page offers, from its phone; a roll
or a draw is made at the table (the app's roller). For every change, the latency is the
time from the action leaving (the phone's send, or the table's call) until a phone has
the state at the new ply; every phone, every change. Reported: p50, p99 and max, and the
ratio of p99 to a baseline measured in the same run: a WebSocket ping-pong on the same
server (what loopback and aiohttp alone cost). The issue's target is p99 under 100 ms.

Run: ``python -m benchmarks phones`` (``--quick``: fewer changes).
"""
from __future__ import annotations

import asyncio
import json
import statistics
import time
from typing import Any

SEATS = [{"id": f"{c}-{i + 1}", "faction": c, "name": f"Player {i + 1}"}
         for i, c in enumerate(["red", "blue", "green", "yellow", "white", "black"])]


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


async def _run(changes: int) -> dict[str, Any]:
    import aiohttp

    from companion import Journal, Table
    from companion.web.server import PhoneServer

    # Six seats: the table brings its own pieces and coins for the 5th and 6th (RULINGS S-04).
    table = Table.create(Journal.open(":memory:"), game_id="outrage", seats=SEATS, options={"own_pieces": True}, seed=7)
    server = PhoneServer(table)
    server.start()
    loop = asyncio.get_running_loop()
    try:
        async with aiohttp.ClientSession() as session:
            socks: dict[str, Any] = {}
            latest: dict[str, dict[str, Any]] = {}
            arrived: dict[str, asyncio.Event] = {}
            for s in SEATS:
                url = server.url_for(s["id"])
                host = url.split("/")[2]
                socks[s["id"]] = await session.ws_connect(url + "/ws", headers={"Origin": f"http://{host}"})
                arrived[s["id"]] = asyncio.Event()

            stamps: dict[str, list[tuple[int, float]]] = {s["id"]: [] for s in SEATS}

            async def reader(seat: str) -> None:
                async for msg in socks[seat]:
                    data = json.loads(msg.data)
                    if data["type"] == "state":
                        latest[seat] = data["payload"]
                        stamps[seat].append((data["payload"]["ply"], time.perf_counter()))
                        arrived[seat].set()
                    elif data["type"] == "pong":
                        stamps[seat].append((-1, time.perf_counter()))
                        arrived[seat].set()

            readers = [asyncio.create_task(reader(s["id"])) for s in SEATS]
            while len(latest) < len(SEATS):
                await asyncio.sleep(0.01)

            async def until_all(ply: int) -> None:
                while not all(latest[s]["ply"] >= ply for s in latest):
                    await asyncio.sleep(0.0005)

            # Baseline: a ping-pong on one socket, on this server.
            base: list[float] = []
            seat0 = SEATS[0]["id"]
            for _ in range(50):
                n = len(stamps[seat0])
                t0 = time.perf_counter()
                await socks[seat0].send_json({"type": "ping"})
                while len(stamps[seat0]) == n or stamps[seat0][-1][0] != -1:
                    await asyncio.sleep(0.0002)
                base.append(stamps[seat0][-1][1] - t0)

            lat: list[float] = []
            done = by_phone = 0
            while done < changes and not table.is_over():
                ply = table.ply
                actor = next(iter(sorted(table.prompt.actors)), None)
                offered = latest.get(actor, {}).get("actions") if actor else None
                t0 = time.perf_counter()
                if offered and latest[actor]["ply"] == ply:
                    await socks[actor].send_json({"type": "act", "ply": ply, "action": offered[0]["action"]})
                    by_phone += 1
                else:
                    await loop.run_in_executor(None, table.roll_for_me)
                try:
                    await asyncio.wait_for(until_all(ply + 1), 10)
                except asyncio.TimeoutError:
                    break  # refused (a phone's stale page): not a change; stop measuring here
                for s in SEATS:
                    got = next(t for p, t in stamps[s["id"]] if p >= ply + 1)
                    lat.append(got - t0)
                done += 1
            for ws in socks.values():
                await ws.close()
            for r in readers:
                r.cancel()
    finally:
        server.stop()
        table.close()
    return {"baseline": base, "latency": lat, "changes": done, "by_phone": by_phone}


def main(argv: list[str]) -> int:
    changes = 40 if "--quick" in argv else 300
    r = asyncio.run(_run(changes))
    lat, base = r["latency"], r["baseline"]
    if not lat:
        print("no change was measured")
        return 1
    p50, p99, worst = (_percentile(lat, 0.5) * 1e3, _percentile(lat, 0.99) * 1e3, max(lat) * 1e3)
    b = statistics.median(base) * 1e3
    print(f"6 phones on loopback, {r['changes']} changes ({r['by_phone']} from phones, the rest rolls and draws "
          f"at the table), {len(lat)} deliveries")
    print(f"  baseline ws ping-pong (median): {b:.2f} ms")
    print(f"  update reaches a phone: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms "
          f"(p99 = {p99 / b:.0f}× the baseline); target p99 < 100 ms: {'met' if p99 < 100 else 'NOT met'}")
    return 0
