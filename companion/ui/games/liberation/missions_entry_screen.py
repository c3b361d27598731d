"""The "Missions" page: the table copies each City card's mission from its printed cards
(the rulebook prints neither the words nor the cost symbols, RULINGS L-10) — the card's
words, its cost and its referee question, for each category and side — sees what the
rules refuse as it goes, saves once for every later game, or goes back to the box's
defaults. The model is :mod:`.missions_entry`.

Open it with :func:`open_missions_entry` (from the setup wizard's Liberation step): it adds
itself to the app's ScreenManager on first use and goes back where it came from when done."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout
from kivy.uix.textinput import TextInput

from ...kvload import load_kv
from ...widgets.base import TCButton, TCLabel, TCToggle
from .missions_entry import COST_WORDS, NUMBER_WORDS, QUESTION_WORDS, MissionsEntry, MissionsEntryError, Row

NAME = "liberation-missions"


def open_missions_entry(user_data: Path, current: dict[str, Any] | None,
                        on_saved: Callable[[dict[str, Any]], None] | None = None) -> "MissionsEntryScreen":
    """Show the page, pre-filled with ``current`` (the missions table the game would use);
    ``on_saved(option)`` runs after a save with the table saved (the ``missions`` option)."""
    app = App.get_running_app()
    if not app.sm.has_screen(NAME):
        app.sm.add_widget(MissionsEntryScreen(name=NAME))
    scr = app.sm.get_screen(NAME)
    scr.start(MissionsEntry.load(user_data, current), on_saved)
    app.go(NAME)
    return scr


class MissionsEntryScreen(Screen):
    message = StringProperty("")
    ready = BooleanProperty(True)

    def start(self, entry: MissionsEntry, on_saved: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.entry = entry
        self._on_saved = on_saved
        self.fields: dict[tuple[str, str], dict[str, Any]] = {}
        self._build()
        self.refresh("Copy each mission from your City cards: its words, its cost, and the question it lets you ask "
                     "the referee. Save once; every later game uses them.")

    def _build(self) -> None:
        box = self.ids.rows
        box.clear_widgets()
        self.fields = {}
        for row in self.entry.rows():
            box.add_widget(self._row(row))
        self.ids.scroll.scroll_y = 1

    def _row(self, row: Row) -> BoxLayout:
        theme = App.get_running_app().theme
        key = (row.category, row.side)
        panel = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_y=None, padding=(0, dp(6), 0, dp(10)))
        panel.bind(minimum_height=panel.setter("height"))
        title = TCLabel(text=row.title)
        title.bold, title.color = True, theme.highlight  # after the class's kv rule, which sets them from the theme
        panel.add_widget(title)
        words = TextInput(text=row.text, hint_text="The card’s words, as printed", multiline=True, write_tab=False,
                          font_size=theme.fs_small, size_hint_y=None, height=theme.fs_small * 4.6 + dp(16),
                          padding=[dp(8), dp(8)])
        words.bind(text=lambda _w, text, key=key: self._words(key, text))
        panel.add_widget(words)
        panel.add_widget(TCLabel(text="Cost:", font_size=theme.fs_small, color=theme.muted))
        costs = StackLayout(spacing=dp(6), size_hint_y=None)
        costs.bind(minimum_height=costs.setter("height"))
        for cost, said in COST_WORDS.items():
            b = TCToggle(text=said, group=f"mission-cost-{row.category}-{row.side}", allow_no_selection=False,
                         state="down" if cost == row.cost else "normal", size_hint=(None, None),
                         font_size=theme.fs_small).fit(dp(150), dp(48))
            b.bind(on_release=lambda _b, key=key, cost=cost: (self.entry.set_cost(*key, cost), self.refresh()))
            costs.add_widget(b)
        panel.add_widget(costs)
        panel.add_widget(TCLabel(text="Referee question:", font_size=theme.fs_small, color=theme.muted))
        questions = StackLayout(spacing=dp(6), size_hint_y=None)
        questions.bind(minimum_height=questions.setter("height"))
        for kind_, said in QUESTION_WORDS.items():
            b = TCToggle(text=said, group=f"mission-question-{row.category}-{row.side}", allow_no_selection=False,
                         state="down" if kind_ == row.question else "normal", size_hint=(None, None),
                         font_size=theme.fs_small).fit(dp(150), dp(48), dp(520))
            b.bind(on_release=lambda _b, key=key, kind_=kind_: self._question(key, kind_))
            questions.add_widget(b)
        panel.add_widget(questions)
        number_row = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(48))
        number = TextInput(text=row.number, multiline=False, write_tab=False, font_size=theme.fs_small,
                           size_hint_x=None, width=dp(80), padding=[dp(8), dp(10)])
        number.bind(text=lambda _w, text, key=key: (self.entry.set_number(*key, text), self.refresh()))
        number_row.add_widget(number)
        number_label = TCLabel(text="", font_size=theme.fs_small, color=theme.muted, wrap=False,
                               halign="left", valign="middle")
        number_label.bind(size=lambda w, s: setattr(w, "text_size", s))
        number_row.add_widget(number_label)
        panel.add_widget(number_row)
        self.fields[key] = {"words": words, "number": number, "number_label": number_label, "number_row": number_row}
        self._show_number(key)
        return panel

    def _show_number(self, key: tuple[str, str]) -> None:
        """The question's number (how many Cities, or steps) only for a question that has one."""
        f = self.fields[key]
        kind_ = self.entry.row(*key).question
        row = f["number_row"]
        row.height, row.opacity, row.disabled = (dp(48), 1, False) if kind_ else (0, 0, True)
        f["number_label"].text = NUMBER_WORDS.get(kind_, "")

    def _words(self, key: tuple[str, str], text: str) -> None:
        self.entry.set_text(*key, text)
        self.refresh()

    def _question(self, key: tuple[str, str], kind_: str) -> None:
        self.entry.set_question(*key, kind_)
        f = self.fields[key]
        number = self.entry.row(*key).number
        if f["number"].text != number:
            f["number"].text = number
        self._show_number(key)
        self.refresh()

    def refresh(self, message: str = "") -> None:
        problems = self.entry.problems()
        self.ready = not problems
        if problems:
            self.message = "✖ Still to fix:\n" + "\n".join("• " + p for p in problems[:4]) + (
                f"\n… and {len(problems) - 4} more" if len(problems) > 4 else "")
        else:
            self.message = message or "✔ Ready to save: every later game uses these missions."

    def back_to_the_box(self) -> None:
        self.entry.back_to_the_box()
        self._build()
        self.refresh("↺ The box’s defaults are in every field: ✔ Save to use them in every later game.")

    def save(self) -> None:
        try:
            self.entry.save()
        except MissionsEntryError as e:
            self.ready = False
            self.message = "✖ Not saved: " + " ".join(e.problems[:3])
            return
        except OSError as e:  # a full or read-only card: say so, keep every field as entered
            self.message = f"✖ Not saved: the app could not write its file ({e.strerror or e})."
            return
        self.message = "✔ Saved: every later game uses these missions."
        if self._on_saved is not None:
            self._on_saved(self.entry.option())

    def done(self) -> None:
        App.get_running_app().back()


load_kv(__file__, "missions_entry.kv")
