"""Tyranny's table screen: the board map, influence front and centre with the win-streak
countdown, whose turn and what the game waits for, the action panel, the dice tray, the
log with undo, hands and physical card entry behind the privacy gate."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.stacklayout import StackLayout
from kivy.utils import escape_markup, get_hex_from_color

from rules import Draw, IllegalAction

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...widgets import banner, clocks, dice_tray, game_log, privacy_gate, track  # noqa: F401  (their kv rules)
from ...widgets.base import TCButton, TCLabel
from ...widgets.cached import CachedView  # noqa: F401  (used in tyranny.kv)
from ...widgets.drawn import set_drawn
from . import board_map  # noqa: F401
from .presenter import ButtonSpec, TyrannyPresenter


class TyrannyScreen(GameScreen):
    prompt_text = StringProperty("")
    turn_text = StringProperty("")
    actor_text = StringProperty("")
    info_text = StringProperty("")
    log_open = BooleanProperty(False)
    undo_reason = StringProperty("")
    shown_ply = NumericProperty(-1)  # the Table's ply this screen last drew (tests wait on it)

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        set_drawn(self.ids.log, self.log_open)  # the closed log costs nothing per frame

    def on_table_bound(self, table: Any) -> None:
        self.presenter = TyrannyPresenter(table)
        self._buttons_shown: Any = None  # (specs, narrow) of the action buttons on screen
        self._peek_seat = ""
        self._last_ply = None
        self.ids.board.on_tile = self.tap_tile
        self.ids.dice.submit = self.submit
        self.ids.dice.roll_for_me = self.roll_for_me
        self.ids.dice.accept_crooked = self.accept_crooked
        self.ids.dice.humanise = self.presenter.humanise
        link = getattr(App.get_running_app(), "demo_link", None)
        self.ids.dice.throw = (lambda: link.throw(0)) if link is not None else None
        self.ids.log.undo = self.undo
        self.ids.influence.set_history(self.presenter.influence_history())
        self.ids.gate.close()
        try:
            from ...widgets.clocks import SeatClocks  # noqa: F401

            seats = [(s["id"], s["name"], s["faction"]) for s in self.presenter.seats()]
            self.ids.clocks.pause, self.ids.clocks.resume = table.pause, table.resume_clocks
            self.ids.clocks.set_seats(getattr(table, "clocks", None), seats)
        except Exception:  # a Table without clocks
            self.ids.clocks.set_seats(None, [])

    def unbind_table(self) -> None:
        if "gate" in self.ids:
            self.ids.gate.close()
        super().unbind_table()

    # ------------------------------------------------------------ refresh

    def on_log_open(self, _screen: Any, is_open: bool) -> None:
        if "log" in self.ids:
            set_drawn(self.ids.log, is_open)
        if is_open and self.table is not None:
            self._refresh_trigger()

    def refresh(self) -> None:
        if self.table is None:
            return
        p = self.presenter
        v = p.view()
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.prompt_line()
        self.actor_text = ("▶ " + ", ".join(p.who(s) for s in p.actors())) if p.actors() and not p.is_over() else ""
        inf = self.ids.influence
        inf.subtitle = "\n".join(p.streak_lines(v))
        inf.set_value(p.influence(v), int(v["turn"]))
        self.ids.board.set_cells(p.cells(v), p.layout.size)
        self.ids.board.centre_text = self._centre_markup(v)
        self._build_buttons()
        who = p.who(p.actors()[0]) if p.actors() else ""
        self.ids.dice.set_prompt(self.table.prompt if not p.is_over() else None, who)
        from types import SimpleNamespace

        if self.log_open:  # the log is drawn only while it is shown (see on_log_open)
            self.ids.log.set_lines([SimpleNamespace(ply=x.ply, text=p.humanise(x.text), undone=x.undone) for x in self.table.log()])
        reason = self.table.undo_reason()
        self.ids.log.set_undo(reason is None, p.humanise(reason) if reason else None)
        self.undo_reason = p.humanise(reason) if reason else ""
        self.shown_ply = self.table.ply
        if p.is_over():
            App.get_running_app().cue("win")
            App.get_running_app().show_end()

    def _centre_markup(self, v: dict[str, Any]) -> str:
        theme = App.get_running_app().theme
        lines = []
        for chip in self.presenter.chips(v):
            colour = get_hex_from_color(theme.faction_rgba(chip.faction))
            mark = "▶ " if chip.acting else ""
            lines.append(f"{mark}[color={colour}][b]{chip.glyph} {escape_markup(chip.name)}[/b][/color] · {escape_markup(chip.tile)}")
            lines.append(f"[size={int(theme.fs_small * 0.9)}]{escape_markup(chip.status)}[/size]")
        d = v["decks"]
        lines.append(f"? Gamble {d['gamble']['count']}   + Gains {d['gains']['count']}")
        return "\n".join(lines)

    def _build_buttons(self) -> None:
        box = self.ids.actions
        specs = self.presenter.buttons()
        if self._peek_seat:
            name = self.presenter.name(self._peek_seat)
            specs.append(ButtonSpec(f"◉ {name}: look at the card you drew", intent="hand", seat=self._peek_seat))
        shown = (specs, box.width < dp(300))
        if shown == self._buttons_shown and len(box.children) == len(specs):
            return  # the same buttons: rebuilding them would redraw the whole panel
        self._buttons_shown = shown
        box.clear_widgets()
        for spec in specs:
            wide = len(spec.label) > 24 or box.width < dp(300)
            b = TCButton(text=spec.label, role=spec.role, size_hint=(1 if wide else 0.5, None), height=dp(52))
            b.bind(on_release=lambda _b, spec=spec: self.tap_button(spec))
            box.add_widget(b)

    # --------------------------------------------------------------- taps

    def tap_button(self, spec: ButtonSpec) -> None:
        if spec.intent == "submit":
            self.submit(spec.action)
        elif spec.intent == "app-draw":
            self.roll_for_me()
        elif spec.intent == "physical-draw":
            self.open_physical_draw(spec.seat)
        elif spec.intent == "hand":
            self.open_hand(spec.seat)

    def tap_tile(self, tile: str) -> None:
        move = self.presenter.tap_tile(tile)
        if move is not None:
            self.submit(move)
        else:
            self.info_text = self.presenter.describe_tile(tile)

    def roll_for_me(self) -> bool:
        """The app's own roller / deck for the current roll or draw."""
        if self.table is None:
            return False
        try:
            acc = self.table.roll_for_me()
        except ValueError as e:
            self.show_rejection(getattr(e, "code", "refused"), str(e))
            return False
        action = getattr(acc, "action", None)
        if action is not None and getattr(action, "values", None):
            self.ids.dice.note(tuple(action.values), "the app rolled")
        self.after_accept(action)
        return True

    def accept_crooked(self) -> bool:
        if self.table is None:
            return False
        try:
            acc = self.table.accept_crooked()
        except ValueError as e:
            self.show_rejection(getattr(e, "code", "refused"), str(e))
            return False
        self.after_accept(acc.action)
        return True

    def after_accept(self, action: Any) -> None:
        self.info_text = ""
        self._peek_seat = ""
        if isinstance(action, Draw) and self.presenter.private_news(action.seat):
            self._peek_seat = action.seat
        super().after_accept(action)

    def after_undo(self) -> None:
        self.ids.influence.set_history(self.presenter.influence_history())
        super().after_undo()

    # ------------------------------------------------------------- routing

    def show_reading(self, event: Any) -> None:
        self.ids.dice.show_reading(event)

    def show_route(self, event: Any, result: Any) -> None:
        self.ids.dice.show_result(event, result)
        super().show_route(event, result)

    # ------------------------------------------------------- behind the gate

    def open_hand(self, seat: str) -> None:
        p = self.presenter

        def build() -> Any:
            box = BoxLayout(orientation="vertical", spacing=dp(6))
            news = p.private_news(seat)
            if news:
                box.add_widget(TCLabel(text="\n".join(news), color=App.get_running_app().theme.highlight))
            cards = p.hand(seat)
            if not cards:
                box.add_widget(TCLabel(text="No cards in your hand."))
            grid = StackLayout(spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            # A refusal of a card play is shown here, behind the gate: its message quotes
            # the card, which nobody else may read.
            refusal = TCLabel(text="", color=App.get_running_app().theme.bad)
            box.add_widget(refusal)
            for c in cards:
                card = BoxLayout(orientation="vertical", size_hint=(None, None), width=dp(250), padding=dp(6), spacing=dp(4))
                card.add_widget(TCLabel(text=f"[b]{escape_markup(c.title)}[/b]\n{escape_markup(c.text)}", markup=True))
                for label, action in c.plays:
                    b = TCButton(text=label, role="primary", size_hint_y=None, height=dp(50))
                    b.bind(on_release=lambda _b, a=action: self._play_from_gate(a))
                    card.add_widget(b)
                if not c.plays:
                    b = TCButton(text="Play it (not playable now)", role="quiet", size_hint_y=None, height=dp(50))
                    b.bind(on_release=lambda _b, cid=c.id: self._try_play(seat, cid, refusal))
                    card.add_widget(b)
                card.height = sum(w.height for w in card.children) + dp(12) + dp(4) * len(card.children)
                grid.add_widget(card)
            sv = ScrollView(do_scroll_x=False)
            sv.add_widget(grid)
            box.add_widget(sv)
            return box

        self.ids.gate.open_for(seat, p.who(seat), build, purpose="your face-down hand")

    def _try_play(self, seat: str, card: str, refusal: Any) -> None:
        """Try a card the engine does not list as playable: the refusal, with the rule,
        is shown behind the gate only."""
        from rules.tyranny.actions import PlayCard

        try:
            self.table.submit(PlayCard(seat, card), source="touch")
        except IllegalAction as e:
            refusal.text = "✖ " + " ".join(f"{v.message} (Rule: {v.rule})" for v in e.violations)
            App.get_running_app().cue("rejected")
            return
        self.ids.gate.close()
        self.after_accept(None)

    def _play_from_gate(self, action: Any) -> None:
        self.ids.gate.close()
        self.submit(action)

    def open_physical_draw(self, seat: str) -> None:
        p = self.presenter

        def build() -> Any:
            box = BoxLayout(orientation="vertical", spacing=dp(6))
            box.add_widget(TCLabel(text="Tap the card you drew from the table's deck:"))
            grid = StackLayout(spacing=dp(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for label, action in p.physical_draws():
                title, _, text = label.partition(": ")
                b = TCButton(text=f"[b]{escape_markup(title)}[/b]\n{escape_markup(text)}", markup=True,
                             size_hint=(None, None), size=(dp(250), dp(88)),
                             font_size=App.get_running_app().theme.fs_small)
                b.bind(on_release=lambda _b, a=action: self._draw_from_gate(a))
                grid.add_widget(b)
            sv = ScrollView(do_scroll_x=False)
            sv.add_widget(grid)
            box.add_widget(sv)
            return box

        self.ids.gate.open_for(seat, p.who(seat), build, purpose="enter the card you drew")

    def _draw_from_gate(self, action: Any) -> None:
        if self.submit(action):
            self.ids.gate.close()

    def open_hands_menu(self) -> None:
        """Any seat may look at its own hand at any time (behind the gate)."""
        box = self.ids.actions
        box.clear_widgets()
        self._buttons_shown = None  # the action buttons are gone: rebuild them next time
        for s in self.presenter.seats():
            b = TCButton(text=f"▤ {s['name']}'s hand", size_hint=(None, None), size=(dp(180), dp(52)))
            b.bind(on_release=lambda _b, sid=s["id"]: self.open_hand(sid))
            box.add_widget(b)
        back = TCButton(text="← Back", role="quiet", size_hint=(None, None), size=(dp(110), dp(52)))
        back.bind(on_release=lambda _b: self._build_buttons())
        box.add_widget(back)


load_kv(__file__, "tyranny.kv")
