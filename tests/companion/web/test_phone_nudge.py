"""Issue 32 item 13, in a real browser (Debian's Chromium, Playwright) at a phone's size: the
phone whose seat must act buzzes (navigator.vibrate) or chimes (a tone made with Web Audio)
exactly once when its seat becomes the one to act, not on other updates, and not once its
player turned it off (remembered across a reload); the page keeps the screen awake from the
first tap (the Wake Lock API where allowed, else a muted looping video made in the page) and
says so, or says plainly when it cannot. The buzz, the chime and the wake lock are spied on
in the page by an init script: the counts are what the page asked of the phone."""
from __future__ import annotations

import pytest

from .helpers import liberation_at_base
from .test_browser import ARGS, CHROMIUM, PHONE, WAIT_MS, _browser, _shot, _wait

# Records every buzz and every chime the page starts; the phone keeps its real methods.
SPY = """
window.__nudges = [];
window.__wake = [];
if (navigator.vibrate) {
  Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true, value: function (p) { window.__nudges.push("buzz"); return true; }});
}
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() {
    const o = super.createOscillator(), start = o.start.bind(o);
    o.start = (...a) => { window.__nudges.push("chime"); return start(...a); };
    return o;
  }
};
"""
NO_VIBRATE = "delete Navigator.prototype.vibrate;"          # an iPhone: it cannot buzz
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"       # plain HTTP on the LAN: no Wake Lock API
WAKE_LOCK = """Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true,
  value: {request: async (kind) => { window.__wake.push(kind); return {release: async () => {}}; }}});"""
NO_VIDEO_STREAM = "delete HTMLCanvasElement.prototype.captureStream;"
AWAKE = "The screen stays on while this page is open."
CANNOT = "cannot keep its screen on"


def _page(browser, *scripts: str):
    ctx = browser.new_context(**PHONE)
    for s in (SPY, *scripts):
        ctx.add_init_script(s)
    return ctx, ctx.new_page()


def _nudges(page) -> list[str]:
    return page.evaluate("window.__nudges")


def _to_dyn(t) -> None:
    """The Liberation passes until the Dynasty must act again (its turn comes round)."""
    while "dyn" not in t.prompt.actors:
        t.submit(next(a for a in t.legal_actions() if a.seat == "lib" and a.kind in ("pass", "place_base")))



def _dyn_done(t) -> None:
    """The Dynasty ends its turn: it passes, or lets the app draw for it when it must draw."""
    while "dyn" in t.prompt.actors:
        mine = [a for a in t.legal_actions() if a.seat == "dyn"]
        passing = [a for a in mine if a.kind == "pass"]
        if passing:
            t.submit(passing[0])
        elif all(getattr(a, "chance", False) for a in mine):
            t.roll_for_me()
        else:
            t.submit(mine[0])


@pytest.mark.parametrize("kind", ["buzz", "chime"])
def test_the_acting_seats_phone_buzzes_or_chimes_once_and_not_when_turned_off(kind: str) -> None:
    sync_api = _browser()
    from companion.web.server import PhoneServer

    t = liberation_at_base(seed=5)
    server = PhoneServer(t)
    server.start()
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                ctx, dyn = _page(browser, *(() if kind == "buzz" else (NO_VIBRATE,)))
                dyn.goto(server.url_for("dyn"))
                dyn.locator("#link.up").wait_for(timeout=WAIT_MS)
                dyn.locator("#must", has_text="Waiting for").wait_for(timeout=WAIT_MS)
                dyn.locator("header").tap()                  # the first tap (sound needs one)
                assert _nudges(dyn) == []                    # the Liberation acts: the Dynasty's phone is quiet

                # The Liberation places its base: the Dynasty's seat becomes the one to act.
                _to_dyn(t)
                dyn.locator("#now.act").wait_for(timeout=WAIT_MS)
                dyn.wait_for_function("window.__nudges.length > 0", timeout=WAIT_MS)
                assert _nudges(dyn) == [kind]
                # The Dynasty draws (an update while it still acts): no second nudge.
                ply = t.ply
                t.roll_for_me()
                assert "dyn" in t.prompt.actors and t.ply == ply + 1
                dyn.locator("#must", has_text="take one action").wait_for(timeout=WAIT_MS)
                assert _nudges(dyn) == [kind]

                # The Dynasty passes; its turn comes round again: one more nudge.
                t.submit(next(a for a in t.legal_actions() if a.seat == "dyn" and a.kind == "pass"))
                dyn.locator("#now:not(.act)").wait_for(timeout=WAIT_MS)
                _to_dyn(t)
                dyn.locator("#now.act").wait_for(timeout=WAIT_MS)
                dyn.wait_for_function("window.__nudges.length > 1", timeout=WAIT_MS)
                assert _nudges(dyn) == [kind, kind]

                # Turned off on the page, remembered across a reload: the next turn is silent.
                dyn.get_by_label("Buzz or chime when it is my turn").uncheck()
                dyn.reload()
                dyn.locator("#link.up").wait_for(timeout=WAIT_MS)
                assert not dyn.get_by_label("Buzz or chime when it is my turn").is_checked()
                dyn.locator("header").tap()
                _dyn_done(t)
                dyn.locator("#now:not(.act)").wait_for(timeout=WAIT_MS)
                _to_dyn(t)
                dyn.locator("#now.act").wait_for(timeout=WAIT_MS)
                dyn.screenshot(path=str(_shot(f"nudge-off-{kind}.png")))
                assert _nudges(dyn) == []
                ctx.close()
            finally:
                browser.close()
    finally:
        server.stop()


@pytest.mark.parametrize("case, scripts, says, keeper", [
    ("wake-lock", (WAKE_LOCK,), AWAKE, "lock"),
    ("http-video", (NO_WAKE_LOCK,), AWAKE, "video"),
    ("unavailable", (NO_WAKE_LOCK, NO_VIDEO_STREAM), CANNOT, ""),
])
def test_the_page_keeps_the_screen_awake_from_the_first_tap_or_says_it_cannot(case, scripts, says, keeper) -> None:
    sync_api = _browser()
    from companion.web.server import PhoneServer

    t = liberation_at_base(seed=5)
    server = PhoneServer(t)
    server.start()
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                ctx, page = _page(browser, *scripts)
                page.goto(server.url_for("lib"))
                page.locator("#link.up").wait_for(timeout=WAIT_MS)
                # Before any tap: nothing started (browsers require a tap), and the page says to tap.
                assert page.evaluate("window.__wake") == [] and page.locator("video").count() == 0
                assert "Tap anywhere" in page.locator("#awake").inner_text()
                page.locator("header").tap()
                page.locator("#awake", has_text=says).wait_for(timeout=WAIT_MS)
                if keeper == "lock":
                    assert page.evaluate("window.__wake") == ["screen"] and page.locator("video").count() == 0
                elif keeper == "video":
                    video = page.locator("video.awake")
                    assert video.count() == 1
                    assert page.evaluate("(v) => !v.paused && v.muted && v.loop && v.playsInline && !!v.srcObject",
                                         video.element_handle())
                else:
                    assert page.locator("video").count() == 0
                page.locator("#awake").scroll_into_view_if_needed()
                page.screenshot(path=str(_shot(f"awake-{case}.png")))
                ctx.close()
            finally:
                browser.close()
    finally:
        server.stop()
