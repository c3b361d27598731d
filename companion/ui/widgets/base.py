"""Basic themed widgets: buttons of at least 48 dp, labels that follow the text-size
setting, panels. Colour is never the only cue, so buttons carry words (and glyphs)."""
from __future__ import annotations

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from ..kvload import load_kv


class TCButton(Button):
    """A button with a role: ``normal``, ``primary``, ``danger`` or ``quiet``.

    ``one_line_width``: how wide the button must be for its longest line of text to fit
    unwrapped (with its padding), so a rule can say ``width: max(dp(130),
    self.one_line_width)`` and keep its label whole at any text size."""

    role = StringProperty("normal")
    one_line_width = NumericProperty(0)

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._measure_soon = Clock.create_trigger(lambda _dt: self._measure(), -1)
        self.fbind("text", self._measure_soon)
        self.fbind("font_size", self._measure_soon)
        self.fbind("bold", self._measure_soon)
        self._measure()

    def _measure(self) -> None:
        from kivy.core.text import Label as CoreLabel

        core = CoreLabel(font_size=self.font_size, font_name=self.font_name, bold=self.bold)
        widest = max((core.get_extents(line)[0] for line in self.text.split("\n")), default=0)
        self.one_line_width = widest + dp(24)  # the text_size margin (12) and the outline


class TCToggle(ToggleButton):
    pass


class TCLabel(Label):
    """A label that wraps to its width and grows to its text's height."""

    wrap = BooleanProperty(True)

    def __init__(self, **kw: object) -> None:
        if kw.get("wrap", True):
            kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        # A wrapping label is as tall as its text (at least one touch row is not needed:
        # labels are not touch targets).
        self.bind(texture_size=self._fit)
        self._fit()  # an empty label's texture size never changes: 0 high, not Kivy's default 100

    def _fit(self, *_: object) -> None:
        if self.wrap and self.size_hint_y is None:
            self.height = self.texture_size[1]


class Heading(Label):
    pass


class Panel(BoxLayout):
    """A padded, rounded surface."""

    fill = ColorProperty(None, allownone=True)


load_kv(__file__)
