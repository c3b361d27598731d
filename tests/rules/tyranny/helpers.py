"""Shared helpers for the Tyranny tests: games in a known position, driven by actions."""
from __future__ import annotations

from typing import Any

import pytest

from rules.core import Action, Draw, IllegalAction, Roll, dumps
from rules.tyranny import GAME, MoveTo, TyrannyState

TWO = [("cop-1", "cops"), ("crim-1", "criminals")]
FOUR = [("cop-1", "cops"), ("crim-1", "criminals"), ("cop-2", "cops"), ("crim-2", "criminals")]


def new(seats: list[tuple[str, str]] = TWO, seed: int = 1, **options: Any) -> TyrannyState:
    """A new game. These tests pin the rules of each move, so a reaction window opens only
    when a seat holds its card (``react_windows="when-held"``) unless a test says otherwise;
    ``test_reactions.py`` covers the default, where both windows open on every arrest."""
    options.setdefault("react_windows", "when-held")
    return GAME.new(seats, options, seed)


def at(
    seats: list[tuple[str, str]] = TWO,
    seed: int = 1,
    *,
    seat: str | None = None,
    tiles: dict[str, str] | None = None,
    owners: dict[str, str] | None = None,
    influence: int | None = None,
    **options: Any,
) -> TyrannyState:
    """A game started from a public position (``GAME.new(position=...)``): the opening,
    with ``seat`` to move, pieces moved to ``tiles``, properties owned per ``owners``."""
    options.setdefault("react_windows", "when-held")
    p = GAME.position(GAME.new(seats, options, seed))
    if seat is not None:
        p["seat"] = seat
    for s, tile in (tiles or {}).items():
        p["pieces"][s]["tile"] = tile
    p["owners"].update(owners or {})
    if influence is not None:
        p["influence"] = influence
    return GAME.new(seats, options, seed, position=p)


def place(state: TyrannyState, seat: str, tile: str) -> None:
    """Set a piece down on ``tile`` (test set-up, as a table would move it by hand)."""
    state.pos[seat] = tile
    state.changed()


def turn_of(state: TyrannyState, seat: str) -> None:
    """Make it ``seat``'s turn start (test set-up)."""
    state.order.index = state.order.order.index(seat)
    GAME._begin_turn(state)
    state.changed()


def give(state: TyrannyState, seat: str, card: str) -> None:
    """Move ``card`` from its deck into ``seat``'s hand (test set-up; conservation holds)."""
    deck = state.decks[card.split("-")[0]]
    deck.cards.remove(card)
    state.hands[seat].add(card)
    state.changed()


def push(state: TyrannyState, *actions: Action) -> None:
    for a in actions:
        GAME.push(state, a)
    assert not list(GAME.problems(state))


def move(state: TyrannyState, seat: str, roll: int, tile: str) -> None:
    push(state, Roll(seat, (roll,)), MoveTo(seat, tile))


def draw(state: TyrannyState, seat: str, card: str) -> None:
    """Land ``seat`` on a tile of ``card``'s deck and draw ``card``."""
    deck = card.split("-")[0]
    before = {"gamble": "o-docks", "gains": "o-arcade"}[deck]
    place(state, seat, before)
    turn_of(state, seat)
    move(state, seat, 1, {"gamble": "o-gamble-1", "gains": "o-gains-1"}[deck])
    push(state, Draw(seat, deck, card))


def rejected(state: TyrannyState, action: Action) -> tuple[str, ...]:
    """Push an illegal action; assert it changes nothing; return its violation codes."""
    before = dumps(state)
    with pytest.raises(IllegalAction) as e:
        GAME.push(state, action)
    assert dumps(state) == before
    return e.value.codes


def said(state: TyrannyState, action: Action) -> str:
    """What the player is told when ``action`` is refused: every violation's message."""
    return " / ".join(v.message for v in GAME.check(state, action))
