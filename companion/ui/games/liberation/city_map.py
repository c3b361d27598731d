"""The Liberation map: the 14 cities where the layout puts them, the lines between them,
and each city's state as colour + glyph + words (○ free, ■ occupied, ⟲ exploited, ⚔ a
target). Tapping a city calls ``on_city(city_id)``. Used by the table screen and by the
map-entry screen (where a tap picks one end of a line)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.graphics import Color, InstructionGroup, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout

from ...kvload import load_kv
from ...widgets.fit import fit_words


_HEIGHTS: dict[tuple[str, float, float], float] = {}


def _wrapped_height(text: str, font_size: float, width: float) -> float:
    """How tall ``text`` is at ``font_size``, wrapped to ``width`` (as a city button draws it)."""
    from kivy.core.text import Label as CoreLabel

    from ...theme import FONT

    key = (text, round(font_size, 1), round(width))
    if key not in _HEIGHTS:
        if len(_HEIGHTS) >= 2048:
            _HEIGHTS.clear()
        core = CoreLabel(text=text, font_size=font_size, font_name=FONT, text_size=(max(1.0, width), None),
                         halign="center", line_height=0.92, max_lines=4)
        core.refresh()
        _HEIGHTS[key] = float(core.texture.size[1]) if core.texture is not None else 0.0
    return _HEIGHTS[key]


class CityButton(ButtonBehavior, Label):
    """One city: two lines of text (glyph + name, category · state) on a state colour."""

    city_id = StringProperty("")
    state = StringProperty("free")
    selected = BooleanProperty(False)
    target = BooleanProperty(False)
    base = BooleanProperty(False)
    fill = ColorProperty((0.2, 0.2, 0.2, 1))
    ink = ColorProperty((1, 1, 1, 1))

    def on_size(self, *_a: Any) -> None:
        self._fit()

    def on_text(self, *_a: Any) -> None:
        self._fit()


    def _fit(self) -> None:
        """The text size setting's size, smaller where a word would not fit the button
        (a category was cut: "Underwo")."""
        theme = App.get_running_app().theme
        base = theme.fs_small * (0.9 if self.width < dp(118) else 1)
        size = fit_words(self.text, base, self.width - dp(8)) or dp(8)
        # Three lines at a large text size can be taller than the button (its size comes
        # from the gaps between cities): smaller still, until the lines fit its height.
        room = self.height - dp(2)
        for _ in range(4):
            high = _wrapped_height(self.text, size, self.width - dp(6))
            if high <= room or size <= dp(8):
                break
            size = max(dp(8), size * room / high * 0.97)
        self.font_size = size

    def update(self, cell: Any) -> None:
        theme = App.get_running_app().theme
        self.city_id, self.text = cell.id, cell.label
        self.state = getattr(cell, "state", "free")
        self.selected, self.target = bool(getattr(cell, "selected", False)), bool(getattr(cell, "target", False))
        self.base = bool(getattr(cell, "base", False))
        if self.state == "occupied":
            self.fill, self.ink = theme.faction_rgba("dynasty"), (0.05, 0.05, 0.05, 1)
        elif self.state == "exploited":
            self.fill, self.ink = theme.faction_rgba("dynasty", 0.55), theme.text
        else:
            self.fill, self.ink = theme.surface_hi, theme.text


class CityMap(RelativeLayout):
    """``set_map(cells, lines)``; ``on_city(city_id)`` on every tap."""

    title = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.on_city: Callable[[str], None] | None = None
        self.buttons: dict[str, CityButton] = {}
        self._cells: list[Any] = []
        self._lines: list[tuple[str, str]] = []
        self._hot: set[tuple[str, str]] = set()
        self._outlines: list[tuple[float, float, float, float]] = []
        self._picture: tuple[Any, ...] = ()  # what the lines and edges were last drawn from
        # RelativeLayout pushes its translation in canvas.before, which a kv-built widget
        # only gets after __init__: draw in self.canvas (after canvas.before, under the
        # city buttons), in a group of ours.
        self._drawing = InstructionGroup()
        self.canvas.add(self._drawing)
        self.bind(size=lambda *_: self._place())

    def set_map(self, cells: Sequence[Any], lines: Sequence[tuple[str, str]], hot: Sequence[tuple[str, str]] = (),
                outlines: Sequence[tuple[float, float, float, float]] = ()) -> None:
        """Show ``cells`` (objects with id, label, state, x, y, selected, target) and
        ``lines``; ``hot`` lines are drawn highlighted (an aimed Attack, a line just added);
        ``outlines`` are the map cards' edges (x0, y0, x1, y1 in the cells' coordinates)."""
        self._cells, self._lines, self._hot = list(cells), list(lines), set(hot)
        self._outlines = list(outlines)
        ids = {c.id for c in cells}
        for cid in list(self.buttons):
            if cid not in ids:
                self.remove_widget(self.buttons.pop(cid))
        for c in cells:
            b = self.buttons.get(c.id)
            if b is None:
                b = self.buttons[c.id] = CityButton(size_hint=(None, None))
                b.bind(on_release=lambda btn: self.on_city and self.on_city(btn.city_id))
                self.add_widget(b)
            b.update(c)
        self._place()

    def button_size(self) -> tuple[float, float]:
        """As large as the gaps between neighbouring cities allow (never under the 48 dp
        touch minimum, never over 150 × 76 dp)."""
        def gap(values: list[float]) -> float:
            vs = sorted(set(round(v, 3) for v in values))
            return min((b - a for a, b in zip(vs, vs[1:])), default=1.0)

        rows: dict[float, list[float]] = {}
        for c in self._cells:
            rows.setdefault(round(c.y, 3), []).append(c.x)
        gx = min((gap(xs) for xs in rows.values() if len(xs) > 1), default=0.25)
        gy = gap([c.y for c in self._cells])
        # Centres are spread over (size - button), so a button may take gap × (size - button).
        w = max(dp(64), min(dp(150), 0.9 * gx * self.width / (1 + 0.9 * gx)))
        h = max(dp(48), min(dp(76), 0.86 * gy * self.height / (1 + 0.86 * gy)))
        return w, h

    def _place(self) -> None:
        w, h = self.button_size()
        pad_x, pad_y = w / 2 + dp(2), h / 2 + dp(2)
        centres: dict[str, tuple[float, float]] = {}
        for c in self._cells:
            cx = pad_x + c.x * max(1.0, self.width - 2 * pad_x)
            cy = pad_y + c.y * max(1.0, self.height - 2 * pad_y)
            centres[c.id] = (cx, cy)
            b = self.buttons[c.id]
            b.size = (w, h)
            b.center = (cx, cy)
        theme = App.get_running_app().theme
        # The lines and the cards' edges are drawn again only when they or where they lie
        # changed: a refresh that changes nothing on the map leaves them (and the map's
        # buffer, which renders again whenever an instruction in it changes) alone.
        picture = (theme.name, tuple(self.size), (w, h), tuple(centres.items()), tuple(self._lines),
                   frozenset(self._hot), tuple(self._outlines))
        if picture == self._picture:
            return
        self._picture = picture
        g = self._drawing
        g.clear()
        g.add(Color(*theme.surface))
        g.add(RoundedRectangle(pos=(0, 0), size=self.size, radius=[dp(10)]))
        if self._outlines:
            # The map cards' edges, as they lie on the table (each a little inside its
            # share, so two neighbours show as two cards).
            g.add(Color(*theme.line[:3], 0.55))
            for x0, y0, x1, y1 in self._outlines:
                def px(v: float, pad: float, size: float) -> float:
                    return min(size - dp(3), max(dp(3), pad + v * (size - 2 * pad)))
                left, right = px(x0, pad_x, self.width) + dp(3), px(x1, pad_x, self.width) - dp(3)
                bottom, top = px(y0, pad_y, self.height) + dp(3), px(y1, pad_y, self.height) - dp(3)
                if right > left and top > bottom:
                    g.add(Line(rounded_rectangle=(left, bottom, right - left, top - bottom, dp(8)), width=dp(1.2)))
        for a, b in self._lines:
            if a not in centres or b not in centres:
                continue
            hot = (a, b) in self._hot or (b, a) in self._hot
            g.add(Color(*(theme.highlight if hot else theme.line)))
            g.add(Line(points=[*centres[a], *centres[b]], width=dp(3) if hot else dp(1.6)))


load_kv(__file__)
