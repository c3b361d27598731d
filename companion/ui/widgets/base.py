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


# The widest line of a label's text, by (text, size, font, bold): a button given the same
# words again (a panel shown anew, a seat's button every turn) is not measured again.
_WIDEST: dict[tuple[str, float, str, bool], float] = {}
_WIDEST_KEPT = 4096


class FitsText:
    """Mixin for buttons: ``one_line_width`` is how wide the button must be for its
    longest line of text to fit unwrapped (with its padding), so a rule can say
    ``width: max(dp(130), self.one_line_width)`` and keep its label whole at any text
    size; :meth:`fit` does the same for a button made in Python, and grows its height
    when the text must wrap."""

    one_line_width = NumericProperty(0)

    def _watch_text(self) -> None:
        self._measure_soon = Clock.create_trigger(lambda _dt: self._measure(), -1)
        for prop in ("text", "font_size", "bold"):
            self.fbind(prop, self._measure_soon)  # type: ignore[attr-defined]
        self._measure()

    def _measure(self) -> None:
        key = (self.text, self.font_size, self.font_name, self.bold)  # type: ignore[attr-defined]
        widest = _WIDEST.get(key)
        if widest is None:
            from kivy.core.text import Label as CoreLabel

            core = CoreLabel(font_size=self.font_size, font_name=self.font_name, bold=self.bold)  # type: ignore[attr-defined]
            widest = max((core.get_extents(line)[0] for line in self.text.split("\n")), default=0)  # type: ignore[attr-defined]
            if len(_WIDEST) >= _WIDEST_KEPT:
                _WIDEST.clear()
            _WIDEST[key] = widest
        self.one_line_width = widest + dp(24)  # the text_size margin (12) and the outline

    def fit(self, min_width: float, min_height: float, max_width: float | None = None) -> "FitsText":
        """Size (with ``size_hint`` None) to the text: at least ``min_width`` × ``min_height``,
        wider to keep one line up to ``max_width`` and its parent's width (less a margin),
        then taller as the text wraps."""
        def size(*_a: object) -> None:
            limit = max_width
            parent = self.parent  # type: ignore[attr-defined]
            if parent is not None and parent.width > min_width:
                room = parent.width - dp(16)
                limit = min(limit, room) if limit else room
            w = max(min_width, self.one_line_width)
            self.width = min(w, limit) if limit else w  # type: ignore[attr-defined]
            self.height = max(min_height, self.texture_size[1] + dp(14))  # type: ignore[attr-defined]

        def watch_parent(*_a: object) -> None:
            if self.parent is not None:  # type: ignore[attr-defined]
                self.parent.fbind("width", size)  # type: ignore[attr-defined]
            size()

        self.fbind("one_line_width", size)  # type: ignore[attr-defined]
        self.fbind("texture_size", size)  # type: ignore[attr-defined]
        self.fbind("parent", watch_parent)  # type: ignore[attr-defined]
        size()
        return self


class TCButton(FitsText, Button):
    """A button with a role: ``normal``, ``primary``, ``danger`` or ``quiet``."""

    role = StringProperty("normal")

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._watch_text()


class TCToggle(FitsText, ToggleButton):
    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self._watch_text()


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
