"""Decks: a deck list over a card set, and the deck builder's check of 5.2.4, rule by rule.

A deck file names its faction and subfaction and holds four sections, each ``{card id:
copies}``: ``bases``, ``special_forces``, ``main`` and ``objectives``.

>>> from rules.against_all_tyrants.cards import example_set
>>> d = example_decks()["freedom-fighters"]
>>> check_deck(d, example_set())
()
>>> bad = DeckList(d.name, d.faction, d.subfaction, d.bases, d.special_forces, {**d.main, "ff-starhawk": 4}, d.objectives)
>>> [v.rule for v in check_deck(bad, example_set())]
['5.2.4.1', '5.2.4.3']
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator, Mapping

from rules.core import Violation
from rules.datafile import kind as json_kind, short, too_deep

from .cards import DATA, DECK_FORMAT, THEATER_NAMES, Card, CardError, CardSet, FieldProblem

SECTIONS = ("bases", "special_forces", "main", "objectives")
SIZES = {"bases": 2, "special_forces": 5, "main": 30, "objectives": 3}
SECTION_NAMES = {"bases": "base cards", "special_forces": "Special Forces cards", "main": "main-deck cards",
                 "objectives": "objective cards"}
MAX_COPIES = 3


@dataclass(frozen=True)
class DeckList:
    """A deck as a player builds it: card ids and copies per section."""

    name: str
    faction: str
    subfaction: str
    bases: Mapping[str, int] = field(default_factory=dict)
    special_forces: Mapping[str, int] = field(default_factory=dict)
    main: Mapping[str, int] = field(default_factory=dict)
    objectives: Mapping[str, int] = field(default_factory=dict)

    def section(self, name: str) -> Mapping[str, int]:
        return getattr(self, name)  # type: ignore[no-any-return]

    def copies(self) -> dict[str, int]:
        """Copies of each card across all 40 cards."""
        out: dict[str, int] = {}
        for s in SECTIONS:
            for cid, n in self.section(s).items():
                out[cid] = out.get(cid, 0) + n
        return out

    def adding(self, section: str, card_id: str, n: int = 1) -> "DeckList":
        """A copy with ``n`` more (or, negative, fewer) copies of ``card_id`` in
        ``section``: what the deck builder does on each tap.

        >>> d = DeckList("d", "f", "s").adding("main", "x", 2).adding("main", "x", -1)
        >>> dict(d.main), d.counts()["main"]
        ({'x': 1}, 1)
        """
        sec = dict(self.section(section))
        left = sec.get(card_id, 0) + n
        if left > 0:
            sec[card_id] = left
        else:
            sec.pop(card_id, None)
        return DeckList(self.name, self.faction, self.subfaction,
                        **{s: (sec if s == section else dict(self.section(s))) for s in SECTIONS})

    def counts(self) -> dict[str, int]:
        """Cards per section, for the builder's "29 / 30" counters (:data:`SIZES`)."""
        return {s: sum(self.section(s).values()) for s in SECTIONS}

    def instances(self, section: str) -> list[str]:
        """The card ids of ``section``, one per copy, in a stable order."""
        return [cid for cid, n in sorted(self.section(section).items()) for _ in range(n)]

    def to_data(self) -> dict[str, Any]:
        return {"format": DECK_FORMAT, "name": self.name, "faction": self.faction, "subfaction": self.subfaction,
                **{s: dict(sorted(self.section(s).items())) for s in SECTIONS}}


def check_deck(deck: DeckList, cards: CardSet) -> tuple[Violation, ...]:
    """Every way ``deck`` breaks deck construction (5.2.4), each with its section; ``()``
    for a legal deck."""
    return tuple(_deck_violations(deck, cards))


