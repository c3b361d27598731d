"""The Tyranny board: two city tiers of tiles in forward order, home bases, tunnels.

The rulebook publishes no layout, so ``data/board.json`` is a clearly labelled default a
table edits to match its printed board (format: ``README.md``, "Board files"). A board is read once and
kept as plain lookup tables, so movement is dictionary look-ups on the hot path.

>>> b = default_board()
>>> b.start["cops"], b.start["criminals"]
('police-station', 'hideout')
>>> b.next["o-scrapyard"], b.tier_of["i-bank"]
('police-station', 'inner')
>>> b.routes("hideout", 2, frozenset())
{'o-gains-2': ('o-pawnshop',)}
>>> sorted(b.routes("o-arcade", 1, {"tunnel-a"})) == sorted(b.routes("o-arcade", 1, frozenset()))
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core import RulesError

DATA = Path(__file__).parent / "data"
KINDS = ("property", "gamble", "gains", "tunnel", "safe", "hideout", "police-station", "street")
HOME_KIND = {"cops": "police-station", "criminals": "hideout"}


class BoardError(RulesError):
    """A board file that does not describe a playable board; the message says what is wrong."""


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    tier: str
    range: tuple[int, int] = (0, 0)
    base: int = 0


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
    base tiles (one per tier, the first is the start tile)."""

    name: str
    tiles: dict[str, Tile]
    tiers: dict[str, tuple[str, ...]]
    next: dict[str, str]
    across: dict[str, str]
    homes: dict[str, tuple[str, ...]]
    tunnels: dict[str, Tunnel]
    tunnel_at: dict[str, str] = field(default_factory=dict)  # tile id → tunnel id
    tier_of: dict[str, str] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    # Not board data: the engine's cache of reachable tiles by (start, steps, up_to, open
    # tunnels), filled as games are played (see ``rules.tyranny.game.reachable``).
    reach: dict[tuple[Any, ...], dict[str, list[str]]] = field(default_factory=dict, repr=False, compare=False)

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

    def other_end(self, tunnel: str, tile: str) -> str:
        a, b = self.tunnels[tunnel].ends
        return b if tile == a else a

    def routes(self, start: str, steps: int, open_tunnels: frozenset[str] | set[str]) -> dict[str, tuple[str, ...]]:
        """Every tile ``steps`` tiles forward of ``start``, each with the tiles passed on the
        way (start and destination excluded). Standing on an end of an open tunnel, a piece
        may go through to the other end without spending a step (RULINGS T-06); of two
        routes to one tile the first found — the one through fewer tunnels — is kept."""
        frontier: list[tuple[str, tuple[str, ...]]] = [(start, ())]
        for step in range(steps + 1):
            expanded: list[tuple[str, tuple[str, ...]]] = []
            seen: set[str] = set()
            for tile, passed in frontier:
                if tile in seen:
                    continue
                seen.add(tile)
                expanded.append((tile, passed))
                tunnel = self.tunnel_at.get(tile)
                if tunnel is not None and tunnel in open_tunnels:
                    other = self.other_end(tunnel, tile)
                    if other not in seen:
                        seen.add(other)
                        expanded.append((other, passed + (tile,) if step else passed))
            if step == steps:
                return {t: p for t, p in expanded}
            frontier = [(self.next[t], p + (t,) if (step or t != start) else p) for t, p in expanded]
        return {}

    def ahead(self, tile: str) -> list[str]:
        """The other tiles of ``tile``'s tier in front of it, closest first (one lap)."""
        out = []
        t = self.next[tile]
        while t != tile:
            out.append(t)
            t = self.next[t]
        return out


