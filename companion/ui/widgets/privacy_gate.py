"""The privacy gate: pass the device to seat X, others look away, X holds to reveal, the
secret hides itself. The secret content is built by a callable only after the hold has
completed and is destroyed when the gate closes, so no secret text is ever in the widget
tree while the gate is waiting (tests walk the tree to check).

While the secret shows, every touch on the gate (scrolling a dozen mission options,
tapping one) starts its countdown again, and "+ More time" adds another ``auto_hide_s``:
the gate never closes under a player who is still reading. The seat's clock keeps
running meanwhile: reading its own options is its turn (the clocks' pause button is there
for a real interruption)."""
from __future__ import annotations

import time
from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.widget import Widget

from ..kvload import load_kv
from ..presenters.gate import GateModel
from .base import TCButton
from .drawn import draw_when, is_drawn, set_drawn


class HoldButton(TCButton):
    progress = NumericProperty(0)


class PrivacyGate(FloatLayout):
    """An overlay; put it last in a screen's root so it covers everything when active."""

    active = BooleanProperty(False)
    phase = StringProperty("idle")
    who = StringProperty("")
    progress = NumericProperty(0)
    seconds_left = NumericProperty(0)
    purpose = StringProperty("")

    def __init__(self, clock: Callable[[], float] = time.monotonic, **kw: Any) -> None:
        self.model = GateModel()
        self._clock = clock
        self._builder: Callable[[], Widget] | None = None
        self._on_close: Callable[[], None] | None = None
        self._tick_ev: Any = None
        self._veiled: list[Widget] = []
        super().__init__(**kw)
        draw_when(self, "active")

    def on_active(self, _gate: Any, active: bool) -> None:
        """The gate is opaque and as large as the screen while active: what it covers is
        not drawn meanwhile (in software GL each frame of the gate, its hold's bar filling,
        cost the whole table again under it)."""
        parent = self.parent
        if parent is None or self not in parent.children:
            return
        if active:
            below = parent.children[parent.children.index(self) + 1:]
            self._veiled += [w for w in below if w not in self._veiled and is_drawn(w)]
            for w in self._veiled:
                set_drawn(w, False)
        else:
            # Top first: each goes back just under the nearest drawn widget above it.
            for w in self._veiled:
                if w.parent is parent:
                    set_drawn(w, True)
            self._veiled = []

    # ------------------------------------------------------------------ API

    def open_for(self, seat: str, who: str, builder: Callable[[], Widget], purpose: str = "",
                 on_close: Callable[[], None] | None = None, hold_s: float = 1.2, auto_hide_s: float = 25.0) -> None:
        """Ask for ``seat`` (named ``who``); ``builder()`` makes the secret content after
        the hold. ``on_close`` runs when the secret hides (or the gate is cancelled)."""
        self.close()
        self.model.hold_s, self.model.auto_hide_s = hold_s, auto_hide_s
        self.model.request(seat, who)
        self._builder, self._on_close = builder, on_close
        self.who, self.purpose = who, purpose
        self.active = True
        self._sync()
        if self._tick_ev is None:
            self._tick_ev = Clock.schedule_interval(self._tick, 1 / 30)

    def close(self) -> None:
        """Hide now: the content is removed and forgotten."""
        was_active = self.active
        self.model.hide()
        self._clear_content()
        self.active = False
        self._sync()
        if self._tick_ev is not None:
            self._tick_ev.cancel()
            self._tick_ev = None
        cb, self._on_close, self._builder = self._on_close, None, None
        if was_active and cb is not None:
            cb()

    @property
    def seat(self) -> str:
        return self.model.seat

    # ------------------------------------------------------------- internals

    def hold_down(self) -> None:
        self.model.press(self._clock())
        self._sync()

    def hold_up(self) -> None:
        # A full hold opens the gate even when the finger lifts before a tick saw the
        # hold complete (a slow frame): the reveal must not be lost then.
        if self.model.release(self._clock()) == "open":
            self._opened()
        self._sync()

    def _tick(self, _dt: float) -> None:
        now = self._clock()
        what = self.model.tick(now)
        if what == "open":
            self._opened()
        elif what == "closed":
            self.close()
            return
        self.seconds_left = self.model.seconds_left(now)
        self._sync()

    def _opened(self) -> None:
        self._reveal()
        app = App.get_running_app()
        if app is not None and hasattr(app, "cue"):
            app.cue("reveal")

    def _reveal(self) -> None:
        assert self._builder is not None
        box = self.ids.content
        self._clear_content()
        box.add_widget(self._builder())

    def _clear_content(self) -> None:
        box = self.ids.get("content")
        if box is not None:
            for page in box.children:
                release = getattr(page, "release", None)
                if release is not None:
                    release()
            box.clear_widgets()

    def more_time(self) -> None:
        self.model.more_time(self._clock())
        self.seconds_left = self.model.seconds_left(self._clock())

    def _touched(self) -> None:
        if self.phase == "open":
            self.model.touched(self._clock())
            self.seconds_left = self.model.seconds_left(self._clock())

    def _sync(self) -> None:
        self.phase = self.model.phase
        self.progress = self.model.progress

    def on_touch_down(self, touch: Any) -> bool:
        if not self.active:
            return False
        self._touched()
        super().on_touch_down(touch)
        return True  # nothing under the gate is touchable while it is up

    def on_touch_move(self, touch: Any) -> bool:
        if not self.active:
            return False
        self._touched()
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if not self.active:
            return False
        super().on_touch_up(touch)
        return True


load_kv(__file__)
