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
        """Show ``sections``. A page shown again (the next card of a deal, a refusal's
        page) keeps the widgets it has where the new page has the same kind of widget in
        the same place, with their new words: only what changed is built."""
        box = self.ids.box
        # ids hold weak proxies: ``w is not self.ids.refusal`` is always true, so a page
        # shown again would drop (and lose) its refusal label. Compare by uid.
        keep = self.ids.refusal.uid
        old = [w for w in reversed(box.children) if w.uid != keep]
        new: list[Any] = []

        def reuse(kind: type) -> Any:
            i = len(new)
            return old[i] if i < len(old) and type(old[i]) is kind else None

        for section in sections:
            if section.title:
                new.append(self._label(GateLine(section.title, tone="accent"), bold=True, w=reuse(TCLabel)))
            for line in section.lines:
                new.append(self._label(line, w=reuse(TCLabel)))
            if section.choices:
                row = reuse(ButtonRow)
                if row is None:
                    row = ButtonRow(size_hint_y=None, spacing=self.ids.box.spacing)
                    row.bind(minimum_height=row.setter("height"))
                row.set_buttons([(c.label, c.role, c.span, (lambda c=c: self._on_choose(c))) for c in section.choices])
                new.append(row)
            if section.pick is not None:  # several items, one confirm (a mulligan)
                new.append(GatePickBox(section.pick, on_choose=self._on_choose))
        k = next((i for i, (a, b) in enumerate(zip(old, new)) if a is not b), min(len(old), len(new)))
        staying = {w.uid for w in new}
        for w in old[k:]:
            box.remove_widget(w)
            if isinstance(w, ButtonRow) and w.uid not in staying:
                w.set_buttons([])  # its buttons go back, emptied, for the next row that grows
        for w in new[k:]:
            box.add_widget(w)  # after the ones kept, in the page's order
        return self

    def release(self) -> None:
        """The gate hides this page: its rows give their buttons back, emptied (no card's
        name stays in a widget once the page is gone)."""
        for w in self.ids.box.children:
            if isinstance(w, ButtonRow):
                w.set_buttons([])

    def refuse(self, text: str) -> None:
        """Show why a choice was refused, above everything, and scroll up to it."""
        self.ids.refusal.text = "✖ " + text
        self.scroll_y = 1

    def _label(self, line: GateLine, bold: bool = False, w: TCLabel | None = None) -> TCLabel:
        theme = App.get_running_app().theme
        if w is None:
            w = TCLabel(text=line.text, markup=line.markup, bold=bold)
        else:
            w.markup, w.bold, w.text = line.markup, bold, line.text
        # Set after construction: the class's kv rule binds colour and size to the theme.
        if line.tone.startswith("faction:"):
            w.color = theme.faction_rgba(line.tone.split(":", 1)[1])
        else:
            w.color = getattr(theme, line.tone)
        w.font_size = {"small": theme.fs_small, "large": theme.fs_large}.get(line.size, theme.fs_body)
        return w


load_kv(__file__)
