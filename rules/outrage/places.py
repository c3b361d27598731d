"""The shipped board's facts that the rules ask on every action, read once at load (the
board is an immutable value): which squares shelter a player (the Inmost Ward and the
White Tower), which draw a Raven card, where the benches, Queen's House and the Cradle
Tower are, and which squares a warder at his post blocks.

>>> QUEENS_HOUSE, CRADLE
('w77', 'cradle')
>>> "t10" in SHELTER, "w10" in SHELTER
(True, False)
"""
from __future__ import annotations

import itertools

from .board import default_board

BOARD = default_board()
REGION = {sid: sq.region for sid, sq in BOARD.squares.items()}
NAME = {sid: sq.name for sid, sq in BOARD.squares.items()}
SHELTER = frozenset(sid for sid, r in REGION.items() if r in ("inmost", "white"))
"""The squares of the Inmost Ward and the White Tower: a player there is immune from attack
and cannot be moved by another player (INMOST WARD AND WHITE TOWER)."""
ROPE_LADDER = frozenset(sid for sid, sq in BOARD.squares.items() if sq.rope_ladder)
"""The White Tower squares marked for a Rope or a Ladder (TOWER CARDS: Aids to escape)."""
RAVEN_SQUARES = frozenset(sid for sid, sq in BOARD.squares.items() if sq.draws_raven)
"""The unmarked squares of the Inner Ward, where a Raven card is taken (INNER WARD)."""
BENCH_EXIT = {sid: sq.bench_exit for sid, sq in BOARD.squares.items()}
BENCHES = tuple(sid for sid, sq in BOARD.squares.items() if sq.bench_exit)
PLACES_OF_INTEREST = tuple(sid for sid, r in REGION.items() if r in ("wall", "inner"))
"""The squares a "place of interest" Raven card may send a player to, in the board's order."""
QUEENS_HOUSE = BOARD.places["queens_house"]
CRADLE = BOARD.places["cradle"]
QUIET = frozenset(sid for sid, sq in BOARD.squares.items()
                  if not sq.do and sid not in RAVEN_SQUARES and not sq.faces and sid not in (QUEENS_HOUSE, CRADLE))
"""The squares where a landing sets nothing going: no instruction, no Raven card, no
jewel's case faced, neither Queen's House nor the Cradle Tower (a third of the landings)."""
POSTED = {manned: frozenset(sq for post, on in zip(BOARD.posts, manned) if on for sq in BOARD.posts[post])
          for manned in itertools.product((False, True), repeat=len(BOARD.posts))}
"""The squares of the posts whose Yeoman Warder is at his post, for each way of manning
them (as ``state.warders`` lists them, in the board's order): the squares that block a
move, looked up once per move."""
