"""A long press on a button, even a disabled one: the way a player asks "why not?".

A disabled Kivy button ignores touches, so a player who finds Undo greyed out has no way
to learn why. :func:`on_long_press` binds to the button's touch events (a bound handler
runs before the button's own), so it sees a finger held on the button whether or not the
button is enabled. A finger that lifts before ``hold`` seconds is a plain tap (an enabled
button does what it does); one held longer calls ``on_long`` and the button's own press is
cancelled, so holding Undo to read about it never undoes anything. A finger that slides off
the button before ``hold`` is neither.
"""
from __future__ import annotations

from typing import Any, Callable

from kivy.clock import Clock

HOLD = 0.6  # seconds: longer than a tap, shorter than a player's patience


class _Hold:
    def __init__(self, widget: Any, on_long: Callable[[], None], hold: float) -> None:
        self.widget, self.on_long, self.hold = widget, on_long, hold
        self.touch: Any = None
        self.fired = False
        self.ev: Any = None

    def down(self, w: Any, touch: Any) -> bool:
        if not w.collide_point(*touch.pos) or getattr(touch, "is_mouse_scrolling", False):
            return False
        self.cancel()
        self.touch, self.fired = touch, False
        self.ev = Clock.schedule_once(self.fire, self.hold)
        if w.disabled:
            touch.grab(w)  # a disabled button does not; its lift must still reach us
            return True
        return False  # an enabled button presses as usual

    def move(self, w: Any, touch: Any) -> bool:
        if touch is self.touch and not self.fired and not w.collide_point(*touch.pos):
            self.cancel()
        return False

    def up(self, w: Any, touch: Any) -> bool:
        if touch is not self.touch:
            return False
        if self.ev is not None:
            self.ev.cancel()
            self.ev = None
        if touch.grab_current is not w:
            return self.fired  # the lift passing down the tree: the grabbed pass follows
        self.touch = None
        if not self.fired:
            if w.disabled:
                touch.ungrab(w)
                return True
            return False  # a plain tap: the button releases (and acts) as usual
        touch.ungrab(w)
        if hasattr(w, "state"):
            w.state = "normal"  # the press is cancelled, not released: no on_release
        return True

    def fire(self, _dt: float) -> None:
        self.ev = None
        if self.touch is not None:
            self.fired = True
            self.on_long()

    def cancel(self) -> None:
        if self.ev is not None:
            self.ev.cancel()
            self.ev = None
        self.touch = None


def on_long_press(widget: Any, on_long: Callable[[], None], hold: float = HOLD) -> None:
    """Call ``on_long()`` when a finger stays on ``widget`` for ``hold`` seconds (also
    when the widget is disabled); the press is then not a tap. Bind once per widget."""
    if getattr(widget, "_tc_long_press", None) is not None:
        widget._tc_long_press.on_long = on_long
        return
    h = _Hold(widget, on_long, hold)
    widget._tc_long_press = h
    widget.fbind("on_touch_down", h.down)
    widget.fbind("on_touch_move", h.move)
    widget.fbind("on_touch_up", h.up)
