"""Random play: a driver that plays whole games by picking random legal actions.

The random player first picks an action *kind* uniformly, then an action of that kind,
so that 36 possible 2d6 results do not drown out the one decision that matters.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .actions import Action
from .game import Game, State
from .rng import Rng
from .seats import Seat


@dataclass
class Playout:
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    state: State
    actions: list[Action]

    @property
    def finished(self) -> bool:
        return self.state.result is not None


def choose(rng: Rng, actions: Sequence[Action]) -> Action:
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for a in actions:
        by_kind[a.kind].append(a)
    kinds = sorted(by_kind)
    return rng.choice(by_kind[rng.choice(kinds)])


def random_playout(
    game: Game[Any],
    seed: int,
    *,
    max_plies: int = 1000,
    seats: list[Seat] | None = None,
    options: dict[str, Any] | None = None,
    on_step: Callable[[State, Action], None] | None = None,
) -> Playout:
    """Play one random game (up to ``max_plies`` actions) and return it."""
    rng = Rng(seed)
    if seats is None:
        seats, opts = game.random_setup(rng)
        options = opts if options is None else options
    state = game.new(seats, options or {}, seed)
    actions: list[Action] = []
    for _ in range(max_plies):
        if state.result is not None:
            break
        legal = list(game.legal_actions(state))
        if not legal:
            raise AssertionError(f"{game.id}: no legal action at ply {state.ply} but the game is not over ({game.prompt(state)})")
        action = choose(rng, legal)
        game.push_unchecked(state, action)
        actions.append(action)
        if on_step:
            on_step(state, action)
    return Playout(seats, options or {}, seed, state, actions)
