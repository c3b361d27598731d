"""Per-seat clocks: each seat's remaining time (glyph + name over the time; the running
seat marked ▶ and highlighted), refreshed a few times a second from the Table's ClockSet.

Each seat's face is two lines in its share of the row, so four seats fit a side column at
800×480 (one line each ran over each other and under the pause button there); the text
is smaller when a share is narrow, and a name too long for it is cut with an ellipsis,
never the time.

A turn timer counts down on the acting seat's face and warns (⚠, the warning colour, a
cue) when a quarter of the turn is left (``presenters/clock_face.py``). Holding a face
for ``HOLD_S`` seconds opens the admin panel (``widgets/clock_admin.py``): give time back
or take it, behind a confirmation."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.errors import CompanionError

from ..kvload import load_kv
from ..presenters.clock_face import face_for
from ..presenters.phones import badge
from ..presenters.text_fit import cut
from .drawn import draw_when


HOLD_S = 0.8  # holding a clock face this long opens the admin panel


class SeatClocks(BoxLayout):
    clocks = ObjectProperty(None, allownone=True)  # a companion.clocks.ClockSet
    pause = ObjectProperty(None, allownone=True)  # set by the screen: the Table's journaled pause
    resume = ObjectProperty(None, allownone=True)
    paused = BooleanProperty(False)
    face_cols = NumericProperty(1)  # faces per row: as many as keep each readable
    face_rows = NumericProperty(1)
    face_height = NumericProperty(dp(48))

    # The narrowest face that still shows a name and a time whole.
    MIN_FACE = dp(96)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        draw_when(self, "clocks", lambda c: c is not None)  # a game without clocks: not drawn at all
        self._labels: dict[str, Label] = {}
        self._names: dict[str, str] = {}
        self._phones: frozenset[str] = frozenset()  # seats whose phone is attached: ☎ beside the name
        self._ev: Any = None
        self._hold_ev: Any = None
        self._turn_warned: set[str] = set()
        self.admin: Any = None  # the admin panel while it is open
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
            lbl.bind(size=self._fit, texture_size=self._fit_height)
            self._names[sid] = f"{theme.glyph(faction)} {name}"
            self._labels[sid] = lbl
            box.add_widget(lbl)
        if self._ev is None:
            self._ev = Clock.schedule_interval(lambda dt: self.update(), 0.25)
        box.unbind(width=self._arrange)
        box.bind(width=self._arrange)
        self._arrange(box, box.width)
        self.update()

    def _arrange(self, box: Any, width: float) -> None:
        """Split the faces into rows when the row is too narrow for them side by side."""
        n = max(1, len(self._labels))
        gap = dp(4)
        room = width  # the grid's own width: the pause button keeps its own beside it
        cols = max(1, min(n, int((room + gap) // (self.MIN_FACE + gap))))
        rows = -(-n // cols)
        self.face_cols, self.face_rows = cols, rows
        self._fit_height()

    def _fit_height(self, *_a: Any) -> None:
        # Each row as tall as its tallest face's text (a name can take two lines at 160 %).
        tallest = max((lbl.texture_size[1] for lbl in self._labels.values()), default=0)
        self.face_height = max(dp(48), tallest + dp(6))

    def set_phones(self, seats: frozenset[str]) -> None:
        """The seats whose phone is attached (``GameScreen.show_phones``): ☎ beside their names."""
        if seats != self._phones:
            self._phones = frozenset(seats)
            self.update()

    def update(self) -> None:
        cs = self.clocks
        if cs is None:
            return
        app = App.get_running_app()
        theme = app.theme
        running = cs.running  # a frozenset: several seats may act at once
        self.paused = bool(cs.is_paused)
        limit = cs.config.turn_limit
        for sid, lbl in self._labels.items():
            try:
                st = cs.status(sid)
            except CompanionError:  # a seat the clocks no longer time
                continue
            face = face_for(st, limit, wide=lbl.width >= dp(150))
            mark = "▶ " if sid in running else ""
            name = cut(mark + badge(self._names[sid], sid in self._phones), lbl.width, lbl.font_size)
            lbl.text = f"{name}\n{cut(face.time, lbl.width, lbl.font_size)}"
            lbl.bold = sid in running or face.turn_warning
            # Under a warning threshold: not colour alone, the text carries ⚠ or the banner says it.
            lbl.color = {"bad": theme.bad, "warn": theme.warn}.get(face.state, theme.highlight if sid in running else theme.muted)
            if face.turn_warning and sid not in self._turn_warned:
                self._turn_warned.add(sid)
                app.cue("clock")
            elif not face.turn_warning:
                self._turn_warned.discard(sid)

    def _fit(self, lbl: Label, size: Any) -> None:
        theme = App.get_running_app().theme
        lbl.font_size = theme.fs_body if size[0] >= dp(110) else theme.fs_small
        lbl.text_size = (size[0], None)  # as tall as its lines: the row grows to fit it
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

    # ------------------------------------------------------------ admin

    def on_touch_down(self, touch: Any) -> bool:
        if self.clocks is not None and self.ids.row.collide_point(*touch.pos) and not self.disabled:
            touch.ud["clock_hold"] = True
            self._cancel_hold()
            self._hold_ev = Clock.schedule_once(lambda _dt: self.open_admin(), HOLD_S)
            return True
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        if touch.ud.get("clock_hold"):
            self._cancel_hold()
            return True
        return super().on_touch_up(touch)

    def _cancel_hold(self) -> None:
        if self._hold_ev is not None:
            self._hold_ev.cancel()
            self._hold_ev = None

    def open_admin(self) -> Any:
        """The admin panel for the open table's clocks."""
        from .clock_admin import ClockAdmin

        self._hold_ev = None
        table = App.get_running_app().table
        self.admin = ClockAdmin(table, dict(self._names), on_done=self.update)
        self.admin.bind(on_dismiss=lambda *_a: setattr(self, "admin", None))
        self.admin.open()
        return self.admin

    def stop(self) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None


load_kv(__file__)
