"""Settings: palette (the default is safe for colour-blind players; colour is never the
only cue), sound cues, keep the screen awake, text size."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout

from ..kvload import load_kv
from ..presenters.palette import palette_names
from ..presenters.settings import TEXT_SCALES
from ..widgets.base import Heading, TCButton, TCLabel, TCToggle


class SettingsScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        self.build_rows()

    def _row(self) -> StackLayout:
        row = StackLayout(spacing=dp(6), size_hint_y=None)
        row.bind(minimum_height=row.setter("height"))
        return row

    def build_rows(self) -> None:
        app = App.get_running_app()
        s = app.settings
        box = self.ids.content
        box.clear_widgets()
        box.add_widget(Heading(text="Colours"))
        row = self._row()
        for name, title in palette_names():
            b = TCToggle(text=title, group="palette", state="down" if name == s.palette else "normal",
                         allow_no_selection=False, size_hint=(None, None)).fit(dp(250), dp(52))
            b.bind(on_release=lambda _b, name=name: self.change(palette=name))
            row.add_widget(b)
        box.add_widget(row)
        box.add_widget(TCLabel(text=f"Factions: {app.theme.label('cops')}, {app.theme.label('criminals')} — every colour comes with a glyph and a name.",
                               color=app.theme.muted, font_size=app.theme.fs_small))
        box.add_widget(Heading(text="Text size"))
        row = self._row()
        for scale in TEXT_SCALES:
            b = TCToggle(text=f"Aa {int(scale * 100)} %", group="scale", state="down" if scale == s.text_scale else "normal",
                         allow_no_selection=False, size_hint=(None, None)).fit(dp(130), dp(52))
            b.bind(on_release=lambda _b, scale=scale: self.change(text_scale=scale))
            row.add_widget(b)
        box.add_widget(row)
        box.add_widget(Heading(text="Table"))
        row = self._row()
        for key, on_text, off_text in (("sound", "♪ Sound cues on", "♪ Sound cues off"),
                                       ("keep_awake", "☀ Keep the screen awake", "☀ Screen may sleep")):
            val = getattr(s, key)
            b = TCToggle(text=on_text if val else off_text, state="down" if val else "normal",
                         size_hint=(None, None)).fit(dp(260), dp(52))
            b.bind(on_release=lambda _b, key=key: self.change(**{key: not getattr(App.get_running_app().settings, key)}))
            row.add_widget(b)
        box.add_widget(row)
        tour = TCButton(text="? Show the table tour again" if s.tour_seen else "? The table tour shows on the next game",
                        size_hint=(None, None), disabled=not s.tour_seen).fit(dp(300), dp(52))
        tour.bind(on_release=lambda _b: self.change(tour_seen=False))
        box.add_widget(tour)

    def change(self, **changes: Any) -> None:
        app = App.get_running_app()
        app.apply_settings(app.settings.with_changes(**changes))
        self.build_rows()


load_kv(__file__)
