"""Dicetopia's game state.

Phases, in order. Setup (untimed): ``deal-factions`` (only when faction cards are dealt),
``roll`` (the whole city rolled: one chance input), ``deal`` (three missions each),
``keep`` (each keeps two, secretly). Turns: ``deploy`` (the leftmost agent swaps with a
die; the abilities of the turn's start), ``first`` (a turn-start ability announced waits
for the player before its seat in Player Order), ``intervene`` (Tuulu's rerolls), ``agency-draw``
and ``agency-bottom`` (The Agency), ``act`` (the target of a reroll or a swap),
``reroll`` (its roll), ``react`` (Banxa's Block, the Hollows' Adaptation). End scoring:
``clone``, ``rig``, ``choose`` (Centauri), ``gamble`` (High Stakes Gambling's draw),
``copy`` (Copycat).

Cells: a die is its colour letter and value (``"p4"``), an agent on the city ``"@" + seat``,
an agent still on a faction board ``"@"``; a city space is ``"x"`` once exterminated and
``"-"`` when this player count does not use it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import Action, Deck, Hand, ReactionStack, Seat, State, serializable

from .scoring import DICE, Line, is_die
from .tables import Tables, tables

MISSIONS = "missions"
FACTION_CARDS = "factions"
AGENT = "@"
DEAD = "x"
UNUSED = "-"
BOARD_SLOTS = 6
SETUP_PHASES = ("deal-factions", "roll", "deal", "keep")
END_PHASES = ("clone", "rig", "choose", "gamble", "copy")


def seats_playing(seats: list[Seat], faction: dict[str, str]) -> list[Seat]:
    """``seats``, each with the faction ``faction`` gives it ("" for one not dealt yet).

    >>> seats_playing([Seat("a", "banxa", "Ann")], {"a": "ewo"})
    [Seat(id='a', faction='ewo', name='Ann')]
    """
    return [s if s.faction == faction.get(s.id, s.faction) else replace(s, faction=faction.get(s.id, s.faction)) for s in seats]


@serializable("dicetopia.State")
@dataclass(kw_only=True)
class DicetopiaState(State):
    order: list[str]  # play order, the first player first (clockwise)
    faction: dict[str, str]  # the faction each seat plays ("" until dealt); the same as each Seat's
    city: dict[str, list[str]]
    boards: dict[str, list[str]]
    deck: Deck
    hands: dict[str, Hand]
    faction_deck: Deck = field(default_factory=lambda: Deck(FACTION_CARDS))
    flipped: dict[str, bool] = field(default_factory=dict)  # ability token used
    current: str = ""
    turn: int = 0  # turns begun, from 1
    turn_moves: int = 0  # things done in the current turn so far (0: at its start)
    hypnosis: str = ""  # the neighbourhood the current seat must deploy in
    act_hood: str = ""  # whose action is being performed
    pending: list[Any] = field(default_factory=list)  # an announced reroll or swap
    held: Action | None = None  # a turn-start ability waiting for a player first in Player Order (D-32)
    rerolls: list[list[Any]] = field(default_factory=list)  # Intervention's queue: [where, index]
    reactions: ReactionStack = field(default_factory=ReactionStack)
    keeps: dict[str, str] = field(default_factory=dict)  # sealed: the mission each discards
    removed: list[str] = field(default_factory=list)  # dice out of the game (Exterminate)
    saved: str = ""  # the Roamers seat that saved a turn
    cloned: list[str] = field(default_factory=list)  # [seat, what, from cell, to cell]
    done: list[str] = field(default_factory=list)  # end-scoring moments passed (clone, rig)
    rigged: dict[str, str] = field(default_factory=dict)
    revealed: bool = False
    unused: dict[str, str] = field(default_factory=dict)  # Centauri's third mission
    gambled: dict[str, str] = field(default_factory=dict)  # High Stakes Gambling's new card ('' none)
    copied: dict[str, str] = field(default_factory=dict)  # Copycat's copied card
    tally: dict[str, list[Line]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        # The game's data (a plain attribute, not a field: read on nearly every action).
        self.t: Tables = tables()
        # What an agent on the city is, by seat (the seats never change): a set, so that
        # whether a neighbourhood holds an agent is one test.
        self.agent_cells = frozenset(AGENT + s.id for s in self.seats)
        # Who plays each faction, kept beside ``faction`` (deal_faction writes both): the
        # abilities ask it on most actions (Banxa's Block, the Hollows, Hypnosis).
        self._seat_playing: dict[str, str] = {f: s for s, f in self.faction.items() if f}
        # The seats after each, in play order, the seat itself last: where a turn's end
        # looks for the next seat with an agent left (the order is fixed for the game).
        order = self.order
        self.after = {s: order[k + 1:] + order[:k + 1] for k, s in enumerate(order)}
        self._index_places()

    def _index_places(self) -> None:
        """Every place by its name, made once: the six neighbourhoods and the faction boards
        in one mapping (setup refuses a seat named like a neighbourhood), each holding the
        very list of cells of ``city`` or ``boards``, so a piece moved is seen through both;
        and where each swapping action looks for what it exchanges, the same lists in board
        order (neighbourhoods) and play order (boards)."""
        self.places: dict[str, list[str]] = {**self.city, **self.boards}
        city = list(self.city.items())
        boards = [(s, self.boards[s]) for s in self.order]
        # What each swapping action (§5) takes its two things from: (places, what they
        # hold), twice. Waste Management: an agent and a die in the neighbourhoods; Twilight
        # Congress: two dice there; Observatory Bank: a die there and one on a faction
        # board; Nethal Syndicate: two dice on faction boards.
        self.swap_sources = {
            "agent-die": ((city, self.agent_cells), (city, DICE)), "die-die": ((city, DICE), (city, DICE)),
            "city-board": ((city, DICE), (boards, DICE)), "board-board": ((boards, DICE), (boards, DICE))}

    def changed(self) -> None:
        """After editing a state by hand (a test replacing a neighbourhood's or a board's
        list of cells), the places are indexed again besides the kernel's forgetting."""
        super().changed()
        self._index_places()

    def deal_faction(self, seat: str, faction: str) -> None:
        """``seat`` plays ``faction`` from now on: recorded in the seat itself (what the
        view's seats, the table's strips, its end screen and exports read) and in
        ``faction`` (what the rules read)."""
        self.faction[seat] = faction
        self._seat_playing[faction] = seat
        self.seats = seats_playing(self.seats, self.faction)

    def seat_of(self, faction: str) -> str | None:
        """The seat playing ``faction``, if any (each seat plays its own: setup and
        positions refuse two alike)."""
        return self._seat_playing.get(faction)

    def can_use(self, seat: str | None, faction: str) -> bool:
        """Whether ``seat`` plays ``faction`` and its ability may still be used."""
        return seat is not None and self.faction.get(seat) == faction and not self.flipped.get(seat, False)

    def holder(self, faction: str) -> str | None:
        """The seat whose unflipped ``faction`` ability is available, if any."""
        s = self._seat_playing.get(faction)
        return None if s is None or self.flipped.get(s, False) else s

    def cell(self, where: str, index: int) -> str | None:
        """What is at ``(where, index)``: a neighbourhood space or a faction-board slot."""
        cells = self.places.get(where)
        if cells is None or not 0 <= index < len(cells):
            return None
        return cells[index]

    def put(self, where: str, index: int, value: str) -> None:
        self.places[where][index] = value

    def agents_left(self, seat: str) -> int:
        return self.boards[seat].count(AGENT)

    def dice_on_city(self) -> list[str]:
        return [c for cells in self.city.values() for c in cells if is_die(c)]

    def where_name(self, where: str) -> str:
        """A place in players' words: a neighbourhood's name or "Ann's faction board"."""
        if where in self.city:
            return self.t.hood(where).name
        return f"{self.seat_name(where)}'s faction board"
