"""UI scenarios for Bluetooth LE dice (Pixels, GoDice), run by tests/ui/test_ble_ui.py in
a real window (``ble_scenarios:<name>``). The dice are firmware_bridge.ble.fake's: a fake
radio behind bleak's real front end, speaking the real byte protocols; the app's own path
carries their events (BleDiceSource's loop thread → ``app.post_event`` → input pump →
``Table.route`` → the table screen)."""
from __future__ import annotations

import threading
from typing import Any, Iterator

from .scenarios import SEATS, _screen, _wait_for, settle


def _layout_problems(root: Any) -> list[str]:
    from .layout_check import check_layout

    return [str(p) for p in check_layout(root)
            if "small-target" in str(p) or "text-overflow" in str(p) or "overlap" in str(p)]


def _button_after(d: Any, root: Any, title: str, text: str) -> Any:
    """The button reading ``text`` in the row right below the label holding ``title``."""
    from kivy.uix.label import Label

    label = d.find(title, root=root, cls=Label, visible=False)
    kids = label.parent.children  # Kivy lists children last-added first
    row = kids[kids.index(label) - 1]
    return next(w for w in row.children if getattr(w, "text", "") == text)


def _text(d: Any, root: Any, text: str) -> bool:
    """Whether the panel says ``text`` (shown or scrolled below the fold)."""
    return any(text in t for t in d.texts(root))


def _button(d: Any, root: Any, text: str) -> Any:
    from kivy.uix.button import Button

    return d.find(text, root=root, cls=Button, visible=False)


def _tap_scrolled(d: Any, root: Any, w: Any, tap: bool = True) -> Iterator[float]:
    from kivy.uix.scrollview import ScrollView

    scroll = next(x for x in d.walk(root) if isinstance(x, ScrollView))
    scroll.scroll_to(w, animate=False)  # at large text it may be below the fold, as for a finger
    yield 0.3
    d.check(d.is_visible(w), f"{w.text!r} scrolls into view")
    if tap:
        d.tap(w)
        yield 0.4  # a button inside a ScrollView releases 0.2 s after the finger


def _advance_to_roll(table: Any) -> None:
    """Play the rest of the turn through the Table until a roll is awaited again."""
    from rules.core import RollRequest

    for _ in range(50):
        if isinstance(table.prompt.awaiting, RollRequest):
            return
        acts = [a for a in table.legal_actions() if not a.chance]
        if acts:
            table.submit(acts[0])
        else:
            table.roll_for_me()


