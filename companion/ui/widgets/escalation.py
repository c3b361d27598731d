"""An escalation scale: numbered levels, the current one marked (glyph + colour), and the
incidents that raised it listed underneath. ``set_scale(levels, current, incidents)``."""
from __future__ import annotations

from typing import Any, Sequence

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ..kvload import load_kv


class EscalationScale(BoxLayout):
    title = StringProperty("Escalation")
    current = NumericProperty(0)
    current_label = StringProperty("")
    incidents_text = StringProperty("")

    def set_scale(self, levels: Sequence[str | int], current: int, incidents: Sequence[str] = ()) -> None:
        """``levels``: the labels of the levels, lowest first; ``current``: index reached."""
        theme = App.get_running_app().theme
        row = self.ids.levels
        row.clear_widgets()
        self.current = current
        self.current_label = str(levels[current]) if 0 <= current < len(levels) else ""
        for i, lvl in enumerate(levels):
            here = i == current
            passed = i < current
            lbl = Label(text=("▼\n" if here else "\n") + str(lvl), font_size=theme.fs_body, bold=here,
                        color=(0.05, 0.05, 0.05, 1) if here else (theme.text if passed else theme.muted),
                        size_hint_min_x=dp(36))
            with lbl.canvas.before:
                from kivy.graphics import Color, RoundedRectangle

                Color(rgba=theme.warn if here else (theme.surface_hi if passed else theme.surface))
                rr = RoundedRectangle(radius=[dp(6)])
            lbl.bind(pos=lambda w, _p, rr=rr: setattr(rr, "pos", w.pos), size=lambda w, _s, rr=rr: setattr(rr, "size", w.size))
            row.add_widget(lbl)
        self.incidents_text = "  ·  ".join(f"⚠ {t}" for t in list(incidents)[-4:]) or "No incidents yet."


load_kv(__file__)
