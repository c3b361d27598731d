"""Home: start a new game, resume one in progress, see finished games and stats."""
from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.journal import JournalError

from ..kvload import load_kv
from ..presenters import home as presenter
from ..widgets.base import TCButton, TCLabel

log = logging.getLogger("companion.ui.home")


class HomeScreen(Screen):
    stats_text = StringProperty("")
    message = StringProperty("")
    resume_rows = ListProperty()
    resume_hint = StringProperty("")  # where the games the app did not reopen are
    more_below = StringProperty("")  # "▼ 1 more game below: scroll the list" where the list is cut

    def count_below(self) -> None:
        """Say under the games in progress how many are out of sight below the list's
        bottom edge (nothing once the last one shows)."""
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: self._count_below(), 0)  # after the list's layout

    def _count_below(self) -> None:
        view, box = self.ids.resume_scroll, self.ids.resume_box
        bottom = view.to_window(view.x, view.y)[1]
        below = sum(1 for w in box.children if w.to_window(w.x, w.y)[1] < bottom - 1)
        self.more_below = presenter.more_below(below)

    def on_pre_enter(self, *args: Any) -> None:
        self.reload()

    def reload(self) -> None:
        app = App.get_running_app()
        box = self.ids.resume_box
        hist = self.ids.history_box
        box.clear_widgets()
        hist.clear_widgets()
        self.message = app.journal_error or app.journal_notice
        self.resume_hint = ""
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
        damaged = app.journal.damaged  # found damaged since the open: refused, not offered again
        if damaged:
            self.message = "\n".join(m for m in (self.message, presenter.damaged_note(len(damaged))) if m)
        self.resume_rows = presenter.rows(g for g in in_progress if g.key not in damaged)
        self.resume_hint = presenter.resume_hint(len(self.resume_rows), reopens=app.demo)
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
        except JournalError as e:  # in the journal's plain words: damaged, in use, busy…
            self.message = str(e)
            self.reload_later()
        except Exception:  # never a raw exception on screen: the log has it
            log.exception("resuming game %s", key)
            self.message = presenter.RESUME_FAILED

    def reload_later(self) -> None:
        """Reload the lists once the message is shown (a damaged game leaves them)."""
        from kivy.clock import Clock

        message = self.message
        Clock.schedule_once(lambda _dt: (self.reload(), setattr(self, "message", message)), 0)


load_kv(__file__)
