"""The phones card of the devices panel in the real app (run by test_phones_ui.py through
tests/ui/driver.py): the app serves the table's seats, shows a seat's QR code, says when
its phone attaches, and "New code" revokes the old link."""
from __future__ import annotations

import asyncio
import threading
from typing import Any, Iterator

from tests.ui.ble_scenarios import _button_after, _layout_problems, _tap_scrolled, _text
from tests.ui.scenarios import SEATS, _wait_for, settle
from tests.companion.web.helpers import http_status as _status


def phones_panel(d: Any) -> Iterator[float]:
    from kivy.uix.image import Image

    from companion.ui.phones_link import start_phones

    app = d.app
    link = start_phones(app, "127.0.0.1", mdns="on")
    d.check(not link.listening, "no game yet: the phones' server does not listen")
    app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d)
    d.check(link.listening and link.server.table is app.table, "a game on the table: the server listens for it")
    app.go("devices")
    yield 0.5
    dev = app.sm.get_screen("devices")
    yield from _wait_for(lambda: _text(d, dev, "Players' phones"), 3)
    for want in ("Players' phones", "● http://127.0.0.1:", "Ann", "Bob", "○ no phone (the privacy gate)"):
        d.check(_text(d, dev, want), f"the phones card shows {want!r}")
    # Discovery by name: the advertised host, or in words why there is none (no multicast).
    if link.mdns_error:
        d.check(_text(d, dev, "Not found by name on the network (mDNS)"), f"the card says why: {link.mdns_error}")
    else:
        d.check(link.advert is not None and _text(d, dev, f"find this table by name: {link.advert.host} (mDNS)"),
                "the card names the table's mDNS host")
    yield from _tap_scrolled(d, dev, _button_after(d, dev, "Ann", "Show code"))
    yield from _wait_for(lambda: any(isinstance(w, Image) and w.texture is not None for w in d.walk(dev)), 3)
    d.check(any(isinstance(w, Image) and w.texture is not None for w in d.walk(dev)), "Ann's QR code is shown")
    d.check(_text(d, dev, "Only Ann should scan this"), "with a word on who may scan it")
    yield 0.5
    d.shot("phones-code")
    old = link.url("cops-1")

    # Ann's phone attaches (a WebSocket from another thread; the Table is called on the UI thread).
    stop = threading.Event()
    got: list[str] = []

    def phone() -> None:
        import aiohttp

        async def run() -> None:
            host = old.split("/")[2]
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(old + "/ws", headers={"Origin": f"http://{host}"}) as ws:
                    got.append((await ws.receive()).data)
                    while not stop.is_set() and not ws.closed:
                        try:
                            await asyncio.wait_for(ws.receive(), 0.2)
                        except asyncio.TimeoutError:
                            pass

        asyncio.run(run())

    t = threading.Thread(target=phone, daemon=True)
    t.start()
    yield from _wait_for(lambda: _text(d, dev, "● phone attached"), 5)
    d.check(_text(d, dev, "● phone attached") and got and '"seat": "cops-1"' in got[0],
            "Ann's phone got Ann's seat, and the card says a phone is attached")
    # Back at the table, Ann's hand is on her phone; Bob's is behind the gate as before.
    app.back()
    yield from settle(d)
    scr = app.sm.get_screen("game:tyranny")
    scr.open_hand("cops-1")
    yield 0.3
    d.check(not scr.ids.gate.active and "on your phone" in scr.ids.banner.message,
            f"Ann's hand: her phone, not the gate ({scr.ids.banner.message!r})")
    # Every game's prompt panel carries the phone badge: Ann's phone, in a glyph and words.
    yield from _wait_for(lambda: "☎ Ann's phone attached" in scr.prompt_text, 3)
    d.check(scr.prompt_text.endswith("\n☎ Ann's phone attached") and "Bob's phone" not in scr.prompt_text,
            f"the table shows Ann's phone is attached: {scr.prompt_text!r}")
    badge = next((w for w in d.walk(scr) if getattr(w, "text", None) == scr.prompt_text), None)
    d.check(badge is not None and d.is_visible(badge), "under the prompt, on screen")
    problems = _layout_problems(badge.parent) if badge is not None else ["no prompt label"]
    d.check(not problems, "the prompt panel lays out: " + "; ".join(problems[:5]))
    d.shot("phones-table")
    # The hands page: Ann's button says her phone holds her hand (no gate); Bob's opens the gate.
    scr.ids.banner.hide()
    scr.show_hands_menu()
    yield 0.3
    page = scr.hands_page
    specs = page.buttons
    ann = [s for s in specs if s.seat == "cops-1"]
    d.check([(s.intent, s.label) for s in ann] == [("on-phone", "☎ Ann's hand is on Ann's phone")],
            f"Ann's hand button is her phone's: {[(s.intent, s.label) for s in ann]}")
    d.check([s.intent for s in specs if s.seat == "criminals-1"] == ["hand"], "Bob's hand button opens the gate")
    button = next((w for w in d.walk(page) if getattr(w, "text", None) == "☎ Ann's hand is on Ann's phone"), None)
    d.check(button is not None and d.is_visible(button), "the hands page shows it")
    d.shot("phones-hands-menu")
    d.tap(button)
    yield 0.3
    d.check(not scr.ids.gate.active and "on your phone" in scr.ids.banner.message, "tapping it opens no gate")
    scr.open_hand("criminals-1")
    yield 0.3
    d.check(scr.ids.gate.active, "Bob has no phone: the privacy gate opens for him")
    scr.ids.gate.close()
    scr.ids.banner.hide()
    node = scr.ids.prompt  # pinned at the side column's top; scrolled there if a screen scrolls it
    while node is not None and node is not node.parent and not hasattr(node, "scroll_y"):
        node = node.parent
    if node is not None and hasattr(node, "scroll_y"):
        node.scroll_y = 1
    yield 0.3
    d.shot("phones-badge")  # the prompt panel: "☎ Ann's phone attached" under whose turn it is
    app.go("devices")
    yield 0.5
    problems = _layout_problems(dev)
    d.check(not problems, "the devices panel lays out: " + "; ".join(problems[:5]))
    from kivy.uix.scrollview import ScrollView

    next(w for w in d.walk(dev) if isinstance(w, ScrollView)).scroll_y = 1  # the card's top: who is attached
    yield 0.5
    d.shot("phones-attached")
    yield from _tap_scrolled(d, dev, _button_after(d, dev, "Ann", "New code"))
    yield from _wait_for(lambda: not t.is_alive(), 5)
    d.check(not t.is_alive(), "the old link's page was closed")
    # Asked from another thread: the server calls the Table on this (the UI) thread.
    codes: list[int] = []
    new = link.url("cops-1")
    threading.Thread(target=lambda: codes.extend([_status(old + "/state"), _status(new + "/state")]), daemon=True).start()
    yield from _wait_for(lambda: len(codes) == 2, 10)
    d.check(codes == [403, 200], f"the old code is refused, the new one works ({codes})")
    stop.set()
    app.back()
    yield from settle(d)
    app.close_table()
    yield 0.2
    d.check(not link.listening, "no game on the table: the server stopped listening")
    d.note("phones card ok")


