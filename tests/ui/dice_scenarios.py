"""The dice tray in the real app (tests/ui/test_dice_tray_ui.py), at 800×480 with 160 %
text: two faces entered by hand through touches on the window, the second where the
first tap left it (issue 32, item 2: the face buttons jumped about 48 px after the first
tap, and a finger meant for 5 hit 2)."""
from __future__ import annotations

import json
from typing import Any, Iterator

SCREEN = "game:outrage"


def _faces(tray: Any) -> dict[str, tuple[float, float, float, float]]:
    """Every face button's rectangle on the window, by its face."""
    out = {}
    for b in tray.ids.faces.children:
        x, y = b.to_window(b.x, b.y)
        out[b.text] = (round(x, 1), round(y, 1), round(b.width, 1), round(b.height, 1))
    return out


def _others(tray: Any) -> dict[str, tuple[float, float]]:
    """What else a player may tap next in the tray ("✔ Now" / the app's roll)."""
    b = tray.ids.roll_for_me
    x, y = b.to_window(b.x, b.y)
    return {"roll_for_me": (round(x, 1), round(y, 1), round(b.width, 1), round(b.height, 1))}


def _finger(x: float, y: float) -> Iterator[float]:
    """A finger down and up on the window at (x, y), resting as long as a tap in a
    ScrollView takes."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    yield 0.15
    touch.touch_up()
    yield 0.3  # the tray redraws, lays out, and a frame is drawn


def two_faces_by_hand(d: Any) -> Iterator[float]:
    from tests.ui.outrage.positions import SEATS, heist

    options, position = heist()
    d.app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = d.app.sm.get_screen(SCREEN)
    for _ in range(100):
        if scr.shown_ply == d.app.table.ply and scr.ids.dice.is_awaiting and scr.ids.dice.ids.faces.children:
            break
        yield 0.05
    tray = scr.ids.dice
    d.check(tray.is_awaiting and tray.model.dice_count == 2, f"a 2d6 throw is awaited: {tray.awaiting_text!r}")
    # Bring the faces into view once, as a player scrolls to them; then no more scrolling.
    for _ in range(3):  # the side column settles its height over a few frames
        scr.ids.side_scroll.scroll_to(tray.ids.buttons, padding=10, animate=False)
        yield 0.3
    before, others_before = _faces(tray), _others(tray)
    d.shot("dice-two-faces-0-before")
    d.check(all(d._viewport(b) is not None for b in tray.ids.faces.children),
            f"the face buttons are on screen: {before}")
    ply = d.app.table.ply
    x, y, w, h = before["6"]
    yield from _finger(x + w / 2, y + h / 2)
    d.check(tray.model.entry == [6], f"the first tap entered a 6: {tray.model.entry}")
    after_first = _faces(tray)
    d.shot("dice-two-faces-1-after-first-tap")
    moved = {k: (before[k], after_first[k]) for k in before if before[k] != after_first.get(k)}
    d.check(not moved, f"the face buttons stayed where they were after the first tap: {moved}")
    d.check(_others(tray) == others_before, f"the button beside the faces stayed put: {others_before} → {_others(tray)}")
    # The second finger goes where 5 was before the first tap, as a player's does.
    x, y, w, h = before["5"]
    yield from _finger(x + w / 2, y + h / 2)
    pending = tray.model.pending
    d.check(pending is not None and pending.values == (6, 5), f"6 + 5 held to commit: {pending}")
    d.check("committing" in tray.pending_text, f"the hold says it commits: {tray.pending_text!r}")
    after_second = _faces(tray)
    d.shot("dice-two-faces-2-held")
    moved = {k: (before[k], after_second[k]) for k in before if before[k] != after_second.get(k)}
    d.check(not moved, f"the face buttons stayed where they were with the hold line up: {moved}")
    d.check(_others(tray) == others_before, f"\"✔ Now\" is where the app's roll was: {others_before} → {_others(tray)}")
    x, y, w, h = others_before["roll_for_me"]
    yield from _finger(x + w / 2, y + h / 2)
    for _ in range(60):
        if d.app.table.ply != ply and scr.shown_ply == d.app.table.ply:
            break
        yield 0.05
    row = d.app.table.journal.actions(d.app.table.key)[-1]
    action = json.loads(row.action)
    d.check(row.kind == "roll" and list(action["values"]) == [6, 5] and row.source == "touch",
            f"the table journaled the throw 6 + 5 entered by touch: {row}")
    d.shot("dice-two-faces-3-committed")
    d.note("two faces: 6 + 5")


# ---------------------------------------------------------------- the table's dice (item 1)

def _wait(cond: Any, timeout: float = 8.0) -> Iterator[float]:
    waited = 0.0
    while not cond() and waited < timeout:
        yield 0.05
        waited += 0.05


def _demo_dice(d: Any) -> Iterator[float]:
    """The demo's hub and its two Bluetooth dice (the simulated Pixel and GoDice on the
    fake radio, paired as ``--ble demo`` pairs them), once heard."""
    from companion.ui.ble_link import start_ble
    from firmware_bridge.ble.fake import FakeRadio

    app = d.app
    if getattr(app, "ble_link", None) is None:
        link = start_ble(app, "demo", radio=FakeRadio.demo(), pair_demo=False)
        for address in sorted(link.radio.devices):
            link.pair(address)
    yield from _wait(lambda: any(r.device == "sim" and r.connected for r in app.devices.rows())
                     and getattr(app, "ble_link", None) is not None and len(app.ble_link.paired) == 2
                     and all(getattr(app.devices.statuses.get(p), "online", False) for p in app.ble_link.paired), 20)
    d.check(app.demo_link is not None and app.ble_link is not None and len(app.ble_link.paired) == 2,
            "the demo runs its hub and two Bluetooth dice")


def _plain(d: Any, root: Any) -> str:
    """Every text under ``root``, its markup taken out."""
    import re

    return re.sub(r"\[/?b\]", "", "\n".join(d.texts(root)))


def _pixel(d: Any) -> tuple[str, Any]:
    link = d.app.ble_link
    device = next(dev for dev, p in link.paired.items() if p.kind == "pixels")
    return device, link.radio.get(link.paired[device].address)


def _give_to(d: Any, dev: Any, title: str, want: str, source: str = "") -> Iterator[float]:
    """Tap the "Give to" below the line naming ``title`` (or the hub die line of
    ``source``, whose name changes with its owner) until it reads ``want``."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    for _ in range(8):
        if source:
            box = next(w for w in d.walk(dev) if getattr(w, "source", None) == source)
        else:
            label = next(w for w in d.walk(dev) if isinstance(w, Label) and not isinstance(w, Button)
                         and title in getattr(w, "text", ""))
            box = label.parent
        button = next(w for w in d.walk(box) if isinstance(w, Button) and w.text.startswith("Give to"))
        if button.text == f"Give to: {want}":
            return
        scroll = next(x for x in d.walk(dev) if type(x).__name__ == "ScrollView")
        scroll.scroll_to(button, animate=False)
        yield 0.3
        d.tap(button)
        yield 0.5
    raise AssertionError(f"{title or source}: never given to {want}")


