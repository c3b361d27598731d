"""Places on the city and the faction boards: where the setup roll's dice go, what a swap may
exchange, whether a neighbourhood's action is possible, and places and dice in players' words."""
from __future__ import annotations

from itertools import chain
from typing import Iterable, Iterator

from rules.core import POOL

from .scoring import DICE, is_die
from .sections import r_ability
from .state import AGENT, DicetopiaState


SWAP_ACTIONS = ("agent-die", "die-die", "city-board", "board-board")
MATCHING = {c: frozenset(d for d in DICE if d[0] == c[0] or d[1] == c[1]) for c in DICE}
"""The dice each die matches in colour or number (the Advanced Variant's swap)."""


def possible(state: DicetopiaState, hood: str) -> bool:
    """Whether neighbourhood ``hood``'s action can be performed now (§4: "if possible")."""
    act = state.t.hood_actions[hood]
    if act == "agency":
        return bool(state.deck.cards)
    if act == "reroll":
        return True  # a die is always somewhere: the one just taken
    # Asked on every action, so decided, never listed, in plain loops that stop at the
    # answer: a place holds a die when its cells are not disjoint from DICE (one C-level
    # set test per place, no helper call and no chained iterator).
    disjoint = DICE.isdisjoint
    if act == "city-board":
        for cells in state.boards.values():
            if not disjoint(cells):
                break
        else:
            return False
        if state.options["advanced"]:
            # The Advanced Variant: some city die matches some board die in colour or
            # number, found as one set of every die the board dice match, tested against
            # the city.
            held = DICE.intersection(chain.from_iterable(state.boards.values()))
            return not frozenset().union(*map(MATCHING.__getitem__, held)).isdisjoint(
                chain.from_iterable(state.city.values()))
        for cells in state.city.values():
            if not disjoint(cells):
                return True
        return False
    # die-die and board-board: two places hold dice. agent-die: an agent in one
    # neighbourhood and a die in another; most often some agent is on the city and two
    # neighbourhoods hold dice, which settles it (the agent's neighbourhood is at most one
    # of the two).
    places = state.boards.values() if act == "board-board" else state.city.values()
    one = False
    for cells in places:
        if not disjoint(cells):
            if one:
                return act != "agent-die" or not state.agent_cells.isdisjoint(chain.from_iterable(places))
            one = True
    if act != "agent-die":
        return False
    # At most one neighbourhood holds dice: an agent elsewhere is needed.
    no_agent = state.agent_cells.isdisjoint
    agent_before = die_before = False
    for cells in places:
        agent, die = not no_agent(cells), not disjoint(cells)
        if (agent and die_before) or (die and agent_before):
            return True
        agent_before = agent_before or agent
        die_before = die_before or die
    return False