def ble_table(d: Any) -> Iterator[float]:
    """Find dice, pair the Pixel from the devices panel by touches, give it to Ann, blink it;
    it rolls a 4 and the Tyranny table applies it; it is turned by hand (not a roll); given
    to Bob it lands crooked and the tray offers "re-roll or accept"; accepted, it counts."""
    from companion.ui.ble_link import start_ble
    from firmware_bridge.ble.fake import FakeRadio

    app = d.app
    radio = FakeRadio.demo()
    pixel = next(p for p in radio.devices.values() if type(p).__name__ == "FakePixel")
    link = start_ble(app, "demo", radio=radio, pair_demo=False)
    d.check(link is not None and link.simulated, "the app started the Bluetooth dice on the fake radio")
    app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d)
    table = app.table
    d.check(sorted(table.prompt.actors) == ["cops-1"], f"Ann rolls first ({table.prompt})")

    # The devices panel: find dice, pair the Pixel, give it to Ann, blink it.
    app.go("devices")
    yield 0.5
    dev = app.sm.get_screen("devices")
    fb = _button(d, dev, "Find dice")
    d.check(d.is_visible(fb), "Find dice is on screen")
    d.tap(fb)
    yield from _wait_for(lambda: len(link.found) == 2 and _text(d, dev, "Demo Pixel"), 5)
    texts = "\n".join(d.texts(dev))
    for want in ("Bluetooth dice", "Pixel “Demo Pixel” · d6", "GoDice", "Found 2 Bluetooth dice", "signal -60 dBm"):
        d.check(want in texts, f"the scan shows {want!r}")
    d.shot("ble-found")
    yield from _tap_scrolled(d, dev, _button_after(d, dev, "Demo Pixel", "Pair"))
    device = next(iter(link.paired), "")
    d.check(device.startswith("pixels-"), f"the Pixel is paired ({list(link.paired)})")
    yield from _wait_for(lambda: _text(d, dev, "● online") and _text(d, dev, "battery 80 %"), 5)
    d.check(_text(d, dev, "the table's die"), "a new die is the table's")
    yield from _tap_scrolled(d, dev, _button(d, dev, "Give to: the table"))
    yield from _wait_for(lambda: _text(d, dev, "Ann's die"), 3)
    d.check(table.devices.get(f"die:{device}/0") == "cops-1", f"the Pixel is Ann's in the game ({table.devices})")
    yield from _tap_scrolled(d, dev, _button(d, dev, "Blink"))
    yield from _wait_for(lambda: pixel.blinks == 1 and _text(d, dev, "is blinking"), 5)
    d.check(pixel.blinks == 1, "the die blinked (Blink written, acknowledged)")
    d.check(_text(d, dev, "that is the die"), "the panel says which die blinked")
    texts = "\n".join(d.texts(dev))
    for want in ("Pixel “Demo Pixel” · d6", "● online", "Ann's die", "shows 6", "battery 80 %", "Give to: Ann",
                 "Unpair", "Throw", "Turn by hand"):
        d.check(want in texts, f"the paired die shows {want!r}")
    problems = _layout_problems(dev)
    d.check(not problems, "the devices panel lays out: " + "; ".join(problems[:5]))
    d.shot("ble-devices")

    # Back to the table: the Pixel rolls a 4 on the radio's side.
    app.back()
    yield from settle(d)
    scr = _screen(d)
    tray = scr.ids.dice
    d.check("Ann's Pixel “Demo Pixel”" in tray.guide_text, f"the tray names the die: {tray.guide_text!r}")
    ply = table.ply
    threading.Thread(target=lambda: pixel.roll(4), daemon=True).start()
    yield from _wait_for(lambda: table.ply == ply + 1 and tray.model.rolls_seen, 5)
    yield from settle(d)
    last = table.journal.actions(table.key)[-1]
    d.check(table.ply == ply + 1 and last.source == f"die:{device}/0", f"the Table applied the Pixel's roll ({last.source})")
    d.check(tray.last_text == "✔ Ann's Pixel “Demo Pixel” rolled 4", f"the screen shows it: {tray.last_text!r}")
    d.note(f"pixel roll shown: {tray.last_text}")
    d.shot("ble-rolled")

    # Turned by hand: shown as such, never a roll.
    ply = table.ply
    threading.Thread(target=lambda: pixel.turn(2), daemon=True).start()
    yield from _wait_for(lambda: "turned by hand" in tray.dice_text, 5)
    d.check("✋ turned by hand to 2: not a roll" in tray.dice_text, f"the tray says turned by hand: {tray.dice_text!r}")
    d.check(table.ply == ply, "turning a die by hand is not a roll")

    # Bob's turn: give him the die from the panel, then it lands crooked.
    _advance_to_roll(table)
    yield from settle(d)
    d.check(sorted(table.prompt.actors) == ["criminals-1"], f"Bob rolls next ({table.prompt})")
    app.go("devices")
    yield 0.5
    yield from _tap_scrolled(d, dev, _button(d, dev, "Give to: Ann"))
    yield from _wait_for(lambda: table.devices.get(f"die:{device}/0") == "criminals-1", 3)
    d.check(table.devices.get(f"die:{device}/0") == "criminals-1", "the Pixel is Bob's now")
    app.back()
    yield from settle(d)
    ply = table.ply
    threading.Thread(target=lambda: pixel.roll(5, crooked=True), daemon=True).start()
    yield from _wait_for(lambda: tray.crooked_value == 5, 5)
    yield 0.3
    d.check(table.ply == ply, "a crooked die does not count by itself")
    d.check("re-roll or accept" in tray.dice_text, f"the tray offers re-roll or accept: {tray.dice_text!r}")
    # The die's line wraps rather than cutting the name (800×480, 160 % text).
    line = tray.ids.dice_line
    d.check("Bob's Pixel “Demo Pixel”: ⚠ 5? crooked — re-roll or accept" in line.text and d.is_visible(line),
            f"the tray's die line says the whole name: {line.text!r}")
    d.check(tray.last_text == "⚠ Bob's Pixel “Demo Pixel” leans on 5: re-roll, or accept it.", f"{tray.last_text!r}")
    accept = tray.ids.accept
    d.check(d.is_visible(accept) and accept.text == "Accept the 5", "the Accept button is on screen")
    from .layout_check import check_layout

    problems = [str(p) for p in check_layout(tray)]  # every kind: a die's name shortened with "…" too
    d.check(not problems, "the tray lays out: " + "; ".join(problems[:5]))
    d.shot("ble-crooked")
    d.tap(accept)
    yield from _wait_for(lambda: table.ply == ply + 1, 5)
    yield from settle(d)
    d.check(table.ply == ply + 1 and table.journal.actions(table.key)[-1].source == f"die:{device}/0",
            "accepted, the crooked 5 is Bob's roll")
    d.note("crooked offered as re-roll or accept; accepted")

    # The setup wizard's devices step names the die as the tray does, never by its source.
    app.go("setup")
    yield 0.3
    wiz = app.sm.get_screen("setup")
    wiz.show_step(wiz.model.steps().index("devices"))
    yield 0.5
    texts = "\n".join(d.texts(wiz))
    d.check("⚄ The Pixel “Demo Pixel”" in texts and device not in texts,
            f"the wizard lists the Pixel by its name: {[t for t in d.texts(wiz) if t.startswith('⚄')]}")
    problems = [str(p) for p in check_layout(wiz)]
    d.check(not problems, "the wizard's devices step lays out: " + "; ".join(problems[:5]))
    d.shot("ble-wizard-dice")
    app.go("home")
    yield 0.3

    # Unpair from the panel: the die disconnects and leaves the card; Bob's die is nobody's.
    app.go("devices")
    yield 0.5
    yield from _tap_scrolled(d, dev, _button(d, dev, "Unpair"))
    # The panel may say "unpaired" a frame before the table hears of it (the link's
    # change reaches the table on the Kivy clock): wait for both.
    yield from _wait_for(lambda: not link.paired and _text(d, dev, "unpaired")
                         and f"die:{device}/0" not in table.devices, 5)
    d.check(not link.paired and not link.source.devices(), "the Pixel is unpaired and disconnected")
    d.check(f"die:{device}/0" not in table.devices, "and no longer given to Bob")
    d.check(_text(d, dev, "Pixel “Demo Pixel” unpaired."), "the panel says so")
    d.shot("ble-unpaired")


