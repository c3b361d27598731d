"""The phones card of the devices panel in the real app (run by test_phones_ui.py through
tests/ui/driver.py): the app serves the table's seats, shows a seat's QR code, says when
its phone attaches, and "New code" revokes the old link."""
from __future__ import annotations

import asyncio
import threading
import urllib.error
import urllib.request
from typing import Any, Iterator

from tests.ui.ble_scenarios import _button_after, _layout_problems, _tap_scrolled, _text
from tests.ui.scenarios import SEATS, _wait_for, settle


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def phones_panel(d: Any) -> Iterator[float]:
    from kivy.uix.image import Image

    from companion.ui.phones_link import start_phones

    app = d.app
    link = start_phones(app, "127.0.0.1")
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
    # The hands menu: Ann's button says her phone holds her hand (no gate); Bob's opens the gate.
    scr.ids.banner.hide()
    scr.show_hands_menu()
    yield 0.3
    specs = scr.action_specs()
    ann = [s for s in specs if s.seat == "cops-1"]
    d.check([(s.intent, s.label) for s in ann] == [("on-phone", "☎ Ann's hand is on Ann's phone")],
            f"Ann's hand button is her phone's: {[(s.intent, s.label) for s in ann]}")
    d.check([s.intent for s in specs if s.seat == "criminals-1"] == ["hand"], "Bob's hand button opens the gate")
    d.check(any(getattr(w, "text", None) == "☎ Ann's hand is on Ann's phone" and d.is_visible(w) for w in d.walk(scr)),
            "the action panel shows it")
    d.shot("phones-hands-menu")
    scr.tap_button(ann[0])
    yield 0.3
    d.check(not scr.ids.gate.active and "on your phone" in scr.ids.banner.message, "tapping it opens no gate")
    scr.tap_button(next(s for s in specs if s.intent == "back"))
    yield 0.3
    scr.open_hand("criminals-1")
    yield 0.3
    d.check(scr.ids.gate.active, "Bob has no phone: the privacy gate opens for him")
    scr.ids.gate.close()
    scr.ids.banner.hide()
    node = scr.ids.prompt
    while node is not None and not hasattr(node, "scroll_y"):
        node = node.parent
    if node is not None:
        node.scroll_y = 1  # the side column's top: the prompt panel
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
