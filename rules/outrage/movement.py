"""Moving a piece: THE WALL WALK (the first circuit, anticlockwise, ending at Queen's
House), ACCREDITATION (an odd throw or a Tower Pass there), INNER WARD, INMOST WARD AND
WHITE TOWER (one way, sheltered), SPLITTING THE SEVEN and the GENERAL REGULATIONS' count
of squares, on the reconstructed board (RULINGS B-, M-).

>>> from rules.outrage import GAME
>>> from rules.core import Roll
>>> state = GAME.new([("ann", "red"), ("bob", "blue")], seed=1)
>>> while state.phase == "deal": GAME.push(state, GAME.sample(state))
>>> GAME.push(state, Roll("ann", (6, 5))); GAME.push(state, Roll("bob", (1, 2)))
>>> sorted(moves(state, "ann", 3)), moves(state, "ann", 3)["w03"][0]
(['w03'], ('w00', 'w01', 'w02', 'w03'))
"""
from __future__ import annotations

import functools
from typing import Iterator

from rules.core import Roll, Violation

from .actions import MoveTo, Split
from .board import ACCREDITED, FIRST_CIRCUIT
from .places import BENCH_EXIT, BOARD, NAME, POSTED, QUEENS_HOUSE, REGION, SHELTER
from .sections import R_ACCR, R_GENERAL, R_SPLIT
from .state import OutrageState

UNACCREDITED = frozenset({"wall", "ward", "gate", "exit"})
"""Arcs a player not yet accredited may use: the Wall Walk anticlockwise, and the Inner
Ward's lanes and Queen's House gate if an instruction sent them down (RULINGS M-03)."""
MOVING = ACCREDITED | {"exit"}
"""Arcs an accredited player may use: any direction on the Wall Walk, the stairs, the
Inner Ward, the Inmost Ward's one-way arrows, and the way out."""

Reachable = dict[str, tuple[tuple[str, ...], bool]]
"""Where a move may end: square → (its route, whether it passes or lands on a warder's
post, so needs a Disguise)."""


def sheltered(state: OutrageState, seat: str) -> bool:
    """In the Inmost Ward or the White Tower (and not held there): "immune from attack and
    they cannot be moved by a Yeoman or another player" (INMOST WARD AND WHITE TOWER)."""
    return state.pos[seat] in SHELTER and seat not in state.held


def movable_others(state: OutrageState, seat: str) -> list[str]:
    """Whom ``seat`` may move with a split seven (SPLITTING THE SEVEN; RULINGS M-06): a
    player in the game, not held nor missing a turn, not sheltered in the White Tower or
    the Inmost Ward, not in Sanctuary, not in the middle of a burglary, and not waiting at
    Queen's House to be accredited."""
    return [s for s in state.order.order if s != seat and state.in_play(s) and s not in state.held
            and not state.order.skips.get(s) and not sheltered(state, s) and s not in state.sanctuary
            and s not in state.burglaries and not (not state.accredited[s] and state.pos[s] == QUEENS_HOUSE)]


