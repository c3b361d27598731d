"""Outrage!'s two packs, read from ``data/tower_cards.json`` and ``data/raven_cards.json``.

Each physical card has its own id (``mace-3``, ``raven-17``) so that conservation can be
counted. A Tower card's *kind* says what it does; a Raven card's ``kind`` names its
instruction.

>>> len(TOWER_CARDS), len(RAVEN_CARDS)
(57, 59)
>>> TOWER["pistols-2"].attack, TOWER["key-1"].points, TOWER["armour-1"].defence_only
(15, 9, True)
>>> RAVEN["raven-01"].kind, RAVEN["raven-01"].to
('go', 'museum')
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.datafile import DataFileError, Problems, at

DATA = Path(__file__).parent / "data"
GROUPS = ("weapon", "tool", "escape", "document")
RAVEN_KINDS = (
    "go", "warder-out", "warder-back", "jewel", "lost", "photograph", "pecked", "bench", "ghost", "curfew",
    "birthday", "governor-tea", "clerk-tea", "chief-warder", "place-of-interest", "tour", "film", "bowyer",
    "searched", "beauchamp", "bloody", "rack",
)


class CardsError(DataFileError):
    """A card file that cannot be used; names the file and each field."""


@dataclass(frozen=True)
class TowerCard:
    id: str
    kind: str
    name: str
    group: str
    attack: int = 0
    points: int = 0
    defence_only: bool = False
    alone: bool = False


@dataclass(frozen=True)
class RavenCard:
    id: str
    kind: str
    text: str
    to: str = ""
    optional: bool = False
    post: str = ""
    jewel: str = ""


def parse_tower(data: Any, source: str) -> dict[str, TowerCard]:
    p = Problems(source)
    data = p.top(data, CardsError, "a Tower card file is a JSON object")
    out: dict[str, TowerCard] = {}
    for i, row in enumerate(p.listing(data.get("kinds"), "kinds") or ()):
        where = at("kinds", i)
        if p.mapping(row, where) is None:
            continue
        kind = p.text(row.get("kind"), at(where, "kind"))
        name = p.text(row.get("name"), at(where, "name"))
        group = row.get("group")
        if group not in GROUPS:
            p.add(at(where, "group"), f"must be one of {', '.join(GROUPS)}")
        count = p.whole(row.get("count"), at(where, "count"), 1, 20)
        attack = p.whole(row.get("attack", 0), at(where, "attack"), 0, 99)
        points = p.whole(row.get("points", 0), at(where, "points"), 0, 11)
        if kind is None or name is None or count is None or attack is None or points is None or group not in GROUPS:
            continue
        for n in range(1, count + 1):
            cid = f"{kind}-{n}"
            out[cid] = TowerCard(cid, kind, name, group, attack, points, bool(row.get("defence_only", False)),
                                 bool(row.get("alone", False)))
    p.raise_if_any(CardsError)
    return out


def parse_raven(data: Any, source: str) -> dict[str, RavenCard]:
    p = Problems(source)
    data = p.top(data, CardsError, "a Raven card file is a JSON object")
    out: dict[str, RavenCard] = {}
    for i, row in enumerate(p.listing(data.get("cards"), "cards") or ()):
        where = at("cards", i)
        if p.mapping(row, where) is None:
            continue
        cid = p.text(row.get("id"), at(where, "id"))
        kind = row.get("kind")
        if kind not in RAVEN_KINDS:
            p.add(at(where, "kind"), f"must be one of {', '.join(RAVEN_KINDS)}")
            continue
        text = p.text(row.get("text"), at(where, "text"))
        if cid is None or text is None:
            continue
        if cid in out:
            p.add(at(where, "id"), f"the card id {cid} is used twice")
            continue
        out[cid] = RavenCard(cid, kind, text, str(row.get("to", "")), bool(row.get("optional", False)),
                             str(row.get("post", "")), str(row.get("jewel", "")))
    p.raise_if_any(CardsError)
    return out


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


TOWER: dict[str, TowerCard] = parse_tower(_load("tower_cards.json"), "tower_cards.json")
RAVEN: dict[str, RavenCard] = parse_raven(_load("raven_cards.json"), "raven_cards.json")
TOWER_CARDS: tuple[str, ...] = tuple(TOWER)
RAVEN_CARDS: tuple[str, ...] = tuple(RAVEN)
KIND_NAME: dict[str, str] = {c.kind: c.name for c in TOWER.values()}


def kind_of(card: str) -> str:
    """The kind of a Tower card id (``"mace-3"`` → ``"mace"``); ``""`` for an unknown id."""
    c = TOWER.get(card)
    return c.kind if c is not None else ""


def burglary_target(tools: tuple[str, ...] | list[str]) -> int:
    """The throw a burglary needs: 12 minus the tools' points (STEALING THE JEWELS 2–3).

    >>> burglary_target(["file-1"]), burglary_target(["crowbar-1"]), burglary_target(["dynamite-1"])
    (10, 9, 7)
    >>> burglary_target(["key-1"]), burglary_target(["file-1", "dynamite-2"])
    (3, 5)
    """
    return 12 - sum(TOWER[c].points for c in tools)


def attack_value(cards: tuple[str, ...] | list[str]) -> int:
    """The attack value of a set of weapons (ATTACK 1).

    >>> attack_value(["mace-1", "pistols-1"]), attack_value([])
    (17, 0)
    """
    return sum(map(_ATTACK.__getitem__, cards))


_ATTACK: dict[str, int] = {c: card.attack for c, card in TOWER.items()}
"""Each Tower card's attack value, by id: read twice in every fight."""
