"""Stepping Stones' table screen: the path of stones and the pebbles; the shared parts
(action panel, dice tray, clocks, log with undo, banner, privacy gate) are GameScreen's."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty

from companion.ui.gamescreen import GameScreen
from companion.ui.kvload import load_kv

from .presenter import StonesPresenter


class StonesScreen(GameScreen):
    path_text = StringProperty("")
    pebble_text = StringProperty("")

    def on_table_bound(self, table: Any) -> None:
        self.presenter = StonesPresenter(table)

    def draw_table(self) -> None:
        p = self.presenter
        self.turn_text = p.turn_line()
        self.prompt_text = p.prompt_line()
        self.path_text = "\n".join(p.path_lines())
        self.pebble_text = p.pebble_line()
        who = p.who(p.actors()[0]) if p.actors() else ""
        self.ids.dice.set_prompt(self.table.prompt if not p.is_over() else None, who)

    def after_refresh(self) -> None:
        if self.presenter.is_over():
            App.get_running_app().show_end()


load_kv(__file__, "stones.kv")