def parse_board(data: dict[str, Any]) -> Board:
    """Build a :class:`Board` from board-file data, raising :class:`BoardError` naming
    every problem found."""
    problems: list[str] = []
    tiles: dict[str, Tile] = {}
    tiers: dict[str, tuple[str, ...]] = {}
    raw_tiers = data.get("tiers")
    if not isinstance(raw_tiers, dict) or len(raw_tiers) != 2:
        raise BoardError("a board has exactly two tiers (outer and inner city) under 'tiers'")
    for tier, rows in raw_tiers.items():
        ids = []
        for row in rows:
            tid, kind = str(row.get("id", "")), row.get("kind")
            if not tid or tid in tiles:
                problems.append(f"tile id {tid!r} is missing or used twice")
                continue
            if kind not in KINDS:
                problems.append(f"tile {tid}: kind {kind!r} is not one of {', '.join(KINDS)}")
            rng = tuple(row.get("range", (0, 0)))
            base = row.get("base", 0)
            if kind == "property":
                if len(rng) != 2 or not all(isinstance(v, int) for v in rng) or not 1 <= rng[0] <= rng[1] <= 6:
                    problems.append(f"property {tid}: 'range' must be [low, high] within 1–6")
                if not isinstance(base, int) or base < 0:
                    problems.append(f"property {tid}: 'base' must be a whole number ≥ 0")
            tiles[tid] = Tile(tid, str(row.get("name", tid)), str(kind), tier, rng, base)  # type: ignore[arg-type]
            ids.append(tid)
        if len(ids) < 2:
            problems.append(f"tier {tier!r} needs at least two tiles")
        tiers[tier] = tuple(ids)
    homes: dict[str, tuple[str, ...]] = {}
    for faction, kind in HOME_KIND.items():
        h = tuple(data.get("homes", {}).get(faction, ()))
        if len(h) != 2 or any(t not in tiles or tiles[t].kind != kind for t in h) or len({tiles[t].tier for t in h if t in tiles}) != 2:
            problems.append(f"homes.{faction} must name two {kind} tiles, one on each tier (the first is the start tile)")
        homes[faction] = h
    tunnels: dict[str, Tunnel] = {}
    tunnel_at: dict[str, str] = {}
    for row in data.get("tunnels", []):
        tid, ends, cost = str(row.get("id", "")), tuple(row.get("ends", ())), row.get("cost")
        if len(ends) != 2 or any(e not in tiles or tiles[e].kind != "tunnel" for e in ends) or (
            all(e in tiles for e in ends) and tiles[ends[0]].tier == tiles[ends[1]].tier
        ):
            problems.append(f"tunnel {tid}: 'ends' must name two tunnel tiles on different tiers")
        elif any(e in tunnel_at for e in ends):
            problems.append(f"tunnel {tid}: a tunnel tile belongs to one tunnel only")
        if not isinstance(cost, int) or cost < 0:
            problems.append(f"tunnel {tid}: 'cost' must be a whole number ≥ 0")
        tunnels[tid] = Tunnel(tid, ends, cost if isinstance(cost, int) else 0, bool(row.get("open", False)))  # type: ignore[arg-type]
        for e in ends:
            tunnel_at[e] = tid
    for t in tiles.values():
        if t.kind == "tunnel" and t.id not in tunnel_at:
            problems.append(f"tunnel tile {t.id} is not an end of any tunnel")
    if problems:
        raise BoardError("; ".join(problems))
    nxt: dict[str, str] = {}
    across: dict[str, str] = {}
    names = list(tiers)
    for tier, ids in tiers.items():
        other = tiers[names[1] if tier == names[0] else names[0]]
        for i, t in enumerate(ids):
            nxt[t] = ids[(i + 1) % len(ids)]
            # The facing tile: the same fraction of the way round the other tier.
            across[t] = other[(i * len(other) // len(ids)) % len(other)]
    return Board(
        name=str(data.get("name", "board")), tiles=tiles, tiers=tiers, next=nxt, across=across, homes=homes,
        tunnels=tunnels, tunnel_at=tunnel_at, tier_of={t.id: t.tier for t in tiles.values()}, data=data,
    )


def load_board(path: str | Path) -> Board:
    """Read a board file (JSON)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise BoardError(f"cannot read board file {path}: {e}") from None
    return parse_board(data)


@lru_cache(maxsize=None)
def default_board() -> Board:
    """The shipped default board (not the printed one: see README.md, "Board files")."""
    return load_board(DATA / "board.json")


_BY_KEY: dict[str, Board] = {}


def board_for(data: dict[str, Any] | None) -> Board:
    """The board a game state names: ``None`` for the default, else the table's own
    board data (parsed once per distinct file and cached)."""
    if data is None:
        return default_board()
    key = json.dumps(data, sort_keys=True)
    board = _BY_KEY.get(key)
    if board is None:
        board = _BY_KEY[key] = parse_board(data)
    return board
