"""The Tyranny board: two city tiers of tiles in forward order, home bases, tunnels.

The rulebook publishes no layout, so ``data/board.json`` is a clearly labelled default a
table edits to match its printed board (format: ``README.md``, "Board files"). A board is read once and
kept as plain lookup tables and a kernel :class:`~rules.core.graph.Graph` (each tier's tiles one
way round, ``forward``; each tunnel a line of its own kind), which answers and remembers the
movement questions. A game state holds its :class:`Board`; its JSON holds the board data.

>>> b = default_board()
>>> b.start["cops"], b.start["criminals"]
('police-station', 'hideout')
>>> b.next["o-scrapyard"], b.tier_of["i-bank"]
('police-station', 'inner')
>>> dict(b.routes("hideout", 2, ()))
{'o-gains-2': ('o-pawnshop',)}
>>> sorted(b.routes("o-arcade", 1, {"tunnel-a"})) == sorted(b.routes("o-arcade", 1, frozenset()))
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Collection, Mapping

from rules.core.graph import Graph
from rules.core.jsondata import stored_as
from rules.core.text import Term, Text, t
from rules.datafile import DataFileError, Problems, at, kind, read_json, short

DATA = Path(__file__).parent / "data"
KINDS = ("property", "gamble", "gains", "tunnel", "safe", "hideout", "police-station", "street")
HOME_KIND = {"cops": "police-station", "criminals": "hideout"}
FORWARD = "forward"
"""The kind of the board graph's arcs from a tile to the next one on its tier."""
MAX_MOVE = 6
"""The longest move: a die's 6, or Gamble 6's "any tile within 6 tiles"."""
MIN_TIER = MAX_MOVE + 1
"""Tiles a tier needs, so that every roll has a move that passes no tile twice (RULINGS M-09)."""


class BoardError(DataFileError):
    """A board file that does not describe a playable board. ``problems`` holds each
    ``"path: reason"`` (``tiers.outer[3].range: …``), ``source`` the file it came from."""


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    tier: str
    range: tuple[int, int] = (0, 0)
    base: int = 0
    where: str = field(default="", compare=False, repr=False)  # its place in the board file, for messages
    # Its name as a word the game's catalogue translates, made once with the board (a
    # log line names a tile on nearly every move).
    term: Term = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "term", Term(self.name))


@dataclass(frozen=True)
class Tunnel:
    id: str
    ends: tuple[str, str]
    cost: int
    open: bool = False


@dataclass(frozen=True, eq=False)
class Board:
    """Look-up tables built from a board file. ``next`` maps a tile to the one in front of
    it; ``across`` to the facing tile on the other tier; ``homes`` a faction to its home
    base tiles (one per tier, the first is the start tile); ``graph`` is the movement graph.
    ``data`` is the board file's data."""

    name: str
    tiles: dict[str, Tile]
    tiers: dict[str, tuple[str, ...]]
    next: dict[str, str]
    across: dict[str, str]
    homes: dict[str, tuple[str, ...]]
    tunnels: dict[str, Tunnel]
    graph: Graph
    tunnel_at: dict[str, str] = field(default_factory=dict)  # tile id → tunnel id
    tier_of: dict[str, str] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Board":
        return self  # immutable: a copied game state shares its board

    @property
    def start(self) -> dict[str, str]:
        return {f: tiles[0] for f, tiles in self.homes.items()}

    def home_on(self, faction: str, tier: str) -> str:
        """The faction's home base tile on ``tier``."""
        for t in self.homes[faction]:
            if self.tier_of[t] == tier:
                return t
        return self.homes[faction][0]

    def other_tier(self, tier: str) -> str:
        return next(t for t in self.tiers if t != tier)

    def tunnel_name(self, tunnel: str) -> str:
        """A tunnel as players call it, from its id ("tunnel-a" → "tunnel A").

        >>> default_board().tunnel_name("tunnel-b")
        'tunnel B'
        """
        return f"tunnel {tunnel.split('-')[-1].upper()}"

    def tunnel_words(self, tunnel: str) -> Text:
        """:meth:`tunnel_name` as a sentence a catalogue words.

        >>> str(default_board().tunnel_words("tunnel-b"))
        'tunnel B'
        """
        return t("tunnel {letter}", letter=tunnel.split("-")[-1].upper())

    def tunnel_names(self) -> Text:
        """Every tunnel, as players call them, for messages ("tunnel A, tunnel B").

        >>> str(default_board().tunnel_names())
        'tunnel A, tunnel B'
        """
        names = [self.tunnel_words(tid) for tid in self.tunnels]
        listed = names[-1]
        for name in reversed(names[:-1]):
            listed = t("{first}, {rest}", first=name, rest=listed)
        return listed

    def other_end(self, tunnel: str, tile: str) -> str:
        a, b = self.tunnels[tunnel].ends
        return b if tile == a else a

    def routes(self, start: str, steps: int | range, open_tunnels: Collection[str]) -> Mapping[str, tuple[str, ...]]:
        """Every tile ``steps`` tiles forward of ``start`` (or any number in a ``range``),
        each with the tiles passed on the way (start and destination excluded), in the
        order the moves are listed; a read-only mapping. Standing on an end of an open
        tunnel, a piece may go through to the other end without spending a step (RULINGS
        T-06); no move passes a tile twice (M-09); of two routes to one tile the one
        through fewer tunnels is kept."""
        opened = tuple(open_tunnels)  # hashable as it comes: the graph's answer is one look-up
        return self.graph.routes(start, steps, edges=(FORWARD, *opened), free=opened)

    def ahead(self, tile: str) -> list[str]:
        """The other tiles of ``tile``'s tier in front of it, closest first (one lap)."""
        out = []
        t = self.next[tile]
        while t != tile:
            out.append(t)
            t = self.next[t]
        return out


