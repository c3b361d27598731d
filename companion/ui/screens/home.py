"""Home: start a new game, resume one in progress, see finished games and stats."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.journal import JournalError

from ..kvload import load_kv
from ..presenters import home as presenter
from ..widgets.base import TCButton, TCLabel


class HomeScreen(Screen):
    stats_text = StringProperty("")
    message = StringProperty("")
    resume_rows = ListProperty()

    def on_pre_enter(self, *args: Any) -> None:
        self.reload()

    def reload(self) -> None:
        app = App.get_running_app()
        box = self.ids.resume_box
        hist = self.ids.history_box
        box.clear_widgets()
        hist.clear_widgets()
        self.message = app.journal_error or app.journal_notice
        if app.journal is None:
            self.stats_text = ""
            return
        try:
            in_progress, finished_games, stats = (app.journal.games(status="in-progress"),
                                                  app.journal.games(status="finished"), app.journal.stats())
        except JournalError as e:  # a journal damaged since it was opened: say so, do not crash
            self.message = str(e)
            self.stats_text = ""
            return
        self.resume_rows = presenter.rows(in_progress)
        if not self.resume_rows:
            box.add_widget(TCLabel(text="No game in progress.", color=app.theme.muted))
        for row in self.resume_rows:
            b = TCButton(text=f"▶  Resume {row.title}\n{row.players} · {row.when}", size_hint_y=None,
                         height=dp(64), halign="left")
            b.bind(on_release=lambda _b, key=row.key: self.resume(key))
            box.add_widget(b)
        finished = presenter.rows(finished_games)[:12]
        for row in finished:
            hist.add_widget(TCLabel(text=f"✔ {row.line} ({row.duration})", font_size=app.theme.fs_small))
        if not finished:
            hist.add_widget(TCLabel(text="Finished games appear here.", color=app.theme.muted))
        self.stats_text = "\n".join(presenter.stats_lines(stats))

    def resume(self, key: str) -> None:
        """Resume a game; a game open in another window, or one the journal cannot rebuild,
        is explained here instead."""
        try:
            App.get_running_app().resume_game(key)
        except JournalError as e:
            self.message = str(e)


load_kv(__file__)
