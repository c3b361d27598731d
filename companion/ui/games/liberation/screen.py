"""Liberation's table screen: the map (occupied and exploited cities as colour + glyph +
words), the ACT tracker and deck count, hand sizes, the active player's turn steps with the
allowed actions as buttons, the Attack result as a reveal moment, the referee's answers,
hands / the base / Evade behind the privacy gate, and the end-of-game audit.

Nothing secret is in the widget tree unless the gate has been held open: public widgets
are filled from the presenter's public side only; the gate builds a seat's hand and
choices after the hold and destroys them when it hides."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout

from rules import IllegalAction

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...widgets import banner, clocks, game_log, privacy_gate  # noqa: F401  (their kv rules)
from ...widgets.base import Heading, TCButton, TCLabel
from . import city_map  # noqa: F401
from .presenter import ButtonSpec, Choice, LiberationPresenter

REVEAL_GLYPH = {"miss": "✖", "taken": "⚑", "base-found": "★"}
GROUP_TITLES = {"first-city": "Your first City", "base": "Your secret base", "evade": "Evade (secret: everyone sees only that you evaded)",
                "sabotage": "Sabotage", "occupy": "Occupy", "mission": "Missions", "discard": "Discard", "pass": "Or"}


def _lbl(cls: Any, **kw: Any) -> Any:
    """A themed label whose colour and size stick: the class's kv rule binds them to the
    theme, which would override constructor values."""
    style = {k: kw.pop(k) for k in ("color", "font_size") if k in kw}
    w = cls(**kw)
    for k, v in style.items():
        setattr(w, k, v)
    return w


class LiberationScreen(GameScreen):
    turn_text = StringProperty("")
    prompt_text = StringProperty("")
    info_text = StringProperty("")
    hands_text = StringProperty("")
    deck_text = StringProperty("")
    map_text = StringProperty("")
    answers_text = StringProperty("")
    act = NumericProperty(1)
    step_labels = ListProperty(["", "", ""])
    step_states = ListProperty(["todo", "todo", "todo"])
    log_open = BooleanProperty(False)
    reveal_open = BooleanProperty(False)
    reveal_title = StringProperty("")
    reveal_text = StringProperty("")
    reveal_kind = StringProperty("")
    audit_open = BooleanProperty(False)

    def on_table_bound(self, table: Any) -> None:
        self.presenter = LiberationPresenter(table)
        self.ids.map.on_city = self.tap_city
        self.ids.log.undo = self.undo
        self.ids.gate.close()
        clocks = getattr(table, "clocks", None)
        if clocks is not None:
            self.ids.clocks.pause, self.ids.clocks.resume = table.pause, table.resume_clocks
        self.ids.clocks.set_seats(clocks, [(s["id"], s["name"], s["faction"]) for s in self.presenter.seats()] if clocks else [])
        self.reveal_open = self.audit_open = False
        # A resumed game does not replay the last Attack's reveal.
        r = self.presenter.reveal()
        self._seen_reveal = r.ply if r is not None else -1
        self._audit_shown = self.presenter.is_over()
        self._news: dict[str, str] = {}
        self._act_seen = False  # the first refresh of a game is no ACT change

    def unbind_table(self) -> None:
        if "gate" in self.ids:
            self.ids.gate.close()
        super().unbind_table()

    # ------------------------------------------------------------ refresh

    def refresh(self) -> None:
        if self.table is None:
            return
        p = self.presenter
        v = p.view()
        s = p.status(v)
        news = p.act_news(self.act, v) if self._act_seen else ""
        self._act_seen = True
        if news:
            self.ids.banner.show(news, "Rulebook: the deck", "act", kind="ok")
        self.act, self.deck_text, self.hands_text, self.map_text = s["act"], s["deck_text"], s["hands_text"], s["map_text"]
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.prompt_line()
        self.info_text = p.info or p.ask_hint(v)
        steps = p.steps(v)
        self.step_labels = [f"{n}. {name}" for n, name, _ in steps] or ["", "", ""]
        self.step_states = [state for _, _, state in steps] or ["todo", "todo", "todo"]
        answers = p.answers()
        self.answers_text = "\n".join("? " + a for a in answers[-3:])
        self.ids.map.set_map(p.cells(v), p.lines(), p.aimed_lines(v))
        self._build_buttons()
        self.ids.log.set_lines(self.table.log())
        self.ids.log.set_undo(self.table.can_undo(), self.table.undo_reason())
        r = p.reveal(v)
        if r is not None and r.ply > self._seen_reveal:
            self._seen_reveal = r.ply
            self.show_reveal(r)
        if p.is_over() and not self._audit_shown and not self.reveal_open:
            self.show_audit()

    def _build_buttons(self) -> None:
        box = self.ids.actions
        box.clear_widgets()
        specs = self.presenter.buttons()
        for seat, news in self._news.items():
            specs.append(ButtonSpec(f"◉ {self.presenter.who(seat)}: look at the card you drew", "gate", seat=seat))
        if not self.presenter.is_over():
            for s in self.presenter.seats():
                if not any(b.intent == "gate" and b.seat == s["id"] for b in specs):
                    specs.append(ButtonSpec(f"▤ {s['name']}'s hand", "gate", seat=s["id"], role="quiet"))
        if self.presenter.is_over():
            specs.append(ButtonSpec("★ The audit: every Evade revealed, then the results", "audit", role="primary"))
        for spec in specs:
            half = spec.role == "quiet" or spec.intent == "steps"
            b = TCButton(text=spec.label, role=spec.role, size_hint=(0.5 if half else 1, None), height=dp(52))
            b.bind(on_release=lambda _b, spec=spec: self.tap_button(spec))
            box.add_widget(b)

    # --------------------------------------------------------------- taps

    def tap_button(self, spec: ButtonSpec) -> None:
        if spec.intent == "submit":
            self.submit(spec.action)
        elif spec.intent == "draw":
            self.draw(spec.seat, spec.count)
        elif spec.intent == "gate":
            self.open_hand(spec.seat)
        elif spec.intent == "audit":
            self.show_audit()
        elif spec.intent == "steps":
            self.presenter.set_steps(spec.steps)
            self._refresh_trigger()

    def tap_city(self, city: str) -> None:
        action = self.presenter.tap_city(city)
        if action is not None:
            self.submit(action)
        else:
            self._refresh_trigger()

    def draw(self, seat: str, count: int = 1) -> None:
        """The app's own deck deals ``count`` cards to ``seat`` (face down: the card is
        seen only behind the gate)."""
        p = self.presenter
        before = tuple(self.table.private_view(seat)["hands"][seat].get("cards", ()))
        for _ in range(max(1, count)):
            try:
                self.table.roll_for_me()
            except ValueError as e:
                self.show_rejection(getattr(e, "code", "refused"), str(e))
                break
        self.after_accept()
        if self.table.view()["phase"] in ("step1", "step2", "step3") and not p.is_over():
            news = p.drawn_news(seat, before)
            if news:
                self._news = {seat: news}  # the words stay in memory; shown only behind the gate

    undo_rule = "Undo policy: never across a revealed card, an Attack or a referee answer"

    def after_accept(self, action: Any = None) -> None:
        self._news = {}
        super().after_accept(action)

    # ------------------------------------------------------------ reveal and audit

    def show_reveal(self, r: Any) -> None:
        self.reveal_kind = r.result
        self.reveal_title = f"{REVEAL_GLYPH.get(r.result, '')} {r.title}"
        self.reveal_text = f"⚔ The Dynasty attacks {r.city}.\n{r.text}"
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

    # ------------------------------------------------------- behind the gate

    def open_hand(self, seat: str) -> None:
        p = self.presenter
        news = self._news.get(seat, "")
        purpose = "your hand" + (" and your secret base" if p.faction(seat) == "liberation" else "")

        def build() -> Any:
            theme = App.get_running_app().theme
            mine = p.private(seat)  # read only now, after the hold
            outer = BoxLayout(orientation="vertical", spacing=dp(6))
            box = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None, padding=(dp(4), 0))
            box.bind(minimum_height=box.setter("height"))
            if news:
                box.add_widget(_lbl(TCLabel, text="◉ " + news, color=theme.highlight))
            if mine.base:
                box.add_widget(_lbl(TCLabel, text=f"{theme.glyph('liberation')} Your secret base: [b]{mine.base}[/b]", markup=True, color=theme.faction_rgba("liberation"), font_size=theme.fs_large))
            if mine.note:
                box.add_widget(_lbl(TCLabel, text=mine.note, color=theme.muted, font_size=theme.fs_small))
            box.add_widget(_lbl(TCLabel, text="▤ Your hand: " + ("; ".join(mine.hand) if mine.hand else "no cards")))
            refusal = _lbl(TCLabel, text="", color=theme.bad, height=0)
            box.add_widget(refusal)
            group, row = "", None
            for c in mine.choices:
                if c.group != group:
                    group = c.group
                    box.add_widget(_lbl(TCLabel, text=GROUP_TITLES.get(group, group), bold=True, color=theme.accent))
                    row = StackLayout(spacing=dp(4), size_hint_y=None)
                    row.bind(minimum_height=row.setter("height"))
                    box.add_widget(row)
                # Short choices (one city each) two to a row, so a long list needs less scrolling.
                half = c.group in ("sabotage", "discard", "evade", "first-city", "base") and len(c.label) < 46
                b = TCButton(text=c.label, role="danger" if c.group == "sabotage" else "normal",
                             size_hint=(0.5 if half else 1, None), height=dp(50))
                b.bind(on_release=lambda _b, c=c: self._choose(c, refusal))
                row.add_widget(b)
            sv = ScrollView(do_scroll_x=False)
            sv.add_widget(box)
            outer.add_widget(sv)
            return outer

        self.ids.gate.open_for(seat, p.who(seat), build, purpose=purpose)

    def _choose(self, choice: Choice, refusal: Any) -> None:
        """A private choice: a refusal is shown here, behind the gate (it may concern the
        base or the hand), never on the public banner."""
        try:
            self.table.submit(choice.action, source="touch")
        except IllegalAction as e:
            refusal.text = "✖ " + " ".join(f"{v.message} ({v.rule})" for v in e.violations)
            App.get_running_app().cue("rejected")
            return
        except ValueError as e:
            refusal.text = f"✖ {e}"
            return
        self.ids.gate.close()
        self.after_accept()


load_kv(__file__, "liberation.kv")
