"""Dicetopia's table screen: the city (six neighbourhoods, each with its action in one line
and who dominates it), the faction boards side by side with each ability's token, the
live public score, the turn as guided steps (a die, then the action's targets marked),
the city roll entered from a colour × value grid, and at the end the tally line by line.

The action panel, missions behind the privacy gate, the dice tray (a reroll from the
hub's die, the app's roller or a face entered by hand), the log with undo and the clocks
are GameScreen's (gamescreen.py); the presenter says what they show. Nothing secret is
in the widget tree unless the gate has been held open."""
from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup, get_hex_from_color

from ...gamescreen import GameScreen
from ...kvload import load_kv
from .layout import DIE_RGBA, columns, ink
from .presenter import COLOUR, BoardPanel, Cell, DicetopiaPresenter, HoodRow, T

CELL = 48  # dp: a cell is a touch target


class DCell(ButtonBehavior, Label):
    """A space or slot: a die (its colour, resource glyph and value), an agent (its
    player's colour, faction glyph and initial), or an unused space (greyed)."""

    fill = ColorProperty((0.2, 0.2, 0.2, 1))
    ring = ColorProperty((0, 0, 0, 0))
    ring_w = NumericProperty(1)
    where = StringProperty("")
    index = NumericProperty(0)


class DLink(ButtonBehavior, Label):
    """Words that tell their rule when tapped (a neighbourhood, a faction)."""

    key = StringProperty("")


def _style(w: DCell, c: Cell) -> None:
    theme = App.get_running_app().theme
    w.text = c.text
    if c.kind == "die":
        w.fill, w.color = DIE_RGBA[c.colour], ink(c.colour)
    elif c.kind in ("agent", "empty"):
        w.fill = theme.faction_rgba(c.faction) if c.faction else theme.neutral
        w.color = ink(tuple(w.fill))
    elif c.kind == "next":
        w.fill, w.color = theme.surface_hi, theme.highlight
    else:  # unused or dead: greyed
        w.fill, w.color = theme.bg, theme.line
    w.disabled = c.kind == "unused"
    w.ring = theme.highlight if c.target else theme.accent if c.picked else (0, 0, 0, 0)
    w.ring_w = dp(3) if (c.target or c.picked) else 1


