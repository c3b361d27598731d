"""Simultaneous secret choices on one shared device: each seat in turn goes behind the
privacy gate, picks, and commits; the screen shows only who has committed (never what)
until every seat has, then the game reveals all choices together."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.stacklayout import StackLayout

from ..kvload import load_kv
from .base import TCButton, TCLabel

Choice = tuple[str, Any]  # (label shown behind the gate, value committed)


class SecretCommit(BoxLayout):
    purpose = StringProperty("")
    status = StringProperty("")
    gate = ObjectProperty(None, allownone=True)  # the screen's PrivacyGate

    def set_request(self, purpose: str, seats: Sequence[tuple[str, str, str]], committed: set[str] | frozenset[str],
                    choices_for: Callable[[str], Sequence[Choice]], commit: Callable[[str, Any], bool]) -> None:
        """``seats``: (id, name, faction); ``choices_for(seat)`` is called behind the gate only."""
        self.purpose = purpose
        theme = App.get_running_app().theme
        row = self.ids.seats
        row.clear_widgets()
        waiting = [s for s in seats if s[0] not in committed]
        for sid, name, faction in seats:
            done = sid in committed
            b = TCButton(text=f"{'✔' if done else '○'} {theme.glyph(faction)} {name}\n{'committed' if done else 'tap to choose'}",
                         disabled=done, size_hint=(None, None), size=(dp(170), dp(64)))
            b.bind(on_release=lambda _b, sid=sid, name=name, faction=faction: self._open(sid, f"{name} ({theme.label(faction)})", choices_for, commit))
            row.add_widget(b)
        self.status = f"{len(seats) - len(waiting)} of {len(seats)} committed — choices are revealed together."

    def _open(self, seat: str, who: str, choices_for: Callable[[str], Sequence[Choice]], commit: Callable[[str, Any], bool]) -> None:
        if self.gate is None:
            return

        def build() -> Any:
            box = BoxLayout(orientation="vertical", spacing=dp(6))
            box.add_widget(TCLabel(text=f"Your secret choice: {self.purpose}"))
            grid = StackLayout(spacing=dp(6))
            for label, value in choices_for(seat):
                b = TCButton(text=label, size_hint=(None, None), size=(dp(180), dp(56)))
                b.bind(on_release=lambda _b, value=value: self._commit(seat, value, commit))
                grid.add_widget(b)
            box.add_widget(grid)
            return box

        self.gate.open_for(seat, who, build, purpose=self.purpose)

    def _commit(self, seat: str, value: Any, commit: Callable[[str, Any], bool]) -> None:
        ok = commit(seat, value)
        if ok and self.gate is not None:
            self.gate.close()


load_kv(__file__)