def ble_demo(d: Any) -> Iterator[float]:
    """Demo mode with Bluetooth: the simulated hub and, next to it, a simulated Pixel and a
    simulated GoDice on the fake radio, paired at start. The panel's "Throw" on the GoDice
    rolls into the game; a GoDice turned while out of reach is told in words that do not
    say "hub"; its low battery is a warning on the panel."""
    from companion.ui.demo import start_demo

    app = d.app
    start_demo(app, seed=7, ble=True)
    link = app.ble_link
    d.check(link is not None and link.simulated, "the demo started the Bluetooth dice")
    yield from _wait_for(lambda: len(link.paired) == 2 and all(link.source.is_online(x) for x in link.paired), 8)
    kinds = sorted(p.kind for p in link.paired.values())
    d.check(kinds == ["godice", "pixels"], f"a Pixel and a GoDice are paired ({kinds})")
    yield from settle(d)
    table = app.table
    scr = _screen(d)
    tray = scr.ids.dice
    gd = next(x for x, p in link.paired.items() if p.kind == "godice")
    godice = link.radio.get(link.paired[gd].address)

    # The GoDice's battery runs low: the panel warns.
    godice.set_battery(9)
    app.go("devices")
    yield 0.5
    dev = app.sm.get_screen("devices")
    yield from _wait_for(lambda: _text(d, dev, "⚠ battery low (9 %)"), 5)
    d.check(_text(d, dev, "⚠ battery low (9 %): charge this die soon"), "the panel warns of the low battery")
    d.check(_text(d, dev, "Shell: D6") and _text(d, dev, "GoDice") and _text(d, dev, "Pixel “Demo Pixel”"),
            "both dice are on the Bluetooth card, the GoDice with its shell")
    d.check(_text(d, dev, "sim") and _text(d, dev, "Bluetooth dice"), "next to the simulated hub")
    # Throw the GoDice from the panel, as the demo does.
    _advance_to_roll(table)
    ply = table.ply
    roller = sorted(table.prompt.actors)[0]
    who = table.seat_name(roller)
    row = _button(d, dev, "Shell: D6").parent
    throw = next(w for w in row.children if getattr(w, "text", "") == "Throw")
    # A finger on "Throw" while the die's status changes (its battery here; a face, a
    # reconnect at a real table): the card is updated in place, the button under the
    # finger stays, and lifting the finger throws.
    if not d.is_visible(throw):
        yield from _tap_scrolled(d, dev, throw, tap=False)
    touch = d.press(throw)
    godice.set_battery(8)
    yield from _wait_for(lambda: _text(d, dev, "⚠ battery low (8 %)"), 5)
    yield 0.3  # past the ScrollView's wait before it hands the touch to the button
    d.check(throw.get_root_window() is not None and throw.state == "down"
            and throw.collide_point(*throw.to_widget(*touch.pos)),
            "the pressed button is still the one shown, under the finger, after the status change")
    from kivy.uix.label import Label

    blank = [w.text for w in d.walk(dev) if isinstance(w, Label) and w.text and w.texture is None]
    d.check(not blank, f"every label updated in place still shows its text (no blank bar): {blank[:3]}")
    d.release(touch)
    yield from _wait_for(lambda: table.ply > ply, 5)
    last = (table.journal.actions(table.key) or [None])[-1]
    d.check(table.ply == ply + 1 and last is not None and last.source == f"die:{gd}/0",
            f"the GoDice's throw is the roll (ply {ply} → {table.ply}, {last and last.source}, roller {roller}, "
            f"devices {table.devices}, tray {tray.last_text!r}, {tray.dice_text!r}, {link.message!r})")
    yield 0.3  # the frame after the die's new face
    d.shot("ble-demo-devices")
    app.back()
    yield from settle(d)
    d.check("GoDice rolled" in tray.last_text, f"the tray shows the GoDice's roll: {tray.last_text!r}")
    d.note(f"{who}: {tray.last_text}")

    # Out of reach, turned meanwhile: the reconnect's report finds another face.
    def away() -> None:
        godice.drop()
        godice.turn((godice.face % 6) + 1)

    threading.Thread(target=away, daemon=True).start()
    yield from _wait_for(lambda: bool(tray.notice_text), 8)
    yield 0.3
    d.check(tray.notice_text.startswith("⚠ The ") and "GoDice lies on another face" in tray.notice_text
            and "hub" not in tray.notice_text, f"the tray says it plainly: {tray.notice_text!r}")
    problems = _layout_problems(tray)
    d.check(not problems, "the tray lays out: " + "; ".join(problems[:5]))
    d.shot("ble-demo-missed")
    d.note(f"missed: {tray.notice_text}")

    # The shell picker: the GoDice set to a D20 shell while it still wears its D6 one; its
    # next throw is not taken, and the panel says what to do.
    tray.dismiss_notice()
    app.go("devices")
    yield 0.5
    yield from _tap_scrolled(d, dev, _button(d, dev, "Shell: D6"))
    yield from _wait_for(lambda: link.paired[gd].shell == "D20" and _text(d, dev, "Shell: D20"), 3)
    d.check(link.paired[gd].shell == "D20", "the picker set the D20 shell")
    ply = table.ply
    threading.Thread(target=godice.roll, daemon=True).start()
    yield from _wait_for(lambda: _text(d, dev, "set to the D20 shell"), 5)
    warning = next((t for t in d.texts(dev) if "set to the D20 shell" in t), "")
    d.check("reads like a D6" in warning and "set its shell on the devices panel" in warning,
            f"the panel says the shell is wrong: {warning!r}")
    d.check(table.ply == ply, "a face read on the wrong shell is not a roll")
    yield 0.3
    from kivy.uix.label import Label

    yield from _tap_scrolled(d, dev, d.find("set to the D20 shell", root=dev, cls=Label, visible=False), tap=False)
    d.shot("ble-demo-wrong-shell")
    d.note(f"wrong shell: {warning}")
