"""A guided player for whole games: random play seldom gets a jewel out of the Tower, so
this one heads for Queen's House, the Mint, a jewel case and the Cradle Tower in turn,
burgles with every tool it can and escapes when it can; everything else it picks at
random among the legal actions (by kind, then within the kind, as the kernel's random
player does). Only legal actions are ever played, checked by ``push``."""
from __future__ import annotations

from typing import Any

from rules.core import Rng, Roll, Seat
from rules.core.playout import choose
from rules.outrage import GAME, MoveTo
from rules.outrage.board import default_board
from rules.outrage.cards import TOWER
from rules.outrage.game import MOVING
from rules.outrage.state import CASE

BOARD = default_board()


def goal(state: Any, seat: str) -> str | None:
    places = BOARD.places
    if not state.accredited[seat]:
        return places["queens_house"]
    carried = [j for j, w in state.jewels.items() if w == seat]
    if not state.coins[seat]:
        return places["mint"]
    if carried:
        return places["cradle"]
    if any(TOWER[c].group == "tool" for c in state.hands[seat].cards) or seat in state.burglaries:
        for j in reversed(BOARD.jewels):
            if state.jewels[j] == CASE:
                return BOARD.facing[j]
    return places["mint"] if len(state.hands[seat]) < 3 else None


def pick(state: Any, rng: Rng) -> Any:
    legal = list(GAME.legal_actions(state))
    by = {}
    for a in legal:
        by.setdefault(a.kind, []).append(a)
    if "escape" in by:
        return by["escape"][0]
    for a in by.get("choose", []):
        if a.option in ("escape", "reenter", "go"):
            return a
    if "burgle" in by:
        return max(by["burgle"], key=lambda a: len(a.tools))
    if "attack" in by and rng.below(4) == 0:
        return rng.choice(by["attack"])
    if "roll" in by:
        seat = by["roll"][0].seat
        return Roll(seat, (1 + rng.below(6), 1 + rng.below(6)))
    if "draw" in by:
        return GAME.sample(state)
    if "move" in by:
        mover = state.mover
        g = goal(state, mover) if mover == state.actor else None
        if g is not None and rng.below(10):
            def far(a: MoveTo) -> int:
                d = BOARD.graph.distance(a.square, g, edges=MOVING)
                return 999 if d is None else d
            return min(by["move"], key=far)
    for kind in ("decline", "abandon"):
        if kind in by and len(by) > 1 and rng.below(4):
            by.pop(kind)
    return choose(rng, [a for acts in by.values() for a in acts])


def guided_game(seed: int, seats: list[Seat], options: dict[str, Any], max_plies: int = 3000) -> tuple[Any, list[Any]]:
    rng = Rng(seed)
    state = GAME.new(seats, options, seed)
    actions = []
    while state.result is None and len(actions) < max_plies:
        a = pick(state, rng)
        GAME.push(state, a)
        actions.append(a)
    return state, actions
