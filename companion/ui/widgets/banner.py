"""The rejection banner: a refused action with its message and the rule it names, until
tapped away or replaced; it hides itself after a while."""
from __future__ import annotations

from typing import Any, Callable

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv
from .drawn import draw_when


class RejectionBanner(ButtonBehavior, BoxLayout):
    message = StringProperty("")
    rule = StringProperty("")
    code = StringProperty("")
    kind = StringProperty("bad")  # bad | warn | ok
    shown = NumericProperty(0)
    seconds = NumericProperty(8)
    max_height = NumericProperty(10000)  # a screen keeps the banner off its buttons

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._hide_ev: Any = None
        # Set by the screen: player words for a message or rule (seat ids → names, no
        # option ids or ruling codes); applied to whatever the banner is asked to show.
        self.words: Callable[[str], str] = lambda text: text
        draw_when(self, "shown", lambda v: v > 0)

    def show(self, message: str, rule: str = "", code: str = "", kind: str = "bad") -> None:
        self.message, self.rule, self.code, self.kind = self.words(message), self.words(rule), code, kind
        Animation.cancel_all(self)
        Animation(shown=1, d=0.15).start(self)
        if self._hide_ev is not None:
            self._hide_ev.cancel()
        self._hide_ev = Clock.schedule_once(lambda dt: self.hide(), self.seconds)

    def show_violations(self, violations: Any) -> None:
        """Every violation of a refused action: messages joined, rules listed."""
        vs = list(violations)
        if not vs:
            return
        self.show(" ".join(v.message for v in vs), " · ".join(dict.fromkeys(v.rule for v in vs)), vs[0].code)

    def hide(self) -> None:
        Animation.cancel_all(self)
        Animation(shown=0, d=0.2).start(self)

    def on_release(self) -> None:
        self.hide()


load_kv(__file__)
