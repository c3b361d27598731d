"""The action panel every game screen shows: the buttons for what the game waits for now,
from the presenter's :class:`~companion.ui.presenters.actions.ButtonSpec` values.

:class:`ButtonRow` lays buttons out two to a row when a label fits in half the width and
one to a row otherwise, and grows a button's height as its label wraps, so nothing is cut
at any text size. :class:`ActionPanel` holds a row of them, as tall as they are, and
rebuilds its buttons only when they change (a rebuild redraws the whole panel). It does
not scroll: the screen's side column is the one scroll area around it, the panel first
in it (a scroll area in a scroll area fought over every drag at 800×480). New choices
never scroll that column: nothing moves under a finger."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.stacklayout import StackLayout

from ..kvload import load_kv
from ..presenters.actions import ButtonSpec
from .base import TCButton

# (label, role, span, callback)
Item = tuple[str, str, str, Callable[[], None]]


class ButtonRow(StackLayout):
    """Buttons two to a row when they fit, full width when they do not; a button grows
    taller as its label wraps."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._spans: dict[int, str] = {}
        self._arrange_soon = Clock.create_trigger(lambda _dt: self._arrange(), -1)
        self.fbind("width", self._arrange_soon)

    def set_buttons(self, items: Sequence[Item]) -> None:
        self.clear_widgets()
        self._spans = {}
        for label, role, span, callback in items:
            b = TCButton(text=label, role=role, size_hint=(None, None), height=dp(52))
            if span == "tile":  # a card's words: the small size, as on the printed card
                b.font_size = App.get_running_app().theme.fs_small
            b.bind(on_release=lambda _b, cb=callback: cb())
            b.fbind("one_line_width", self._arrange_soon)
            b.fbind("texture_size", self._arrange_soon)
            self._spans[id(b)] = span
            self.add_widget(b)
        self._arrange()

    def _arrange(self) -> None:
        inner = max(dp(48), self.width - self.padding[0] - self.padding[2])
        gap = self.spacing[0]
        half = (inner - gap) / 2 - 1  # a px less: two halves and the gap fit one row
        pairable = half >= dp(110)  # a narrow panel: one button to a row
        # Tiles (a card's title and text): as many columns of at least 230 dp as fit.
        cols = max(1, int((inner + gap) // (dp(230) + gap)))
        tile = (inner - gap * (cols - 1)) / cols - 1
        for b in self.children:
            span = self._spans.get(id(b), "auto")
            if span == "tile":
                b.width = tile
                b.texture_update()
                b.height = max(dp(88), b.texture_size[1] + dp(14))
                continue
            # "auto": half when the label fits there on one line, or on two (a short
            # phrase wraps; the button grows): more buttons show without scrolling.
            fits = b.one_line_width <= half or (" " in b.text.strip() and b.one_line_width <= 2 * half - dp(36))
            paired = pairable and (span == "half" or (span == "auto" and fits))
            b.width = half if paired else inner
            # Render the label at its new width now, so the button has its final height
            # in this frame (a finger may tap it before the next).
            b.texture_update()
            b.height = max(dp(52), b.texture_size[1] + dp(14))


class ActionPanel(BoxLayout):
    """A :class:`ButtonRow` of the game's buttons; ``tap(spec)`` is called on a tap."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._shown: tuple[ButtonSpec, ...] | None = None

    def show(self, specs: Sequence[ButtonSpec], tap: Callable[[ButtonSpec], None]) -> bool:
        """Show ``specs``; returns False (and touches nothing) when they are already shown."""
        specs = tuple(specs)
        row = self.ids.row
        if specs == self._shown and len(row.children) == len(specs):
            return False
        self._shown = specs
        row.set_buttons([(s.label, s.role, s.span, (lambda s=s: tap(s))) for s in specs])
        return True

    def forget(self) -> None:
        """The next :meth:`show` rebuilds (a new game's buttons may equal the last game's)."""
        self._shown = None

    @property
    def buttons(self) -> list[Any]:
        return list(reversed(self.ids.row.children))


load_kv(__file__)
