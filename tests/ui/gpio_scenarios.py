"""UI scenarios for the GPIO header and the dice tray's lost-throws notice, run by
tests/ui/test_gpio_ui.py in a real window (``gpio_scenarios:<name>``). The app is started
with ``TC_GPIO=mock``: it opens the default pin map on gpiozero's MockFactory itself, and
the scenario drives those pins (``drive_low`` / ``drive_high``) as the switches would."""
from __future__ import annotations

from typing import Any, Iterator

from .scenarios import SEATS, _screen, _wait_for, settle


def _pin(d: Any, gpio: int) -> Any:
    from gpiozero import Device

    return Device.pin_factory.pin(gpio)


def _layout_problems(d: Any, root: Any) -> list[str]:
    from .layout_check import check_layout

    return [str(p) for p in check_layout(root)]


def gpio_table(d: Any) -> Iterator[float]:
    """Token slots and buttons of the header (MockFactory) reach the Tyranny table through
    the app's own path (post_event → input pump → Table.route) and show on the game screen
    as a routed die does: a refusal in the banner with its rule, an accepted move on the
    board. The devices panel shows the pin map, the slots' and buttons' live state and what
    they do in this game, and its "Lift token" drives the simulated pin."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    app = d.app
    d.check(app.gpio_mode == "mock", f"the app runs its GPIO on simulated pins ({app.gpio_mode})")
    link = app.gpio_link
    d.check(link is not None, "the app started the GPIO header")
    yield from _wait_for(lambda: link.is_online, 10)
    d.check(link.is_online and not link.error, f"the GPIO header is online ({link.error})")
    d.check(isinstance(Device.pin_factory, MockFactory) and link.pin_factory is Device.pin_factory,
            "its pins are gpiozero's MockFactory's")
    pm = link.pin_map
    app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d)
    scr = _screen(d)
    table = app.table
    mover = sorted(table.prompt.actors)[0]
    d.check(mover == "cops-1", f"Ann (cops) rolls first ({table.prompt})")
    yield from _wait_for(lambda: link.lit_seats() == frozenset({0}), 3)
    d.check(link.lit_seats() == frozenset({0}), f"Ann's seat light is on ({set(link.lit_seats())})")

    # The end-turn button while a roll is awaited: refused, with the rule, nothing changed.
    ply = table.ply
    _pin(d, pm.end_turn).drive_low()
    yield from _wait_for(lambda: scr.ids.banner.shown > 0.5, 5)
    _pin(d, pm.end_turn).drive_high()
    banner = scr.ids.banner
    d.check(banner.code == "illegal" and "Gameplay: A typical movement turn" in banner.rule,
            f"the banner names the rule: {banner.code} / {banner.rule!r} / {banner.message!r}")
    d.check("end-turn button means decline" in banner.message, f"the banner says what the button meant: {banner.message!r}")
    d.check(table.ply == ply, "the refused press changed nothing")
    d.note(f"end-turn refused: {banner.message} ({banner.rule})")
    d.shot("gpio-end-turn-refused")

    # Keypad key 1: Ann rolls a 1.
    _pin(d, pm.keypad[0]).drive_low()
    yield from _wait_for(lambda: table.ply == ply + 1, 5)
    _pin(d, pm.keypad[0]).drive_high()
    yield from settle(d)
    d.check(table.ply == ply + 1 and table.journal.actions(table.key)[-1].source == "keypad:gpio",
            "the keypad's 1 was Ann's roll")

    # A token on slot 1, under The Docks: Ann's piece moves there.
    _pin(d, pm.token_slots[1]).drive_low()
    yield from _wait_for(lambda: table.ply == ply + 2, 5)
    yield from settle(d)
    yield from _wait_for(lambda: scr.ids.banner.shown == 0, 3)  # the banner fades out
    d.check(table.view()["pieces"]["cops-1"]["tile"] == "o-docks", "the token moved Ann to The Docks")
    d.check(table.journal.actions(table.key)[-1].source == "slot:gpio/1", "journaled with the slot as its source")
    d.check(scr.ids.banner.shown == 0, "an accepted input takes the refusal's banner down")
    d.check(any("Ann" in t and "The Docks" in t for t in d.texts(scr)), "the board shows Ann on The Docks")
    yield from _wait_for(lambda: link.lit_seats() == frozenset({1}), 3)
    d.check(link.lit_seats() == frozenset({1}), "Bob's seat light is on now")
    d.note("token on slot 2 (The Docks) accepted: Ann moved")
    d.shot("gpio-token-moved")

    # A token on a tile the next roll did not reach: refused with its rule.
    _pin(d, pm.keypad[0]).drive_low()  # Bob rolls a 1
    yield from _wait_for(lambda: table.ply == ply + 3, 5)
    _pin(d, pm.keypad[0]).drive_high()
    yield from settle(d)
    _pin(d, pm.token_slots[3]).drive_low()  # Night Market: not where a 1 takes Bob
    yield from _wait_for(lambda: scr.ids.banner.shown > 0.5, 5)
    d.check(scr.ids.banner.code == "illegal" and scr.ids.banner.rule and table.ply == ply + 3,
            f"an unreachable tile is refused with its rule ({scr.ids.banner.message!r})")
    d.shot("gpio-token-refused")

    # The devices panel: the pin map, the live state, what each input does here.
    app.go("devices")
    yield 0.5
    dev = app.sm.get_screen("devices")
    texts = "\n".join(d.texts(dev))
    for want in ("▦ GPIO board", "simulated pins (MockFactory)", "Token slots", "Token slot 2", "● token",
                 "The Docks: a token here means move there", "GPIO 6 · header pin 31",
                 "End-turn button", "says no to the optional step", "Seat 2 button", "chooses Bob",
                 "Keypad keys 1–6", "Seat lights", "Bob's turn light", "● lit", "Buzzer"):
        d.check(want in texts, f"the devices panel shows {want!r}")
    d.check("tile:" not in texts and "o-docks" not in texts, "no board ids on the panel")
    d.shot("gpio-devices")
    problems = [p for p in _layout_problems(d, dev) if "small-target" in p or "text-overflow" in p or "overlap" in p]
    d.check(not problems, "the devices panel lays out: " + "; ".join(problems[:5]))
    # Lift the Docks token from the panel: the simulated pin goes high, the board follows live.
    from kivy.uix.scrollview import ScrollView

    lift = d.find("Lift token", root=dev, visible=False)
    scroll = next(w for w in d.walk(dev) if isinstance(w, ScrollView))
    scroll.scroll_to(lift, animate=False)  # at large text it is below the fold, as for a finger
    yield 0.3
    d.check(d.is_visible(lift), "the slot's button scrolls into view")
    d.tap(lift)
    # The pin, the board's slot line and the header's last input follow one another within
    # a frame or two (a loaded machine may need more): wait for all three, as an eye would.
    yield from _wait_for(lambda: link.tokens() == frozenset({3})
                         and any("last input: token lifted from slot 2" in t for t in d.texts(dev)), 5)
    yield 0.3
    d.check(link.tokens() == frozenset({3}), f"the panel lifted the token ({set(link.tokens())})")
    slot2 = next(t for t in d.texts(dev) if "Token slot 2" in t)
    d.check("○ empty" in slot2, f"slot 2 shows empty at once: {slot2!r}")
    d.check(any("last input: token lifted from slot 2" in t for t in d.texts(dev)), "the header's last input is shown")
    d.shot("gpio-devices-lifted")
    d.note("devices panel: pin map, live slot state, meanings in player words")


def throws_missed(d: Any) -> Iterator[float]:
    """A hub reports throws it could not deliver (ThrowsMissed): the dice tray tells the
    players in plain words, in a real window, and "OK" takes the notice down."""
    import threading

    from firmware_bridge.events import DieRolled, ThrowsMissed

    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=1)
    yield from settle(d)
    scr = _screen(d)
    tray = scr.ids.dice
    d.check(not tray.notice_text and tray.ids.notice.height == 0, "no notice before any throw is lost")
    missed = ThrowsMissed(device="hub1", die=0, count=3, counter=40, boot_id=7, t=1.0)
    # As the serial reader thread delivers it: the lost throws, then the first result after the gap.
    roll = DieRolled(device="hub1", die=0, value=4, outcome="rolled", confidence=1.0, counter=40, boot_id=7, t=1.1)
    threading.Thread(target=lambda: (app.post_event(missed), app.post_event(roll)), daemon=True).start()
    yield from _wait_for(lambda: tray.notice_text and tray.model.rolls_seen, 5)
    yield from settle(d)
    yield 0.3
    want = ("⚠ Hub1 die 1: 3 throws made while the hub was out of reach were lost. "
            "If one of them was the roll the game needed, enter it by hand.")
    d.check(tray.notice_text == want, f"the tray says what was lost: {tray.notice_text!r}")
    label = tray.ids.notice_label
    d.check(d.is_visible(label) and label.texture_size[1] <= label.height + 1, "the notice is shown whole")
    d.check("rolled 4" in tray.last_text, f"the result after the gap is shown too: {tray.last_text!r}")
    problems = [p for p in _layout_problems(d, tray) if "overflow" in p or "overlap" in p or "small-target" in p]
    d.check(not problems, "the tray lays out: " + "; ".join(problems[:5]))
    d.shot("dice-tray-throws-missed")
    d.tap(tray.ids.notice_ok)
    yield 0.3
    d.check(not tray.notice_text and tray.ids.notice.height == 0, "OK takes the notice down")
    d.note(f"throws missed shown: {want}")


def no_gpio(d: Any) -> Iterator[float]:
    """Off a Pi and without --gpio / TC_GPIO the app opens no pins at all."""
    app = d.app
    yield 0.3
    d.check(app.gpio_mode == "off" and app.gpio_link is None, f"no GPIO ({app.gpio_mode})")
    d.check(app.devices is None or "gpio" not in app.devices.links, "the devices panel lists no header")
    d.note("no GPIO device")


def no_pin_factory(d: Any) -> Iterator[float]:
    """``--gpio pi`` where no pin factory loads (no lgpio, no header): the app runs, and the
    devices panel says why there is no GPIO and what to do."""
    app = d.app
    link = app.gpio_link
    d.check(link is not None, "the app tried to start the GPIO header")
    yield from _wait_for(lambda: bool(link.error), 10)
    d.check(not link.is_online and "No GPIO pin factory works" in link.error, f"the link says why: {link.error!r}")
    app.go("devices")
    yield 0.5
    dev = app.sm.get_screen("devices")
    msg = next((t for t in d.texts(dev) if t.startswith("✖ No GPIO pin factory works")), None)
    d.check(msg is not None and "--gpio mock" in msg and "lgpio" in msg, f"the panel explains: {msg!r}")
    d.check(d.is_visible(d.find("No GPIO pin factory works", root=dev)), "the message is on screen")
    d.shot("gpio-no-pin-factory")
    d.note(f"panel says: {msg}")