class City:
    """The city and the faction boards: a part of :class:`~rules.dicetopia.game.Dicetopia`."""

    @staticmethod
    def city_spaces(state: DicetopiaState) -> list[tuple[str, int]]:
        """The used spaces in board order: where the setup roll's dice go, one by one."""
        return list(state.t.spaces(len(state.order)))

    def name(self, state: DicetopiaState, seat: str) -> str:
        return state.seat_name(seat)

    def ability(self, state: DicetopiaState, faction: str) -> str:
        return r_ability(state.t, faction)

    def hood_action(self, state: DicetopiaState, hood: str) -> str:
        return state.t.hood(hood).action

    def _places(self, state: DicetopiaState) -> Iterator[tuple[str, int, str]]:
        for h, cells in state.city.items():
            for i, c in enumerate(cells):
                yield h, i, c
        for s in state.order:
            for i, c in enumerate(state.boards[s]):
                yield s, i, c

    def _dice(self, state: DicetopiaState) -> list[tuple[str, int]]:
        return [(w, i) for w, i, c in self._places(state) if is_die(c)]

    def _right_of(self, state: DicetopiaState, seat: str) -> str:
        """The opponent to the right: the previous player in clockwise play order (D-13)."""
        k = state.order.index(seat)
        return state.order[k - 1]

    def _swap_ok(self, state: DicetopiaState, kind: str, a: str, ai: int, b: str, bi: int) -> str | None:
        """Why a swap of kind ``kind`` between the two places is not allowed (None: it is)."""
        # state.cell for both places, each looked up once.
        city = state.city
        cells_a, cells_b = city.get(a), city.get(b)
        ah, bh = cells_a is not None, cells_b is not None
        if not ah:
            cells_a = state.boards.get(a)
        if not bh:
            cells_b = state.boards.get(b)
        if cells_a is None or cells_b is None or not 0 <= ai < len(cells_a) or not 0 <= bi < len(cells_b):
            return "no such place"
        ca, cb = cells_a[ai], cells_b[bi]
        if kind == "agent-die":
            if not (ah and bh):
                return "both places must be neighbourhoods"
            if a == b:
                return "the agent and the die must be in different neighbourhoods"
            if not ((ca.startswith(AGENT) and cb in DICE) or (cb.startswith(AGENT) and ca in DICE)):
                return "swap an agent with a die"
            return None
        if ca not in DICE or cb not in DICE:
            return "both places must hold a die"
        if kind == "die-die":
            if not (ah and bh):
                return "both dice must be in neighbourhoods"
            return "the dice must be in different neighbourhoods" if a == b else None
        if kind == "city-board":
            if ah == bh:
                return "swap a die in a neighbourhood with a die on a faction board"
            if state.options["advanced"] and ca[0] != cb[0] and ca[1] != cb[1]:
                return "in the Advanced Variant the dice must match in colour or number"
            return None
        if ah or bh:
            return "both dice must be on faction boards"
        return "the dice must be on two different faction boards" if a == b else None

    def _possible(self, state: DicetopiaState, hood: str) -> bool:
        """Whether neighbourhood ``hood``'s action can be performed now (§4: "if possible")."""
        return possible(state, hood)

    def _swap_candidates(self, state: DicetopiaState, kind: str) -> Iterator[tuple[str, int, str, int]]:
        """The swaps of action ``kind`` possible now, each pair once (either order is legal)."""
        city = [(h, i, c) for h, cells in state.city.items() for i, c in enumerate(cells)]
        if kind in ("agent-die", "die-die"):
            dice = [(h, i) for h, i, c in city if is_die(c)]
            firsts = [(h, i) for h, i, c in city if c.startswith(AGENT)] if kind == "agent-die" else dice
            for x, (a, ai) in enumerate(firsts):
                for b, bi in (dice if kind == "agent-die" else dice[x + 1:]):
                    if a != b:
                        yield a, ai, b, bi
            return
        board = [(s, i, c) for s in state.order for i, c in enumerate(state.boards[s]) if is_die(c)]
        if kind == "city-board":
            advanced = state.options["advanced"]
            for h, i, c in city:
                if is_die(c):
                    for s, j, d in board:
                        if not advanced or c[0] == d[0] or c[1] == d[1]:
                            yield h, i, s, j
            return
        for x, (a, ai, _) in enumerate(board):
            for b, bi, _ in board[x + 1:]:
                if a != b:
                    yield a, ai, b, bi

    @staticmethod
    def _owner(state: DicetopiaState, where: str) -> str:
        return POOL if where in state.city else where

    def _die_words(self, state: DicetopiaState, cell: str) -> str:
        return state.t.die_words(cell)

    def _place_words(self, state: DicetopiaState, where: str, index: int) -> str:
        # state.cell and state.where_name in one look-up of the place (a swap names two); a
        # die on a neighbourhood, the most common place, is named by the tables' words.
        cells = state.city.get(where)
        t = state.t
        if cells is not None:
            c = cells[index] if 0 <= index < len(cells) else ""
            words = t.dice_on[where].get(c)
            if words is not None:
                return words
            place = t.hood_names[where]
        else:
            cells = state.boards.get(where)
            place = state.board_words.get(where) or f"{state.seat_name(where)}'s faction board"
            c = cells[index] if cells is not None and 0 <= index < len(cells) else ""
        thing = state.agent_words.get(c) or f"the {t.die_words(c)}"
        return f"{thing} on {place}"
