"""Outrage! at the table, without Kivy: the seat strips, the board's cells, the dice line,
the buttons for what the engine waits for, the split-seven dialog's two steps, the
square search for unchecked movement, hands behind the gate, and the result moments.
Each part lives in a module of its own, a mixin this class is assembled from:
``panels`` (strips and lines), ``squares`` (the board's cells and the square search),
``buttons`` (what the table can tap, and the three small dialogs), ``gate`` (behind the
privacy gate), ``moments`` (moments and the end), with ``words`` (names and phrases).

Everything on the shared screen comes from the Table's PUBLIC view. A seat's cards are
read with ``table.private_view(seat)`` only by the gate pages (``hand_page``,
``physical_draw_page``), which the privacy gate calls after the hold. Actions that name
cards (a card played, burglary tools, weapons laid face down, cards changed) are offered
only there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.outrage.board import Board, default_board
from rules.outrage.cards import TOWER, TOWER_CARDS

from ...presenters.base import GamePresenter
from .buttons import Buttons
from .gate import BehindTheGate
from .layout import GridLayout, grid_layout
from .moments import Moments
from .panels import Panels, SeatStrip
from .squares import BoardSquares, Cell
from .words import FACTIONS, and_names, birthday_today, setup_words


@dataclass
class OutragePresenter(Panels, BoardSquares, Buttons, BehindTheGate, Moments, GamePresenter):
    table: Any
    board: Board = field(init=False)
    layout: GridLayout = field(init=False)
    split_with: str = ""  # the split-seven dialog: "" (closed), "?" (step 1: with whom), a seat (step 2)
    search: str | None = None  # unchecked movement: the square search, None while closed
    picked: str = ""  # the square a tap on the board put into the search: first among its namesakes
    # The Raven card drawn from the table's own pack, entered on the shared screen (Raven
    # cards are read out, never secret): the list's filter, None while closed.
    raven_entry: str | None = None

    game_id = "outrage"

    def __post_init__(self) -> None:
        self.board = default_board()
        self.layout = grid_layout(self.board)

    # ----------------------------------------------------------- reading

    def teams(self) -> bool:
        """Whether seats of one colour play as a team (the ``teams`` option, RULINGS S-02)."""
        return bool((getattr(self.table, "options", None) or {}).get("teams"))

    def team_name(self, faction: str) -> str:
        """"team ♜ Red": the colour's glyph and name, never the colour alone."""
        f = FACTIONS.get(faction)
        return f"team {f.glyph} {f.name}" if f else f"team {faction}"

    def team_members(self, faction: str) -> list[str]:
        return [s["id"] for s in self.seats() if s["faction"] == faction]

    def team_of(self, seat: str) -> str:
        """A strip's team words: "team ♜ Red, with Cat and Eve"; "" without teams."""
        if not self.teams():
            return ""
        mates = [self.name(s) for s in self.team_members(self.faction_of(seat)) if s != seat]
        with_ = f", with {and_names(mates)}" if mates else ""
        return self.team_name(self.faction_of(seat)) + with_

    def glyph(self, seat: str) -> str:
        f = FACTIONS.get(self.faction_of(seat))
        return f.glyph if f else "○"

    def square_name(self, sid: str) -> str:
        return self.board.name_of(sid) if sid in self.board.squares else sid

    def jewel_name(self, jewel: str) -> str:
        return self.board.jewel_name.get(jewel, jewel)

    def card_name(self, card: str) -> str:
        c = TOWER.get(card)
        return c.name if c else card

    def words(self) -> dict[str, str]:
        """Squares, jewels, Yeoman Warders' posts and Tower cards by name."""
        words = {sid: sq.name for sid, sq in self.board.squares.items()}
        words.update(self.board.jewel_name)
        words.update(self.board.post_names)
        words.update({cid: c.name for cid, c in TOWER.items()})
        return words

    def entity_name(self, kind: str, ident: str) -> str:
        """A mapped input's square, jewel or Tower card ("square:…") by its name."""
        namer = {"square": self.square_name, "jewel": self.jewel_name, "card": self.card_name}.get(kind)
        return namer(ident) if namer is not None else ident


__all__ = ["OutragePresenter", "SeatStrip", "Cell", "TOWER_CARDS", "FACTIONS", "birthday_today", "setup_words"]
