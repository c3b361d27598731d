"""Liberation's part of the setup wizard: which map (a saved map of the table's, or the
labelled placeholder), and a way to enter a new map or correct the chosen one. Called by the
wizard's house-rules step (``SETUP`` in this package's ``__init__``)."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.stacklayout import StackLayout

from ...widgets.base import TCButton, TCLabel, TCToggle
from .map_entry import map_choices
from .map_entry_screen import open_map_entry, user_folder


def add_map_choice(screen: Any, box: Any) -> None:
    """Add the map choice to the setup wizard's ``box``; the choice sets ``options["map"]``."""
    theme = App.get_running_app().theme
    choices = map_choices(user_folder(App.get_running_app()))
    current = (screen.model.options.get("map") or {}).get("id", "placeholder")
    chosen = next((c for c in choices if c.id == current), choices[-1])
    box.add_widget(TCLabel(text="The map in use: the 14 cities and their lines (RULINGS L-01). Enter your printed map once; it is saved for next time."))
    row = StackLayout(spacing=dp(6), size_hint_y=None)
    row.bind(minimum_height=row.setter("height"))
    for c in choices:
        b = TCToggle(text=c.label, group="liberation-map", state="down" if c is chosen else "normal", allow_no_selection=False,
                     size_hint=(None, None), size=(dp(300), dp(52)), font_size=theme.fs_small)
        b.bind(on_release=lambda _b, c=c: _choose(screen, c.option))
        row.add_widget(b)
    new = TCButton(text="✎ Enter a new map…", size_hint=(None, None), size=(dp(220), dp(52)))
    new.bind(on_release=lambda _b: _enter(screen, None))
    row.add_widget(new)
    edit = TCButton(text="✎ Copy the placeholder…" if chosen.spec.placeholder else "✎ Correct this map…",
                    size_hint=(None, None), size=(dp(220), dp(52)))
    edit.bind(on_release=lambda _b: _enter(screen, chosen.spec))
    row.add_widget(edit)
    box.add_widget(row)
    if chosen.spec.placeholder:
        box.add_widget(TCLabel(text="⚠ The placeholder map is invented (the printed map was never published): use it to try the game.",
                               color=theme.warn, font_size=theme.fs_small))


def _choose(screen: Any, option: dict[str, Any]) -> None:
    screen.model.options["map"] = option
    screen._check()


def _enter(screen: Any, spec: Any) -> None:
    from rules.liberation import dump_map

    def saved(new_spec: Any) -> None:
        screen.model.options["map"] = dump_map(new_spec)  # the new map is the one in use

    screen.keep_once = True
    open_map_entry(spec, on_saved=saved)
