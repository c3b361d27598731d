"""Liberation's map as four double-sided map cards, arranged anew each game (RULINGS L-15).

The rulebook's setup: "Shuffle the Map cards, flipping and rotating them at random; then lay
them out in a 2x2 grid to represent the galaxy." So a table enters each card once — its
cities (both sides of a card carry the same cities: the 14 City cards name every city in
every arrangement) and, per side, the lines between its cities and the *stubs*, lines that
leave the card at a named edge position — and each game only says which card lies in which
quadrant, which side is up and how it is turned (an :class:`Arrangement`).
:func:`compose` turns the two into the game's :class:`~rules.liberation.mapdata.MapSpec`.

Edge positions are named ``<edge>-<n>``: the edges ``top``, ``right``, ``bottom``, ``left``
of the side as entered (upright, before any turn), ``n`` from 1 to the set's ``slots``
counted left to right on the top and bottom edges and top to bottom on the left and right
edges. Counted that way, two cards side by side meet where the numbers agree: the left
card's ``right-2`` touches the right card's ``left-2``, the upper card's ``bottom-1`` the
lower card's ``top-1``.

>>> cs = placeholder_card_set()
>>> cs.placeholder, len(cs.cards), cs.slots
(True, 4, 3)
>>> turned("top-1", 90, 3), turned("right-1", 90, 3), turned("left-3", 270, 3)
('right-1', 'bottom-3', 'bottom-3')
>>> arr = Arrangement.in_order(cs)
>>> m = compose(cs, arr)
>>> len(m.cities), m.placeholder, m.adjacent("city-b", "city-e")   # card 1's right-2 meets card 2's left-2
(14, True, True)
>>> compose(cs, rotated(rotated(rotated(rotated(arr))))) == m
True
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable

from rules.datafile import Problems, short

from .mapdata import CATEGORIES, CITY_COUNT, City, MapError, MapSpec, make_map

FORMAT = "liberation-map-cards/1"
EDGES = ("top", "right", "bottom", "left")
SIDES = ("a", "b")
TURNS = (0, 90, 180, 270)
QUADRANTS = ("top-left", "top-right", "bottom-left", "bottom-right")
CARD_COUNT = 4
MAX_SLOTS = 9

QUADRANT_NAMES: dict[str, str] = {
    "top-left": "top left", "top-right": "top right", "bottom-left": "bottom left", "bottom-right": "bottom right",
}
"""Quadrant id → the words a player reads."""

# The four shared edges of the 2×2 layout: (quadrant, its edge) touches (quadrant, its edge).
SHARED_EDGES: tuple[tuple[str, str, str, str], ...] = (
    ("top-left", "right", "top-right", "left"),
    ("bottom-left", "right", "bottom-right", "left"),
    ("top-left", "bottom", "bottom-left", "top"),
    ("top-right", "bottom", "bottom-right", "top"),
)


class CardSetError(MapError):
    """A set of map cards that cannot be used; each problem names its field
    (``cards[1].sides.b.stubs[0].at: …``)."""


class ArrangementError(MapError):
    """An arrangement that does not fit its card set, or whose map cannot be played; each
    problem names its field (``quadrants[2].card: …``)."""


# ------------------------------------------------------------------ edge positions


def parse_position(text: str, slots: int) -> tuple[str, int] | None:
    """``"right-2"`` → ``("right", 2)``; ``None`` if it names no position of a card with
    ``slots`` positions per edge.

    >>> parse_position("right-2", 3), parse_position("right-4", 3), parse_position("middle", 3)
    (('right', 2), None, None)
    """
    edge, _, n = text.rpartition("-")
    if edge not in EDGES or not n.isdigit() or not 1 <= int(n) <= slots:
        return None
    return edge, int(n)


def _point(edge: str, n: int, slots: int) -> tuple[int, int]:
    """The position as integer coordinates on the card's border, (0, 0) top left, y down,
    the card ``slots + 1`` units wide (so turning it is exact)."""
    w = slots + 1
    return {"top": (n, 0), "bottom": (n, w), "left": (0, n), "right": (w, n)}[edge]


def _position(x: int, y: int, slots: int) -> str:
    w = slots + 1
    if y == 0:
        return f"top-{x}"
    if y == w:
        return f"bottom-{x}"
    return f"left-{y}" if x == 0 else f"right-{y}"


def turned(position: str, turn: int, slots: int) -> str:
    """Where the edge position ``position`` is once the card is turned ``turn`` degrees
    clockwise (0, 90, 180 or 270)."""
    where = parse_position(position, slots)
    if where is None or turn not in TURNS:
        raise ValueError(f"no edge position {position!r} turned {turn!r} on a card with {slots} per edge")
    x, y = _point(*where, slots)
    w = slots + 1
    for _ in range(turn // 90):
        x, y = w - y, x  # a quarter turn clockwise about the card's centre
    return _position(x, y, slots)


def position_words(position: str) -> str:
    """A position as a player reads it.

    >>> position_words("left-2"), position_words("top-1")
    ('left edge, 2nd from the top', 'top edge, 1st from the left')
    """
    edge, _, n = position.rpartition("-")
    nth = {"1": "1st", "2": "2nd", "3": "3rd"}.get(n, f"{n}th")
    return f"{edge} edge, {nth} from the {'left' if edge in ('top', 'bottom') else 'top'}"


# ------------------------------------------------------------------ the card set


@dataclass(frozen=True)
class Stub:
    """A line that leaves the card: from ``city`` to the edge position ``at``."""

    city: str
    at: str


@dataclass(frozen=True)
class CardSide:
    """One side of a map card as entered, upright: its lines (pairs of the card's city ids)
    and its stubs."""

    lines: tuple[tuple[str, str], ...]
    stubs: tuple[Stub, ...]


@dataclass(frozen=True)
class MapCard:
    id: str
    name: str
    cities: tuple[City, ...]
    sides: dict[str, CardSide]  # "a" and "b"


@dataclass(frozen=True)
class CardSet:
    """A table's four double-sided map cards (validated by :func:`parse_card_set`)."""

    id: str
    name: str
    cards: tuple[MapCard, ...]
    slots: int = 3
    placeholder: bool = False
    note: str = ""

    def card(self, card_id: str) -> MapCard:
        return next(c for c in self.cards if c.id == card_id)


def parse_card_set(data: Any, source: str = "map cards") -> CardSet:
    """Read a card set from JSON data (as :func:`dump_card_set` writes it);
    :class:`CardSetError` names ``source`` and every problem's field.

    >>> bad = dump_card_set(placeholder_card_set())
    >>> bad["cards"][1]["sides"]["b"]["stubs"][0]["at"] = "middle-2"
    >>> bad["cards"][2]["cities"][0]["name"] = "city a (political center)"
    >>> parse_card_set(bad, "ours.json")
    Traceback (most recent call last):
    ...
    rules.liberation.mapcards.CardSetError: ours.json: cards[1].sides.b.stubs[0].at: 'middle-2' is not an edge position: top-1 … left-3; cards[2].cities[0].name: the name 'city a (political center)' is already on cards[0]
    """
    p = Problems(source)
    data = p.top(data, CardSetError, "A set of map cards is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        p.add("format", f"Unknown map-cards format {short(data.get('format'))}; expected {FORMAT!r}.")
    set_id = p.text(data.get("id", ""), "id")
    name = p.text(data.get("name", ""), "name", empty=True)
    placeholder = p.flag(data.get("placeholder", False), "placeholder")
    note = p.text(data.get("note", ""), "note", empty=True)
    slots = p.whole(data.get("slots", 3), "slots", 1, MAX_SLOTS) or 3
    raw_cards = p.listing(data.get("cards"), "cards", f"a list of the {CARD_COUNT} map cards")
    if raw_cards is not None and len(raw_cards) != CARD_COUNT:
        p.add("cards", f"Liberation has {CARD_COUNT} map cards, not {len(raw_cards)}.")
    cards: list[MapCard] = []
    where_city: dict[str, str] = {}
    where_name: dict[str, str] = {}
    card_ids: set[str] = set()
    for i, rc in enumerate(raw_cards or ()):
        at = f"cards[{i}]"
        rc = p.mapping(rc, at, "a map card: an object with 'id', 'name', 'cities' and 'sides'")
        if rc is None:
            continue
        cid = p.text(rc.get("id"), f"{at}.id")
        if cid is not None:
            if cid in card_ids:
                p.add(f"{at}.id", f"Two map cards share the id {cid!r}.")
            card_ids.add(cid)
        cname = p.text(rc.get("name", cid or ""), f"{at}.name", empty=True)
        cities: list[City] = []
        for j, c in enumerate(p.listing(rc.get("cities"), f"{at}.cities", "a list of the card's cities") or ()):
            cat = f"{at}.cities[{j}]"
            c = p.mapping(c, cat, "a city: an object with a text 'id', 'name' and 'category'")
            if c is None:
                continue
            fields = [p.text(c.get(k), f"{cat}.{k}") for k in ("id", "name", "category")]
            if None in fields:
                continue
            city_id, city_name, category = fields  # type: ignore[misc]
            if category not in CATEGORIES:
                p.add(f"{cat}.category", f"{short(category)} is not a category; one of {', '.join(CATEGORIES)}.")
                continue
            # A duplicate is reported but kept on its card, so the card's lines still check.
            if city_id in where_city:
                p.add(f"{cat}.id", f"the city {city_id!r} is already on {where_city[city_id]}")
            folded = city_name.strip().casefold()
            if folded in where_name:
                p.add(f"{cat}.name", f"the name {city_name!r} is already on {where_name[folded]}")
            where_city.setdefault(city_id, at)
            where_name.setdefault(folded, at)
            cities.append(City(city_id, city_name.strip(), category))
        if not cities:
            p.add(f"{at}.cities", "A map card carries at least one city.")
        own = {c.id for c in cities}
        sides: dict[str, CardSide] = {}
        raw_sides = p.mapping(rc.get("sides"), f"{at}.sides", "an object with the sides 'a' and 'b'")
        if raw_sides is not None:
            for extra in sorted(set(raw_sides) - set(SIDES)):
                p.add(f"{at}.sides", f"A map card has the sides a and b, not {short(extra)}.")
            for s in SIDES:
                side = _parse_side(p, raw_sides.get(s), f"{at}.sides.{s}", own, slots)
                if side is not None:
                    sides[s] = side
        if cid is not None and cname is not None and len(sides) == len(SIDES):
            cards.append(MapCard(cid, cname or cid, tuple(cities), sides))
    if raw_cards is not None and len(raw_cards) == CARD_COUNT and not p:
        # Both sides of a card carry its cities, so every arrangement has these cities.
        if len(where_city) != CITY_COUNT:
            p.add("cards", f"The four map cards carry {CITY_COUNT} cities (one per City card), not {len(where_city)}.")
        present = {c.category for card in cards for c in card.cities}
        missing = [CATEGORIES[k] for k in CATEGORIES if k not in present]
        if missing:
            p.add("cards", f"Every category has at least one city; missing: {', '.join(missing)}.")
    p.raise_if_any(CardSetError)
    return CardSet(set_id or "", name or set_id or "", tuple(cards), slots, bool(placeholder), note or "")


def _parse_side(p: Problems, raw: Any, at: str, own: set[str], slots: int) -> CardSide | None:
    raw = p.mapping(raw, at, "a card side: an object with 'lines' and 'stubs'")
    if raw is None:
        return None
    lines: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for j, l in enumerate(p.listing(raw.get("lines", []), f"{at}.lines", "a list of lines (pairs of city ids)") or ()):
        here = f"{at}.lines[{j}]"
        if not isinstance(l, list) or len(l) != 2 or not all(isinstance(x, str) for x in l):
            p.add(here, f"a line is a pair of city ids, not {short(l)}")
        elif l[0] not in own or l[1] not in own:
            p.add(here, f"the line {l[0]}–{l[1]} names a city that is not on this card")
        elif l[0] == l[1]:
            p.add(here, f"a line joins two different cities, not {l[0]} to itself")
        elif (key := (min(l), max(l))) in seen:
            p.add(here, f"the line {key[0]}–{key[1]} is entered twice")
        else:
            seen.add(key)
            lines.append((l[0], l[1]))
    stubs: list[Stub] = []
    taken: dict[str, int] = {}
    for j, s in enumerate(p.listing(raw.get("stubs", []), f"{at}.stubs", "a list of stubs") or ()):
        here = f"{at}.stubs[{j}]"
        s = p.mapping(s, here, "a stub: an object with a 'city' and the edge position 'at'")
        if s is None:
            continue
        city, pos = p.text(s.get("city"), f"{here}.city"), p.text(s.get("at"), f"{here}.at")
        if city is not None and city not in own:
            p.add(f"{here}.city", f"{short(city)} is not a city on this card")
        elif pos is not None and parse_position(pos, slots) is None:
            p.add(f"{here}.at", f"{short(pos)} is not an edge position: top-1 … left-{slots}")
        elif pos is not None and pos in taken:
            p.add(f"{here}.at", f"two lines leave at {pos} (stubs[{taken[pos]}] already does)")
        elif city is not None and pos is not None:
            taken[pos] = j
            stubs.append(Stub(city, pos))
    return CardSide(tuple(lines), tuple(stubs))


def dump_card_set(cs: CardSet) -> dict[str, Any]:
    """JSON data for a card set; :func:`parse_card_set` reads it back."""
    out: dict[str, Any] = {"format": FORMAT, "id": cs.id, "name": cs.name}
    if cs.placeholder:
        out["placeholder"] = True
    if cs.note:
        out["note"] = cs.note
    out["slots"] = cs.slots
    out["cards"] = [
        {
            "id": c.id,
            "name": c.name,
            "cities": [{"id": x.id, "name": x.name, "category": x.category} for x in c.cities],
            "sides": {
                s: {"lines": [list(l) for l in side.lines], "stubs": [{"city": t.city, "at": t.at} for t in side.stubs]}
                for s, side in c.sides.items()
            },
        }
        for c in cs.cards
    ]
    return out


def placeholder_card_set_data() -> dict[str, Any]:
    """The shipped, made-up card set as JSON data (a fresh copy)."""
    text = resources.files("rules.liberation").joinpath("data/placeholder_map_cards.json").read_text(encoding="utf-8")
    return json.loads(text)


def placeholder_card_set() -> CardSet:
    """The shipped, clearly labelled made-up card set (NOT the printed cards)."""
    return parse_card_set(placeholder_card_set_data(), "placeholder_map_cards.json")


# ------------------------------------------------------------------ arrangements


@dataclass(frozen=True)
class Placement:
    """One quadrant of the layout: which card lies there, which side is up, how far it is
    turned clockwise from upright."""

    quadrant: str
    card: str
    side: str = "a"
    turn: int = 0


@dataclass(frozen=True)
class Arrangement:
    """This game's layout: one :class:`Placement` per quadrant."""

    placements: tuple[Placement, ...]

    @classmethod
    def in_order(cls, cs: CardSet) -> "Arrangement":
        """Card 1 top left … card 4 bottom right, side a up, upright."""
        return cls(tuple(Placement(q, c.id) for q, c in zip(QUADRANTS, cs.cards)))

    def at(self, quadrant: str) -> Placement:
        return next(p for p in self.placements if p.quadrant == quadrant)


def shuffled(cs: CardSet, rng: random.Random) -> Arrangement:
    """The rulebook's setup done by the app: cards shuffled into the quadrants, each
    flipped and turned at random (``rng`` is the app's)."""
    order = [c.id for c in cs.cards]
    rng.shuffle(order)
    return Arrangement(tuple(Placement(q, c, rng.choice(SIDES), rng.choice(TURNS)) for q, c in zip(QUADRANTS, order)))


def rotated(arr: Arrangement) -> Arrangement:
    """The whole layout turned a quarter clockwise: each card moves one quadrant on
    (top left → top right → bottom right → bottom left) and turns 90° with it."""
    nxt = {"top-left": "top-right", "top-right": "bottom-right", "bottom-right": "bottom-left", "bottom-left": "top-left"}
    moved = {nxt[p.quadrant]: Placement(nxt[p.quadrant], p.card, p.side, (p.turn + 90) % 360) for p in arr.placements}
    return Arrangement(tuple(moved[q] for q in QUADRANTS if q in moved))


def parse_arrangement(data: Any, cs: CardSet, source: str = "arrangement") -> Arrangement:
    """Read an arrangement (``{"quadrants": [{"quadrant", "card", "side", "turn"}, …]}``,
    as :func:`dump_arrangement` writes it) and check it against ``cs``.

    >>> parse_arrangement({"quadrants": [{"quadrant": "top-left", "card": "card-1", "side": "c", "turn": 45},
    ...     {"quadrant": "top-left", "card": "card-1"}]}, placeholder_card_set())
    Traceback (most recent call last):
    ...
    rules.liberation.mapcards.ArrangementError: arrangement: quadrants[0].side: must be a or b, not 'c'; quadrants[0].turn: must be 0, 90, 180 or 270 (degrees clockwise), not 45; quadrants[1].quadrant: top-left is used twice; quadrants[1].card: card-1 lies in two quadrants; quadrants: every quadrant holds a card; empty: top-right, bottom-left, bottom-right
    """
    p = Problems(source)
    data = p.top(data, ArrangementError, "An arrangement is a JSON object")
    raw = p.listing(data.get("quadrants"), "quadrants", "a list of the four quadrants") or []
    known = {c.id for c in cs.cards}
    used_q: set[str] = set()
    used_c: set[str] = set()
    out: list[Placement] = []
    for i, r in enumerate(raw):
        at = f"quadrants[{i}]"
        r = p.mapping(r, at, "an object with 'quadrant', 'card', 'side' and 'turn'")
        if r is None:
            continue
        q, card = r.get("quadrant"), r.get("card")
        side, turn = r.get("side", "a"), r.get("turn", 0)
        ok = True
        if q not in QUADRANTS:
            p.add(f"{at}.quadrant", f"must be one of {', '.join(QUADRANTS)}, not {short(q)}")
            ok = False
        elif q in used_q:
            p.add(f"{at}.quadrant", f"{q} is used twice")
            ok = False
        if card not in known:
            p.add(f"{at}.card", f"{short(card)} is not a card of {cs.name!r} ({', '.join(sorted(known))})")
            ok = False
        elif card in used_c:
            p.add(f"{at}.card", f"{card} lies in two quadrants")
            ok = False
        if side not in SIDES:
            p.add(f"{at}.side", f"must be a or b, not {short(side)}")
            ok = False
        if type(turn) is not int or turn not in TURNS:
            p.add(f"{at}.turn", f"must be 0, 90, 180 or 270 (degrees clockwise), not {short(turn)}")
            ok = False
        if isinstance(q, str):
            used_q.add(q)
        if isinstance(card, str):
            used_c.add(card)
        if ok:
            out.append(Placement(q, card, side, turn))
    empty = [q for q in QUADRANTS if q not in used_q]
    if empty:
        p.add("quadrants", f"every quadrant holds a card; empty: {', '.join(empty)}")
    p.raise_if_any(ArrangementError)
    return Arrangement(tuple(sorted(out, key=lambda x: QUADRANTS.index(x.quadrant))))


def dump_arrangement(arr: Arrangement) -> dict[str, Any]:
    return {"quadrants": [{"quadrant": p.quadrant, "card": p.card, "side": p.side, "turn": p.turn} for p in arr.placements]}


def describe(cs: CardSet, arr: Arrangement) -> str:
    """The arrangement in a player's words.

    >>> describe(placeholder_card_set(), Arrangement.in_order(placeholder_card_set())).split("; ")[0]
    'top left: Map card 1, side A, upright'
    """
    parts = []
    for p in arr.placements:
        turn = "upright" if p.turn == 0 else f"turned {p.turn}° clockwise"
        parts.append(f"{QUADRANT_NAMES[p.quadrant]}: {cs.card(p.card).name}, side {p.side.upper()}, {turn}")
    return "; ".join(parts)


# ------------------------------------------------------------------ composing


def stub_links(cs: CardSet, arr: Arrangement) -> list[tuple[str, str]]:
    """The lines made where two stubs meet across a shared edge (RULINGS L-15): the cities
    at their ends, in the order of :data:`SHARED_EDGES` and then of the positions."""
    turned_stubs: dict[str, dict[str, str]] = {}  # quadrant → {turned position: city}
    for p in arr.placements:
        side = cs.card(p.card).sides[p.side]
        turned_stubs[p.quadrant] = {turned(s.at, p.turn, cs.slots): s.city for s in side.stubs}
    out = []
    for qa, ea, qb, eb in SHARED_EDGES:
        if qa not in turned_stubs or qb not in turned_stubs:
            continue
        for n in range(1, cs.slots + 1):
            a, b = turned_stubs[qa].get(f"{ea}-{n}"), turned_stubs[qb].get(f"{eb}-{n}")
            if a is not None and b is not None:
                out.append((a, b))
    return out


def compose(cs: CardSet, arr: Arrangement) -> MapSpec:
    """This game's map: every card's cities, the lines of the side that is up, and a line
    wherever two stubs meet across a shared edge. A stub meeting nothing (on the galaxy's
    outer edge, or across from no stub) joins nothing (L-15). :class:`ArrangementError`
    if the arrangement does not fit the set or the map it makes cannot be played."""
    if sorted(p.quadrant for p in arr.placements) != sorted(QUADRANTS) or sorted(p.card for p in arr.placements) != sorted(c.id for c in cs.cards):
        raise ArrangementError(["quadrants: the arrangement must put each of the set's cards in one quadrant."])
    # Cities in the set's order, whatever the arrangement, so the same layout turned round
    # is the same map; each city's map_card names its quadrant (the map screen lays it out by card).
    where = {p.card: p for p in arr.placements}
    cities: list[City] = []
    lines: list[tuple[str, str]] = []
    for card in cs.cards:
        p = where[card.id]
        label = f"{QUADRANTS.index(p.quadrant) + 1} · {QUADRANT_NAMES[p.quadrant]}: {card.name}"
        cities += [City(c.id, c.name, c.category, label) for c in card.cities]
        lines += card.sides[p.side].lines
    lines += stub_links(cs, arr)
    canon = sorted({(min(a, b), max(a, b)) for a, b in lines})
    code = ".".join(f"{cs.cards.index(cs.card(p.card)) + 1}{p.side}{p.turn}" for p in arr.placements)
    try:
        return make_map(f"{cs.id}@{code}", f"{cs.name}, arranged this game", cities, canon,
                        placeholder=cs.placeholder, note=f"Map cards arranged this game — {describe(cs, arr)}.")
    except MapError as e:
        raise ArrangementError([f"the map these cards make cannot be played: {x}" for x in e.problems]) from None


def compose_data(data: Any, arrangement: Any, source: str = "map cards") -> MapSpec:
    """:func:`compose` from JSON data for both."""
    cs = parse_card_set(data, source)
    return compose(cs, parse_arrangement(arrangement, cs))


def all_cities(cs: CardSet) -> Iterable[City]:
    return (c for card in cs.cards for c in card.cities)


__all__ = [
    "Arrangement", "ArrangementError", "CardSet", "CardSetError", "CardSide", "MapCard", "Placement", "Stub",
    "compose", "compose_data", "describe", "dump_arrangement", "dump_card_set", "parse_arrangement", "parse_card_set",
    "placeholder_card_set", "placeholder_card_set_data", "position_words", "rotated", "shuffled", "stub_links", "turned",
]
