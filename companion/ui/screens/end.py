"""The end of a game: the winner and why, the scores, a chart of influence over the
turns, the final position (the table screen's public picture, read-only), and export
(the JSON event log to a file, the BG Stats link)."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.clipboard import Clipboard
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.files import write_atomic
from companion.journal import JournalError

from ..kvload import load_kv
from ..presenters.end import EndModel

if TYPE_CHECKING:
    from ..gamescreen import GameScreen
    from ..presenters.base import GamePresenter


class EndScreen(Screen):
    headline = StringProperty("")
    winners = StringProperty("")
    reason = StringProperty("")
    scores = StringProperty("")
    points = ListProperty()
    axis_text = StringProperty("")
    export_text = StringProperty("")
    link = StringProperty("")
    target_frac = NumericProperty(-1.0)  # where the game's winning threshold sits on the chart's height (<0: none)
    chart_title = StringProperty("")
    chart_colour = StringProperty("")  # the palette key of the charted faction
    has_chart = BooleanProperty(False)
    has_final_board = BooleanProperty(False)
    opening = BooleanProperty(False)  # a link opener is running

    def show(self, table: Any, final_board: Any = None) -> None:
        """``final_board``: a picture (a Kivy texture) of the table screen as the game
        ended, or None."""
        self.table = table
        self.final_board = final_board
        self.has_final_board = final_board is not None
        self.board_view: Any = None
        names, factions = {}, {}
        for s in table.seats:
            sid = s["id"] if isinstance(s, dict) else s.id
            name = (s.get("name") if isinstance(s, dict) else getattr(s, "name", "")) or sid
            names[sid] = name
            factions[sid] = (s.get("faction") if isinstance(s, dict) else getattr(s, "faction", "")) or ""
        # The game's screen may name the ids in its scores and explain how it was decided
        # (its tie-breaks): ``end_words()`` and ``end_notes()`` on its presenter.
        presenter = self._game_presenter(table.game_id)
        words = presenter.end_words() if presenter is not None else {}
        notes = presenter.end_notes() if presenter is not None else []
        self.model = EndModel(table.game_id, table.outcome, names, table.view(), words, factions)
        self.headline = self.model.headline
        self.has_chart = self.model.has_chart
        self.winners = self.model.winners
        self.reason = self.model.reason
        clocks = getattr(table, "clocks", None)
        left = {s: clocks.remaining(s) for s in clocks.seats} if clocks is not None else {}
        self.scores = "\n".join(self.model.score_lines() + list(notes) + self.model.penalty_lines(table.time_penalties())
                                + self.model.clock_lines(left))
        t0, t1, lo, hi = self.model.axis()
        self.axis_text = f"turns {t0}–{t1} · {self.model.value_name} {lo}–{hi}"
        fracs = self.model.line_fractions()
        self.target_frac = fracs[0] if fracs else -1.0
        self.chart_title = self.model.chart_title
        self.chart_colour = self.model.chart_faction
        self.export_text = ""
        try:
            self.link = table.bgstats_link()
        except CompanionError as e:  # an unfinished game has no play to log
            self.link = ""
            self.export_text = f"No BG Stats link: {e}"
        self._redraw()

    def _game_presenter(self, game_id: str) -> GamePresenter | None:
        """The presenter of the game's table screen, if that screen is open."""
        sm = self.manager
        name = f"game:{game_id}"
        if sm is None or not sm.has_screen(name):
            return None
        screen: GameScreen = sm.get_screen(name)
        return screen.presenter

    def on_size(self, *args: Any) -> None:
        self._redraw()

    def _redraw(self) -> None:
        chart = self.ids.get("chart")
        if chart is None or not hasattr(self, "model"):
            return
        flat: list[float] = []
        for x, y in self.model.chart_points(chart.width, chart.height):
            flat += [chart.x + x, chart.y + y]
        self.points = flat

    def export_json(self) -> None:
        app = App.get_running_app()
        folder = Path(app.data_dir) / "exports"  # beside the journal: one place for a user's data
        try:
            text = self.table.export_json()
        except JournalError as e:  # a damaged record is refused in plain words, never exported wrong
            self.export_text = f"✖ {e}"
            return
        path = write_atomic(folder / f"{self.table.game_id}-{self.table.key}.json", text)
        # The file's name whole on its own line, then its folder (a long path broke
        # mid-name: "…jso / n").
        self.export_text = f"✔ Saved {path.name}\nin {_short(folder)}"

    def copy_link(self) -> None:
        if self.link:
            Clipboard.copy(self.link)
            self.export_text = "✔ BG Stats link copied."

    def open_link(self) -> None:
        """Hand the link to the device's opener (off the UI thread) and say how it went;
        when nothing can open it, copy it instead."""
        if not self.link or self.opening:
            return
        from ..presenters.opener import open_link

        self.opening = True
        self.export_text = "Opening BG Stats…"
        link = self.link

        def run() -> None:
            result = open_link(link)
            Clock.schedule_once(lambda _dt: self._opened(link, result), 0)

        threading.Thread(target=run, name="open-link", daemon=True).start()

    def _opened(self, link: str, result: Any) -> None:
        self.opening = False
        if result.opened:
            self.export_text = "✔ Sent to the browser: BG Stats takes it from there."
            return
        Clipboard.copy(link)
        self.export_text = f"✖ Nothing here could open the link ({result.detail}); it is copied: paste it into BG Stats."

    def show_final_board(self) -> None:
        """The table as the game ended, read-only (a picture: nothing in it can be tapped)."""
        if self.final_board is None:
            return
        view = FinalBoard(texture=self.final_board)
        view.bind(on_dismiss=lambda *_a: setattr(self, "board_view", None))
        self.board_view = view
        view.open()


# Where a table screen keeps what players tap to play (each game's .kv names them so).
CONTROLS = ("topbar", "actions", "dice", "clocks")


def read_only_picture(screen: Any) -> Any:
    """A picture (a texture) of a table screen as the game ended, for the final board:
    the board, the clocks and the words as they were, without the controls, hidden
    while it is taken (a picture cannot be tapped: live-looking Hands, Undo and Log
    buttons in it told the table otherwise)."""
    from ..widgets.base import TCButton, TCToggle

    hidden = []
    for name in CONTROLS:
        box = screen.ids.get(name)
        if box is None:
            continue
        for w in box.walk(restrict=True):
            if isinstance(w, (TCButton, TCToggle)) and w.opacity:
                hidden.append((w, w.opacity))
                w.opacity = 0
    try:
        texture = screen.export_as_image().texture
        texture.flip_vertical()  # an Fbo's picture is stored bottom row first
        return texture
    finally:
        for w, opacity in hidden:
            w.opacity = opacity


class FinalBoard(ModalView):
    """The final position: the picture of the table screen's public view, and Close."""

    texture = ObjectProperty(None, allownone=True)


def _short(folder: Path) -> str:
    """A folder as a person reads it: under the home folder, from ``~``."""
    where, home = folder.resolve(), Path.home().resolve()
    return "~/" + str(where.relative_to(home)) if where.is_relative_to(home) else str(folder)


load_kv(__file__)
