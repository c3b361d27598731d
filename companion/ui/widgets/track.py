"""A big track/counter (influence, score): the number counts to its new value, the delta
floats up and fades, recent deltas and a sparkline of the history sit underneath."""
from __future__ import annotations

from typing import Any

from kivy.animation import Animation
from kivy.properties import ColorProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv
from ..presenters.track import TrackModel


class TrackCounter(BoxLayout):
    title = StringProperty("")
    subtitle = StringProperty("")
    glyph = StringProperty("")
    value = NumericProperty(0)
    shown = NumericProperty(0)  # animated towards value
    delta_text = StringProperty("")
    delta_up = NumericProperty(0)  # 0..1: how far the delta has floated
    deltas_text = StringProperty("")
    points = ListProperty()
    accent = ColorProperty((1, 1, 1, 1))
    lo = NumericProperty(0)
    hi = NumericProperty(1000)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.model = TrackModel(self.title)
        self.bind(size=lambda *_: self._redraw())

    def set_history(self, history: list[tuple[int, int]]) -> None:
        """Replace the whole history (a resumed game, an undo) without animating."""
        self.model.reset(history)
        v = self.model.value or 0
        Animation.cancel_all(self, "shown")
        self.value = self.shown = v
        self._redraw()

    def set_value(self, value: int, turn: int) -> None:
        change = self.model.update(value, turn)
        self.value = value
        if change is None:
            self.shown = value
        else:
            Animation.cancel_all(self)
            Animation(shown=value, d=0.6, t="out_quad").start(self)
            self.delta_text = change[1]
            self.delta_up = 0
            Animation(delta_up=1, d=1.6, t="out_cubic").start(self)
        self._redraw()

    def _redraw(self) -> None:
        self.deltas_text = "  ".join(self.model.recent_deltas(6))
        spark = self.ids.get("spark")
        if spark is None or spark.width <= 0:
            return
        vals = [v for _, v in self.model.history] or [0]
        pts = self.model.points(spark.width, spark.height, lo=min(self.lo, *vals), hi=max(self.hi, *vals))
        flat: list[float] = []
        for x, y in pts:
            flat += [spark.x + x, spark.y + y]
        self.points = flat


load_kv(__file__)
