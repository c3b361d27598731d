"""Scenarios for the shell screens and the shared widgets (issue 16), run by
``tests/ui/test_shell.py`` as ``shell_scenarios:<name>`` through ``tests/ui/driver.py``."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import SEATS, _screen, _wait_for, settle


def look(d: Any) -> Iterator[float]:
    d.app.new_game("tyranny", SEATS, {}, seed=3)
    yield from settle(d)
    yield 0.5
    d.shot("look-table")


def _tray(d: Any) -> Any:
    return _screen(d).ids.dice


def dice_entry(d: Any) -> Iterator[float]:
    """Every face of the die is a visible 48 dp target beside "App roll"; the prompt is
    shown whole; a face entered by hand waits (and can be changed) before it is
    submitted, then is submitted on its own."""
    from kivy.metrics import dp

    d.app.new_game("tyranny", SEATS, {}, seed=3)
    yield from settle(d)
    yield 0.3
    tray = _tray(d)
    faces = {b.text: b for b in tray.ids.faces.children}
    d.check(sorted(faces) == ["1", "2", "3", "4", "5", "6"], f"six faces: {sorted(faces)}")
    roll = tray.ids.roll_for_me
    rx, ry = roll.to_window(roll.x, roll.y)
    for text, b in faces.items():
        bx, by = b.to_window(b.x, b.y)
        d.check(d.is_visible(b) and b.width >= dp(48) - 1 and b.height >= dp(48) - 1,
                f"face {text} is a 48 dp target: {b.size} at {(bx, by)}")
        d.check(bx + b.width <= rx + 1 or by >= ry + roll.height - 1, f"face {text} at {(bx, by)} is under App roll at {(rx, ry)}")
        tx, ty = tray.to_window(tray.x, tray.y)
        d.check(tx <= bx and bx + b.width <= tx + tray.width + 1, f"face {text} inside the tray")
    prompt = tray.ids.prompt
    d.check(prompt.texture_size[1] <= prompt.height + 1 and prompt.texture_size[0] <= prompt.width + 1,
            f"the prompt fits its label: {prompt.texture_size} in {prompt.size}")
    d.check("Ann" in prompt.text and "roll 1d6 to move" in prompt.text and "…" not in prompt.text, f"whole prompt: {prompt.text!r}")
    d.shot("dice-faces")
    ply = d.app.table.ply
    d.tap(faces["4"])
    yield 0.3
    d.check(d.app.table.ply == ply, "a face entered by hand is not submitted at once")
    d.check("4 — committing in" in tray.ids.last.text and "tap to change" in tray.ids.last.text,
            f"the countdown shows: {tray.ids.last.text!r}")
    d.check(tray.ids.roll_for_me.text == "✔ Now", "the roller button offers to submit now")
    d.shot("dice-countdown")
    d.tap(faces["6"])  # the real die shows a 6: change it
    yield 0.2
    d.check("6 — committing in" in tray.ids.last.text, f"changed to 6: {tray.ids.last.text!r}")
    yield from _wait_for(lambda: d.app.table.ply > ply, 8)
    d.check(d.app.table.ply == ply + 1, "the held face is submitted on its own once the countdown ends")
    rolled = [e for e in d.app.table.log() if "6" in e.text]
    d.check(rolled, f"the 6 was rolled: {[e.text for e in d.app.table.log()]}")
    yield 0.3
    d.check("entered by hand: 6" in tray.ids.last.text, f"the tray says so: {tray.ids.last.text!r}")
    d.shot("dice-committed")
    d.note("manual 6 entered after changing a 4")


def dice_prompt_demo(d: Any) -> Iterator[float]:
    """In the demo (the sim die's button beside the prompt) the prompt is shown whole."""
    yield from _wait_for(lambda: d.app.table is not None and d.app.sm.current.startswith("game:"), 10)
    yield from settle(d)
    yield 0.3
    tray = _tray(d)
    prompt = tray.ids.prompt
    d.check(d.is_visible(tray.ids.throw), "the sim die's button shows")
    d.check(prompt.texture_size[1] <= prompt.height + 1 and prompt.texture_size[0] <= prompt.width + 1,
            f"the prompt fits its label: {prompt.texture_size} in {prompt.size}")
    d.check("roll 1d6 to move" in prompt.text and "…" not in prompt.text, f"whole prompt: {prompt.text!r}")
    d.shot("dice-prompt-demo")


def _banner(d: Any) -> Any:
    return _screen(d).ids.banner


def turn_timer(d: Any) -> Iterator[float]:
    """An untimed game with a turn timer: the acting seat's face counts the turn down
    (not "∞"), and warns before the turn time is over."""
    from companion.clocks import ClockConfig

    d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=ClockConfig("untimed", overtime="none", turn_limit=13))
    yield from settle(d)
    clocks = _screen(d).ids.clocks
    faces = clocks.ids.row.children[::-1]
    yield from _wait_for(lambda: "turn" in faces[0].text, 3)
    d.check("turn 0:1" in faces[0].text and "∞" not in faces[0].text, f"Ann's face counts the turn down: {faces[0].text!r}")
    d.shot("clock-turn-timer")
    yield from _wait_for(lambda: "⚠" in faces[0].text, 8)
    d.check("⚠ turn 0:" in faces[0].text, f"the face warns before the turn is over: {faces[0].text!r}")
    d.check(tuple(faces[0].color) == tuple(d.app.theme.warn), "in the warning colour")
    d.check("turn time is over" not in _banner(d).message, "the warning comes before the turn is over")
    d.shot("clock-turn-warning")
    d.note("turn timer counts down and warns")


