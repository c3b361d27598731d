"""Basic themed widgets: buttons of at least 48 dp, labels that follow the text-size
setting, panels. Colour is never the only cue, so buttons carry words (and glyphs)."""
from __future__ import annotations

from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from ..kvload import load_kv


class TCButton(Button):
    """A button with a role: ``normal``, ``primary``, ``danger`` or ``quiet``."""

    role = StringProperty("normal")


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
