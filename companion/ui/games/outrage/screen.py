"""Outrage!'s table screen: the board (reconstructed, or the table's own with movement
unchecked), a strip per seat, the jewels and warders, the 2d6 tray with the doubles of
the turn, the split seven as a two-step dialog, the square search for unchecked moves,
Raven cards shown large, attacks laid face down behind the gate then revealed. The action
panel, undo, the log, clocks, the gate and the end screen are GameScreen's."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.utils import escape_markup, get_hex_from_color

from ...gamescreen import GameScreen
from ...kvload import load_kv
from ...presenters.actions import ButtonSpec
from ...widgets.cached import CachedView  # noqa: F401  (used in outrage.kv)
from .board_view import OutrageBoard  # noqa: F401  (OutrageBoard: used in outrage.kv)
from .presenter import OutragePresenter


class OutrageScreen(GameScreen):
    presenter: OutragePresenter  # the game's own (made in on_table_bound, before any draw)
    mode_text = StringProperty("")
    mode_markup = StringProperty("")
    dice_text = StringProperty("")
    strips_text = ListProperty([])
    chips_text = ListProperty([])
    places_text = StringProperty("")
    raven_text = StringProperty("")
    raven_open = BooleanProperty(False)
    searching = BooleanProperty(False)
    search_hint = StringProperty("")

    def on_table_bound(self, table: Any) -> None:
        self.presenter = OutragePresenter(table)
        self.ids.board.on_square = self.tap_square
        self._raven_seen = ""
        self.searching = False

    def draw_table(self) -> None:
        p = self.presenter
        v = p.view()
        self.turn_text = p.turn_line(v)
        self.prompt_text = p.prompt_line()
        self.mode_text = p.mode_line(v)
        # Which board and movement are in use, in colour and words, on every frame.
        theme = App.get_running_app().theme
        colour = theme.highlight if v["board"].get("movement") == "unchecked" else theme.accent
        self.mode_markup = f"[b][color={get_hex_from_color(colour)}]{escape_markup(self.mode_text)}[/color][/b]"
        self.dice_text = p.dice_line(v)
        seats = p.strips(v)
        strips = []
        for s in seats:
            colour = get_hex_from_color(theme.faction_rgba(s.faction))
            mark = "▶ " if s.acting else ""
            strips.append(f"{mark}[b][color={colour}]{s.glyph}[/color] {escape_markup(s.name)}[/b] · "
                          f"{escape_markup(s.square)}\n{escape_markup(s.status)}")
        # Lists equal to the shown ones dispatch nothing: the strips' labels keep their
        # textures unless their words changed.
        self.strips_text = strips
        self.chips_text = [("▶ " if s.acting else "") + s.chip for s in seats]
        self.places_text = "\n".join(p.jewel_lines(v) + [p.warder_line(v), p.legend(v)])
        self.ids.board.set_cells(p.cells(v), p.layout.cols, p.layout.rows)
        raven = p.raven_text(v)
        if raven and raven != self._raven_seen:
            self.raven_open = True
        self._raven_seen = raven
        self.raven_text = raven
        if not raven:
            self.raven_open = False
        self._show_search()
        actors = p.actors()
        actor = actors[0] if actors else ""
        self.ids.dice.set_prompt(self.table.prompt if not p.is_over() else None, p.who(actor) if actor else "")

    def after_refresh(self) -> None:
        if self.presenter.is_over():
            app = App.get_running_app()
            app.cue("win")
            app.show_end()

    def after_accept(self, action: Any = None) -> None:
        # A dialog step (split, search) belongs to the move it was for.
        self.presenter.split_with = ""
        self.presenter.search = None
        self.presenter.raven_entry = None
        self.presenter.picked = ""
        if "search_box" in self.ids:
            self.ids.search_box.text = ""
        super().after_accept(action)

    def on_intent(self, spec: ButtonSpec) -> None:
        p = self.presenter
        if spec.intent == "split":
            p.split_with = "?"
        elif spec.intent == "split-with":
            p.split_with = spec.seat
        elif spec.intent == "split-back":
            p.split_with = "?" if p.split_with not in ("", "?") else ""
        elif spec.intent == "search":
            p.search = ""
        elif spec.intent == "search-back":
            p.search = None
            p.picked = ""
            self.ids.search_box.text = ""
        elif spec.intent == "raven-entry":
            p.raven_entry = ""
        elif spec.intent == "raven-back":
            p.raven_entry = None
            self.ids.search_box.text = ""
        elif spec.intent == "noop":
            return
        self._show_search()
        self.show_actions()

    def _show_search(self) -> None:
        """The search box, for the square landed on (unchecked moves) or the Raven card
        the table drew, with words saying which."""
        p = self.presenter
        self.searching = p.search is not None or p.raven_entry is not None
        self.search_hint = ("Raven card drawn: a word from it (warder, tower, tea…)" if p.raven_entry is not None
                            else "Square landed on: name or kind (tower, post, Mint…)")

    def on_search_text(self, text: str) -> None:
        p = self.presenter
        if p is None:
            return
        if p.search is not None:
            p.search = text
        elif p.raven_entry is not None:
            p.raven_entry = text
        else:
            return
        self.show_actions()

    def tap_square(self, square: str) -> None:
        """A tap on the board: the move there when it is one; else the square's rule."""
        p = self.presenter
        move = p.move_to(square)
        if move is not None and p.unchecked_move():
            # Any square is a legal landing: a tap picks it, its button confirms it (a
            # square is smaller than a finger here).
            p.search = ""
            p.picked = square  # this square, not another of its name (the Wall Walk's "Miss a turn"s)
            self._show_search()
            self.ids.search_box.text = p.square_name(square)
            self.info_text = p.describe_square(square)
        elif move is not None:
            self.submit(move, f"Move to {self.presenter.square_name(square)}")
        else:
            self.info_text = self.presenter.describe_square(square)

    def close_raven(self) -> None:
        self.raven_open = False


load_kv(__file__, "outrage.kv")
