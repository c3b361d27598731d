"""Liberation's table screen: the map (occupied and exploited cities as colour + glyph +
words), the ACT tracker and deck count, hand sizes, the active player's turn steps, the
Attack result as a reveal moment, each mission and referee answer as one (what the table
resolves, what the app did), the referee's answers and the end-of-game audit. The
action panel, hands / the base / Evade behind the privacy gate, the log with undo and
the clocks are GameScreen's (gamescreen.py); the presenter says what they show.

Nothing secret is in the widget tree unless the gate has been held open: public widgets
are filled from the presenter's public side only; the gate builds a seat's hand and
choices after the hold and destroys them when it hides."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...widgets.base import Heading, TCLabel
from . import city_map  # noqa: F401
from .presenter import ButtonSpec, LiberationPresenter

REVEAL_GLYPH = {"miss": "✖", "taken": "⚑", "base-found": "★"}


def _lbl(cls: Any, **kw: Any) -> Any:
    """A themed label whose colour and size stick: the class's kv rule binds them to the
    theme, which would override constructor values."""
    style = {k: kw.pop(k) for k in ("color", "font_size") if k in kw}
    w = cls(**kw)
    for k, v in style.items():
        setattr(w, k, v)
    return w


class LiberationScreen(GameScreen):
    presenter: LiberationPresenter  # the game's own (made in on_table_bound, before any draw)
    hands_text = StringProperty("")
    deck_text = StringProperty("")
    map_text = StringProperty("")
    answers_text = StringProperty("")
    act = NumericProperty(1)
    step_labels = ListProperty(["", "", ""])
    step_states = ListProperty(["todo", "todo", "todo"])
    reveal_open = BooleanProperty(False)
    reveal_title = StringProperty("")
    reveal_text = StringProperty("")
    reveal_kind = StringProperty("")
    audit_open = BooleanProperty(False)

    def on_table_bound(self, table: Any) -> None:
        self.presenter = LiberationPresenter(table)
        self.ids.map.on_city = self.tap_city
        self.reveal_open = self.audit_open = False
        # A resumed game does not replay the last Attack's reveal.
        r = self.presenter.reveal()
        self._seen_reveal = r.ply if r is not None else -1
        m = self.presenter.mission_result()
        self._seen_mission = m.ply if m is not None else -1
        self._audit_shown = self.presenter.is_over()
        self._act_seen = False  # the first refresh of a game is no ACT change

    def draw_table(self) -> None:
        p = self.presenter
        v = p.view()
        s = p.status(v)
        news = p.act_news(self.act, v) if self._act_seen else ""
        self._act_seen = True
        if news:
            self.ids.banner.show(news, "Rulebook: the deck", "act", kind="ok")
        self.act, self.deck_text, self.hands_text, self.map_text = s["act"], s["deck_text"], s["hands_text"], s["map_text"]
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.humanise(p.prompt_line())
        self.info_text = p.info or p.ask_hint(v)
        steps = p.steps(v)
        self.step_labels = [f"{n}. {name}" for n, name, _ in steps] or ["", "", ""]
        self.step_states = [state for _, _, state in steps] or ["todo", "todo", "todo"]
        answers = p.answers()
        self.answers_text = "\n".join("? " + p.humanise(a) for a in answers[-3:])
        self.ids.map.set_map(p.cells(v), p.lines(), p.aimed_lines(v), p.outlines)

    def after_refresh(self) -> None:
        p = self.presenter
        r = p.reveal()
        if r is not None and r.ply > self._seen_reveal:
            self._seen_reveal = r.ply
            self.show_reveal(r)
        m = p.mission_result()
        if m is not None and m.ply > self._seen_mission:
            self._seen_mission = m.ply
            self.show_mission(m)
        if p.is_over() and not self._audit_shown and not self.reveal_open:
            self.show_audit()

    def on_intent(self, spec: ButtonSpec) -> None:
        if spec.intent == "audit":
            self.show_audit()
        elif spec.intent == "steps":
            self.presenter.set_steps(spec.steps)
            self._refresh_trigger()

    def tap_city(self, city: str) -> None:
        action = self.presenter.tap_city(city)
        if action is not None:
            self.submit(action, self.presenter.say(action))
        else:
            self._refresh_trigger()

    # ------------------------------------------------------------ reveal and audit

    def show_reveal(self, r: Any) -> None:
        self.reveal_kind = r.result
        self.reveal_title = f"{REVEAL_GLYPH.get(r.result, '')} {r.title}"
        self.reveal_text = f"⚔ The Dynasty attacks {r.city}.\n{r.text}"
        self.reveal_open = True
        App.get_running_app().cue("reveal")

    def show_mission(self, m: Any) -> None:
        """A mission or a referee answer, for the whole table, until "Continue": the card's
        effect is the table's to carry out; what the app did is said beside it."""
        self.reveal_kind = m.kind
        self.reveal_title = self.presenter.humanise(m.title)
        self.reveal_text = "\n\n".join(self.presenter.humanise(line) for line in m.lines)
        self.reveal_open = True
        App.get_running_app().cue("reveal")

    def close_reveal(self) -> None:
        self.reveal_open = False
        if self.presenter.is_over() and not self._audit_shown:
            self.show_audit()

    def show_audit(self) -> None:
        p = self.presenter
        self._audit_shown = True
        box = self.ids.audit_rows
        box.clear_widgets()
        theme = App.get_running_app().theme
        box.add_widget(_lbl(Heading, text=p.prompt_line(), color=theme.faction_rgba(p.table.outcome.winner)))
        box.add_widget(_lbl(TCLabel, text="Every position of the base, revealed for both players to audit:", color=theme.muted))
        for text, legal in p.audit_rows():
            box.add_widget(_lbl(TCLabel, text=("✔ " if legal else "✖ ") + text, color=theme.ok if legal else theme.bad))
        for line in p.audit_summary():
            box.add_widget(_lbl(TCLabel, text="• " + line, font_size=theme.fs_small))
        self.audit_open = True

    def to_results(self) -> None:
        self.audit_open = False
        App.get_running_app().show_end()


load_kv(__file__, "liberation.kv")
