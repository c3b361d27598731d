"""The Outrage! board, drawn: every square of the (reconstructed) board data on the
schematic grid of ``layout.py``, scaled to the widget; the regions by colour and a letter
legend, towers, buildings and posts marked, a Yeoman Warder (W) where one stands, a jewel
(♦) in each case still full, the pieces as their colour and glyph, the squares a move can
end on outlined. Drawn straight on one canvas (232 squares as widgets made a slow
screen); a tap finds the square under the finger and calls ``on_square(square_id)``."""
from __future__ import annotations

from typing import Any, Callable

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from ...theme import FONT
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
        app = App.get_running_app()
        theme = app.theme
        self.canvas.clear()
        if not self._cells:
            return
        s, _ox, _oy = self.geometry()
        gap = max(1.0, s * 0.08)
        with self.canvas:
            for c in self._cells:
                x, y, _ = self.cell_rect(c)
                r, g, b = REGION_RGB.get(c.region, (0.5, 0.5, 0.5))
                Color(r, g, b, 0.55 if c.mark in ("", "marked") else 0.9)
                Rectangle(pos=(x + gap / 2, y + gap / 2), size=(s - gap, s - gap))
                if c.mark in ("tower", "building"):
                    Color(*theme.text)
                    Line(rectangle=(x + gap, y + gap, s - 2 * gap, s - 2 * gap), width=1)
                elif c.mark == "marked":
                    Color(*theme.text[:3], 0.7)
                    Line(circle=(x + s / 2, y + s / 2, s * 0.3), width=1)
                if c.warder:
                    Color(1, 1, 1, 1)
                    tex = _text("W", s * 0.7, (0.1, 0.1, 0.1, 1))
                    Color(0.95, 0.95, 0.95, 1)
                    Rectangle(pos=(x + gap, y + gap), size=(s - 2 * gap, s - 2 * gap))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, size=tex.size, pos=(x + (s - tex.width) / 2, y + (s - tex.height) / 2))
                elif c.mark == "post":
                    Color(*theme.muted)
                    Line(rectangle=(x + gap, y + gap, s - 2 * gap, s - 2 * gap), width=1, dash_length=2, dash_offset=2)
                if c.jewel:
                    tex = _text("♦", s * 0.8, tuple(theme.highlight))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, size=tex.size, pos=(x + (s - tex.width) / 2, y + (s - tex.height) / 2))
                if c.reachable:
                    Color(*theme.highlight)
                    Line(rectangle=(x + 1, y + 1, s - 2, s - 2), width=dp(1.5))
            for c in self._cells:
                if not c.pieces:
                    continue
                x, y, _ = self.cell_rect(c)
                n = len(c.pieces)
                d = s * (0.9 if n == 1 else 0.62)
                for i, (_sid, faction) in enumerate(c.pieces[:4]):
                    px = x + (s - d) / 2 + (0 if n == 1 else (i % 2 - 0.5) * s * 0.45)
                    py = y + (s - d) / 2 + (0 if n <= 2 else (0.5 - i // 2) * s * 0.45)
                    Color(*theme.text)
                    Ellipse(pos=(px - 1, py - 1), size=(d + 2, d + 2))
                    Color(*theme.faction_rgba(faction))
                    Ellipse(pos=(px, py), size=(d, d))
                    glyph = theme.glyph(faction)
                    tex = _text(glyph, d * 0.75, (0.05, 0.05, 0.05, 1))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, size=tex.size, pos=(px + (d - tex.width) / 2, py + (d - tex.height) / 2))
                if n > 4:
                    tex = _text(f"+{n - 4}", s * 0.5, tuple(theme.text))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, size=tex.size, pos=(x + s - tex.width, y))
