"""Tyranny's table screen: the board map, influence front and centre with the win-streak
countdown, whose turn and what the game waits for, the card just drawn on the board
until the next action, and "Hands" as a page of its own. The action panel, the dice
tray, the log with undo, the clocks, hands and physical card entry behind the privacy
gate are GameScreen's (gamescreen.py); the presenter says what they show."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.utils import escape_markup, get_hex_from_color

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...widgets import track  # noqa: F401  (its kv rules)
from ...widgets.cached import CachedView  # noqa: F401  (used in tyranny.kv)
from . import board_map  # noqa: F401
from .presenter import TyrannyPresenter

if TYPE_CHECKING:  # made (its module and .kv loaded) when a card is first drawn: _show_drawn
    from .drawn_card import DrawnCardView


class TyrannyScreen(GameScreen):
    presenter: TyrannyPresenter  # the game's own (made in on_table_bound, before any draw)
    actor_text = StringProperty("")
    drawn_card: DrawnCardView | None = None  # the card just drawn, on the board (made at the first draw)

    def on_table_bound(self, table: Any) -> None:
        self.presenter = TyrannyPresenter(table)
        self._drawn_view: dict[str, Any] | None = None  # the public view the drawn card is read against
        if self.drawn_card is not None:
            self.drawn_card.hide()  # a card of the last game never lies on this one
        self.ids.board.on_tile = self.tap_tile
        self.ids.influence.set_history(self.presenter.influence_history())
        if not getattr(self, "_centre_bound", False):
            # The centre text's small lines are sized in pixels: redraw them when the
            # label's size follows the board's.
            self.ids.board.ids.centre.fbind("font_size", lambda *_a: self._refresh_trigger())
            self._centre_bound = True

    def draw_table(self) -> None:
        # Each property below dispatches (and redraws its widget) only when its value
        # changed; the board's tiles and the drawn card compare what they show too.
        p = self.presenter
        v = p.view()
        over = p.is_over()
        actors = [] if over else p.actors()
        names = [p.who(s) for s in actors]
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.humanise(p.prompt_line())
        self.actor_text = ("▶ " + ", ".join(names)) if names else ""
        inf = self.ids.influence
        inf.subtitle = "\n".join(p.streak_lines(v))
        # The counter's history is the game's: a change is recorded under the turn the game
        # records it (a card drawn can end the turn: the turn after it is not the one of
        # the change); anything the counter did not follow change by change is replaced.
        history = p.influence_history(v)
        inf.set_value(p.influence(v), history[-1][0] if history else int(v["turn"]))
        if inf.model.history != history:
            inf.set_history(history)
        self.ids.board.set_cells(p.cells(v), p.layout.size)
        self.ids.board.centre_text = self._centre_markup(v)
        self.ids.dice.set_prompt(None if over else self.table.prompt, names[0] if names else "")
        self._show_drawn(v)

    def _show_drawn(self, v: dict[str, Any]) -> None:
        """The card drawn by the last action lies on the board until the next action (an
        undo, a resume or a jump of several actions takes it away too)."""
        before, self._drawn_view = self._drawn_view, v
        if before is not None and before.get("ply") == v.get("ply"):
            return  # a redraw without an action (a clock's tick): the card stays as it is
        card = self.presenter.drawn_card(before, v) if before is not None else None
        view = self.drawn_card
        if card is None:
            if view is not None:
                view.hide()
            return
        if view is None:
            from .drawn_card import DrawnCardView

            view = self.drawn_card = DrawnCardView()
            view.on_peek = self.open_hand
            self.ids.board.bind(pos=view.place, size=view.place)
        # On the layer of the screen's overlays, under the lowest of them: the refusal
        # banner, the log and the privacy gate must cover it.
        layer = self.ids.gate.parent
        overlays = [layer.children.index(w) for w in (self.ids.banner, self.ids.log, self.ids.gate) if w in layer.children]
        view.show_over(layer, self.ids.board, card, index=max(overlays) + 1 if view.parent is None else 0,
                       compact=bool(v.get("reachable")))

    def after_refresh(self) -> None:
        if self.presenter.is_over():
            App.get_running_app().cue("win")
            App.get_running_app().show_end()

    def _centre_markup(self, v: dict[str, Any]) -> str:
        theme = App.get_running_app().theme
        lines = []
        for chip in self.presenter.chips(v):
            colour = get_hex_from_color(theme.faction_rgba(chip.faction))
            mark = "▶ " if chip.acting else ""
            lines.append(f"{mark}[color={colour}][b]{chip.glyph} {escape_markup(chip.name)}[/b][/color] · {escape_markup(chip.tile)}")
            # Markup sizes are pixels: follow the centre label's own size (it shrinks to fit).
            lines.append(f"[size={int(self.ids.board.ids.centre.font_size * 0.9)}]{escape_markup(chip.status)}[/size]")
        d = v["decks"]
        lines.append(f"? Gamble {d['gamble']['count']}   + Gains {d['gains']['count']}")
        return "\n".join(lines)

    def tap_tile(self, tile: str) -> None:
        move = self.presenter.tap_tile(tile)
        if move is not None:
            self.submit(move)
        else:
            self.info_text = self.presenter.describe_tile(tile)

    def after_undo(self) -> None:
        self.ids.influence.set_history(self.presenter.influence_history())
        super().after_undo()


load_kv(__file__, "tyranny.kv")
