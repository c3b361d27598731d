"""Shared set-ups for the Liberation tests, on the placeholder map.

Placeholder lines: a–b a–c b–d c–d b–e c–h d–f d–i e–f e–g f–g f–m g–l h–i h–k i–j j–k
j–m k–n l–m m–n.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from rules.core import PUBLIC, Draw, Seat, dumps
from rules.liberation import GAME, FirstCity, PlaceBase
from rules.liberation.state import LiberationState

D, L = "dyn", "lib"
SEATS = [Seat(D, "dynasty", "Dana"), Seat(L, "liberation", "Lee")]


def c(letter: str) -> str:
    return f"city-{letter}"


def start(
    dyn: str = "abd",
    lib: str = "efg",
    discard: str = "n",
    first: str = "a",
    base: str = "f",
    options: dict[str, Any] | None = None,
) -> LiberationState:
    """A game after setup with the named cards dealt (letters of placeholder cities):
    Dynasty turn 1, step 1."""
    opts = {"balance": len(discard), **(options or {})}
    s = GAME.new(SEATS, opts, seed=1)
    for x in discard:
        GAME.push(s, Draw(D, "city", c(x)))
    for x in dyn:
        GAME.push(s, Draw(D, "city", c(x)))
    for x in lib:
        GAME.push(s, Draw(L, "city", c(x)))
    GAME.push(s, FirstCity(D, c(first)))
    GAME.push(s, PlaceBase(L, c(base)))
    return s


def public_text(state: LiberationState) -> str:
    """Everything the shared screen could show, as one string."""
    return json.dumps(GAME.view(state, PUBLIC))


def snapshot(state: LiberationState) -> str:
    return dumps(state)


def hand(state: LiberationState, seat: str) -> list[str]:
    return list(state.hands[seat].cards)


def cities(letters: Iterable[str]) -> list[str]:
    return [c(x) for x in letters]
