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
from .base import TCButton


class HandsPopup(ModalView):
    title = StringProperty("Whose hand?")
    hint = StringProperty("Tap your name, then take the device: only you will see your cards.")

    def __init__(self, seats: Sequence[tuple[str, str]], on_choose: Callable[[str], Any], **kw: Any) -> None:
        """``seats``: (seat id, the button's words, e.g. "▤ Ann's hand (2 cards)")."""
        self._on_choose = on_choose
        super().__init__(**kw)
        box = self.ids.seats
        for seat, label in seats:
            b = TCButton(text=label, size_hint_y=None, height=dp(56), halign="center")
            b.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(12), None)),
                   texture_size=lambda b, ts: setattr(b, "height", max(dp(56), ts[1] + dp(16))))
            b.bind(on_release=lambda _b, seat=seat: self.choose(seat))
            box.add_widget(b)

    def choose(self, seat: str) -> None:
        self.dismiss()
        self._on_choose(seat)


load_kv(__file__, "hands_popup.kv")
