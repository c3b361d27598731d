"""Runs one UI scenario in this process: the real CompanionApp in a real window, driven
by simulated touches (Kivy's UnitTestTouch through the window's event loop).

    python -m tests.ui.driver SCENARIO --size 800x480 --journal PATH --out DIR --result FILE

A scenario (``tests/ui/scenarios.py``) is a generator taking a :class:`Driver`; it yields
the seconds to wait before its next step (the app keeps running meanwhile). The result
file gets ``{"ok": true, "notes": [...]}`` or the traceback. Every scenario runs in its
own process, so Kivy's global state never leaks between tests.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator


class ScenarioFailed(AssertionError):
    pass


class Driver:
    def __init__(self, app: Any, out: Path, size: str, journal: str) -> None:
        self.app = app
        self.out = out
        self.size = size
        self.journal = journal
        self.notes: list[str] = []
        self.shots: list[str] = []

    # ------------------------------------------------------------ finding

    def walk(self, root: Any = None) -> Iterator[Any]:
        from kivy.core.window import Window

        stack = [root] if root is not None else list(Window.children)
        while stack:
            w = stack.pop()
            yield w
            stack.extend(w.children)

    def texts(self, root: Any = None) -> list[str]:
        """Every text in the widget tree (including widgets hidden by opacity or size)."""
        out = []
        for w in self.walk(root):
            for attr in ("text", "hint_text", "who", "prompt_text", "info_text", "message"):
                v = getattr(w, attr, None)
                if isinstance(v, str) and v:
                    out.append(v)
        return out

    def find(self, text: str, root: Any = None, cls: type | None = None, visible: bool = True) -> Any:
        """The first widget whose ``text`` contains ``text`` (and is shown)."""
        for w in self.walk(root):
            t = getattr(w, "text", None)
            if isinstance(t, str) and text in t and (cls is None or isinstance(w, cls)):
                if not visible or self.is_visible(w):
                    return w
        raise ScenarioFailed(f"no widget showing {text!r}; texts: {[x for x in self.texts(root) if x][:80]}")

    def has(self, text: str, root: Any = None) -> bool:
        try:
            self.find(text, root)
            return True
        except ScenarioFailed:
            return False

    def _viewport(self, w: Any) -> tuple[float, float, float, float] | None:
        """The part of ``w`` (window coordinates x0, y0, x1, y1) not scrolled out of view
        by the ScrollViews around it, or None when nothing of it shows."""
        from kivy.uix.scrollview import ScrollView

        x0, y0 = w.to_window(w.x, w.y)
        x1, y1 = x0 + w.width, y0 + w.height
        node = w.parent
        while node is not None and node is not node.parent:
            if isinstance(node, ScrollView):
                sx, sy = node.to_window(node.x, node.y)
                x0, y0, x1, y1 = max(x0, sx), max(y0, sy), min(x1, sx + node.width), min(y1, sy + node.height)
                if x1 - x0 < 2 or y1 - y0 < 2:
                    return None
            node = node.parent
        return x0, y0, x1, y1

    def is_visible(self, w: Any) -> bool:
        if self._viewport(w) is None:
            return False
        node = w
        while node is not None and node is not node.parent:
            if getattr(node, "opacity", 1) == 0 or getattr(node, "disabled", False) and node is not w:
                return False
            if node.width <= 1 or node.height <= 1:
                return False
            node = node.parent
        return True

    # ------------------------------------------------------------ touching

    def _touch(self, w: Any) -> Any:
        """A touch on the middle of the part of ``w`` that shows."""
        from kivy.tests.common import UnitTestTouch

        vp = self._viewport(w)
        if vp is None:
            x, y = w.to_window(*w.center)
        else:
            x, y = (vp[0] + vp[2]) / 2, (vp[1] + vp[3]) / 2
        return UnitTestTouch(x, y)

    def tap(self, w_or_text: Any) -> None:
        w = self.find(w_or_text) if isinstance(w_or_text, str) else w_or_text
        if getattr(w, "disabled", False):
            raise ScenarioFailed(f"cannot tap disabled {getattr(w, 'text', w)!r}")
        t = self._touch(w)
        t.touch_down()
        if self._in_scrollview(w):
            # Inside a scrollable ScrollView a finger must rest a moment (its
            # scroll_timeout) before the view hands the touch to the button, as on a real
            # screen; the caller waits for the effect.
            from kivy.clock import Clock

            Clock.schedule_once(lambda dt: t.touch_up(), 0.12)
        else:
            t.touch_up()

    def _in_scrollview(self, w: Any) -> bool:
        """Whether ``w`` sits in a ScrollView scrolled by dragging its content, whose content
        is larger than its view (only then does the view wait to tell a tap from a scroll)."""
        from kivy.uix.scrollview import ScrollView

        node = w.parent
        while node is not None and node is not node.parent:
            # A view scrolled by its bars only hands a touch on its content over at once.
            if isinstance(node, ScrollView) and node.children and "content" in node.scroll_type:
                content = node.children[0]
                if content.height > node.height + 1 or content.width > node.width + 1:
                    return True
            node = node.parent
        return False

    def press(self, w: Any) -> Any:
        t = self._touch(w)
        t.touch_down()
        return t

    def release(self, t: Any) -> None:
        t.touch_up()

    # ------------------------------------------------------------ evidence

    def shot(self, name: str) -> str:
        from kivy.core.window import Window

        self.out.mkdir(parents=True, exist_ok=True)
        Window.dispatch("on_draw")  # the back buffer must hold the latest frame
        base = self.out / f"{name}-{self.size}.png"
        for old in self.out.glob(f"{name}-{self.size}*.png"):
            old.unlink()
        path = Window.screenshot(name=str(base))
        # Kivy numbers screenshots (name0001.png): keep the plain name.
        if path and Path(path) != base:
            os.replace(path, base)
        self.shots.append(str(base))
        return str(base)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def check(self, cond: Any, message: str) -> None:
        if not cond:
            raise ScenarioFailed(message)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scenario")
    p.add_argument("--size", default="800x480")
    p.add_argument("--journal", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--result", required=True)
    p.add_argument("--settings", default=None)
    p.add_argument("--demo", action="store_true")
    p.add_argument("--text-scale", type=float, default=None, help="the text-size setting (1.0 = 100%%)")
    a = p.parse_args(argv)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    w, h = a.size.split("x")
    Config.set("graphics", "width", w)
    Config.set("graphics", "height", h)
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    from companion.ui.app import CompanionApp  # first: it chooses Kivy's clock, as the app does

    from kivy.clock import Clock

    import importlib

    # "name" is a scenario in tests/ui/scenarios.py; "module:name" one in tests/ui/module.py;
    # "tests.x.module:name" one anywhere under tests/ (a test game's own folder).
    module, _, name = a.scenario.rpartition(":")
    scenarios = importlib.import_module(module if module.startswith("tests.") else f"tests.ui.{module or 'scenarios'}")
    scenario: Callable[[Driver], Iterator[float]] = getattr(scenarios, name)
    result: dict[str, Any] = {"ok": False}
    settings = a.settings or os.path.join(tempfile.mkdtemp(prefix="tc-ui-"), "settings.json")
    if a.text_scale is not None:
        from companion.ui.presenters.settings import Settings

        Settings.load(settings).with_changes(text_scale=a.text_scale).save(settings)

    def on_ready(app: Any) -> None:
        d = Driver(app, Path(a.out), a.size, a.journal)
        gen = scenario(d)

        def step(_dt: float) -> None:
            try:
                delay = next(gen)
            except StopIteration:
                result.update(ok=True, notes=d.notes, shots=d.shots)
                app.stop()
                return
            except BaseException:
                result.update(ok=False, error=traceback.format_exc(), notes=d.notes, shots=d.shots)
                try:
                    d.shot(f"FAILED-{name}")
                except Exception:
                    pass
                app.stop()
                return
            Clock.schedule_once(step, delay or 0)

        Clock.schedule_once(step, 0.2)

    app = CompanionApp(journal_path=a.journal, settings_path=settings, demo=a.demo, on_ready=on_ready)
    if a.demo:
        from companion.ui.demo import start_demo

        def on_ready_demo(app: Any, _inner: Any = on_ready) -> None:
            start_demo(app, seed=7, speed=float(os.environ.get("TC_SIM_SPEED", "10")))
            _inner(app)

        app._on_ready = on_ready_demo
    app.run()
    Path(a.result).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
