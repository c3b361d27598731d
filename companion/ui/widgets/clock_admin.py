"""The clocks' admin panel: give a seat time back, or take time, through
``Table.adjust_clock`` (journaled), each change behind a confirmation. Opened by holding
a clock face (``SeatClocks``); what it offers comes from the Kivy-free
``presenters/clock_admin.py``."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from companion.errors import CompanionError

from ..kvload import load_kv
from ..presenters.clock_admin import STEPS, Adjustment, add_step, confirm_text, done_text
from .base import TCButton, TCLabel


class ClockAdmin(ModalView):
    """``table``: the Table; ``names``: seat id → "▲ Ann". Shows one row per seat with
    its time and the steps; a step asks for confirmation before it changes anything."""

    table = ObjectProperty(None, allownone=True)
    question = StringProperty("")  # the confirmation asked, or "" while choosing
    status = StringProperty("")  # what was done, or why nothing can be

    def __init__(self, table: Any, names: dict[str, str], on_done: Callable[[], None] | None = None, **kw: Any) -> None:
        self._names = names
        self._asked: Adjustment | None = None
        self._on_done = on_done
        super().__init__(**kw)
        self.table = table
        self._build()

    def _build(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        theme = App.get_running_app().theme
        if self.table is None or getattr(self.table, "clocks", None) is None:
            self.status = "This game has no clocks."
            return
        if str(self.table.clocks.config.mode.value) == "untimed":
            self.status = "These clocks are untimed: there is no time to give or take."
            return
        for sid, name in self._names.items():
            box.add_widget(TCLabel(text=f"{name}: {self._time(sid)}", font_size=theme.fs_body, color=theme.text))
            row = GridLayout(cols=len(STEPS), spacing=dp(4), size_hint_y=None, height=dp(52))
            for delta, label in STEPS:
                b = TCButton(text=label, role="quiet" if delta < 0 else "normal")
                b.bind(on_release=lambda _b, sid=sid, delta=delta: self.ask(sid, delta))
                row.add_widget(b)
            box.add_widget(row)

    def _time(self, seat: str) -> str:
        from companion.clocks import format_time

        return format_time(self.table.clocks.remaining(seat))

    def ask(self, seat: str, delta: float) -> None:
        """One more step tapped: steps for the same seat add up until confirmed; a step
        for another seat replaces the change not confirmed, and says so."""
        self._asked, note = add_step(self._asked, seat, delta, self._names)
        self.question = confirm_text(self._asked, self._names) if self._asked is not None else ""
        if self._asked is None:
            self.status = "The steps cancel out: nothing to change."
        elif note:
            self.status = note

    def confirm(self) -> None:
        asked, self._asked = self._asked, None
        self.question = ""
        if asked is None or self.table is None:
            return
        try:
            self.table.adjust_clock(asked.seat, asked.delta, "admin, from the clocks panel")
        except CompanionError as e:  # a closed table, untimed clocks: say why, change nothing
            self.status = str(e)
            return
        self.status = done_text(asked, self._names, self._time(asked.seat))
        self._build()
        if self._on_done is not None:
            self._on_done()

    def cancel(self) -> None:
        self._asked = None
        self.question = ""


load_kv(__file__)
