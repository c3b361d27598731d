"""Per-seat clocks: each seat's remaining time (glyph + name over the time; the running
seat marked ▶ and highlighted), refreshed a few times a second from the Table's ClockSet.

Each seat's face is two lines in its share of the row, so four seats fit a side column at
800×480 (one line each ran over each other and under the pause button there); the text
is smaller when a share is narrow, and a name too long for it is cut with an ellipsis,
never the time."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ..kvload import load_kv
from ..presenters.text_fit import cut
from .drawn import draw_when


def _fmt(seconds: float) -> str:
    try:
        from companion.clocks import format_time

        return str(format_time(seconds))
    except Exception:
        s = max(0, int(seconds))
        return f"{s // 60}:{s % 60:02d}"


class SeatClocks(BoxLayout):
    clocks = ObjectProperty(None, allownone=True)  # a companion.clocks.ClockSet
    pause = ObjectProperty(None, allownone=True)  # set by the screen: the Table's journaled pause
    resume = ObjectProperty(None, allownone=True)
    paused = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        draw_when(self, "clocks", lambda c: c is not None)  # a game without clocks: not drawn at all
        self._labels: dict[str, Label] = {}
        self._names: dict[str, str] = {}
        self._ev: Any = None
        # Resizing the row resizes every face: their texts are redone once, before the frame.
        self._update_soon = Clock.create_trigger(lambda _dt: self.update(), -1)

    def set_seats(self, clocks: Any, seats: list[tuple[str, str, str]]) -> None:
        """``seats``: (seat id, shown name, faction) in turn order."""
        self.clocks = clocks
        box = self.ids.row
        box.clear_widgets()
        self._labels.clear()
        theme = App.get_running_app().theme
        if clocks is None:
            return
        for sid, name, faction in seats:
            lbl = Label(font_size=theme.fs_body, color=theme.text, halign="center", valign="middle")
            lbl.bind(size=self._fit)
            self._names[sid] = f"{theme.glyph(faction)} {name}"
            self._labels[sid] = lbl
            box.add_widget(lbl)
        if self._ev is None:
            self._ev = Clock.schedule_interval(lambda dt: self.update(), 0.25)
        self.update()

    def update(self) -> None:
        cs = self.clocks
        if cs is None:
            return
        theme = App.get_running_app().theme
        running = cs.running  # a frozenset: several seats may act at once
        self.paused = bool(cs.is_paused)
        for sid, lbl in self._labels.items():
            try:
                st = cs.status(sid)
            except Exception:
                continue
            left, pts = st.remaining, st.penalty_points
            mark = "▶ " if sid in running else ""
            name = cut(f"{mark}{self._names[sid]}", lbl.width, lbl.font_size)
            lbl.text = f"{name}\n{_fmt(left)}" + (f" · penalty {pts}" if pts else "")
            lbl.bold = sid in running
            # Under the warning threshold: not colour alone, the banner says it too.
            lbl.color = theme.bad if left <= 0 else (theme.warn if st.warned else (theme.highlight if sid in running else theme.muted))

    def _fit(self, lbl: Label, size: Any) -> None:
        theme = App.get_running_app().theme
        lbl.font_size = theme.fs_body if size[0] >= dp(110) else theme.fs_small
        lbl.text_size = size
        self._update_soon()

    def tap_pause(self) -> None:
        cs = self.clocks
        if cs is None:
            return
        if cs.is_paused:
            (self.resume or cs.resume)()
        else:
            (self.pause or cs.pause)()
        self.paused = bool(cs.is_paused)

    def stop(self) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None


load_kv(__file__)
