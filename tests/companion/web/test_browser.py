"""A real browser: Debian's Chromium driven by Playwright, two phones (two browser
contexts) play the start of a Liberation game through the phones' server. The
Liberation's phone places its base and evades in secret; the Dynasty's page never
receives either city. Screenshots of both phones go to artifacts/phones/."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from .helpers import SEATS, liberation_at_base

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "phones"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
WAIT_MS = 15_000


def _browser():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (./dev test installs it with apt-get)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    return sync_api


def test_two_phones_play_liberation_and_the_base_stays_on_the_liberation_phone() -> None:
    sync_api = _browser()
    from companion.web.server import PhoneServer

    t = liberation_at_base(seed=5)
    names = {s["id"]: s["name"] for s in SEATS}
    from companion.ui.games.liberation.presenter import LiberationPresenter
    from companion.ui.phones_link import draws_of

    presenter = LiberationPresenter(t)
    server = PhoneServer(t, extras=lambda seat: draws_of(presenter, t, seat))
    server.start()
    dyn_frames: list[str] = []
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                lib_ctx, dyn_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
                lib, dyn = lib_ctx.new_page(), dyn_ctx.new_page()
                dyn.on("websocket", lambda ws: ws.on("framereceived", lambda f: dyn_frames.append(str(f))))
                dyn.on("response", lambda r: dyn_frames.append(r.text()) if r.url.endswith("/state") else None)
                lib.goto(server.url_for("lib"))
                dyn.goto(server.url_for("dyn"))
                lib.locator("#link.up").wait_for(timeout=WAIT_MS)
                dyn.locator("#link.up").wait_for(timeout=WAIT_MS)
                assert names["lib"] in lib.locator("#who").inner_text()

                # The Liberation places its base on its phone: a secret button.
                ply = t.ply
                first = lib.locator("button.act.secret").first
                first.wait_for(timeout=WAIT_MS)
                first.click()
                dyn.locator("#now.act").wait_for(timeout=WAIT_MS)  # the Dynasty's phone: your move
                base1 = t.private_view("lib")["base"]["city"]
                assert t.ply == ply + 1 and t.journal.actions(t.key)[-1].source == "phone"
                lib.locator("#secret").filter(has_text="Your secret base").wait_for(timeout=WAIT_MS)

                # The Dynasty draws a card from the physical deck and enters it on its phone
                # (offered: every card it cannot rule out), then passes its action.
                drawn = t.state.deck.cards[0]
                drawn_name = _city_name(t, drawn)
                ply = t.ply
                dyn.locator("button.act", has_text=f"I drew {drawn_name}").wait_for(timeout=WAIT_MS)
                dyn.screenshot(path=str(_shot("dynasty-draw.png")))
                dyn.locator("button.act", has_text=f"I drew {drawn_name}").click()
                _wait(lambda: t.ply == ply + 1, lambda: dyn.locator("#notice").inner_text())
                assert drawn in t.private_view("dyn")["hands"]["dyn"]["cards"]
                dyn.locator("#hand li", has_text=drawn_name).wait_for(timeout=WAIT_MS)
                ply = t.ply
                dyn.get_by_role("button", name="Pass", exact=True).click()
                _wait(lambda: t.ply == ply + 1)
                # The Liberation passes its draw, then evades in secret.
                lib.locator("#now.act").wait_for(timeout=WAIT_MS)
                ply = t.ply
                lib.get_by_role("button", name="Pass", exact=True).click()
                _wait(lambda: t.ply == ply + 1)
                here = _city_name(t, base1)
                assert here in lib.locator("#secret").inner_text()
                evade = lib.locator("button.act.secret", has_text="Evade").filter(has_not_text=here).first
                evade.wait_for(timeout=WAIT_MS)
                lib.screenshot(path=str(_shot("liberation-before-evade.png")))
                evade.click()
                _wait(lambda: t.private_view("lib")["base"]["city"] != base1,
                      lambda: f"{lib.locator('#notice').inner_text()} / {t.prompt}")
                base2 = t.private_view("lib")["base"]["city"]
                lib.locator("#secret").filter(has_text="Your secret base").wait_for(timeout=WAIT_MS)
                dyn.locator("#now.act").wait_for(timeout=WAIT_MS)
                lib.screenshot(path=str(_shot("liberation-phone.png")))
                dyn.screenshot(path=str(_shot("dynasty-phone.png")))
                dyn_text = dyn.locator("body").inner_text()
                lib_text = lib.locator("body").inner_text()
                lib_ctx.close()
                dyn_ctx.close()
            finally:
                browser.close()
    finally:
        server.stop()

    # The table's public side saw the evade happen, never where to.
    public = t.view()
    assert any("evade" in line["text"].lower() for line in public["log"]), public["log"][-3:]
    assert public["base"] == {"placed": True}
    # What the Dynasty's page received: every state is the Dynasty's own, with no base city
    # and no Liberation card in it. (A city id may appear in the map's public names and in
    # the Dynasty's own Attack choices; where the base is, never.)
    messages = [_json(f) for f in dyn_frames]
    states = [m["payload"] for m in messages if m.get("type") == "state"] + [m for m in messages if m.get("seat")]
    assert len(states) >= 4, "the Dynasty's page was not kept up to date"
    lib_cards = set(t.private_view("lib")["hands"]["lib"]["cards"]) | {base1, base2}
    assert not lib_cards & set(t.private_view("dyn")["hands"]["dyn"]["cards"])
    for p in states:
        assert p["seat"] == "dyn"
        assert p["view"]["base"] in ({"placed": True}, {"placed": False})
        assert "cards" not in p["view"]["hands"]["lib"]
        hidden_places = json.dumps([p["view"]["log"], p["view"]["events"], p["view"]["hands"], p["hand"], p["must"]])
        for city in lib_cards:
            assert f'"{city}"' not in hidden_places, f"the Dynasty's page received the Liberation's {city}"
    assert "Your secret base" not in dyn_text and "Your secret base" in lib_text


def _city_name(t, city: str) -> str:
    return next(c.name for c in t.game.map_of(t.state).cities if c.id == city)


def _json(text: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _shot(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def _wait(cond, why=lambda: "", timeout: float = 15.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"the table did not change: {why()}")
        time.sleep(0.02)
