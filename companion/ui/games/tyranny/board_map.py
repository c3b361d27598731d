"""The Tyranny board map: the board data's tiles on a square grid (outer city round the
border, inner city inside), owners (colour + glyph), pieces, open tunnels, and the tiles a
roll can reach highlighted; tapping a reachable tile moves there."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, InstructionGroup, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_hex_from_color

from ...kvload import load_kv
from ...widgets.cached import IntoBuffer, Picture
from ...theme import FONT
from ...widgets.fit import fit_words
from .presenter import TileCell

MIN_TEXT_TILE = dp(24)  # px: a tile narrower than this shows no text


_TEXTURES: dict[tuple[Any, ...], Any] = {}
_TEXTURES_MAX = 512


def _text(text: str, markup: bool = False, **options: Any) -> Any:
    """A text texture, shared by every tile showing the same text the same way (many
    tiles read "Gains", "Gamble", the same glyphs or the same price): each distinct one
    is rendered and uploaded once, not once per tile and again at every highlight."""
    key = (text, markup, tuple(sorted(options.items())))
    texture = _TEXTURES.get(key)
    if texture is None:
        if len(_TEXTURES) >= _TEXTURES_MAX:
            _TEXTURES.clear()  # a palette or text-size change: start again
        label = (MarkupLabel if markup else CoreLabel)(text=text, font_name=FONT, **options)
        label.refresh()
        texture = _TEXTURES[key] = label.texture
    return texture


def _show(group: InstructionGroup, parts: tuple[Any, ...], shown: bool) -> None:
    """Put ``parts`` into ``group`` while ``shown``, take them out while not."""
    if shown and not group.children:
        for part in parts:
            group.add(part)
    elif not shown and group.children:
        group.clear()


class TileButton(ButtonBehavior, Widget):
    """One tile, drawn straight on its canvas (no child Label widgets: a board has dozens
    of tiles and widget-per-text made opening a game slow). ``text`` carries the tile's
    name and pieces in plain words, for accessibility tools and tests."""

    tile_id = StringProperty("")
    text = StringProperty("")
    reachable = BooleanProperty(False)
    tier = StringProperty("outer")
    owner = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._cell: TileCell | None = None
        self._shown: tuple[Any, ...] = ()  # the cell and theme update() last drew
        self._texts: tuple[Any, ...] = ()
        self._rendered_for: tuple[Any, ...] = ()
        with self.canvas:
            self._bg_colour = Color(0, 0, 0, 0)
            self._bg = RoundedRectangle(radius=[dp(5)], segments=3)
            # The owner's strip, the outline and the line under the name are drawn only
            # while they show (an owned tile; a reachable or pressed one; pieces or a
            # detail): in the board's buffer every drawing costs its share of each render
            # of the board, seen or not.
            self._owner_part = InstructionGroup()
            self._line_part = InstructionGroup()
            Color(1, 1, 1, 1)
            self._glyph = Rectangle()
            self._name = Rectangle()
            self._body_part = InstructionGroup()  # the pieces, or the detail line when it has words
        self._pieces = Rectangle()
        self._body_shown = False
        self._owner_colour = Color(0, 0, 0, 0)
        self._owner = Rectangle()
        self._line_colour = Color(0, 0, 0, 0)
        self._line = Line(width=dp(1))
        # A board settles its size over several layout passes before a frame: the text
        # textures are made just before the frame is drawn, not at every pass. The
        # trigger hops once more (to the back of the before-frame queue) so that the
        # layouts queued meanwhile settle first; the first frame otherwise rendered every
        # tile's text twice, at an interim size and at the final one.
        self._render_now = Clock.create_trigger(self._layout_rendered, -1)
        self._render_trigger = Clock.create_trigger(lambda _dt: self._render_now(), -1)
        self.bind(pos=self._layout, size=self._layout, state=self._layout)

    def update(self, cell: TileCell) -> None:
        theme = App.get_running_app().theme
        shown = (cell, theme.name, theme.scale)
        if shown == self._shown:
            # Unchanged: setting the same colours again would still mark the board's
            # buffer for a redraw (every refresh, for every tile).
            return
        self._shown = shown
        self._cell = cell
        self.tile_id, self.tier, self.owner, self.reachable = cell.id, cell.tier, cell.owner, cell.reachable
        names = " ".join(label for _sid, label, _f in cell.pieces)
        self.text = cell.short + (f"\n{names}" if names else "")
        self._bg_colour.rgba = theme.surface_hi if cell.tier == "outer" else theme.surface
        self._owner_colour.rgba = theme.faction_rgba(cell.owner) if cell.owner else (0, 0, 0, 0)
        _show(self._owner_part, (self._owner_colour, self._owner), bool(cell.owner))
        self._layout()

    def _render(self) -> None:
        """Make the three text textures for the tile's current content and size."""
        cell = self._cell
        if cell is None or self.width < MIN_TEXT_TILE:
            # Too small for any text: the board's size before its first layout (Kivy's
            # default 100 px over 7 tiles); rendering there only to render again at the
            # real size made 80 text renders of the first frame instead of 40.
            return
        theme = App.get_running_app().theme
        key = self._key()
        if key == self._rendered_for:
            return
        self._rendered_for = key
        w = self.width
        # The text size setting reaches the tiles as far as a tile has room: at large text
        # the name wraps on two lines (it was cut: "Police St…") and takes the room of
        # the detail line, which a tap on the tile still gives in full.
        big = theme.scale > 1.25
        grow = min(theme.scale, 1.4)
        glyph = theme.tile_glyph(cell.kind) + (f"   {theme.glyph(cell.owner)}" if cell.owner else "") + ("  →" if cell.reachable else "")
        head = _text(glyph, font_size=max(dp(10), min(dp(16), w * 0.2)), bold=True,
                     color=tuple(theme.highlight if cell.reachable else theme.text))
        name_fs = max(dp(9), min(dp(14) * grow, w * 0.145 * grow))
        if cell.pieces:
            bits = []
            for _sid, label, faction in cell.pieces:
                colour = get_hex_from_color(theme.faction_rgba(faction))
                bits.append(f"[b][color={colour}]{escape_markup(label)}[/color][/b]")
            body = _text("\n".join(bits), markup=True, font_size=max(dp(9), min(dp(13), w * 0.13)),
                         text_size=(w - dp(4), None), halign="center", max_lines=2)
        else:
            body = _text("" if big else cell.detail, font_size=max(dp(9), min(dp(13), w * 0.13)), color=tuple(theme.muted),
                         text_size=(w - dp(4), None), halign="center", shorten=True)
        # Two lines, split between words, where the tile has the height for them beside
        # its glyph and the line below; else one line, cut.
        room = self.height - head.height - body.height - dp(10)
        fitted = fit_words(cell.short, name_fs, w - dp(6))
        two = None if fitted is None else _text(cell.short, font_size=fitted, color=tuple(theme.text),
                                                text_size=(w - dp(4), None), halign="center", max_lines=2)
        name = two if two is not None and two.height <= room else _text(cell.short, font_size=name_fs, color=tuple(theme.text), text_size=(w - dp(4), None),
                                                    halign="center", shorten=True, shorten_from="right")
        self._texts = (head, name, body)
        self._body_shown = bool(cell.pieces) or bool(cell.detail and not big)

    def _key(self) -> tuple[Any, ...]:
        theme = App.get_running_app().theme
        return (self._cell, self.width, self.height, theme.name, theme.scale)

    def _layout_rendered(self, *_: Any) -> None:
        self._render()
        self._layout()

    def _layout(self, *_: Any) -> None:
        if self._cell is None:
            return
        if self._key() != self._rendered_for:
            self._render_trigger()
        theme = App.get_running_app().theme
        x, y, w, h = self.x, self.y, self.width, self.height
        self._bg.pos, self._bg.size = (x + dp(1), y + dp(1)), (w - dp(2), h - dp(2))
        self._owner.pos, self._owner.size = (x + dp(1), y + h - dp(6)), (w - dp(2), dp(5))
        reach = self._cell.reachable
        self._line_colour.rgba = theme.highlight if reach else (1, 1, 1, 0.18 if self.state == "down" else 0)
        _show(self._line_part, (self._line_colour, self._line), reach or self.state == "down")
        self._line.width = dp(2.5) if reach else dp(1)
        self._line.rounded_rectangle = (x + dp(2), y + dp(2), w - dp(4), h - dp(4), dp(5), 3)
        if not self._texts:
            return
        head, name, body = self._texts
        _show(self._body_part, (self._pieces,), self._body_shown)
        for rect, tex, (tx, ty) in (
            (self._glyph, head, (x + dp(3), y + h - dp(6) - head.height)),
            (self._name, name, (x + (w - name.width) / 2, y + h * 0.51 - name.height / 2)),
            (self._pieces, body, (x + (w - body.width) / 2, y + dp(3))),
        ):
            rect.texture = tex
            rect.size = tex.size
            rect.pos = (tx, ty)


