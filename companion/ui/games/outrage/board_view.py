"""The Outrage! board, drawn: every square of the (reconstructed) board data on the
schematic grid of ``layout.py``, scaled to the widget; the regions by colour and a letter
legend, towers, buildings and posts marked, a Yeoman Warder (W) where one stands, a jewel
(♦) in each case still full, the pieces as their colour and glyph, the squares a move can
end on outlined. Drawn straight on canvases (232 squares as widgets made a slow screen);
a tap finds the square under the finger and calls ``on_square(square_id)``.

What never changes during a game (each square's region and marks) is drawn once into an
offscreen buffer and shown as one picture; what a move changes (warders, jewels, pieces,
the squares a move can end on) is drawn over it, square by square, and a refresh draws
again only the squares whose cell changed: a move redrew all 232 squares (33-41 ms, and
the board's whole buffer again in the next frame)."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import ClearBuffers, ClearColor, Color, Ellipse, Fbo, InstructionGroup, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ...theme import FONT
from ...widgets.cached import Picture
from .squares import Cell


# Region colours as the printed board names them (yellow walk, grey ward, pink towers),
# mixed into the theme's surface so they read on every palette.
REGION_RGB = {"wall": (0.85, 0.72, 0.25), "inner": (0.55, 0.57, 0.6), "inmost": (0.9, 0.65, 0.72),
              "white": (0.78, 0.38, 0.5), "prison": (0.45, 0.2, 0.2), "exterior": (0.3, 0.55, 0.75)}

_TEX: dict[tuple[str, float, tuple[float, ...]], Any] = {}


def _text(text: str, size: float, colour: tuple[float, ...]) -> Any:
    key = (text, round(size, 1), tuple(round(c, 3) for c in colour))
    tex = _TEX.get(key)
    if tex is None:
        if len(_TEX) > 256:
            _TEX.clear()
        lab = CoreLabel(text=text, font_name=FONT, font_size=size, color=colour, bold=True)
        lab.refresh()
        tex = _TEX[key] = lab.texture
    return tex


class OutrageBoard(Widget):
    """``set_cells(cells, cols, rows)``; ``on_square(square)`` on a tap; ``square_at(x, y)``."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.on_square: Callable[[str], None] | None = None
        self._cells: list[Cell] = []
        self._cols, self._rows = 23, 18
        # The squares' regions and marks, in a buffer of the widget's size drawn in the
        # widget's own coordinates, cleared to the screen's background (the board lies on
        # it): its picture is opaque and gives the pixels the squares drawn straight on
        # the background would.
        self._fbo = Fbo(size=(1, 1))
        with self._fbo.before:
            self._clear = ClearColor(0, 0, 0, 0)
            ClearBuffers()
        self._grounds = InstructionGroup()  # what the buffer holds (rebuilt on a new size or palette)
        self._fbo.add(self._grounds)
        self.canvas.add(self._fbo)  # renders only when its content changed
        self._picture = Picture(self.canvas, self._fbo)
        self._squares = InstructionGroup()  # each square's warder, jewel, post, outline
        self._pieces = InstructionGroup()  # the pieces, over every square
        self.canvas.add(self._squares)
        self.canvas.add(self._pieces)
        self._drawn: dict[str, tuple[Cell, InstructionGroup, InstructionGroup]] = {}
        self._drawn_for: tuple[Any, ...] = ()  # the geometry and palette the drawing is for
        self.bind(pos=self._redraw, size=self._redraw)

    def set_cells(self, cells: list[Cell], cols: int, rows: int) -> None:
        if cells == self._cells and (cols, rows) == (self._cols, self._rows):
            return  # unchanged: leave the canvas (and its buffer) alone
        self._cells, self._cols, self._rows = cells, cols, rows
        self._redraw()

    def geometry(self) -> tuple[float, float, float]:
        """(cell size, x origin, y origin): the grid centred in the widget."""
        s = min(self.width / self._cols, self.height / self._rows)
        return s, self.x + (self.width - s * self._cols) / 2, self.y + (self.height - s * self._rows) / 2

    def cell_rect(self, cell: Cell) -> tuple[float, float, float]:
        s, ox, oy = self.geometry()
        return ox + cell.col * s, oy + (self._rows - 1 - cell.row) * s, s

    def square_at(self, x: float, y: float) -> str | None:
        """The square under (x, y); a square a move can end on within a finger's width
        wins over the exact one (the cells are smaller than a fingertip at 800×480)."""
        s, ox, oy = self.geometry()
        near, near_d = None, max(dp(24), s)
        exact = None
        col, row = int((x - ox) // s), self._rows - 1 - int((y - oy) // s)
        for c in self._cells:
            if (c.col, c.row) == (col, row):
                exact = c.id
            if c.reachable:
                cx, cy, _ = self.cell_rect(c)
                d = ((cx + s / 2 - x) ** 2 + (cy + s / 2 - y) ** 2) ** 0.5
                if d <= near_d:
                    near, near_d = c.id, d
        return near or exact

    def on_touch_up(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and touch.grab_current is None and not self.disabled:
            sid = self.square_at(*touch.pos)
            if sid is not None and self.on_square is not None:
                self.on_square(sid)
                return True
        return super().on_touch_up(touch)

    def _redraw(self, *_: Any) -> None:
        """Draw what changed: everything on a new size, place, palette or grid; else the
        squares whose cell changed."""
        theme = App.get_running_app().theme
        drawn_for = (tuple(self.pos), tuple(self.size), self._cols, self._rows, theme.name, theme.scale,
                     tuple(theme.bg), tuple(theme.text), tuple(theme.muted), tuple(theme.highlight))
        cells = {c.id: c for c in self._cells}
        if drawn_for != self._drawn_for or set(cells) != set(self._drawn) or any(
                (c.col, c.row, c.region, c.mark) != (d[0].col, d[0].row, d[0].region, d[0].mark)
                for c, d in ((c, self._drawn[c.id]) for c in self._cells)):
            self._drawn_for = drawn_for
            self._draw_all(theme)
            return
        s, _ox, _oy = self.geometry()
        for c in self._cells:
            old, square, pieces = self._drawn[c.id]
            if c is not old and c != old:
                self._draw_square(square, c, s, theme)
                self._draw_pieces(pieces, c, s, theme)
                self._drawn[c.id] = (c, square, pieces)

    def _draw_all(self, theme: Any) -> None:
        self._squares.clear()
        self._pieces.clear()
        self._grounds.clear()
        self._drawn = {}
        size = (max(1, int(self.width)), max(1, int(self.height)))
        if tuple(self._fbo.size) != size:
            self._fbo.size = size  # a new texture
        self._picture.resize()
        self._picture.rect.pos = self.pos
        self._clear.rgba = theme.bg
        if not self._cells:
            self._picture.rect.size = (0, 0)  # nothing to show (the buffer is not drawn)
            return
        s, _ox, _oy = self.geometry()
        for c in self._cells:
            self._draw_ground(c, s, theme)
            square, pieces = InstructionGroup(), InstructionGroup()
            self._draw_square(square, c, s, theme)
            self._draw_pieces(pieces, c, s, theme)
            self._squares.add(square)
            self._pieces.add(pieces)
            self._drawn[c.id] = (c, square, pieces)

    def _draw_ground(self, c: Cell, s: float, theme: Any) -> None:
        """What a square always shows: its region's colour and its mark (into the buffer,
        in the widget's own coordinates)."""
        x, y, _ = self.cell_rect(c)
        x, y = x - self.x, y - self.y
        gap = max(1.0, s * 0.08)
        g = self._grounds
        r, gr, b = REGION_RGB.get(c.region, (0.5, 0.5, 0.5))
        g.add(Color(r, gr, b, 0.55 if c.mark in ("", "marked") else 0.9))
        g.add(Rectangle(pos=(x + gap / 2, y + gap / 2), size=(s - gap, s - gap)))
        if c.mark in ("tower", "building"):
            g.add(Color(*theme.text))
            g.add(Line(rectangle=(x + gap, y + gap, s - 2 * gap, s - 2 * gap), width=1))
        elif c.mark == "marked":
            g.add(Color(*theme.text[:3], 0.7))
            g.add(Line(circle=(x + s / 2, y + s / 2, s * 0.3), width=1))

    def _draw_square(self, g: InstructionGroup, c: Cell, s: float, theme: Any) -> None:
        """What a move may change on a square, over its ground: a warder (else a post's
        frame), a jewel in its case, the outline of a square a move can end on."""
        g.clear()
        x, y, _ = self.cell_rect(c)
        gap = max(1.0, s * 0.08)
        if c.warder:
            tex = _text("W", s * 0.7, (0.1, 0.1, 0.1, 1))
            g.add(Color(0.95, 0.95, 0.95, 1))
            g.add(Rectangle(pos=(x + gap, y + gap), size=(s - 2 * gap, s - 2 * gap)))
            g.add(Color(1, 1, 1, 1))
            g.add(Rectangle(texture=tex, size=tex.size, pos=(x + (s - tex.width) / 2, y + (s - tex.height) / 2)))
        elif c.mark == "post":
            g.add(Color(*theme.muted))
            g.add(Line(rectangle=(x + gap, y + gap, s - 2 * gap, s - 2 * gap), width=1, dash_length=2, dash_offset=2))
        if c.jewel:
            tex = _text("♦", s * 0.8, tuple(theme.highlight))
            g.add(Color(1, 1, 1, 1))
            g.add(Rectangle(texture=tex, size=tex.size, pos=(x + (s - tex.width) / 2, y + (s - tex.height) / 2)))
        if c.reachable:
            g.add(Color(*theme.highlight))
            g.add(Line(rectangle=(x + 1, y + 1, s - 2, s - 2), width=dp(1.5)))

    def _draw_pieces(self, g: InstructionGroup, c: Cell, s: float, theme: Any) -> None:
        """The pieces on a square (up to four, and how many more), over every square."""
        g.clear()
        if not c.pieces:
            return
        x, y, _ = self.cell_rect(c)
        n = len(c.pieces)
        d = s * (0.9 if n == 1 else 0.62)
        for i, (_sid, faction) in enumerate(c.pieces[:4]):
            px = x + (s - d) / 2 + (0 if n == 1 else (i % 2 - 0.5) * s * 0.45)
            py = y + (s - d) / 2 + (0 if n <= 2 else (0.5 - i // 2) * s * 0.45)
            g.add(Color(*theme.text))
            g.add(Ellipse(pos=(px - 1, py - 1), size=(d + 2, d + 2)))
            g.add(Color(*theme.faction_rgba(faction)))
            g.add(Ellipse(pos=(px, py), size=(d, d)))
            tex = _text(theme.glyph(faction), d * 0.75, (0.05, 0.05, 0.05, 1))
            g.add(Color(1, 1, 1, 1))
            g.add(Rectangle(texture=tex, size=tex.size, pos=(px + (d - tex.width) / 2, py + (d - tex.height) / 2)))
        if n > 4:
            tex = _text(f"+{n - 4}", s * 0.5, tuple(theme.text))
            g.add(Color(1, 1, 1, 1))
            g.add(Rectangle(texture=tex, size=tex.size, pos=(x + s - tex.width, y)))
