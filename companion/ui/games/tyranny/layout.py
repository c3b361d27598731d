"""Where each tile of a Tyranny board goes on the screen's map, without Kivy.

The two tiers are loops: the outer tier runs clockwise round the border of a square grid,
the inner tier round the ring inside it. The grid is the smallest that fits the outer
tier; the inner ring is used as far as it fits, then tiles wrap onto further rings. The
default board (24 outer tiles, 16 inner) fills a 7×7 grid's two outer rings exactly and
leaves the 3×3 middle for the decks.

>>> ring(3)
[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
>>> from rules.tyranny.board import default_board
>>> g = grid_layout(default_board()); g.size, g.cells["police-station"], g.cells["hideout-inner"]
(7, (0, 0), (5, 5))
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


def ring(n: int, offset: int = 0) -> list[tuple[int, int]]:
    """The cells of the border of an ``n``×``n`` square (top-left origin, rows down),
    clockwise from its top-left corner, shifted by ``offset`` cells on both axes."""
    if n <= 0:
        return []
    if n == 1:
        return [(offset, offset)]
    out = [(offset + c, offset) for c in range(n)]
    out += [(offset + n - 1, offset + r) for r in range(1, n)]
    out += [(offset + c, offset + n - 1) for c in range(n - 2, -1, -1)]
    out += [(offset, offset + r) for r in range(n - 2, 0, -1)]
    return out


@dataclass(frozen=True)
class GridLayout:
    size: int  # the grid is size × size cells
    cells: dict[str, tuple[int, int]]  # tile id → (column, row), row 0 at the top


def grid_layout(board: Any) -> GridLayout:
    tiers = list(board.tiers.items())
    outer = max(tiers, key=lambda kv: len(kv[1]))[1]
    inner = [t for name, ids in tiers for t in ids if ids is not outer]
    size = max(3, math.ceil(len(outer) / 4) + 1)
    slots = ring(size)
    while len(slots) < len(outer):  # a long outer tier wraps inwards
        size += 1
        slots = ring(size)
    cells = {t: slots[i] for i, t in enumerate(outer)}
    used = len(outer)
    free = slots[used:]
    k = 1
    inner_slots: list[tuple[int, int]] = []
    while len(inner_slots) < len(inner) and size - 2 * k > 0:
        inner_slots += ring(size - 2 * k, k)
        k += 1
    inner_slots += free
    if len(inner_slots) < len(inner):  # never on real boards; grow rather than overlap
        extra = size
        while len(inner_slots) < len(inner):
            inner_slots += [(extra, r) for r in range(size)]
            extra += 1
    for i, t in enumerate(inner):
        cells[t] = inner_slots[i]
    return GridLayout(size, cells)
