"""Where each city of a Liberation map is drawn: positions in the unit square (0..1, y up).

A map entered with its printed map cards (``City.map_card``) is laid out card by card, the
cards in a grid in the order of their names ("Map card 1 (top left)" …) and the cities of a
card in a small grid inside it, as on the table. A map without map cards gets a
deterministic spring layout (connected cities pulled together, all cities pushed apart, so
lines rarely cross) snapped to a staggered grid, so no two cities overlap. No Kivy: tested without a window.

>>> from rules.liberation import placeholder_map
>>> pos = layout(placeholder_map())
>>> len(pos), all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for x, y in pos.values())
(14, True)
>>> pos["city-a"][1] > pos["city-n"][1]      # card 1 is top left, card 4 bottom right
True
"""
from __future__ import annotations

import math
import random
import re
from typing import Any

Point = tuple[float, float]
MARGIN = 0.09  # room for the city labels at the edges


def _grid(n: int) -> tuple[int, int]:
    cols = max(1, math.ceil(math.sqrt(n)))
    return cols, max(1, math.ceil(n / cols))


def card_spots(n: int) -> list[Point]:
    """Where the ``n`` cities of one map card sit on it, upright, in the card's unit square
    (y up): a small grid, a last row that is not full centred (a 2-wide card with 3 cities
    is a triangle, not a straight column). The card-set entry draws a card's cities on these spots too, so a card
    looks the same while entered and on the table.

    >>> card_spots(3)
    [(0.25, 0.75), (0.75, 0.75), (0.5, 0.25)]
    """
    cols, rows = _grid(n)
    out = []
    for i in range(n):
        col, row = i % cols, i // cols
        in_row = min(cols, n - row * cols)
        shift = (cols - in_row) / 2
        out.append(((col + 0.5 + shift) / cols, 1.0 - (row + 0.5) / rows))
    return out


