"""The card-set entry screen (RULINGS L-15): the table enters its four double-sided map
cards once — per card its cities (name, category), per side its lines and the lines that
leave the card at an edge position — checked by the rules as it goes, then saved for every
game after. The model is :mod:`.card_entry`; the card is drawn by the map widget of the map
entry (:class:`~.city_map.CityMap`) with the edge positions around it.

Open it with :func:`open_card_entry` (the setup wizard's map step does); it goes back
where it came from when done."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.graphics import Color, Line
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout

from rules.liberation import MapError
from rules.liberation.mapcards import SIDES, CardSet

from companion.ui.games.liberation.mapfiles import CARDS_FOLDER

from ...kvload import load_kv
from ...widgets.base import TCButton, TCToggle
from .card_entry import CARD_IDS, CardSetEntry, card_words
from .city_map import CityMap
from .map_entry_screen import user_folder

NAME = "liberation-map-cards"
ARROWS = {"top": "↑", "right": "→", "bottom": "↓", "left": "←"}
EDGE = 52  # dp: the strip around the card where the edge positions are


def cards_folder(app: Any) -> Path:
    """Where saved card sets live: ``liberation-map-cards/`` in the user-data folder."""
    return user_folder(app).parent / CARDS_FOLDER


def open_card_entry(card_set: CardSet | None = None, on_saved: Callable[[CardSet], None] | None = None) -> "CardSetEntryScreen":
    """Show the card-set entry, from ``card_set`` (a saved set, to correct) or from 14
    blank cities; ``on_saved(card_set)`` runs after each save."""
    app = App.get_running_app()
    if not app.sm.has_screen(NAME):
        app.sm.add_widget(CardSetEntryScreen(name=NAME))
    scr = app.sm.get_screen(NAME)
    scr.start(card_set, on_saved)
    app.go(NAME)
    return scr


class CardMap(CityMap):
    """The map widget, plus each line that leaves the card drawn from its city to the
    card's border at its edge position."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.exits: dict[str, str] = {}
        self.slots = 3

    def border_point(self, position: str) -> tuple[float, float]:
        edge, _, n = position.rpartition("-")
        f = int(n) / (self.slots + 1)
        return {"top": (f * self.width, self.height), "bottom": (f * self.width, 0.0),
                "left": (0.0, (1 - f) * self.height), "right": (self.width, (1 - f) * self.height)}[edge]

    def _place(self) -> None:
        super()._place()
        theme = App.get_running_app().theme
        for position, city in self.exits.items():
            b = self.buttons.get(city)
            if b is None:
                continue
            self._drawing.add(Color(*theme.accent))
            self._drawing.add(Line(points=[*b.center, *self.border_point(position)], width=dp(2.4)))


