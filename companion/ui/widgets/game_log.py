"""The game log with undo: the public log, newest last; the Undo button, and when undo is
refused the reason (a roll everyone saw, another seat's action…) right beside it."""
from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv
from .base import TCLabel


class GameLog(BoxLayout):
    can_undo = BooleanProperty(False)
    undo_reason = StringProperty("")
    undo = ObjectProperty(None, allownone=True)  # set by the screen: undo() -> None
    compact = BooleanProperty(False)

    def set_lines(self, lines: list[Any], keep: int = 60) -> None:
        """Show the last ``keep`` lines. Only what changed is rebuilt (a label's texture
        is the costly part): usually one or two lines are appended per action."""
        rows = []
        for line in lines[-keep:]:
            get = line.get if isinstance(line, dict) else lambda k, d=None, o=line: getattr(o, k, d)
            rows.append((get("ply", None), str(get("text", "")), bool(get("undone", False))))
        old = getattr(self, "_rows", [])
        box = self.ids.lines
        if rows[: len(old)] == old and len(box.children) == len(old):
            new = rows[len(old):]
        else:
            box.clear_widgets()
            new = rows
        for ply, text, undone in new:
            prefix = f"{ply:>3}  " if isinstance(ply, int) else ""
            lbl = TCLabel(text=("↶ " if undone else "") + prefix + text, font_size=self._fs())
            if undone:
                lbl.color = self._muted()
            box.add_widget(lbl)
        self._rows = rows
        if new:
            Clock.schedule_once(lambda dt: setattr(self.ids.scroll, "scroll_y", 0), 0)

    def set_undo(self, can: bool, reason: str | None) -> None:
        self.can_undo = can
        self.undo_reason = "" if can else (reason or "")

    def tap_undo(self) -> None:
        if self.undo is not None:
            self.undo()

    def _fs(self) -> float:
        from kivy.app import App

        return App.get_running_app().theme.fs_small

    def _muted(self) -> Any:
        from kivy.app import App

        return App.get_running_app().theme.muted


load_kv(__file__)
