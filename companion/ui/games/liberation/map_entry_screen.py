"""The map-entry screen: name the 14 cities and their categories, tap pairs of cities to
add or remove the lines between them, see what is still wrong, save the map for reuse.

Open it with :func:`open_map_entry` (from the setup wizard or anywhere): it adds itself to
the app's ScreenManager on first use and goes back where it came from when done."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from rules.liberation import MapError, MapSpec

from ...kvload import load_kv
from ...widgets.base import TCLabel
from . import city_map  # noqa: F401
from .map_entry import MapEntry, maps_folder

NAME = "liberation-map"


def user_folder(app: Any) -> Path:
    """The saved-maps folder: beside the app's settings file (the user-data folder)."""
    base = Path(getattr(app, "settings_path", "") or app.user_data_dir).parent
    return maps_folder(base)


def open_map_entry(spec: MapSpec | None = None, on_saved: Callable[[MapSpec], None] | None = None) -> "MapEntryScreen":
    """Show the map-entry screen, starting from ``spec`` (a saved map to correct, or the
    placeholder to copy) or from 14 blank cities when None; ``on_saved(spec)`` runs after a
    save."""
    app = App.get_running_app()
    if not app.sm.has_screen(NAME):
        app.sm.add_widget(MapEntryScreen(name=NAME))
    scr = app.sm.get_screen(NAME)
    scr.start(spec, on_saved)
    app.go(NAME)
    return scr


class MapEntryScreen(Screen):
    mode = StringProperty("names")
    message = StringProperty("")
    problems_text = StringProperty("")
    ready = BooleanProperty(False)
    map_name = StringProperty("")
    city_name = StringProperty("")
    city_category = StringProperty("")

    def start(self, spec: MapSpec | None, on_saved: Callable[[MapSpec], None] | None = None) -> None:
        folder = user_folder(App.get_running_app())
        self.entry = MapEntry.blank(folder, "Our map") if spec is None else MapEntry.from_spec(folder, spec)
        self._on_saved = on_saved
        self.ids.map.on_city = self.tap_city
        self.map_name = self.entry.builder.name
        self.mode = self.entry.mode
        self.entry.message = "Tap a city to name it; switch to Lines and tap two cities to add or remove a line."
        self.refresh()

    def refresh(self) -> None:
        e = self.entry
        self.ids.map.set_map(e.cells(), e.lines())
        self.message = e.message
        problems = e.problems()
        self.problems_text = ("✔ Ready to save: 14 cities, every category, all connected." if not problems
                              else "✖ Still to fix:\n" + "\n".join("• " + p for p in problems[:6])
                              + (f"\n… and {len(problems) - 6} more" if len(problems) > 6 else ""))
        self.ready = not problems
        c = e.city(e.editing)
        self.city_name = c.name
        self.city_category = c.category_name
        if self.ids.city_input.text != c.name:
            self.ids.city_input.text = c.name

    def set_mode(self, mode: str) -> None:
        self.entry.mode = self.mode = mode
        if mode == "names":
            self.entry.builder.selected = None
        self.refresh()

    def tap_city(self, city: str) -> None:
        self.entry.tap(city)
        self.refresh()

    def rename_city(self, text: str) -> None:
        if text != self.entry.city(self.entry.editing).name:
            self.entry.rename(self.entry.editing, text)
            self.refresh()

    def cycle_category(self) -> None:
        self.entry.cycle_category(self.entry.editing)
        self.refresh()

    def rename_map(self, text: str) -> None:
        self.entry.rename_map(text)
        self.map_name = text
        self.refresh()

    def save(self) -> None:
        try:
            path = self.entry.save()
        except MapError as e:
            self.entry.message = "✖ Not saved: " + " ".join(e.problems[:3])
            self.refresh()
            return
        self.refresh()
        from companion.ui.games.liberation.mapfiles import load_map

        spec = load_map(path)
        if self._on_saved is not None:
            self._on_saved(spec)

    def done(self) -> None:
        App.get_running_app().back()


load_kv(__file__, "map_entry.kv")