def home_and_back(d: Any) -> Iterator[float]:
    """Going Home and back to the running game inside the app charges nothing and says
    nothing about the app being closed."""
    from companion.clocks import presets

    table = d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    d.tap("Home")
    yield from _wait_for(lambda: d.app.sm.current == "home", 3)
    yield 1.5
    d.shot("home-game-running")
    d.tap("Ann, Bob")
    yield from _wait_for(lambda: d.app.sm.current == "game:tyranny", 3)
    yield from settle(d)
    yield 0.8  # a few clock ticks
    d.check(d.app.table is table, "the same game, not reopened from the journal")
    d.check("charged" not in _banner(d).message, f"no restart charge: {_banner(d).message!r}")
    d.check(not [e for e in table.clocks.log if e.kind == "restored"], "the clocks charged nothing")
    d.shot("home-and-back")
    d.note("home and back: no restart charge")


def clock_admin(d: Any) -> Iterator[float]:
    """Holding a clock face opens the admin panel; giving time back asks first, then
    changes the seat's clock through the Table (journaled)."""
    from companion.clocks import presets

    table = d.app.new_game("tyranny", SEATS, {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    clocks = _screen(d).ids.clocks
    face = clocks.ids.row.children[-1]
    t = d.press(face)
    yield 0.3
    d.check(clocks.admin is None, "a short touch opens nothing")
    yield from _wait_for(lambda: clocks.admin is not None, 3)
    d.release(t)
    yield 0.3
    d.check(clocks.admin is not None, "holding a face opens the admin panel")
    d.shot("clock-admin")
    before = table.clocks.remaining("cops-1")
    give = [b for b in d.walk(clocks.admin) if getattr(b, "text", "") == "+ 1:00"]
    d.tap(max(give, key=lambda b: b.to_window(*b.pos)[1]))  # the top row: Ann's
    yield 0.2
    d.check("Give ▲ Ann 1:00 back?" in clocks.admin.question, f"asks first: {clocks.admin.question!r}")
    d.check(table.clocks.remaining("cops-1") <= before, "nothing changes before the confirmation")
    d.shot("clock-admin-confirm")
    d.tap("✔ Confirm")
    yield 0.3
    after = table.clocks.remaining("cops-1")
    d.check(after > before + 50, f"Ann got a minute back: {before} → {after}")
    d.check(any(e.kind == "adjusted" and e.seat == "cops-1" for e in table.clocks.log), "journaled as an adjustment")
    d.check("gave ▲ Ann 1:00 back" in clocks.admin.status, f"says so: {clocks.admin.status!r}")
    d.tap("Close")
    yield 0.4
    d.check(clocks.admin is None, "the panel closes")
    d.note("admin gave Ann a minute back")


def wizard_pages(d: Any) -> Iterator[float]:
    """Each wizard page opens at its top (house rules opened scrolled to the bottom
    after a long seats page); the clock presets say what they mean in plain words."""
    from companion.ui.widgets.base import TCLabel, TCToggle

    d.app.go("setup")
    yield from settle(d)
    scr = d.app.sm.get_screen("setup")
    d.tap("Next →")
    yield from settle(d)
    d.tap(d.find("4", root=scr, cls=TCToggle))
    yield 0.3
    scroll = scr.ids.content.parent
    d.check(scr.ids.content.height > scroll.height, "the seats page is longer than the view")
    scroll.scroll_y = 0  # read down to the last seat
    yield 0.3
    d.tap("Next →")
    yield 0.3
    d.check(scr.step_title.endswith("House rules"), f"on the house rules: {scr.step_title}")
    d.check(scroll.scroll_y == 1, f"the house rules open at their top (scroll_y {scroll.scroll_y})")
    first = max((w for w in d.walk(scr.ids.content) if isinstance(w, TCLabel)), key=lambda w: w.to_window(*w.pos)[1])
    d.check(d.is_visible(first), f"the first option shows: {first.text[:60]!r}")
    shown = " ".join(d.texts(scr.ids.content))
    d.check("RULINGS" not in shown and "seat-turn" not in shown and "criminals-gain" not in shown,
            f"no ruling codes or option ids: {shown[:300]!r}")
    d.shot("wizard-rules-top")
    d.tap("Next →")
    yield 0.3
    blitz = d.find("Fischer: 5:00 each, +3 s after each move", root=scr)
    d.check(blitz.texture_size[1] <= blitz.height, f"the preset's words fit its button: {blitz.texture_size} in {blitz.size}")
    d.check(d.has("No clocks: play at your own pace", scr), "no clocks, in words")
    d.shot("wizard-clocks")
    d.note("wizard pages open at the top; clocks in words")


def _children_defunct() -> list[str]:
    """This process's children that have exited and were never reaped."""
    import os
    from pathlib import Path

    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] == "Z":
            out.append(stat.parent.name)
    return out


def end_screen(d: Any) -> Iterator[float]:
    """A whole game to its end (the full_game scenario), then: "Open in BG Stats" where
    nothing can open links says so (and copies the link) and leaves no defunct process;
    "Final board" shows the table as the game ended, read-only; exports land beside the
    journal."""
    import os
    import stat
    import tempfile
    from pathlib import Path

    from tests.ui.scenarios import full_game

    yield from full_game(d)
    d.app.go("end")
    yield 0.3
    scr = d.app.sm.get_screen("end")
    d.check(str(Path(d.journal).resolve().parent / "exports") in d.find("Saved", scr).text, "the export is beside the journal")
    # A device whose link opener fails (as xdg-open does with no browser installed).
    bin_dir = Path(tempfile.mkdtemp(prefix="tc-opener-"))
    opener = bin_dir / "xdg-open"
    opener.write_text("#!/bin/sh\nexit 3\n")
    opener.chmod(opener.stat().st_mode | stat.S_IEXEC)
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    d.tap("Open in BG Stats")
    yield from _wait_for(lambda: not scr.opening, 10)
    d.check("Nothing here could open the link" in scr.export_text and "copied" in scr.export_text,
            f"says the link could not be opened: {scr.export_text!r}")
    from kivy.core.clipboard import Clipboard

    d.check(Clipboard.paste() == scr.link, "the link is copied instead")
    d.check(not _children_defunct(), f"no defunct process left: {_children_defunct()}")
    d.shot("end-link-failed")
    d.check(scr.has_final_board, "the end screen has the final board")
    d.tap("Final board")
    yield 0.4
    view = scr.board_view
    d.check(view is not None and view.texture is not None, "the final board opens")
    d.check(view.texture.size[0] > 100 and view.texture.size[1] > 100, f"a picture of the table: {view.texture.size}")
    d.shot("end-final-board")
    d.tap(d.find("Close", view))
    yield 0.4
    d.check(scr.board_view is None, "the final board closes")
    d.check(any("in custody at the end" in line for line in scr.scores.split("\n")) or "captured" not in scr.scores,
            f"scores in plain words: {scr.scores!r}")
    d.note("end screen: link failure said, final board shown")


def gate_keeps_open(d: Any) -> Iterator[float]:
    """A player still reading behind the gate is not cut off: a touch on the open secret
    restarts its countdown, "+ More time" adds more; left alone, it still hides."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui.widgets.privacy_gate import PrivacyGate
    from tests.ui.scenarios import SECRET

    now = [0.0]  # the gate's clock, moved by this scenario (no waiting on a loaded machine)
    gate = PrivacyGate(size_hint=(1, 1), clock=lambda: now[0])
    Window.add_widget(gate)
    gate.open_for("crim-1", "Bob (◆ Criminals)", lambda: Label(text=SECRET), purpose="choose a mission",
                  hold_s=0.6, auto_hide_s=25.0)
    yield 0.2
    touch = d.press(d.find("HOLD here to reveal"))
    now[0] += 0.7
    yield 0.1
    d.release(touch)
    yield 0.1
    d.check(gate.phase == "open", f"open after the hold ({gate.phase})")
    now[0] += 20.0  # reading the options
    yield 0.1
    d.tap(d.find("SECRET-TEXT-42"))  # a touch on what is shown
    yield 0.1
    now[0] += 20.0  # 40 s after opening: the old gate had closed at 25
    yield from _wait_for(lambda: gate.seconds_left < 6, 3)
    d.check(gate.phase == "open", "a touch restarted the countdown: still open 40 s after opening")
    yield 0.1  # the button's first frame
    d.shot("gate-still-open")
    d.tap(d.find("More time"))
    yield 0.1
    d.check(gate.seconds_left > 25, f"more time added: {gate.seconds_left}")
    now[0] += 25.0
    yield 0.2
    d.check(gate.phase == "open", "still open after the more time")
    now[0] += gate.seconds_left + 1  # then nobody touches it
    yield from _wait_for(lambda: gate.phase == "idle", 3)
    d.check(gate.phase == "idle" and not any(SECRET in t for t in d.texts()), "left alone, it hides and forgets the secret")
    d.note("gate kept open by touch and more time")


def _layout(d: Any, label: str, root: Any = None) -> list[str]:
    from tests.ui.layout_check import check_layout

    root = root if root is not None else d.app.sm.current_screen
    problems = [f"{label}: {p}" for p in check_layout(root)]
    d.shot(f"layout-{label}-{int(d.app.theme.scale * 100)}")
    return problems


def layout_tour(d: Any) -> Iterator[float]:
    """The layout check (tests/ui/layout_check.py) over every shell screen: home (empty,
    then with a game in progress), each setup wizard page, devices (empty, then with a
    hub), settings, end. Each problem is a note; the test expects none."""
    import json

    from firmware_bridge.events import BatteryLevel, DeviceOnline, DieRolled

    from companion.ui.presenters.devices import DevicesModel

    problems: list[str] = []
    d.app.go("home")
    yield 0.4
    problems += _layout(d, "home-empty")
    d.app.go("setup")
    yield 0.3
    scr = d.app.sm.get_screen("setup")
    for page in range(6):
        scr.show_step(page)
        yield 0.3
        problems += _layout(d, f"setup-{page + 1}")
    d.app.go("settings")
    yield 0.3
    problems += _layout(d, "settings")
    d.app.go("devices")
    yield 0.3
    problems += _layout(d, "devices-empty")
    d.tap("Find hubs")
    yield 0.4
    problems += _layout(d, "devices-scanned")
    d.app.devices = d.app.devices or DevicesModel()
    for e in (DeviceOnline(device="sim", kind="hub", faces=(6,), firmware="0.1.0", t=1.0),
              DieRolled(device="sim", die=0, value=5, outcome="rolled", confidence=0.99, counter=3, t=2.0),
              BatteryLevel(device="sim", percent=81, t=3.0)):
        d.app.devices.record(e)
    d.app.sm.get_screen("devices").reload(force=True)
    yield 0.4
    problems += _layout(d, "devices-hub")
    from companion.clocks import presets

    d.app.new_game("tyranny", SEATS + [{"id": "cops-2", "faction": "cops", "name": "Cat"},
                                       {"id": "criminals-2", "faction": "criminals", "name": "Dan"}],
                   {}, seed=3, clocks=presets()["Blitz 5+3"])
    yield from settle(d)
    yield 0.5
    # The shared widgets on the table screen (the screen itself is the game's).
    table = _screen(d)
    problems += _layout(d, "table-clocks", table.ids.clocks)
    problems += _layout(d, "table-dice", table.ids.dice)
    problems += _layout(d, "table-track", table.ids.influence)
    d.app.go("home")
    yield 0.4
    problems += _layout(d, "home-game")
    d.app.show_end()
    yield 0.4
    problems += _layout(d, "end")
    d.note(json.dumps(problems))


def devices_demo(d: Any) -> Iterator[float]:
    """The devices panel with the demo's simulated hub: the card holds its header and
    counters; calibrating over a link that cannot says how to do it instead, offers no
    Measure step and never reports a calibration it did not do."""
    import json

    from tests.ui.layout_check import check_layout

    yield from _wait_for(lambda: d.app.table is not None, 10)
    yield from _wait_for(lambda: any(r.connected for r in (d.app.devices.rows() if d.app.devices else [])), 10)
    d.app.go("devices")
    yield 0.5
    scr = d.app.sm.get_screen("devices")
    d.check(d.has("online", scr), "the sim hub's card shows it online")
    problems = [str(p) for p in check_layout(scr)]
    d.shot("devices-demo")
    d.tap("Calibrate dice…")
    yield 0.3
    d.check("cannot calibrate from the app" in scr.calibration_text and "hubctl.py" in scr.calibration_text,
            f"says how to calibrate: {scr.calibration_text!r}")
    d.check(not d.has("Measure", scr), "no Measure step over a link that cannot calibrate")
    d.shot("devices-calibrate")
    for _ in range(3):  # what the old wizard let a player do: measure three times
        if d.has("Measure", scr):
            d.tap("Measure")
            yield 0.1
    d.check("calibration done" not in scr.calibration_text, f"no calibration reported: {scr.calibration_text!r}")
    problems += [str(p) for p in check_layout(scr)]
    d.note(json.dumps(problems))


def glyphs(d: Any) -> Iterator[float]:
    """A picture of every non-ASCII character the app's strings use, in the app's font
    (regular and bold), for a person to look at: no empty boxes."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from tests.ui.test_font import app_strings

    chars = sorted({ch for _p, s in app_strings() for ch in s if ord(ch) > 127 and ch.isprintable()})
    text = "⛓ Capture Bob   ◆Bob⛓   ⛓ in custody   ⏭ misses 1 turn   ✋ picked up\n" + " ".join(chars)
    lbl = Label(text=text + "\n[b]" + text + "[/b]", markup=True, font_size=d.app.theme.fs_large,
                color=(1, 1, 1, 1), text_size=(Window.width - 20, None), halign="left", valign="top",
                size=Window.size, pos=(10, 0))
    Window.add_widget(lbl)
    yield 0.4
    d.shot("glyphs")
    d.note(f"{len(chars)} characters drawn")