def moves(state: OutrageState, seat: str, steps: int) -> Reachable:
    """Where ``seat``'s piece may end a move of exactly ``steps``: square → (its route,
    whether it passes or lands on a warder's post, so needs a Disguise). Along adjacent
    squares, none twice in the turn, by the arcs in bounds for the player (first circuit:
    the Wall Walk anticlockwise, ending at Queen's House whatever the throw). With the
    ``movement`` option ``unchecked`` every square is offered (the table's board rules)."""
    pos = state.pos[seat]
    if state.options["movement"] == "unchecked":
        return _anywhere(pos)
    g = BOARD.graph
    acc = state.accredited[seat]
    # No square twice in a turn: the squares the turn's own piece has visited (another
    # player's piece, moved by a split seven, has visited none this turn).
    visited = frozenset(state.visited).difference((pos,)) if seat == state.actor else frozenset()
    if not acc and REGION[pos] == "wall":
        # The first circuit ends at Queen's House regardless of the number thrown (ACCREDITATION).
        d = g.distance(pos, QUEENS_HOUSE, edges=FIRST_CIRCUIT)
        if d is not None and steps >= d:
            route = g.paths(pos, d, edges=FIRST_CIRCUIT, blocked=visited)
            return {QUEENS_HOUSE: (route[0], False)} if route else {}
        return {p[-1]: (p, False) for p in g.paths(pos, steps, edges=FIRST_CIRCUIT, blocked=visited)}
    posted = POSTED[tuple(state.warders.values())]
    bench = BENCH_EXIT[pos]
    if acc and not bench:
        # The board's graph answers the common move: each end by a way round the warders
        # if there is one (and remembers the answer).
        return g.guarded(pos, steps, posted, edges=MOVING, blocked=visited)
    edges = MOVING if acc else UNACCREDITED
    out: Reachable = {}
    for p in g.paths(pos, steps, edges=edges, blocked=visited):
        if bench and p[1] != bench:
            continue  # "leave the bench by the square opposite" (RAVEN CARDS: Rest on a bench)
        if not acc and QUEENS_HOUSE in p[1:-1]:
            p = p[: p.index(QUEENS_HOUSE) + 1]  # the first circuit ends at Queen's House whatever the count (M-02)
        needs = not posted.isdisjoint(p[1:])
        known = out.get(p[-1])
        if known is None or (known[1] and not needs):
            out[p[-1]] = (p, needs)
    return out


@functools.lru_cache(maxsize=None)
def _anywhere(pos: str) -> Reachable:
    """With movement unchecked: every square but the one a piece stands on and the prisons
    (which only an instruction sends a player to). One read-only answer per square."""
    return {s: ((pos, s), False) for s in BOARD.squares
            if s != pos and s not in (BOARD.places["bloody_tower"], BOARD.places["rack"])}


