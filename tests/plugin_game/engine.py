"""Stepping Stones, a game that exists only to show what a game plug-in supplies.

The rules, in full (the "rulebook" the violations cite):

    §1 Setup. Two players, the Fox and the Hare, start on the Ford.
    §2 Turn. On your turn, roll one die. Then either leap (one stone on 1–3, two stones
       on 4–6) or gather a pebble and stay where you are.
    §3 Pebbles. Before you roll, you may spend two pebbles to hop one stone forward.
    §4 End. The first to stand on the Tower wins.

>>> g = SteppingStones()
>>> s = g.new([("fox-1", "fox"), ("hare-1", "hare")], {}, seed=1)
>>> str(g.prompt(s))
'fox-1: roll 1d6 to see how far to leap'
>>> g.push(s, Roll("fox-1", (5,))); g.push(s, Leap("fox-1"))
>>> g.names({})[STONES[s.stones["fox-1"]]], s.order.current
('the Mill', 'hare-1')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from rules.core import (Action, Decision, Game, NoPositions, Outcome, Prompt, Roll, RollRequest, Score, State, TurnOrder,
                        Violation, action, serializable)
from rules.core.position import PositionReader

# The path, from the Ford to the Tower; the players know each stone by its name.
STONES = ("ford", "stile", "mill", "oak", "well", "tower")
STONE_NAMES = {"ford": "the Ford", "stile": "the Stile", "mill": "the Mill", "oak": "the Old Oak", "well": "the Well",
               "tower": "the Tower"}
HOP_COST = 2


@action("stones.leap")
@dataclass(frozen=True)
class Leap(Action):
    """Leap forward as far as the die says (§2)."""


@action("stones.gather")
@dataclass(frozen=True)
class Gather(Action):
    """Stay and gather a pebble (§2)."""


@action("stones.hop")
@dataclass(frozen=True)
class Hop(Action):
    """Spend two pebbles to hop one stone forward before rolling (§3)."""


@serializable("stones.State")
@dataclass(kw_only=True)
class StonesState(State):
    order: TurnOrder
    stones: dict[str, int]  # seat → its stone's place along STONES
    pebbles: dict[str, int]
    turn: int = 1
    rolled: int = 0  # this turn's roll, 0 before it


class SteppingStones(Game[StonesState]):
    """The Fox and the Hare race along six stones (see the module's rules)."""

    id = "stepping_stones"
    title = "Stepping Stones"
    rulebook = "Stepping Stones"
    min_seats = 2
    max_seats = 2
    factions = ("fox", "hare")
    action_types = (Roll, Leap, Gather, Hop)
    dice_rule = "§2 Turn"
    turn_rule = "§2 Turn"

    def setup(self, seats: Any, options: Any, rng: Any, seed: int) -> StonesState:
        ids = [s.id for s in seats]
        return StonesState(seats=seats, options=options, seed=seed, rng=rng, order=TurnOrder(ids),
                           stones={s: 0 for s in ids}, pebbles={s: 0 for s in ids})

    def ask(self, state: StonesState) -> Prompt:
        seat = state.order.current
        if state.rolled:
            return Prompt.single(seat, Decision(("leap", "gather"), f"rolled {state.rolled}"))
        also = ("hop",) if state.pebbles[seat] >= HOP_COST else ()
        return Prompt.single(seat, RollRequest.of(1, 6, "see how far to leap", also=also))

    def violations(self, state: StonesState, act: Action, prompt: Prompt) -> Iterable[Violation]:
        if isinstance(act, Hop) and state.stones[act.seat] >= len(STONES) - 1:
            yield Violation("no-stone-ahead", "§3 Pebbles", "There is no stone ahead to hop to.")

    def execute(self, state: StonesState, act: Action) -> None:
        seat = act.seat
        if isinstance(act, Roll):
            state.rolled = act.values[0]
            return
        if isinstance(act, Hop):
            state.pebbles[seat] -= HOP_COST
            self._move(state, seat, 1)
            return
        if isinstance(act, Leap):
            self._move(state, seat, 1 if state.rolled <= 3 else 2)
        else:
            state.pebbles[seat] += 1
        if state.result is None:
            state.rolled = 0
            state.order.advance()
            if state.order.index == 0:
                state.turn += 1

    def _move(self, state: StonesState, seat: str, by: int) -> None:
        state.stones[seat] = min(len(STONES) - 1, state.stones[seat] + by)
        if state.stones[seat] == len(STONES) - 1:
            scores = {s: Score(place) for s, place in state.stones.items()}
            self.finish(state, Outcome(state.faction_of(seat), f"{state.seat_name(seat)} stands on the Tower", scores, (seat,)))

    def candidates(self, state: StonesState, prompt: Prompt) -> Iterator[Action]:
        seat = state.order.current
        for kind, make in (("leap", Leap), ("gather", Gather), ("hop", Hop)):
            if prompt.accepts(seat, kind):
                yield make(seat)

    def render(self, state: StonesState, viewer: str) -> dict[str, Any]:
        return {"turn": state.turn, "rolled": state.rolled, "stones": {s: STONES[i] for s, i in state.stones.items()},
                "pebbles": dict(state.pebbles)}

    def tracked(self, state: StonesState) -> dict[str, int]:
        return {f"pebbles:{s}": n for s, n in state.pebbles.items()}

    # ---------------------------------------------------------- positions (joining a game under way)
    def position(self, state: StonesState) -> dict[str, Any]:
        """``{"seat", "turn", "stones": {seat: stone}, "pebbles": {seat: n}}`` at a turn's start."""
        if state.result is not None or state.rolled:
            raise NoPositions("A Stepping Stones position is the start of a turn, before its roll.")
        return {"seat": state.order.current, "turn": state.turn,
                "stones": {s: STONES[i] for s, i in state.stones.items()}, "pebbles": dict(state.pebbles)}

    def from_position(self, seats: Any, options: Any, position: dict[str, Any], rng: Any, seed: int) -> StonesState:
        ids = [s.id for s in seats]
        r = PositionReader(position, "§1 Setup")
        r.keys(position, ("seat", "turn", "stones", "pebbles"))
        if position.get("seat") not in ids:
            r.bad("seat", f"no seat {position.get('seat')!r} at this table.")
        turn = r.int("turn", lo=1)
        stones = r.obj("stones", position.get("stones", {}))
        pebbles = r.obj("pebbles", position.get("pebbles", {}))
        for s in ids:
            if stones.get(s) not in STONES[:-1]:
                r.bad(f"stones.{s}", f"no stone {stones.get(s)!r} before the Tower (one standing on the Tower has won).")
            r.int(f"pebbles.{s}", pebbles.get(s), lo=0)
        r.done()
        return StonesState(seats=seats, options=options, seed=seed, rng=rng,
                           order=TurnOrder(ids, index=ids.index(position["seat"])), turn=turn or 1,
                           stones={s: STONES.index(stones[s]) for s in ids}, pebbles={s: pebbles[s] for s in ids})

    # ---------------------------------------------------------- what players call the pieces
    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        return dict(STONE_NAMES)

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        if source == "stones":
            # A piece on the Tower has won: a game under way has none there.
            return [(s, STONE_NAMES[s]) for s in STONES[:-1]]
        return super().choices(source, options, seats, position)


GAME = SteppingStones()
