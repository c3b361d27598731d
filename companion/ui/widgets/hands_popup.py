""""Whose hand?": a page of its own over the table screen, a button per seat's hand, opened
by a game's "Hands" button. It appears where the player looks, whatever the side panel
shows or has scrolled away (issue 32: buttons added to a panel scrolled out of view made
"Hands" look dead). A tap on a seat closes it and asks that seat to the privacy gate; the
hands themselves are read only behind the gate, never here."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from ..kvload import load_kv
from ..presenters.actions import ButtonSpec
from .base import TCButton


class HandsPopup(ModalView):
    title = StringProperty("Whose hand?")
    hint = StringProperty("Tap your name, then take the device: only you will see your cards.")

    def __init__(self, buttons: Sequence[ButtonSpec], on_tap: Callable[[ButtonSpec], Any], **kw: Any) -> None:
        """``buttons``: a button per seat's hand (e.g. "▤ Ann's hand (2 cards)", or "☎ Ann's
        hand is on Ann's phone"); ``on_tap`` is given the one tapped, once the page is closed."""
        self._on_tap = on_tap
        self.buttons = list(buttons)
        super().__init__(**kw)
        box = self.ids.seats
        for spec in self.buttons:
            b = TCButton(text=spec.label, size_hint_y=None, height=dp(56), halign="center")
            b.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(12), None)),
                   texture_size=lambda b, ts: setattr(b, "height", max(dp(56), ts[1] + dp(16))))
            b.bind(on_release=lambda _b, spec=spec: self.choose(spec))
            box.add_widget(b)

    def choose(self, spec: ButtonSpec) -> None:
        # At once, not faded out: a fading page still takes (and loses) the next tap.
        self.dismiss(animation=False)
        self._on_tap(spec)


load_kv(__file__, "hands_popup.kv")