class Movement:
    """The move step: where a piece may go, splitting a seven, and moving (the rules'
    part of :class:`~rules.outrage.game.Outrage`)."""

    def moves(self, state: OutrageState, seat: str, steps: int) -> Reachable:
        """Where ``seat``'s piece may go with ``steps``: see :func:`moves`."""
        return moves(state, seat, steps)

    def reachable(self, state: OutrageState) -> Reachable:
        """The move step's derived value: where the piece being moved may go with the count
        being moved, worked out once per ply for the prompt, the check and the move itself
        (``self.derived(state)``)."""
        return moves(state, state.mover, state.steps)

    def movable_others(self, state: OutrageState, seat: str) -> list[str]:
        return movable_others(state, seat)

    def _v_move(self, state: OutrageState, action: MoveTo) -> tuple[Violation, ...]:
        seat = action.seat
        who = state.seat_name(seat)
        got = self.derived(state).get(action.square)
        if got is None:
            where = BOARD.name_of(action.square) if action.square in BOARD.squares else repr(action.square)
            return (Violation("unreachable", R_GENERAL, f"{state.seat_name(state.mover)} cannot end a move of exactly {state.steps} on {where}: squares are counted along adjacent squares, none twice in a turn, through no wall, warder or out-of-bounds way."),)
        if action.disguise:
            if action.disguise not in state.cards_of(seat, "disguise"):
                return (Violation("no-disguise", R_GENERAL, f"{who} has no such Disguise card in hand."),)
        elif got[1]:
            # "The Warder blocks the way for players who may, however, slip past unnoticed
            # on production of a disguise" (RAVEN CARDS: Yeoman Warder called out).
            return (Violation("warder-blocks", R_GENERAL, f"A Yeoman Warder at his post blocks the way to {BOARD.name_of(action.square)}; only a Disguise lets {who} pass unnoticed."),)
        return ()

    def _v_split(self, state: OutrageState, action: Split) -> Iterator[Violation]:
        seat = action.seat
        who = state.seat_name(seat)
        if not 1 <= action.steps <= 6:
            yield Violation("bad-split", R_SPLIT, f"{who} splits a seven into two moves of 1 to 6 squares each, not {action.steps} and {7 - action.steps}.")
        if action.other == seat:
            yield Violation("cannot-move-other", R_SPLIT, f"{who} splits a seven between themselves and one other player.")
        elif action.other not in movable_others(state, seat):
            yield Violation("cannot-move-other", R_SPLIT, unmovable(state, seat, action.other))

    def _split(self, state: OutrageState, action: Split) -> None:
        state.split = [action.other, 7 - action.steps]
        state.steps = action.steps
        state.note(f"{state.seat_name(action.seat)} splits the seven: {action.steps} for themselves, {7 - action.steps} for {state.seat_name(action.other)}.")

    def _start_move(self, state: OutrageState, seat: str, steps: int) -> None:
        state.mover = seat
        state.steps = steps
        state.split = []
        state.phase = "move"
        if not state.visited:
            state.visited = [state.pos[seat]]

    def _move(self, state: OutrageState, action: MoveTo) -> None:
        mover = state.mover
        square = action.square
        route, _ = self.derived(state)[square]  # read before anything is written
        if action.disguise:
            state.hands[action.seat].remove(action.disguise)
            self._to_pack(state, [action.disguise])
            state.note(f"{state.seat_name(action.seat)} plays a Disguise and slips past the Yeoman Warder unnoticed. [{R_GENERAL}]")
        mine = mover == state.actor
        if mine:
            # No square twice in a turn: remember the squares passed.
            if state.options["movement"] == "checked":
                state.visited += route[1:]  # a checked route enters none visited already (moves() blocks them)
            else:  # the square the table named: it may be one visited already
                state.visited += [sq for sq in route[1:] if sq not in state.visited]
        state.pos[mover] = square
        state.released = False
        state.note(f"{state.seat_name(mover)} moves to {NAME[square]}.")
        # After the thrower's part of a split seven, the other piece moves (RULINGS M-06).
        self._queue_landing(state, mover, square, state.steps if mine else 0, front=True)
        self.proceed(state)

    def place(self, state: OutrageState, seat: str, square: str, why: str) -> None:
        """Move ``seat`` straight to ``square`` (a card, an instruction); the caller has it
        obey the square."""
        state.pos[seat] = square
        state.note(f"{state.seat_name(seat)} goes to {NAME.get(square, square)}{why}.")

    def land(self, state: OutrageState, seat: str, square: str, thrown: int) -> None:
        """Queue what ``square`` tells ``seat`` to do, then carry on (GENERAL REGULATIONS:
        "Players moved under any circumstances must always obey any instructions")."""
        self._queue_landing(state, seat, square, thrown, front=True)
        self.proceed(state)

    # ------------------------------------------------------------ accreditation

    def _accredit_roll(self, state: OutrageState, roll: Roll) -> None:
        """At Queen's House the Resident Governor accredits a player "by presenting a Tower
        Pass or by throwing an odd number" (ACCREDITATION)."""
        seat = roll.seat
        who = state.seat_name(seat)
        total = sum(roll.values)
        if total % 2:
            state.accredited[seat] = True
            state.note(f"{who} throws {total}, an odd number, and is accredited by the Resident Governor; {who} may enter the Inner Ward next turn. [{R_ACCR}]")
        else:
            state.note(f"{who} throws {total}, an even number: not accredited yet. [{R_ACCR}]")
        self.end_turn(state)


def unmovable(state: OutrageState, seat: str, other: str) -> str:
    """Why ``seat`` may not move ``other`` with a split seven (SPLITTING THE SEVEN)."""
    name = state.seat_name(other) if other in state.pos else repr(other)
    return f"{state.seat_name(seat)} cannot move {name} this way: players in the White Tower or Inmost Ward, held, in Sanctuary or out of the Tower cannot be moved by another player."
