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
