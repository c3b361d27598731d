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
