"""Building Outrage! positions for rule tests: a game dealt and started, then pieces,
cards and warders put where a test needs them."""
from __future__ import annotations

from typing import Any

import pytest

from rules.core import Draw, IllegalAction, Roll
from rules.outrage import GAME
from rules.outrage.state import OutrageState

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def started(n: int = 2, seed: int = 1, **options: Any) -> OutrageState:
    """A game of ``n`` seats (ids p1…, named Ann, Bob…), dealt, with p1 to start."""
    seats = [{"id": f"p{i + 1}", "faction": f, "name": NAMES[i]}
             for i, f in enumerate(("red", "blue", "green", "yellow", "white", "black")[:n])]
    state = GAME.new(seats, options, seed)
    while state.phase == "deal":
        GAME.push(state, GAME.sample(state))
    GAME.push(state, Roll("p1", (6, 6)))
    for i in range(1, n):
        GAME.push(state, Roll(f"p{i + 1}", (1, 2)))
    assert state.phase == "start" and state.order.current == "p1"
    return state


def give(state: OutrageState, seat: str, *cards: str) -> None:
    """Put ``cards`` (from the pack or any hand) into ``seat``'s hand."""
    for c in cards:
        if c in state.decks["tower"].cards:
            state.decks["tower"].cards.remove(c)
        else:
            for h in state.hands.values():
                if c in h.cards:
                    h.cards.remove(c)
        state.hands[seat].add(c)
    state.changed()


def empty_hand(state: OutrageState, seat: str) -> None:
    for c in list(state.hands[seat].cards):
        state.hands[seat].remove(c)
        state.decks["tower"].put_bottom(c)
    state.changed()


def put(state: OutrageState, seat: str, square: str, accredited: bool | None = None) -> None:
    state.pos[seat] = square
    if accredited is not None:
        state.accredited[seat] = accredited
    state.changed()


def push(state: OutrageState, action: Any) -> None:
    GAME.push(state, action)


def rejected(state: OutrageState, action: Any) -> tuple[str, ...]:
    """The codes an illegal action is rejected with (and the state is unchanged)."""
    from rules.core import dumps
    before = dumps(state)
    with pytest.raises(IllegalAction) as e:
        GAME.push(state, action)
    assert dumps(state) == before
    return e.value.codes


def messages(state: OutrageState, action: Any) -> list[str]:
    return [v.message + " [" + v.rule + "]" for v in GAME.check(state, action)]


def draw_top(state: OutrageState, seat: str | None = None) -> None:
    """The app's draw (the top card) for whoever must draw."""
    GAME.push(state, GAME.sample(state, seat))


def draw(state: OutrageState, seat: str, deck: str, card: str) -> None:
    GAME.push(state, Draw(seat, deck, card))


def log_text(state: OutrageState) -> str:
    return "\n".join(e.text for e in state.log)
