"""Where each square of the board data sits on the screen's schematic grid (no Kivy).

The board file (RECONSTRUCTED) has no drawing coordinates: this lays it out as a
schematic. The Wall Walk's 78 squares run anticlockwise round the border of a 23 × 18
grid from Start (bottom left); the Inner Ward's squares keep the row and column their
ids carry (``i<row>-<col>``, 15 × 19) inside it; the Inmost Ward and the White Tower's
one-way chain fill the 5 × 5 block the ring round the White Tower leaves, in a snake, with
the Rack at its end; the buildings, benches, prison and ferry sit in the grassed areas.

>>> from rules.outrage.board import default_board
>>> g = grid_layout(default_board())
>>> g.cols, g.rows, g.cells["w00"], len(g.cells) == len(default_board().squares)
(23, 18, (0, 17), True)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules.outrage.board import Board

COLS, ROWS = 23, 18
# The Inner Ward's grid sits inside the wall, one column in from its left edge.
INNER_ROW0, INNER_COL0 = 1, 2
# Squares off the Inner Ward's lanes, placed in its grassed areas (inner grid row, col).
PLACES = {
    "chapel-royal": (1, 4), "museum": (1, 14), "hospital": (4, 3), "armouries": (4, 15),
    "shop": (11, 3), "bloody-tower": (11, 15), "bench-west": (8, 4), "bench-east": (8, 14),
}
_INNER = re.compile(r"^i(\d+)-(\d+)$")


@dataclass(frozen=True)
class GridLayout:
    cols: int
    rows: int
    cells: dict[str, tuple[int, int]]  # square → (col, row), row 0 at the top


def _perimeter() -> list[tuple[int, int]]:
    """The border cells anticlockwise on screen from the bottom-left corner."""
    out = [(c, ROWS - 1) for c in range(COLS)]
    out += [(COLS - 1, r) for r in range(ROWS - 2, -1, -1)]
    out += [(c, 0) for c in range(COLS - 2, -1, -1)]
    out += [(0, r) for r in range(1, ROWS - 1)]
    return out


def grid_layout(board: Board) -> GridLayout:
    cells: dict[str, tuple[int, int]] = {}
    wall = sorted(board.region_squares("wall"))
    for sid, cell in zip(wall, _perimeter()):
        cells[sid] = cell
    chain = sorted(board.region_squares("inmost") + board.region_squares("white"))
    chain = [s for s in chain if s != "rack"] + (["rack"] if "rack" in board.squares else [])
    for i, sid in enumerate(chain[:25]):
        r, k = divmod(i, 5)
        c = k if r % 2 == 0 else 4 - k  # a snake, bottom row first: the way in is at the foot
        cells[sid] = (INNER_COL0 + 7 + c, INNER_ROW0 + 9 - r)
    free = [(INNER_COL0 + c, INNER_ROW0 + r) for r in range(15) for c in range(19)]
    used = set(cells.values())
    for sid in board.squares:
        if sid in cells:
            continue
        m = _INNER.match(sid)
        if m:
            cells[sid] = (INNER_COL0 + int(m.group(2)), INNER_ROW0 + int(m.group(1)))
        elif sid in PLACES:
            r, c = PLACES[sid]
            cells[sid] = (INNER_COL0 + c, INNER_ROW0 + r)
        used.add(cells.get(sid, (-1, -1)))
    for sid in board.squares:  # anything else (a table's own extra square): the next free cell
        if sid not in cells:
            spot = next(p for p in free + [(1, ROWS - 2), (COLS - 2, ROWS - 2)] if p not in used)
            if sid == board.places.get("cradle") and (COLS - 2, ROWS - 2) not in used:
                spot = (COLS - 2, ROWS - 2)  # the ferry: by the wall, outside the Inner Ward
            cells[sid] = spot
            used.add(spot)
    return GridLayout(COLS, ROWS, cells)
