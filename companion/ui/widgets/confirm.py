"""Confirmation before an irreversible tap: "⚔ Attack Paris from Berlin? This cannot be
undone: the Attack's result will be revealed." with Cancel and the action's own button.
A modal view over the screen, so nothing else takes the tap meanwhile."""
from __future__ import annotations

from typing import Any, Callable

from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from ..kvload import load_kv


class ConfirmView(ModalView):
    question = StringProperty("")  # what the tap would do, as a question
    reason = StringProperty("")  # why it cannot be undone, in player words
    detail = StringProperty("")  # what it will do, worked out beforehand (a combat preview); optional
    confirm_text = StringProperty("Confirm")

    def __init__(self, on_confirm: Callable[[], Any], **kw: Any) -> None:
        self._on_confirm = on_confirm
        super().__init__(**kw)

    def confirm(self) -> None:
        self.dismiss()
        self._on_confirm()


load_kv(__file__, "confirm.kv")
