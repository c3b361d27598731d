"""A result moment: a card over the middle of the board saying what a roll decided
("⛓ Bob is captured", "⌂ Ann captures City Bank"), in big type for the whole table, for a
few seconds or until tapped. It takes no touch outside itself, so play goes on around it."""
from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv


class MomentCard(ButtonBehavior, BoxLayout):
    title = StringProperty("")
    text = StringProperty("")
    kind = StringProperty("info")  # good | bad | info
    faction = StringProperty("")
    seconds = NumericProperty(4.0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._hide_ev: Any = None
        self._area: Any = None

    def show_over(self, host: Any, area: Any) -> None:
        """Put the card on ``host`` (the screen), centred over ``area`` (the board)."""
        self._area = area
        if self.parent is None:
            host.add_widget(self)
        self.width = min(area.width * 0.5, host.width - 16)
        self.center_x = area.center_x
        self.center_y = area.center_y
        if self._hide_ev is not None:
            self._hide_ev.cancel()
        self._hide_ev = Clock.schedule_once(lambda _dt: self.hide(), self.seconds)

    def on_height(self, *_a: Any) -> None:
        if self.parent is not None and self._area is not None:  # its text laid out: centre again
            self.center_y = self._area.center_y

    def on_release(self) -> None:
        self.hide()

    def hide(self) -> None:
        if self._hide_ev is not None:
            self._hide_ev.cancel()
            self._hide_ev = None
        if self.parent is not None:
            self.parent.remove_widget(self)


load_kv(__file__, "moment.kv")