class DicetopiaScreen(GameScreen):
    presenter: DicetopiaPresenter  # the game's own (made in on_table_bound, before any draw)
    steps_text = StringProperty("")
    score_text = StringProperty("")
    tally_text = StringProperty("")
    entering = BooleanProperty(False)
    entry_text = StringProperty("")
    tally_step_s = NumericProperty(0.12)  # the end's tally: one line more every moment

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        # ``ids`` hold weak references: the grid, out of the tree while no roll is
        # entered, is kept alive here.
        self._entry_grid = self.ids.entry_grid.__self__

    def on_table_bound(self, table: Any) -> None:
        self.presenter = DicetopiaPresenter(table)
        self._hood_rows: dict[str, tuple[DLink, list[DCell]]] = {}
        self._board_panels: dict[str, Any] = {}
        # What each row and board shows (the theme's name, the presenter's frozen row):
        # one shown as it is now is left alone.
        self._shown: dict[Any, tuple[str, Any]] = {}
        self.ids.city.clear_widgets()
        self.ids.boards.clear_widgets()
        self._tally_ev = None
        self._tally_lines: list[str] = []
        self.tally_text = ""
        self.entering = False

    # ------------------------------------------------------------ drawing

    def draw_table(self) -> None:
        p = self.presenter
        v = p.view()
        if v["phase"] != "roll":
            p.entry = None
        self.entering = p.entry is not None
        self.turn_text = p.turn_line(v)
        self.steps_text = p.steps(v)
        self.prompt_text = p.humanise(p.prompt_line())
        self.info_text = p.info
        self.score_text = p.scores(v)
        self._draw_city(p.hoods(v))
        self._draw_boards(p.boards(v))
        self._draw_entry(v["phase"])
        who = p.who(p.actors()[0]) if p.actors() else ""
        # The city roll is entered on the grid (each die's colour matters); the tray takes
        # the single rerolls (the hub's die, the app's roller, a face by hand).
        self.ids.dice.set_prompt(self.table.prompt if not p.is_over() and v["phase"] != "roll" else None, who)

    def _draw_city(self, rows: list[HoodRow]) -> None:
        """Each neighbourhood's row as the presenter says it now: a row or a cell whose
        words and state are those already shown is left alone (its text is not rendered
        again, the city's buffer not redrawn)."""
        box = self.ids.city
        theme = App.get_running_app().theme
        for r in rows:
            if r.id not in self._hood_rows:
                self._hood_rows[r.id] = self._make_row(box, r)
            title, cells = self._hood_rows[r.id]
            if self._shown.get(r.id) == (theme.name, r):
                continue
            self._shown[r.id] = (theme.name, r)
            name, summary = r.title.split(" · ", 1)
            mark = "▶ " if r.acting else ""
            title.text = (f"[color={get_hex_from_color(theme.highlight if r.acting else theme.accent)}][b]{mark}{escape_markup(name)}[/b][/color]"
                          f" · {escape_markup(summary)}" + (f"\n{escape_markup(r.status)}" if r.status else ""))
            for w, c in zip(cells, r.cells):
                _style(w, c)

    def _make_row(self, box: Any, r: HoodRow) -> tuple[DLink, list[DCell]]:
        """A neighbourhood: its words beside its spaces, or above them when the words
        would get too narrow a column beside them (large text, a narrow screen)."""
        row = BoxLayout(orientation="horizontal", size_hint_y=None, spacing=dp(4))
        title = DLink(key=r.id, markup=True)
        title.bind(on_release=lambda w: self.tap_rule(w.key))
        cells_w = len(r.cells) * dp(CELL) + (len(r.cells) - 1) * dp(2)
        cells_box = BoxLayout(orientation="horizontal", size_hint=(None, None), spacing=dp(2), width=cells_w, height=dp(CELL))
        cells = []
        for c in r.cells:
            w = DCell(where=c.where, index=c.index)
            w.bind(on_release=lambda w: self.tap_cell(w.where, int(w.index)))
            cells_box.add_widget(w)
            cells.append(w)
        row.add_widget(title)
        row.add_widget(cells_box)

        def fit(*_a: Any) -> None:
            # About eleven characters of the words beside the spaces, or the words above.
            stacked = row.width - cells_w < title.font_size * 11
            row.orientation = "vertical" if stacked else "horizontal"
            title.size_hint_x = 1
            text_h = max(dp(CELL), title.texture_size[1] + dp(6))
            title.height = text_h
            row.height = text_h + dp(CELL) + dp(4) if stacked else text_h

        row.bind(width=fit)
        title.bind(texture_size=fit)
        box.add_widget(row)
        return title, cells

    def _draw_boards(self, panels: list[BoardPanel]) -> None:
        """Each faction board as the presenter says it now; one already shown as it is
        stays untouched (as in ``_draw_city``)."""
        box = self.ids.boards
        theme = App.get_running_app().theme
        for b in panels:
            if b.seat not in self._board_panels:
                self._board_panels[b.seat] = self._make_panel(box, b)
            panel = self._board_panels[b.seat]
            if self._shown.get(("board", b.seat)) == (theme.name, b):
                continue
            self._shown[("board", b.seat)] = (theme.name, b)
            panel.title.text = ("▶ " if b.acting else "") + f"[b]{b.title}[/b]\n{b.token}\nLoot + domination: {b.score} ★"
            panel.title.key = b.faction or b.seat
            panel.title.color = theme.faction_rgba(b.faction) if b.faction else theme.text
            for w, c in zip(panel.cells, b.cells):
                _style(w, c)

    def _make_panel(self, box: Any, b: BoardPanel) -> Any:
        panel = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2), padding=dp(4))
        title = DLink(key=b.faction or b.seat, markup=True)
        title.bind(on_release=lambda w: self.tap_rule(w.key))
        grid = GridLayout(cols=6, size_hint_y=None, spacing=dp(2), row_force_default=True, row_default_height=dp(CELL),
                          col_force_default=True, col_default_width=dp(CELL))
        cells = []
        for c in b.cells:
            w = DCell(where=c.where, index=c.index)
            w.bind(on_release=lambda w: self.tap_cell(w.where, int(w.index)))
            grid.add_widget(w)
            cells.append(w)

        def fit(*_a: Any) -> None:
            grid.cols = min(6, columns(panel.width - dp(8), dp(CELL), dp(2)))
            rows = -(-6 // grid.cols)
            grid.height = rows * dp(CELL) + (rows - 1) * dp(2)
            title.height = max(dp(CELL), title.texture_size[1] + dp(4))
            panel.height = title.height + grid.height + dp(10)

        panel.add_widget(title)
        panel.add_widget(grid)
        panel.bind(width=fit)
        title.bind(texture_size=fit)
        box.add_widget(panel)
        panel.title, panel.cells = title, cells
        return panel

    def _draw_entry(self, phase: str) -> None:
        """The colour × value grid while the table's own city roll is entered. Its cells
        are made once per screen and kept: off the screen (the grid taken out of its box)
        while no roll is entered, so no hidden cell takes a touch. While the city waits
        for its roll they are made a moment after the table shows, before anyone taps
        "Enter the table's roll" (making the eighteen cells was most of that tap)."""
        grid, box = self._entry_grid, self.ids.entry_box
        e = self.presenter.entry
        if e is None:
            if grid.parent is not None:
                box.remove_widget(grid)
            self.entry_text = ""
            if phase == "roll" and not grid.children:
                Clock.schedule_once(lambda _dt: self._entry_cells(), 0.4)
            return
        self._entry_cells()
        if grid.parent is None:
            box.add_widget(grid)
        for w in grid.children:
            w.disabled = e.left(w.where) <= 0 or e.complete
        self.entry_text = "   ".join(f"{c.glyph} {c.id}: {e.left(c.id)} left" for c in T.colours)

    def _entry_cells(self) -> None:
        """The grid's cells, a die of each colour and value (made once)."""
        grid = self._entry_grid
        if grid.children:
            return
        for c in T.colours:
            for value in range(1, 7):
                w = DCell(where=c.id, index=value)
                w.text = f"{c.glyph}{value}"
                w.fill, w.color = DIE_RGBA[c.id], ink(c.id)
                w.bind(on_release=lambda w: self.tap_entry(w.where, int(w.index)))
                grid.add_widget(w)

    def _show(self, widget: Any) -> None:
        scroll = self.ids.side_scroll
        if self.ids.side.height > scroll.height:
            scroll.scroll_to(widget, padding=dp(4), animate=False)

    # ------------------------------------------------------------ taps

    def tap_cell(self, where: str, index: int) -> None:
        action = self.presenter.tap(where, index)
        if action is not None:
            self.submit(action, self.presenter.humanise(type(action).__name__))
        else:
            self._refresh_trigger()

    def tap_rule(self, key: str) -> None:
        self.presenter.info = self.presenter.describe(key)
        self._refresh_trigger()

    def tap_entry(self, colour: str, value: int) -> None:
        e = self.presenter.entry
        if e is not None and e.push(colour, value):
            self._refresh_trigger()

    def on_intent(self, spec: Any) -> None:
        p = self.presenter
        if spec.intent == "mode":
            p.set_mode(spec.seat)
        elif spec.intent == "entry-start":
            p.start_entry()
            # On a short screen the side column scrolls: bring the grid into view.
            Clock.schedule_once(lambda _dt: self._show(self.ids.entry_box), 0.1)
        elif spec.intent == "entry-pop" and p.entry is not None:
            p.entry.pop()
        elif spec.intent == "entry-stop":
            p.entry = None
        elif spec.intent == "entry-done" and p.entry is not None:
            seat = p.actors()[0]
            entry = p.entry

            def entered(ok: bool) -> None:
                if ok and p.entry is entry:  # the city's roll is recorded: the entry grid goes
                    p.entry = None
                    self._refresh_trigger()

            self.submit(entry.roll(seat), "Enter this city", then=entered)
            return
        elif spec.intent == "results":
            App.get_running_app().show_end()
            return
        self._refresh_trigger()

    # ------------------------------------------------------------ the end

    def after_refresh(self) -> None:
        p = self.presenter
        if p.is_over() and not self._tally_lines:
            self._start_tally()

    def _start_tally(self) -> None:
        """Missions revealed together, then each player's tally line by line, the
        tie-break and the winner: one line more every moment."""
        p = self.presenter
        lines = ["[b]Missions revealed[/b]"] + p.revealed() + [""]
        for who, rows, total in p.tally():
            lines.append(f"[b]{who}[/b]")
            lines += [f"   {r}" for r in rows]
            lines.append(f"   [b]= {total} ★[/b]")
        lines += ["", f"[b]{p.winner_line()}[/b]"]
        self._tally_lines = lines
        self._tally_shown = 0
        self.ids.actions.show([self._results_spec()], self.tap_button)
        if self._tally_ev is not None:
            self._tally_ev.cancel()
        self._tally_ev = Clock.schedule_interval(lambda _dt: self._tally_step(), self.tally_step_s)

    def _results_spec(self) -> Any:
        from ...presenters.actions import ButtonSpec

        return ButtonSpec("Results and export", "results", role="primary")

    def _tally_step(self) -> bool:
        self._tally_shown += 1
        self.tally_text = "\n".join(self._tally_lines[: self._tally_shown])
        if self._tally_shown >= len(self._tally_lines):
            self._tally_ev = None
            App.get_running_app().cue("win")
            return False
        return True

    def action_specs(self) -> list[Any]:
        if self.presenter is not None and self.presenter.is_over():
            return [self._results_spec()]
        return super().action_specs()

    def after_undo(self) -> None:
        self.presenter.entry = None
        super().after_undo()


load_kv(__file__, "dicetopia.kv")