MAX_AMOUNT = 1_000_000
"""The largest ``base`` or tunnel ``cost`` a board may give (influence is counted in
hundreds; a bigger number is a typing slip)."""


def parse_board(data: Any, source: str = "board data") -> Board:
    """Build a :class:`Board` from board-file data, raising :class:`BoardError` naming
    ``source`` and every problem found, each with its place in the file.

    >>> parse_board({"tiers": {"outer": [{"id": "a"}]}}, "ours.json")
    Traceback (most recent call last):
    ...
    rules.tyranny.board.BoardError: ours.json: tiers: a board has exactly two tiers (outer and inner city), not 1
    """
    p = Problems(source)
    data = p.top(data, BoardError, "a board file is a JSON object")
    raw_tiers = p.mapping(data.get("tiers"), "tiers", "an object of two tiers (outer and inner city)")
    if raw_tiers is None:
        p.raise_if_any(BoardError)
    if len(raw_tiers) != 2:  # type: ignore[arg-type]
        p.fail(BoardError, "tiers", f"a board has exactly two tiers (outer and inner city), not {len(raw_tiers)}")  # type: ignore[arg-type]
    name = p.text(data.get("name", "board"), "name", empty=True)
    tiles: dict[str, Tile] = {}
    tiers: dict[str, tuple[str, ...]] = {}
    for tier, rows in raw_tiers.items():  # type: ignore[union-attr]
        ids = []
        for i, row in enumerate(p.listing(rows, at("tiers", tier), "a list of tiles") or ()):
            tile = _tile(p, row, at(at("tiers", tier), i), tier, tiles)
            if tile is not None:
                tiles[tile.id] = tile
                ids.append(tile.id)
        if isinstance(rows, list) and len(rows) < MIN_TIER:
            p.add(at("tiers", tier), f"a tier needs at least {MIN_TIER} tiles (one more than the longest move, {MAX_MOVE}), not {len(rows)}")
        tiers[tier] = tuple(ids)
    homes: dict[str, tuple[str, ...]] = {}
    raw_homes = p.mapping(data.get("homes"), "homes", "an object naming each faction's home tiles")
    for faction, home_kind in HOME_KIND.items() if raw_homes is not None else ():
        h = raw_homes.get(faction)  # type: ignore[union-attr]
        if (
            not isinstance(h, list) or len(h) != 2 or not all(isinstance(t, str) for t in h)
            or any(t not in tiles or tiles[t].kind != home_kind for t in h) or tiles[h[0]].tier == tiles[h[1]].tier
        ):
            p.add(f"homes.{faction}", f"must name two {home_kind} tiles, one on each tier (the first is the start tile)")
            continue
        homes[faction] = (h[0], h[1])
    tunnels: dict[str, Tunnel] = {}
    tunnel_at: dict[str, str] = {}
    for i, row in enumerate(p.listing(data.get("tunnels", []), "tunnels", "a list of tunnels") or ()):
        tunnel = _tunnel(p, row, f"tunnels[{i}]", tiles, tunnels, tunnel_at)
        if tunnel is not None:
            tunnels[tunnel.id] = tunnel
            for e in tunnel.ends:
                tunnel_at[e] = tunnel.id
    for t in tiles.values():
        if t.kind == "tunnel" and t.id not in tunnel_at:
            p.add(t.where, f"tunnel tile {t.id} is not an end of any tunnel")
    p.raise_if_any(BoardError)
    nxt: dict[str, str] = {}
    across: dict[str, str] = {}
    names = list(tiers)
    for tier, ids in tiers.items():
        other = tiers[names[1] if tier == names[0] else names[0]]
        for i, t in enumerate(ids):
            nxt[t] = ids[(i + 1) % len(ids)]
            # The facing tile: the same fraction of the way round the other tier.
            across[t] = other[(i * len(other) // len(ids)) % len(other)]
    # Forward arcs before tunnels: the moves that stay on a tier are listed first.
    graph = Graph(
        [t for ids in tiers.values() for t in ids],
        arcs=[(t, n, FORWARD) for t, n in nxt.items()],
        lines=[(*t.ends, t.id) for t in tunnels.values()],
    )
    return Board(
        name=name or "board", tiles=tiles, tiers=tiers, next=nxt, across=across, homes=homes,
        tunnels=tunnels, graph=graph, tunnel_at=tunnel_at, tier_of={t.id: t.tier for t in tiles.values()}, data=data,
    )


def _tile(p: Problems, row: Any, where: str, tier: str, tiles: dict[str, Tile]) -> Tile | None:
    """One tile row, or ``None`` (problems recorded) if it cannot be placed on the board."""
    if p.mapping(row, where, "a tile (an object with id, name and kind)") is None:
        return None
    tid = p.text(row.get("id"), f"{where}.id")
    if tid is None:
        return None
    if tid in tiles:
        p.add(f"{where}.id", f"the tile id {short(tid)} is used twice (also {tiles[tid].where})")
        return None
    kind_ = row.get("kind")
    if not isinstance(kind_, str) or kind_ not in KINDS:
        p.add(f"{where}.kind", f"tile {tid}: kind {short(kind_)} is not one of {', '.join(KINDS)}")
        kind_ = "street"
    name = p.text(row.get("name", tid), f"{where}.name", empty=True) or tid
    rng: tuple[int, int] = (0, 0)
    base = 0
    if kind_ == "property":
        raw = row.get("range")
        if (
            not isinstance(raw, list) or len(raw) != 2 or not all(type(v) is int for v in raw)
            or not 1 <= raw[0] <= raw[1] <= 6
        ):
            p.add(f"{where}.range", f"property {tid}: 'range' must be [low, high] within 1–6, not {short(raw)}")
        else:
            rng = (raw[0], raw[1])
        base = p.whole(row.get("base", 0), f"{where}.base", 0, MAX_AMOUNT) or 0
    return Tile(tid, name, kind_, tier, rng, base, where)


def _tunnel(
    p: Problems, row: Any, where: str, tiles: dict[str, Tile], tunnels: dict[str, Tunnel], tunnel_at: dict[str, str]
) -> Tunnel | None:
    if p.mapping(row, where, "a tunnel (an object with id, ends and cost)") is None:
        return None
    tid = p.text(row.get("id"), f"{where}.id")
    if tid is not None and tid in tunnels:
        p.add(f"{where}.id", f"the tunnel id {short(tid)} is used twice")
        tid = None
    ends = row.get("ends")
    if (
        not isinstance(ends, list) or len(ends) != 2 or not all(isinstance(e, str) for e in ends)
        or any(e not in tiles or tiles[e].kind != "tunnel" for e in ends) or tiles[ends[0]].tier == tiles[ends[1]].tier
    ):
        p.add(f"{where}.ends", f"tunnel {tid or '?'}: 'ends' must name two tunnel tiles on different tiers")
        ends = None
    elif any(e in tunnel_at for e in ends):
        p.add(f"{where}.ends", f"tunnel {tid or '?'}: a tunnel tile belongs to one tunnel only")
        ends = None
    cost = p.whole(row.get("cost"), f"{where}.cost", 0, MAX_AMOUNT)
    is_open = p.flag(row.get("open", False), f"{where}.open")
    if tid is None or ends is None or cost is None or is_open is None:
        return None
    return Tunnel(tid, (ends[0], ends[1]), cost, is_open)


def load_board(path: str | Path) -> Board:
    """Read a board file (JSON)."""
    return parse_board(read_json(path, BoardError, "board file"), str(path))


@lru_cache(maxsize=None)
def default_board() -> Board:
    """The shipped default board (not the printed one: see README.md, "Board files")."""
    return load_board(DATA / "board.json")


_BY_KEY: dict[str, Board] = {}


def board_for(data: dict[str, Any] | None) -> Board:
    """The board a ``board`` option names: ``{}`` or ``None`` for the default, else the
    table's own board data (parsed once per distinct file and cached)."""
    if not data:
        return default_board()
    try:
        key = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # not JSON data, or nested too deep: parse_board says where
        return parse_board(data)
    board = _BY_KEY.get(key)
    if board is None:
        board = _BY_KEY[key] = parse_board(data)
    return board


def board_data(board: Board) -> dict[str, Any]:
    """What a game's JSON stores for its board: the ``board`` option's value, ``{}`` for
    the shipped default (so a saved game does not carry a copy of the default file)."""
    return {} if board is default_board() else board.data


# A game state holds its Board; its JSON holds the board data (see ``board_data``).
stored_as(Board, board_data, board_for)