class BoardMap(IntoBuffer, RelativeLayout):  # tiles draw into the board's buffer
    """``set_cells(cells, grid_size)`` then ``on_tile(tile_id)`` is called on every tap.

    The tiles are drawn into an offscreen buffer (an Fbo) that is drawn as one picture:
    Kivy redraws the whole window for every frame, and the board's few hundred drawing
    instructions were most of each frame's cost in software GL even when nothing on the
    board had changed (a die shown in the tray). The Fbo renders its contents again only
    when one of them changes. It is cleared to the screen's background colour, so the
    picture is opaque and composites exactly as the tiles would."""

    centre_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        # The buffer must exist before the kv rule adds the centre label (in __init__).
        self._fbo: Fbo | None = None
        fbo = Fbo(size=(1, 1))
        with fbo:
            self._clear_colour = ClearColor(0, 0, 0, 0)
            ClearBuffers()
        super().__init__(**kw)
        self._fbo = fbo
        self._adopt_children()
        self.canvas.add(fbo)  # renders (only when changed) before the picture is drawn
        self._picture = Picture(self.canvas, fbo)
        theme = App.get_running_app().theme
        self._clear_colour.rgba = theme.bg
        theme.bind(bg=lambda _t, v: setattr(self._clear_colour, "rgba", v))
        self.on_tile: Callable[[str], None] | None = None
        self._tiles: dict[str, TileButton] = {}
        self._grid = 7
        self._cells: list[TileCell] = []
        self.bind(size=lambda *_: self._place())
        self.bind(size=self._resize_picture)

    def _adopt_children(self) -> None:
        """Move the canvases of children added before the buffer existed into it."""
        assert self._fbo is not None
        for child in reversed(self.children):
            if child.canvas in self.canvas.children:
                self.canvas.remove(child.canvas)
                self._fbo.add(child.canvas)

    def _resize_picture(self, *_: Any) -> None:
        assert self._fbo is not None
        size = (max(1, int(self.width)), max(1, int(self.height)))
        if tuple(self._fbo.size) != size:
            self._fbo.size = size  # a new texture
        self._picture.resize()

    def set_cells(self, cells: list[TileCell], grid_size: int) -> None:
        places = (grid_size, [(c.id, c.col, c.row) for c in cells])
        moved = places != (self._grid, [(c.id, c.col, c.row) for c in self._cells])
        self._grid = grid_size
        self._cells = cells
        for c in cells:
            tb = self._tiles.get(c.id)
            if tb is None:
                moved = True
                tb = self._tiles[c.id] = TileButton(size_hint=(None, None))
                tb.bind(on_release=lambda b: self.on_tile and self.on_tile(b.tile_id))
                self.add_widget(tb)
            tb.update(c)
        if moved:
            self._place()  # a new board: else every tile keeps its place (a resize places them)

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