def _deck_violations(deck: DeckList, cards: CardSet) -> Iterator[Violation]:
    known: dict[str, Card] = {}
    for s in SECTIONS:
        for cid in deck.section(s):
            if cid not in cards:
                yield Violation("unknown-card", "5.2.4", f"{deck.name}: {SECTION_NAMES[s]} name {cid!r}, a card not in the set {cards.name!r}.")
            else:
                known[cid] = cards[cid]
    # 5.2.4.1 Composition
    for s in SECTIONS:
        n = sum(deck.section(s).values())
        if n != SIZES[s]:
            yield Violation(f"{s.replace('_', '-')}-count", "5.2.4.1",
                            f"{deck.name}: a deck has exactly {SIZES[s]} {SECTION_NAMES[s]}, not {n}.")
    for s, allowed, what in (("bases", ("base",), "base cards"), ("objectives", ("objective",), "objective units"),
                             ("special_forces", ("unit",), "units (5.2.4.2: only units are placed from it)"),
                             ("main", ("unit", "leader", "effect"), "units, leaders and one-time effects")):
        for cid in deck.section(s):
            c = known.get(cid)
            if c is not None and c.kind not in allowed:
                yield Violation("wrong-section", "5.2.4.1", f"{deck.name}: {c.title} is a {c.kind}; the {SECTION_NAMES[s]} hold only {what}.")
    theaters = sorted(t for cid, n in deck.bases.items() if cid in known and known[cid].kind == "base"
                      for t in known[cid].theaters for _ in range(n))
    if sum(deck.bases.values()) == 2 and all(c in known for c in deck.bases) and theaters != ["planetside", "space"]:
        yield Violation("base-theaters", "5.2.4.1", f"{deck.name}: the two bases are 1 Space and 1 Planetside, not "
                        f"{' and '.join(THEATER_NAMES[t] for t in theaters) or 'these'}.")
    # 5.2.4.3 Deckbuilding
    for cid, c in sorted(known.items()):
        if c.subfaction:
            if c.subfaction != deck.subfaction or c.faction != deck.faction:
                yield Violation("wrong-subfaction", "5.2.4.3", f"{deck.name}: {c.title} is a {c.subfaction} card; every card must be "
                                f"{deck.subfaction} or its faction {deck.faction}.")
        elif c.faction != deck.faction:
            yield Violation("wrong-faction", "5.2.4.3", f"{deck.name}: {c.title} is a {c.faction} card; every card must be "
                            f"{deck.subfaction} or its faction {deck.faction}.")
    for cid, n in sorted(deck.copies().items()):
        c = known.get(cid)
        if c is None:
            continue
        if c.unique and n > 1:
            yield Violation("unique-copies", "5.2.4.3", f"{deck.name}: {c.title} is Unique: one copy at most, not {n}.")
        elif n > MAX_COPIES and not c.has("Mass"):
            yield Violation("too-many-copies", "5.2.4.3", f"{deck.name}: at most {MAX_COPIES} copies of {c.title} (it is not Mass), not {n}.")


# ------------------------------------------------------------------ deck files

def deck_problems(data: Any) -> list[FieldProblem]:
    """Problems of a deck file's shape (the rules of 5.2.4 are :func:`check_deck`'s)."""
    deep = too_deep(data)
    if deep is not None:
        return [FieldProblem("", deep, "nests lists or objects too deep")]
    if not isinstance(data, dict):
        return [FieldProblem("", "(top)", f"a deck is an object, not {json_kind(data)}")]
    who = data.get("name") if isinstance(data.get("name"), str) else ""
    found = []
    for k in data:
        if k not in ("format", "name", "faction", "subfaction", "$comment", *SECTIONS):
            found.append(FieldProblem(who, k, "not a field of a deck"))
    if data.get("format") != DECK_FORMAT:
        found.append(FieldProblem(who, "format", f"must be {DECK_FORMAT!r}, not {short(data.get('format'))}"))
    for k in ("name", "faction", "subfaction"):
        if not isinstance(data.get(k), str) or not data[k].strip():
            found.append(FieldProblem(who, k, f"must be non-empty text, not {short(data.get(k))}", "5.2.4.3"))
    for s in SECTIONS:
        sec = data.get(s)
        if not isinstance(sec, dict):
            found.append(FieldProblem(who, s, f"must be an object of card id → copies, not {json_kind(sec)}", "5.2.4.1"))
            continue
        for cid, n in sec.items():
            if type(n) is not int or not 1 <= n <= 40:
                found.append(FieldProblem(who, f"{s}.{cid}", f"copies must be a whole number from 1 to 40, not {short(n)}", "5.2.4.1"))
    return found


def parse_deck(data: Any, source: str = "") -> DeckList:
    """A deck list from its JSON data; raises :class:`CardError` naming each bad field.
    (Whether the deck is legal is :func:`check_deck`'s question.)"""
    found = deck_problems(data)
    if found:
        raise CardError(found, source)
    return DeckList(data["name"].strip(), data["faction"].strip(), data["subfaction"].strip(),
                    **{s: dict(data[s]) for s in SECTIONS})


def load_deck(text: str, source: str = "") -> DeckList:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        raise CardError([FieldProblem("", "(file)", f"not JSON: {str(e)[:80]}")], source) from None
    return parse_deck(data, source)


def dump_deck(deck: DeckList) -> str:
    """The text of a deck file: :func:`load_deck` reads it back unchanged."""
    return json.dumps(deck.to_data(), indent=1, ensure_ascii=False) + "\n"


@lru_cache(maxsize=1)
def _example_decks() -> tuple[tuple[str, DeckList], ...]:
    data = json.loads((DATA / "example_decks.json").read_text(encoding="utf-8"))
    return tuple((k, parse_deck(v, f"example_decks.json: {k}")) for k, v in data["decks"].items())


def example_decks() -> dict[str, DeckList]:
    """The example decks of ``data/example_decks.json``, by key (legal under 5.2.4 with the
    example set; made for trying the rules, not published decks)."""
    return dict(_example_decks())