def phones_attack(d: Any) -> Iterator[float]:
    """An Outrage! attack with both seats' phones attached: the table screen waits for
    each phone (no gate), the weapons are laid face down from the phones, and the table
    screen reveals them together."""
    import json
    import random

    from rules.core import DrawRequest, RollRequest
    from rules.outrage.actions import Attack

    from companion.ui.phones_link import start_phones
    from tests.companion.table_helpers import seats_for

    app = d.app
    link = start_phones(app, "127.0.0.1")
    app.new_game("outrage", seats_for("outrage"), {}, seed=7)
    yield from settle(d)
    t, pick = app.table, random.Random(7)
    attack = None
    for _ in range(600):  # random plays (no attack) until an attack is possible, then it
        attack = next((a for a in t.legal_actions() if isinstance(a, Attack)), None)
        if attack is not None:
            t.submit(attack)
            break
        if any(isinstance(w, (RollRequest, DrawRequest)) for w in t.prompt.waits.values()):
            t.roll_for_me()
        else:
            acts = [a for a in t.legal_actions() if not a.chance and not isinstance(a, Attack)]
            t.submit(pick.choice(acts)) if acts else t.roll_for_me()
    d.check(attack is not None, "an attack is under way")
    atk, dfn = attack.seat, attack.target
    names = {s["id"]: s["name"] for s in t.seats}
    yield from settle(d)
    scr = app.sm.get_screen("game:outrage")

    go = {atk: threading.Event(), dfn: threading.Event()}
    got: dict[str, list[dict]] = {atk: [], dfn: []}
    stop = threading.Event()

    def phones() -> None:
        import aiohttp

        async def seat(s: str) -> None:
            url = link.url(s)
            host = url.split("/")[2]
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(url + "/ws", headers={"Origin": f"http://{host}"}) as ws:
                    sent = False
                    while not stop.is_set():
                        try:
                            msg = await asyncio.wait_for(ws.receive(), 0.1)
                        except asyncio.TimeoutError:
                            msg = None
                        if msg is not None:
                            if msg.type.name != "TEXT":
                                return
                            data = json.loads(msg.data)
                            if data["type"] == "state":
                                got[s].append(data["payload"])
                        # A phone acts on the table as it now stands: once its page shows the
                        # latest ply (the other phone's weapons may have just gone down).
                        if go[s].is_set() and not sent and got[s] and got[s][-1]["ply"] == t.ply:
                            p = got[s][-1]
                            arm = next(a for a in p["actions"] if a["kind"] == "arm" and a["action"]["cards"])
                            await ws.send_json({"type": "act", "id": 1, "ply": p["ply"], "action": arm["action"]})
                            sent = True

        async def both() -> None:
            await asyncio.gather(seat(atk), seat(dfn))

        asyncio.run(both())

    th = threading.Thread(target=phones, daemon=True)
    th.start()
    yield from _wait_for(lambda: link.attached() == {atk, dfn}, 5)
    yield from _wait_for(lambda: "☎ waiting for" in scr.prompt_text, 3)
    waiting = sorted(s.label for s in scr.action_specs() if s.intent == "on-phone")
    d.check(waiting == sorted(f"☎ Waiting for {names[s]}'s phone" for s in (atk, dfn)),
            f"the table waits for both phones: {waiting}")
    d.check(not any(s.intent == "hand" for s in scr.action_specs()), "no gate button for a seat with a phone")
    d.check(f"☎ waiting for {names[min(atk, dfn, key=lambda s: [x['id'] for x in t.seats].index(s))]}'s and" in scr.prompt_text,
            f"the prompt says so: {scr.prompt_text!r}")
    yield 0.5  # the labels' textures follow on the next frames
    d.shot("phones-attack-waiting")
    ply = t.ply
    go[atk].set()
    yield from _wait_for(lambda: atk not in t.secrets.pending, 5)
    yield from settle(d)
    yield from _wait_for(lambda: [s.seat for s in scr.action_specs() if s.intent == "on-phone"] == [dfn], 3)
    d.check([s.label for s in scr.action_specs() if s.intent == "on-phone"] == [f"☎ Waiting for {names[dfn]}'s phone"],
            "the attacker's weapons are down: the table waits for the defender's phone only")
    d.check(dfn in t.secrets.pending and not scr.ids.gate.active, "nothing revealed yet, no gate")
    ply = t.ply
    go[dfn].set()
    yield from _wait_for(lambda: t.ply > ply, 5)
    yield from settle(d)
    yield from _wait_for(lambda: getattr(scr, "moment_card", None) is not None and scr.moment_card.parent is not None, 3)
    card = scr.moment_card
    d.check(card.parent is not None and card.title.startswith("⚔"), f"the table screen reveals the weapons: {card.title!r}")
    d.check([e.source for e in t.journal.actions(t.key)][-2:] == ["phone", "phone"], "both laid from the phones")
    d.shot("phones-attack-reveal")
    stop.set()
    th.join(5)
    app.close_table()
    d.note("phones attack ok")
