"""Several items chosen together behind the privacy gate, then confirmed: a toggle per
item (its glyph says whether it is chosen, not only its colour), a live count, and one
confirm button whose label says what it will do. The state is
:class:`~companion.ui.presenters.gate.PickState` (Kivy-free); the confirm hands the
engine's own action to the page's ``on_choose`` as a :class:`GateChoice`, so a refusal is
shown behind the gate like any other choice there."""
from __future__ import annotations

from typing import Any, Callable

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from ..kvload import load_kv
from ..presenters.actions import GateChoice
from ..presenters.gate import GatePick, PickState
from .base import TCButton, TCToggle

CHOSEN, NOT_CHOSEN = "✔", "○"


class GatePickBox(BoxLayout):
    def __init__(self, pick: GatePick, on_choose: Callable[[GateChoice], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.state = PickState(pick)
        self._on_choose = on_choose
        self.toggles: dict[str, TCToggle] = {}
        for key, words in pick.items:
            t = TCToggle(size_hint=(1, None), height=dp(52))
            t.words = words
            t.bind(on_release=lambda _t, k=key: self.toggle(k))
            t.bind(texture_size=lambda w, ts: setattr(w, "height", max(dp(52), ts[1] + dp(14))))
            self.toggles[key] = t
            self.ids.picks.add_widget(t)
        self.confirm = TCButton(role="primary", size_hint=(1, None), height=dp(52))
        self.confirm.bind(on_release=lambda _b: self.choose())
        self.confirm.bind(texture_size=lambda w, ts: setattr(w, "height", max(dp(52), ts[1] + dp(14))))
        self.add_widget(self.confirm)
        self._show()

    def toggle(self, key: str) -> None:
        self.state.toggle(key)
        self._show()

    def choose(self) -> None:
        action = self.state.action()
        if action is not None:
            self._on_choose(GateChoice(self.state.confirm_label(), action, "primary"))

    def _show(self) -> None:
        for key, t in self.toggles.items():
            chosen = self.state.is_chosen(key)
            # A ToggleButton flips its own state on a tap: set it from the model, always.
            t.state = "down" if chosen else "normal"
            t.text = f"{CHOSEN if chosen else NOT_CHOSEN} {t.words}"
        self.ids.count.text = self.state.count_line()
        self.confirm.text = self.state.confirm_label()
        self.confirm.disabled = not self.state.can_confirm()


load_kv(__file__)