def table_dice_demo(d: Any) -> Iterator[float]:
    """Outrage! in demo mode (issue 32, item 1): the demo's hub die is the table's and
    makes up one 2d6 throw with Ann's Pixel; the devices panel gives the hub's die to a
    player (it had "Give to" for Bluetooth dice only); nowhere a device id."""
    import threading

    from tests.ui.outrage.positions import SEATS, heist

    app = d.app
    yield from _demo_dice(d)
    options, position = heist()
    app.new_game("outrage", SEATS, options, seed=3, position=position)
    scr = app.sm.get_screen(SCREEN)
    yield from _wait(lambda: scr.shown_ply == app.table.ply and scr.ids.dice.is_awaiting)
    table, tray = app.table, scr.ids.dice
    d.check(table.prompt.actors == {"p1"}, f"Ann throws 2d6 to escape: {table.prompt}")
    px, pixel = _pixel(d)

    # The devices panel: the Pixel to Ann, by touch; the demo die stays the table's.
    app.go("devices")
    yield 0.6
    dev = app.sm.get_screen("devices")
    texts = _plain(d, dev)
    d.check("Whose dice" in texts and "The demo die · the table's die" in texts,
            f"the devices panel offers the hub's die to a seat: {texts[-1500:]!r}")
    yield from _give_to(d, dev, "Demo Pixel", "Ann")
    d.check(table.devices == {f"die:{px}/0": "p1"}, f"the Pixel is Ann's in the game: {table.devices}")
    d.shot("table-dice-devices")
    app.back()
    yield 0.5
    guide = tray.guide_text
    d.check("Ann's Pixel" in guide and "the demo die" in guide, f"the tray names both dice: {guide!r}")

    # One throw of two dice of different kinds: Ann's Pixel and the table's demo die.
    ply = table.ply
    threading.Thread(target=lambda: pixel.roll(4), daemon=True).start()
    app.demo_link.throw(0, value=4)
    yield from _wait(lambda: table.ply != ply, 10)
    row = table.journal.actions(table.key)[-1]
    d.check(table.ply != ply and row.kind == "roll" and "die:sim/0" in row.source and px in row.source,
            f"the hub's die and the Pixel made one throw: {row} / tray: {tray.last_text!r}")
    d.check(json.loads(row.action)["seat"] == "p1", "Ann's throw")
    yield 0.5
    shown = " ".join((tray.last_text, tray.dice_text, tray.guide_text, scr.ids.banner.message))
    d.check("sim/" not in shown and px not in shown, f"no device id on the table screen: {shown!r}")
    d.shot("table-dice-thrown")

    # The demo die to Bob: kept with the game, for the next launch.
    app.go("devices")
    yield 0.6
    yield from _give_to(d, dev, "", "Bob", source="die:sim/0")
    d.check(table.devices.get("die:sim/0") == "p2", f"the demo die is Bob's: {table.devices}")
    texts = _plain(d, dev)
    d.check("The demo die · Bob's die" in texts and "sim/0" not in texts, "the panel names the die and its owner")
    d.shot("table-dice-given-to-bob")
    d.note(json.dumps({"key": str(table.key), "pixel": px}))


def table_dice_demo_resumed(d: Any) -> Iterator[float]:
    """The next launch of the demo: the Outrage! game resumed keeps whose each die is (the
    hub's die Bob's, the Pixel Ann's), and the panel says so; nothing shows "(ignored)"."""
    app = d.app
    yield from _demo_dice(d)
    game = next(g for g in app.journal.games() if g.game_id == "outrage")
    table = app.resume_game(game.key)
    yield 1.0  # the Bluetooth dice's pairing is carried into the game (it must change nothing)
    px, _ = _pixel(d)
    d.check(table.devices == {"die:sim/0": "p2", f"die:{px}/0": "p1"}, f"whose each die is, kept: {table.devices}")
    app.go("devices")
    yield 0.6
    dev = app.sm.get_screen("devices")
    texts = "\n".join(d.texts(dev))
    d.check("Give to: Bob" in texts and "Give to: Ann" in texts, "the panel shows both choices")
    d.shot("table-dice-resumed")
    d.note("resumed: dice kept")
