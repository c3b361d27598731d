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


class Heading(Label):
    pass


class Panel(BoxLayout):
    """A padded, rounded surface."""

    fill = ColorProperty(None, allownone=True)


load_kv(__file__)
