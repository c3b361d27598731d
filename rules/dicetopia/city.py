"""Places on the city and the faction boards: where the setup roll's dice go, what a swap may
exchange, whether a neighbourhood's action is possible, and places and dice in players' words."""
from __future__ import annotations

from itertools import islice
from typing import Iterable, Iterator

from rules.core import POOL

from .scoring import DICE, is_die
from .sections import r_ability
from .state import AGENT, DicetopiaState


SWAP_ACTIONS = ("agent-die", "die-die", "city-board", "board-board")
"""The four swapping actions (§5): Waste Management, Twilight Congress, Observatory Bank and
Nethal Syndicate."""


def _spots(places: Iterable[tuple[str, list[str]]], holds: frozenset[str]) -> Iterator[tuple[str, int, str]]:
    """The places' spaces or slots holding one of ``holds``, in order, as (where, index,
    what it holds); a place holding none is passed over with one set test."""
    for where, cells in places:
        if not holds.isdisjoint(cells):
            for i, c in enumerate(cells):
                if c in holds:
                    yield where, i, c


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
        ca, cb = state.cell(a, ai), state.cell(b, bi)
        if ca is None or cb is None:
            return "no such place"
        return self._exchange_ok(state, kind, a, ca, b, cb)

    def _exchange_ok(self, state: DicetopiaState, kind: str, a: str, ca: str, b: str, cb: str) -> str | None:
        """Why action ``kind`` may not exchange ``ca`` at place ``a`` with ``cb`` at place
        ``b`` (None: it may): the one statement of what each swapping action may exchange (§5)."""
        ah, bh = a in state.city, b in state.city
        if kind == "agent-die":
            if not (ah and bh):
                return "both places must be neighbourhoods"
            if a == b:
                return "the agent and the die must be in different neighbourhoods"
            agents = state.agent_cells
            if not ((ca in agents and cb in DICE) or (cb in agents and ca in DICE)):
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
        """Whether neighbourhood ``hood``'s action can be performed now (§4: "if possible"):
        The Agency's while the deck holds a mission to draw, The Gugu Airforce's always (a
        die is always somewhere: the one just taken), a swap's while it has a swap to make."""
        act = state.t.hood(hood).action
        if act == "agency":
            return bool(state.deck.cards)
        if act == "reroll":
            return True
        return any(True for _ in self._swaps(state, act))

    def _swaps(self, state: DicetopiaState, kind: str) -> Iterator[tuple[str, int, str, int]]:
        """The swaps of action ``kind`` allowed now, each pair of places once (either order
        is legal), in board order: :meth:`_exchange_ok` decides each, among the spaces and
        slots holding what the action exchanges. Lazy, so that whether there is one
        (:meth:`_possible`) stops at the first."""
        (places_a, holds_a), (places_b, holds_b) = state.swap_sources[kind]
        same = places_a is places_b and holds_a is holds_b  # each pair once: the second after the first
        for x, (a, ai, ca) in enumerate(_spots(places_a, holds_a)):
            for b, bi, cb in islice(_spots(places_b, holds_b), x + 1 if same else 0, None):
                # Two things in one place are never swapped: passed over before the check.
                if a != b and self._exchange_ok(state, kind, a, ca, b, cb) is None:
                    yield a, ai, b, bi

    @staticmethod
    def _owner(state: DicetopiaState, where: str) -> str:
        return POOL if where in state.city else where

    def _die_words(self, state: DicetopiaState, cell: str) -> str:
        return state.t.die_words(cell)

    def _place_words(self, state: DicetopiaState, where: str, index: int) -> str:
        """What is at a place, and where, in the log's words: "the purple 4 on The Agency",
        "Bob's agent on Waste Management"."""
        c = state.cell(where, index) or ""
        agent_of = c[len(AGENT):] if c.startswith(AGENT) else ""  # an agent on the city names its seat
        thing = f"{state.seat_name(agent_of)}'s agent" if agent_of else f"the {state.t.die_words(c)}"
        return f"{thing} on {state.where_name(where)}"