def turned_spot(p: Point, turn: int) -> Point:
    """``p`` on a card turned ``turn`` degrees clockwise (about the card's centre, y up).

    >>> turned_spot((0.5, 0.9), 90), turned_spot((0.5, 0.9), 180)
    ((0.9, 0.5), (0.5, 0.09999999999999998))
    """
    x, y = p
    for _ in range((turn // 90) % 4):
        x, y = y, 1.0 - x
    return (x, y)


_CODE = re.compile(r"(\d+)([ab])(\d+)")


def card_turns(spec: Any) -> dict[str, int]:
    """Each map card's clockwise turn this game (``City.map_card`` → degrees), for a map
    composed from map cards (RULINGS L-15): its id ends ``@<card><side><turn>.…`` (one
    entry per quadrant, the card by its place in the set) and its cities come card by card
    in the set's order. Any other map: no turns.

    >>> from rules.liberation.mapcards import Arrangement, Placement, compose, placeholder_card_set
    >>> cs = placeholder_card_set()
    >>> m = compose(cs, Arrangement((Placement("top-left", "card-2", "b", 90), Placement("top-right", "card-1"),
    ...     Placement("bottom-left", "card-3", "a", 270), Placement("bottom-right", "card-4", "b", 180))))
    >>> sorted(card_turns(m).values())
    [0, 90, 180, 270]
    """
    _, at, code = getattr(spec, "id", "").rpartition("@")
    entries = [_CODE.fullmatch(part) for part in code.split(".")] if at else []
    if not entries or None in entries:
        return {}
    turn_of = {int(e.group(1)): int(e.group(3)) for e in entries if e is not None}
    cards: list[str] = []
    for c in spec.cities:
        if c.map_card and c.map_card not in cards:
            cards.append(c.map_card)
    if sorted(turn_of) != list(range(1, len(cards) + 1)):
        return {}
    return {card: turn_of[k + 1] for k, card in enumerate(cards)}


def _by_cards(cities: list[Any], turns: dict[str, int]) -> dict[str, Point]:
    cards: dict[str, list[Any]] = {}
    for c in cities:
        cards.setdefault(c.map_card, []).append(c)
    names = sorted(cards)
    ccols, crows = _grid(len(names))
    out: dict[str, Point] = {}
    for k, card in enumerate(names):
        cx, cy = k % ccols, k // ccols
        members = cards[card]
        # A card turned on the table shows its cities turned with it (L-15).
        for c, spot in zip(members, card_spots(len(members))):
            fx, fy = turned_spot(spot, turns.get(card, 0))
            out[c.id] = ((cx + fx) / ccols, 1.0 - (cy + 1.0 - fy) / crows)
    return out


def _spring(ids: list[str], lines: list[tuple[str, str]], iterations: int = 300) -> dict[str, Point]:
    rng = random.Random(len(ids) * 7919 + len(lines))  # deterministic for a given map size
    n = len(ids)
    pos = {c: [0.5 + 0.4 * math.cos(2 * math.pi * i / n), 0.5 + 0.4 * math.sin(2 * math.pi * i / n)] for i, c in enumerate(ids)}
    k = 0.9 / math.sqrt(max(n, 1))
    temp = 0.1
    for _ in range(iterations):
        disp = {c: [0.0, 0.0] for c in ids}
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 1e-3 * (1 + rng.random())
                f = k * k / d
                disp[a][0] += dx / d * f
                disp[a][1] += dy / d * f
                disp[b][0] -= dx / d * f
                disp[b][1] -= dy / d * f
        for a, b in lines:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = math.hypot(dx, dy) or 1e-3
            f = d * d / k
            disp[a][0] -= dx / d * f
            disp[a][1] -= dy / d * f
            disp[b][0] += dx / d * f
            disp[b][1] += dy / d * f
        for c in ids:
            dx, dy = disp[c]
            d = math.hypot(dx, dy) or 1e-9
            pos[c][0] += dx / d * min(d, temp)
            pos[c][1] += dy / d * min(d, temp)
        temp = max(0.005, temp * 0.985)
    return {c: (p[0], p[1]) for c, p in pos.items()}


def _snap(pos: dict[str, Point], cols: int, rows: int) -> dict[str, Point]:
    """Move each city to the nearest free cell of a staggered grid, so no two buttons
    overlap (the spring layout only keeps them roughly apart). Cities far from every free
    cell go first, so the layout's shape survives."""
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    norm = {c: ((x - min(xs)) / w, (y - min(ys)) / h) for c, (x, y) in pos.items()}
    cells = [((col + (0.5 if row % 2 else 0.0)) / (cols - 0.5), row / (rows - 1)) for row in range(rows) for col in range(cols)]
    free = set(range(len(cells)))
    out: dict[str, Point] = {}
    todo = sorted(norm)
    while todo:
        # The city whose best free cell is farthest picks first.
        best = {c: min(free, key=lambda i, c=c: math.dist(norm[c], cells[i])) for c in todo}
        c = max(todo, key=lambda c: (math.dist(norm[c], cells[best[c]]), c))
        out[c] = cells[best[c]]
        free.discard(best[c])
        todo.remove(c)
    return out


def _fitter(pos: dict[str, Point]) -> Any:
    """The stretch that puts the cities' extent on the unit square less its margin."""
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w = (max(xs) - min(xs)) or 1.0
    h = (max(ys) - min(ys)) or 1.0
    span = 1 - 2 * MARGIN
    return lambda x, y: (MARGIN + (x - min(xs)) / w * span, MARGIN + (y - min(ys)) / h * span)


def _fit(pos: dict[str, Point]) -> dict[str, Point]:
    f = _fitter(pos)
    return {c: f(x, y) for c, (x, y) in pos.items()}


def _by_cards_ok(cities: list[Any]) -> bool:
    return bool(cities) and all(c.map_card for c in cities) and len({c.map_card for c in cities}) > 1


def card_outlines(spec: Any) -> list[tuple[float, float, float, float]]:
    """Where each map card lies (x0, y0, x1, y1, in the coordinates of :func:`layout`; they
    may reach a little past 0..1, into the margin), so the map can draw the cards' edges
    as on the table; none for a map without map cards.

    >>> from rules.liberation import placeholder_map
    >>> [tuple(round(v, 2) for v in r) for r in card_outlines(placeholder_map())][:2]
    [(-0.05, 0.5, 0.5, 1.05), (0.5, 0.5, 1.05, 1.05)]
    """
    cities = list(spec.cities)
    if not _by_cards_ok(cities):
        return []
    f = _fitter(_by_cards(cities, card_turns(spec)))
    n = len({c.map_card for c in cities})
    ccols, crows = _grid(n)
    out = []
    for k in range(n):
        cx, cy = k % ccols, k // ccols
        x0, y1 = f(cx / ccols, 1.0 - cy / crows)
        x1, y0 = f((cx + 1) / ccols, 1.0 - (cy + 1) / crows)
        out.append((x0, y0, x1, y1))
    return out


def layout(spec: Any) -> dict[str, Point]:
    """City id → (x, y) in 0..1 for ``spec`` (a MapSpec or a MapBuilder: cities + lines)."""
    cities = list(spec.cities)
    if not cities:
        return {}
    if _by_cards_ok(cities):
        return _fit(_by_cards(cities, card_turns(spec)))
    cols = max(2, math.ceil(math.sqrt(len(cities))))
    rows = max(2, math.ceil(len(cities) / cols) + 1)  # one spare row: room to keep the shape
    return _fit(_snap(_spring([c.id for c in cities], sorted(spec.lines)), cols, rows))
