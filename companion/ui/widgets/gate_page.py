"""A page behind the privacy gate: a seat's hand, its choices (one tap each, or several
items picked together then confirmed: ``widgets/gate_pick.py``), the card it drew…, built
from the presenter's :class:`~companion.ui.presenters.actions.GateSection` values only
after the gate's hold (GameScreen.open_private passes the builder to the gate).

A refused choice is shown at the top of the page, behind the gate (the refusal may quote
a hidden card), and the page scrolls up to it."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from kivy.app import App
from kivy.uix.scrollview import ScrollView

from ..kvload import load_kv
from ..presenters.actions import GateChoice, GateLine, GateSection
from .action_panel import ButtonRow
from .base import TCLabel
from .gate_pick import GatePickBox


class GatePage(ScrollView):
    def __init__(self, on_choose: Callable[[GateChoice], None], **kw: Any) -> None:
        super().__init__(**kw)
        self._on_choose = on_choose

    def show(self, sections: Sequence[GateSection]) -> "GatePage":
        box = self.ids.box
        # ids hold weak proxies: ``w is not self.ids.refusal`` is always true, so a page
        # shown again would drop (and lose) its refusal label. Compare by uid.
        keep = self.ids.refusal.uid
        for w in list(box.children):
            if w.uid != keep:
                box.remove_widget(w)
        for section in sections:
            if section.title:
                box.add_widget(self._label(GateLine(section.title, tone="accent"), bold=True))
            for line in section.lines:
                box.add_widget(self._label(line))
            if section.choices:
                row = ButtonRow(size_hint_y=None, spacing=self.ids.box.spacing)
                row.bind(minimum_height=row.setter("height"))
                row.set_buttons([(c.label, c.role, c.span, (lambda c=c: self._on_choose(c))) for c in section.choices])
                box.add_widget(row)
            if section.pick is not None:  # several items, one confirm (a mulligan)
                box.add_widget(GatePickBox(section.pick, on_choose=self._on_choose))
        return self

    def refuse(self, text: str) -> None:
        """Show why a choice was refused, above everything, and scroll up to it."""
        self.ids.refusal.text = "✖ " + text
        self.scroll_y = 1

    def _label(self, line: GateLine, bold: bool = False) -> TCLabel:
        theme = App.get_running_app().theme
        w = TCLabel(text=line.text, markup=line.markup, bold=bold)
        # Set after construction: the class's kv rule binds colour and size to the theme.
        if line.tone.startswith("faction:"):
            w.color = theme.faction_rgba(line.tone.split(":", 1)[1])
        else:
            w.color = getattr(theme, line.tone)
        w.font_size = {"small": theme.fs_small, "large": theme.fs_large}.get(line.size, theme.fs_body)
        return w


load_kv(__file__)
