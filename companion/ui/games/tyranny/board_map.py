"""The Tyranny board map: the board data's tiles on a square grid (outer city round the
border, inner city inside), owners (colour + glyph), pieces, open tunnels, and the tiles a
roll can reach highlighted; tapping a reachable tile moves there."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_hex_from_color

from ...kvload import load_kv
from .presenter import TileCell


class TileButton(ButtonBehavior, Widget):
    tile_id = StringProperty("")
    title = StringProperty("")
    glyph = StringProperty("")
    detail = StringProperty("")
    owner = StringProperty("")
    owner_glyph = StringProperty("")
    pieces_markup = StringProperty("")
    reachable = BooleanProperty(False)
    tier = StringProperty("outer")
    owner_colour = ColorProperty((0, 0, 0, 0))

    def update(self, cell: TileCell) -> None:
        theme = App.get_running_app().theme
        self.tile_id, self.title, self.tier = cell.id, cell.short, cell.tier
        self.glyph = theme.tile_glyph(cell.kind)
        self.detail = cell.detail
        self.owner = cell.owner
        self.owner_glyph = theme.glyph(cell.owner) if cell.owner else ""
        self.owner_colour = theme.faction_rgba(cell.owner) if cell.owner else (0, 0, 0, 0)
        self.reachable = cell.reachable
        bits = []
        for _sid, label, faction in cell.pieces:
            colour = get_hex_from_color(theme.faction_rgba(faction))
            bits.append(f"[b][color={colour}]{escape_markup(label)}[/color][/b]")
        self.pieces_markup = "\n".join(bits)


class BoardMap(RelativeLayout):
    """``set_cells(cells, grid_size)`` then ``on_tile(tile_id)`` is called on every tap."""

    centre_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.on_tile: Callable[[str], None] | None = None
        self._tiles: dict[str, TileButton] = {}
        self._grid = 7
        self._cells: list[TileCell] = []
        self.bind(size=lambda *_: self._place())

    def set_cells(self, cells: list[TileCell], grid_size: int) -> None:
        self._grid = grid_size
        self._cells = cells
        for c in cells:
            tb = self._tiles.get(c.id)
            if tb is None:
                tb = self._tiles[c.id] = TileButton(size_hint=(None, None))
                tb.bind(on_release=lambda b: self.on_tile and self.on_tile(b.tile_id))
                self.add_widget(tb)
            tb.update(c)
        self._place()

    def tile(self, tile_id: str) -> TileButton:
        return self._tiles[tile_id]

    def cell_size(self) -> float:
        return min(self.width, self.height) / max(1, self._grid)

    def _place(self) -> None:
        s = self.cell_size()
        ox = (self.width - s * self._grid) / 2
        oy = (self.height - s * self._grid) / 2
        for c in self._cells:
            tb = self._tiles[c.id]
            tb.size = (s, s)
            tb.pos = (ox + c.col * s, oy + (self._grid - 1 - c.row) * s)
        centre = self.ids.get("centre")
        if centre is not None:
            inner = max(1, self._grid - 4)
            centre.size = (s * inner, s * inner)
            centre.pos = (ox + 2 * s, oy + 2 * s)


load_kv(__file__)
