"""Tyranny's table screen: the board map, influence front and centre with the win-streak
countdown, whose turn and what the game waits for. The action panel, the dice tray, the
log with undo, the clocks, hands and physical card entry behind the privacy gate are
GameScreen's (gamescreen.py); the presenter says what they show."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.utils import escape_markup, get_hex_from_color

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...widgets import track  # noqa: F401  (its kv rules)
from ...widgets.cached import CachedView  # noqa: F401  (used in tyranny.kv)
from . import board_map  # noqa: F401
from .presenter import TyrannyPresenter


class TyrannyScreen(GameScreen):
    presenter: TyrannyPresenter  # the game's own (made in on_table_bound, before any draw)
    actor_text = StringProperty("")

    def on_table_bound(self, table: Any) -> None:
        self.presenter = TyrannyPresenter(table)
        self.ids.board.on_tile = self.tap_tile
        self.ids.influence.set_history(self.presenter.influence_history())
        if not getattr(self, "_centre_bound", False):
            # The centre text's small lines are sized in pixels: redraw them when the
            # label's size follows the board's.
            self.ids.board.ids.centre.fbind("font_size", lambda *_a: self._refresh_trigger())
            self._centre_bound = True

    def draw_table(self) -> None:
        p = self.presenter
        v = p.view()
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.humanise(p.prompt_line())
        self.actor_text = ("▶ " + ", ".join(p.who(s) for s in p.actors())) if p.actors() and not p.is_over() else ""
        inf = self.ids.influence
        inf.subtitle = "\n".join(p.streak_lines(v))
        inf.set_value(p.influence(v), int(v["turn"]))
        self.ids.board.set_cells(p.cells(v), p.layout.size)
        self.ids.board.centre_text = self._centre_markup(v)
        who = p.who(p.actors()[0]) if p.actors() else ""
        self.ids.dice.set_prompt(self.table.prompt if not p.is_over() else None, who)

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