class CardEditor(RelativeLayout):
    """One side of one card: its cities on a :class:`CardMap`, the edge positions around it
    as buttons (``↑1``: the top edge, 1st from the left)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.map = CardMap(size_hint=(None, None))
        self.add_widget(self.map)
        self.edges: dict[str, TCButton] = {}
        self.on_edge: Callable[[str], None] | None = None
        self.bind(size=lambda *_: self._place())

    def set_positions(self, positions: list[str], slots: int) -> None:
        self.map.slots = slots
        for p in [p for p in self.edges if p not in positions]:  # a set with fewer per edge
            self.remove_widget(self.edges.pop(p))
        for p in positions:
            if p not in self.edges:
                edge, _, n = p.rpartition("-")
                b = TCButton(text=f"{ARROWS[edge]}{n}", size_hint=(None, None)).fit(dp(48), dp(48))
                b.bind(size=lambda *_: self._place())
                b.bind(on_release=lambda _b, p=p: self.on_edge and self.on_edge(p))
                self.edges[p] = b
                self.add_widget(b)
        self._place()

    def show(self, cells: Any, lines: Any, exits: dict[str, str]) -> None:
        self.map.exits = exits
        self.map.set_map(cells, lines)
        for p, b in self.edges.items():
            b.role = "primary" if p in exits else "quiet"

    def _place(self) -> None:
        # The strip around the card holds the edge buttons, which grow with the text size.
        m = max([dp(EDGE)] + [max(b.width, b.height) + dp(4) for b in self.edges.values()])
        self.map.pos = (m, m)
        self.map.size = (max(1, self.width - 2 * m), max(1, self.height - 2 * m))
        for p, b in self.edges.items():
            x, y = self.map.border_point(p)
            edge = p.rpartition("-")[0]
            cx, cy = x + m, y + m
            off = m / 2 + dp(1)
            cx += {"left": -off, "right": off}.get(edge, 0.0)
            cy += {"top": off, "bottom": -off}.get(edge, 0.0)
            b.center = (cx, cy)


class CardSetEntryScreen(Screen):
    message = StringProperty("")
    problems_text = StringProperty("")
    ready = BooleanProperty(False)
    set_name = StringProperty("")
    city_category = StringProperty("")
    city_card = StringProperty("")
    mode = StringProperty("cities")

    def start(self, card_set: CardSet | None, on_saved: Callable[[CardSet], None] | None = None) -> None:
        folder = cards_folder(App.get_running_app())
        self.entry = CardSetEntry.blank(folder) if card_set is None else CardSetEntry.from_card_set(folder, card_set)
        self._on_saved = on_saved
        editor: CardEditor = self.ids.editor
        editor.map.on_city = self.tap_city
        editor.on_edge = self.tap_edge
        editor.set_positions(self.entry.positions(), self.entry.slots)
        self._build_choosers()
        self.set_name = self.entry.name
        self.entry.message = ("Enter each map card once: its cities (name, category), then per side its lines "
                              "and the lines that leave it at an edge.")
        self.refresh()

    def _build_choosers(self) -> None:
        """The card, side and mode buttons (grow with the text size; rows wrap)."""
        theme = App.get_running_app().theme
        self._toggles: dict[str, TCToggle] = {}
        rows: list[tuple[StackLayout, list[tuple[str, str, Callable[[], None]]]]] = [
            (self.ids.cards_row, [(f"card:{c}", f"Card {c.rsplit('-', 1)[-1]}", lambda c=c: self.show(card=c)) for c in CARD_IDS]),
            (self.ids.sides_row, [(f"side:{s}", f"Side {s.upper()}", lambda s=s: self.show(side=s)) for s in SIDES]),
            (self.ids.modes_row, [("mode:cities", "✎ Cities", lambda: self.set_mode("cities")),
                                  ("mode:lines", "╱ Lines", lambda: self.set_mode("lines")),
                                  ("mode:exits", "↗ Exits", lambda: self.set_mode("exits"))]),
        ]
        for row, items in rows:
            row.clear_widgets()
            group = items[0][0].split(":")[0]
            for key, text, act in items:
                b = TCToggle(text=text, group=f"cards-{group}", allow_no_selection=False, size_hint=(None, None),
                             font_size=theme.fs_small).fit(dp(72), dp(48))
                b.bind(on_release=lambda _b, act=act: act())
                row.add_widget(b)
                self._toggles[key] = b

    def refresh(self) -> None:
        e = self.entry
        self.ids.editor.show(e.cells(), e.lines(), e.exits())
        for key, b in self._toggles.items():
            kind, _, value = key.partition(":")
            on = {"card": e.card, "side": e.side, "mode": e.mode}[kind] == value
            b.state = "down" if on else "normal"
        self.mode = e.mode
        self.message = e.message
        problems = e.problems()
        self.ready = not problems
        self.problems_text = ("✔ Ready to save: four cards, 14 cities, every category." if not problems
                              else "✖ Still to fix:\n" + "\n".join("• " + p for p in problems[:5])
                              + (f"\n… and {len(problems) - 5} more" if len(problems) > 5 else ""))
        self.ids.side_info.text = f"{card_words(e.card)}, side {e.side.upper()}: {e.side_summary(e.card, e.side)}"
        if e.names.editing:
            c = e.names.city(e.names.editing)
            self.city_category = c.category_name
            self.city_card = card_words(e.card_of[c.id])
            if self.ids.city_input.text != c.name:
                self.ids.city_input.text = c.name

    def show(self, card: str | None = None, side: str | None = None) -> None:
        self.entry.show(card, side)
        self.refresh()

    def set_mode(self, mode: str) -> None:
        self.entry.set_mode(mode)
        self.refresh()

    def tap_city(self, city: str) -> None:
        self.entry.tap(city)
        self.refresh()

    def tap_edge(self, position: str) -> None:
        self.entry.tap_edge(position)
        self.refresh()

    def rename_city(self, text: str) -> None:
        e = self.entry
        if e.names.editing and text != e.names.city(e.names.editing).name:
            e.rename(e.names.editing, text)
            self.refresh()

    def cycle_category(self) -> None:
        if self.entry.names.editing:
            self.entry.cycle_category(self.entry.names.editing)
            self.refresh()

    def cycle_card(self) -> None:
        if self.entry.names.editing:
            self.entry.cycle_card(self.entry.names.editing)
            self.refresh()

    def rename_set(self, text: str) -> None:
        self.entry.rename_set(text)
        self.set_name = text
        self.refresh()

    def save(self) -> None:
        self.rename_set(self.ids.set_name.text)
        try:
            path = self.entry.save()
        except MapError as e:
            self.entry.message = "✖ Not saved: " + " ".join(e.problems[:2])
            self.refresh()
            return
        self.refresh()
        from companion.ui.games.liberation.mapfiles import load_card_set

        cs = load_card_set(path)
        if self._on_saved is not None:
            self._on_saved(cs)

    def done(self) -> None:
        App.get_running_app().back()


load_kv(__file__, "card_entry.kv")
