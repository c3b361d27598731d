"""The card format of Against All Tyrants: a card the table wrote, checked field by field.

No card list was ever published, so a card is data a table enters (README, "Card format").
Every check is usable on one field at a time, for an editor that validates as you type
(:func:`check_field`), or on a whole card (:func:`parse_card`), which raises a
:class:`CardError` naming the card and every bad field.

>>> c = parse_card({"id": "rebel", "name": "Rebel Cell", "faction": "Free Worlds",
...     "subfaction": "Freedom Fighters", "kind": "unit", "types": ["Trooper"], "escalation": 0,
...     "theaters": ["planetside"], "attack": 2, "health": 3, "traits": ["Armor 1", "Pierce"]})
>>> c.trait("Armor").x, c.trait("Pierce").x, c.can_deploy("space")
(1, None, False)
>>> [str(p) for p in check_field("traits", ["Armor two"])]
["traits[0]: Armor's X must be a whole number, not 'two' (5.2.8.2)"]
>>> [str(p) for p in check_field("theaters", ["orbit"])]
["theaters[0]: a theater is Space or Planetside, not 'orbit' (5.2.2.1)"]
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

from rules.datafile import DataFileError, kind as json_kind, short, too_deep

from .steps import Step, parse_steps, step_problems

DATA = Path(__file__).parent / "data"

KINDS = ("unit", "leader", "effect", "base", "objective")
"""Card kinds: a unit, a leader, a one-time effect, a base, an objective unit (5.2.4.1, 5.2.6.2.1)."""
KIND_NAMES = {"unit": "Unit", "leader": "Leader", "effect": "One-Time Effect", "base": "Base", "objective": "Objective Unit"}
THEATERS = ("space", "planetside")
THEATER_NAMES = {"space": "Space", "planetside": "Planetside"}
MAX_LEVEL = 5
MAX_STAT = 99
MAX_X = 20
MAX_TEXT = 400
MAX_NAME = 60
FIELDS = ("id", "name", "unique", "faction", "subfaction", "kind", "types", "escalation", "theaters",
          "attack", "health", "traits", "orders", "effect", "steps")
REQUIRED = ("id", "name", "faction", "kind")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")


@dataclass(frozen=True)
class TraitSpec:
    """One row of the trait table (5.2.8.2): what its X and Y are and which cards carry it."""

    name: str
    x: str  # none | number | optional-number | type
    y: str  # none | number | type
    on: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class TokenSpec:
    """One row of the token table (5.2.8.4)."""

    name: str
    on: tuple[str, ...]
    limit: int | None
    text: str


def _load_traits() -> dict[str, TraitSpec]:
    data = json.loads((DATA / "traits.json").read_text(encoding="utf-8"))
    return {t["name"]: TraitSpec(t["name"], t["x"], t["y"], tuple(t["on"]), t["text"]) for t in data["traits"]}


def _load_tokens() -> dict[str, TokenSpec]:
    data = json.loads((DATA / "tokens.json").read_text(encoding="utf-8"))
    return {t["name"]: TokenSpec(t["name"], tuple(t["on"]), t["limit"], t["text"]) for t in data["tokens"]}


TRAITS: dict[str, TraitSpec] = _load_traits()
TOKENS: dict[str, TokenSpec] = _load_tokens()
TYPES = ("Resource", "Blocker", "Trap", "Support", "Vehicle", "Transport", "Ship", "Drone", "Civilian",
         "Business", "Character", "Trooper", "Team", "Emplacement", "Frame", "Robot", "Tactic", "Function",
         "Computer")
"""The card types of 5.2.8.3."""
MAINFRAME_LIMIT = 3


@dataclass(frozen=True)
class FieldProblem:
    """One bad field of a card: ``card`` (its name or id, "" when unknown), the ``field``
    path (``traits[1]``), the ``message`` and the rulebook section ``rule``."""

    card: str
    field: str
    message: str
    rule: str = "7.1"

    def __str__(self) -> str:
        return f"{self.field}: {self.message} ({self.rule})"


class CardError(DataFileError):
    """A card (or a set of cards) that cannot be used. ``found`` holds each
    :class:`FieldProblem`; ``problems`` their texts, prefixed with the card."""

    def __init__(self, found: list[FieldProblem], source: str = "") -> None:
        self.found = tuple(found)
        super().__init__([f"{p.card + ': ' if p.card else ''}{p}" for p in found], source)


@dataclass(frozen=True)
class Trait:
    """A trait on a card: its ``name`` and X and Y (a number, a card type, or ``None``).

    >>> str(Trait("Command", "Trooper", 2)), str(Trait("Transport", 2, "Vehicle")), str(Trait("Expert", "Robot"))
    ('Command Trooper: 2', 'Transport 2: Vehicle', 'Robot Expert')
    """

    name: str
    x: int | str | None = None
    y: int | str | None = None

    def __str__(self) -> str:
        if self.name == "Expert":
            return f"{self.x} Expert"
        text = self.name
        if self.x is not None:
            text += f" {self.x}"
        if self.y is not None:
            text += f": {self.y}"
        return text

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.x is not None:
            out["x"] = self.x
        if self.y is not None:
            out["y"] = self.y
        return out


@dataclass(frozen=True)
class Card:
    """One card of a table's library (not an instance: a deck holds up to three copies)."""

    id: str
    name: str
    faction: str
    kind: str
    unique: bool = False
    subfaction: str = ""
    types: tuple[str, ...] = ()
    escalation: int = 0
    theaters: tuple[str, ...] = ()
    attack: int = 0
    health: int = 0
    traits: tuple[Trait, ...] = ()
    orders: tuple[str, ...] = ()
    effect: str = ""
    steps: tuple[tuple[str, tuple[Step, ...]], ...] = ()
    """(text, its steps) for each order or effect text the app carries out as written
    (``steps.py``); a text not listed is resolved by the table."""
    _by_name: dict[str, Trait] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    # Trait name → X, as combat reads them: all traits, and those a Disruption token leaves.
    _xs: dict[str, int | str | None] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _xs_disrupted: dict[str, int | str | None] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    title: str = field(default="", init=False, repr=False, compare=False, hash=False)
    """The name as printed: Unique cards carry an asterisk (5.2.4.3). Made once: every log
    line and message names cards by it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", self.name + ("*" if self.unique else ""))
        self._by_name.update({t.name: t for t in self.traits})
        self._xs.update({t.name: t.x for t in self.traits})
        self._xs_disrupted.update({t.name: t.x for t in self.traits if t.name in ("Armor", "Fighter", "Capital")})

    def trait(self, name: str) -> Trait | None:
        return self._by_name.get(name)

    def has(self, name: str) -> bool:
        return name in self._by_name

    def x(self, name: str, default: int = 0) -> int:
        """The number X of trait ``name`` (``default`` when absent or without X)."""
        t = self._by_name.get(name)
        return t.x if t is not None and isinstance(t.x, int) else default

    def can_deploy(self, theater: str) -> bool:
        return theater in self.theaters

    def steps_of(self, text: str) -> tuple[Step, ...]:
        """The checked steps of one of this card's texts (``()``: the table resolves it)."""
        for t, st in self.steps:
            if t == text:
                return st
        return ()

    def to_data(self) -> dict[str, Any]:
        """The card as its JSON data (the inverse of :func:`parse_card`)."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "unique": self.unique, "faction": self.faction,
                               "subfaction": self.subfaction, "kind": self.kind, "types": list(self.types),
                               "escalation": self.escalation, "theaters": list(self.theaters)}
        if self.kind != "effect":
            out["attack"], out["health"] = self.attack, self.health
        out["traits"] = [t.to_data() for t in self.traits]
        out["orders"] = list(self.orders)
        out["effect"] = self.effect
        if self.steps:
            out["steps"] = {t: [x.to_data() for x in st] for t, st in self.steps}
        return out


# ------------------------------------------------------------------ traits

_TRAIT_TEXT = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z() -]*?[A-Za-z)])\s*(?P<x>[^:\s][^:]*?)?\s*(?::\s*(?P<y>.+?))?\s*$")


def parse_trait_text(text: str) -> Trait | FieldProblem:
    """A trait as players write it: ``Armor 2``, ``Pierce``, ``Command Trooper: 2``,
    ``Transport 2: Vehicle``, ``Robot Expert``. Returns the trait, or the problem.

    >>> parse_trait_text("Transport 2: Vehicle")
    Trait(name='Transport', x=2, y='Vehicle')
    >>> print(parse_trait_text("Armor"))
    traits: Armor needs its X (a whole number) (5.2.8.2)
    """
    words = text.strip()
    if words.split(" ")[0] == "Unique":
        return check_trait({"name": "Unique"}, "traits")
    if words.endswith(" Expert") and words != " Expert":
        return check_trait({"name": "Expert", "x": words[: -len(" Expert")].strip()}, "traits")
    for name in sorted(TRAITS, key=len, reverse=True):
        if words == name or words.startswith(name + " ") or words.startswith(name + ":"):
            rest = words[len(name):].strip()
            x: Any = None
            y: Any = None
            if rest:
                xs, sep, ys = rest.partition(":")
                x = _number_or_text(xs.strip()) if xs.strip() else None
                y = _number_or_text(ys.strip()) if sep else None
            return check_trait({"name": name, **({"x": x} if x is not None else {}), **({"y": y} if y is not None else {})}, "traits")
    return FieldProblem("", "traits", f"{short(words)} is not a trait of the rulebook's table", "5.2.8.2")


def _number_or_text(s: str) -> int | str:
    return int(s) if s.isdigit() else s


def check_trait(value: Any, path: str) -> Trait | FieldProblem:
    """One trait, as data (``{"name", "x", "y"}``) or text, checked against the table."""
    if isinstance(value, str):
        got = parse_trait_text(value)
        return FieldProblem("", path, got.message, got.rule) if isinstance(got, FieldProblem) else got
    if not isinstance(value, dict):
        return FieldProblem("", path, f"a trait is text or an object, not {json_kind(value)}", "5.2.8.2")
    extra = sorted(k for k in value if k not in ("name", "x", "y"))
    if extra:
        return FieldProblem("", path, f"a trait has no field {short(extra[0])}", "5.2.8.2")
    name = value.get("name")
    if name == "Unique":
        return FieldProblem("", path, "Unique is the card's unique marker (the asterisk), not a trait entry", "5.2.4.3")
    spec = TRAITS.get(name) if isinstance(name, str) else None
    if spec is None:
        return FieldProblem("", path, f"{short(name)} is not a trait of the rulebook's table", "5.2.8.2")
    x, y = value.get("x"), value.get("y")
    for letter, want, got in (("X", spec.x, x), ("Y", spec.y, y)):
        problem = _param(spec.name, letter, want, got)
        if problem:
            return FieldProblem("", path, problem, "5.2.8.2")
    return Trait(spec.name, x, y)


def _param(trait: str, letter: str, want: str, got: Any) -> str | None:
    if want == "none":
        return None if got is None else f"{trait} takes no {letter}"
    if got is None:
        if want == "optional-number":
            return None
        return f"{trait} needs its {letter} ({'a whole number' if want != 'type' else 'a card type'})"
    if want in ("number", "optional-number"):
        if type(got) is not int:
            return f"{trait}'s {letter} must be a whole number, not {short(got)}"
        if not 0 <= got <= MAX_X:
            return f"{trait}'s {letter} must be from 0 to {MAX_X}, not {got}"
        return None
    if not isinstance(got, str) or got not in TYPES:
        return f"{trait}'s {letter} must be a card type ({', '.join(TYPES)}), not {short(got)}"
    return None


# ------------------------------------------------------------------ fields

def check_field(name: str, value: Any, card: Mapping[str, Any] | None = None) -> tuple[FieldProblem, ...]:
    """The problems of one field, for an editor that validates as you type. ``card`` is the
    rest of the card so far (some checks depend on its kind); a field that is fine gives
    ``()``. The card name in each problem is filled in from ``card``."""
    return tuple(_field(name, value, dict(card or {}), _label(card or {})))


def _label(card: Mapping[str, Any]) -> str:
    n = card.get("name")
    if isinstance(n, str) and n.strip():
        return n.strip()[:MAX_NAME]
    i = card.get("id")
    return i if isinstance(i, str) else ""


def _field(name: str, v: Any, card: dict[str, Any], who: str) -> Iterator[FieldProblem]:
    kind = card.get("kind") if card.get("kind") in KINDS else None

    def bad(message: str, rule: str = "7.1", path: str = name) -> FieldProblem:
        return FieldProblem(who, path, message, rule)

    if name == "id":
        if not isinstance(v, str) or not _ID.fullmatch(v):
            yield bad(f"an id is 1–48 lower-case letters, digits and dashes, not {short(v)}")
    elif name in ("name", "faction"):
        if not isinstance(v, str) or not v.strip():
            yield bad(f"must be non-empty text, not {short(v)}")
        elif len(v) > MAX_NAME:
            yield bad(f"is too long ({len(v)} characters; {MAX_NAME} at most)")
        elif name == "name" and v.strip().endswith("*"):
            yield bad("write the name without its asterisk and set the unique marker", "5.2.4.3")
    elif name == "subfaction":
        if not isinstance(v, str) or len(v) > MAX_NAME:
            yield bad(f"must be text (empty for a card of the whole faction), not {short(v)}", "5.2.4.3")
    elif name == "unique":
        if not isinstance(v, bool):
            yield bad(f"must be true or false, not {short(v)}", "5.2.4.3")
    elif name == "kind":
        if v not in KINDS:
            yield bad(f"a kind is one of {', '.join(KINDS)}, not {short(v)}", "5.2.4.1")
    elif name == "types":
        if not isinstance(v, list):
            yield bad(f"must be a list of card types, not {json_kind(v)}", "5.2.8.3")
            return
        for i, t in enumerate(v):
            if t not in TYPES:
                yield bad(f"{short(t)} is not a card type ({', '.join(TYPES)})", "5.2.8.3", f"types[{i}]")
        if len(set(map(str, v))) != len(v):
            yield bad("names a type twice", "5.2.8.3")
        if kind in ("unit", "effect") and not v:
            yield bad("a unit or one-time effect has at least one type", "5.2.8.3")
    elif name == "escalation":
        if type(v) is not int or not 0 <= v <= MAX_LEVEL:
            yield bad(f"the escalation requirement is a whole number from 0 to {MAX_LEVEL}, not {short(v)}", "5.2.7")
    elif name == "theaters":
        if not isinstance(v, list):
            yield bad(f"must be a list of theaters, not {json_kind(v)}", "5.2.2.1")
            return
        for i, t in enumerate(v):
            if t not in THEATERS:
                yield bad(f"a theater is Space or Planetside, not {short(t)}", "5.2.2.1", f"theaters[{i}]")
        if len(set(map(str, v))) != len(v):
            yield bad("names a theater twice", "5.2.2.1")
        if kind in ("unit", "objective") and not v:
            yield bad("a unit shows at least one theater it can be deployed in", "5.2.2.1")
        if kind == "base" and len(v) != 1:
            yield bad("a base belongs to exactly one theater (Space or Planetside)", "5.2.4.1")
        if kind in ("leader", "effect") and v:
            yield bad(f"{_a(KIND_NAMES[kind])} card has no theater (leaders go beside the base)", "5.2.6.2.1.2")
    elif name in ("attack", "health"):
        if type(v) is not int or not 0 <= v <= MAX_STAT:
            yield bad(f"must be a whole number from 0 to {MAX_STAT}, not {short(v)}")
        elif name == "health" and kind in ("unit", "leader", "base", "objective") and v < 1:
            yield bad("health must be at least 1 (a base's health is its hit points)", "5.1.2.1")
    elif name == "traits":
        if not isinstance(v, list):
            yield bad(f"must be a list of traits, not {json_kind(v)}", "5.2.8.2")
            return
        seen: set[str] = set()
        for i, t in enumerate(v):
            got = check_trait(t, f"traits[{i}]")
            if isinstance(got, FieldProblem):
                yield FieldProblem(who, f"traits[{i}]", got.message, got.rule)
                continue
            if got.name in seen and got.name != "Expert":
                yield bad(f"{got.name} is listed twice", "5.2.8.2", f"traits[{i}]")
            seen.add(got.name)
            on = TRAITS[got.name].on
            # An objective unit is a unit (5.2.6.3.1): it may carry any unit trait too.
            if kind is not None and kind not in on and not (kind == "objective" and "unit" in on):
                yield bad(f"{_a(KIND_NAMES[kind])} card cannot carry {got.name}", "5.2.8.2", f"traits[{i}]")
        if kind == "objective" and "Attacker" in seen and "Defender (Objective)" in seen:
            yield bad("an objective card is for the Attacker or for the Defender, not both", "5.2.8.2")
    elif name == "orders":
        if not isinstance(v, list):
            yield bad(f"must be a list of order texts, not {json_kind(v)}", "5.2.6.2.2")
            return
        for i, t in enumerate(v):
            if not isinstance(t, str) or not t.strip() or len(t) > MAX_TEXT:
                yield bad(f"an order is non-empty text of at most {MAX_TEXT} characters, not {short(t)}", "5.2.6.2.2", f"orders[{i}]")
        if kind == "effect" and v:
            yield bad("a one-time effect has effect text, not orders", "5.2.6.2.1.1")
    elif name == "effect":
        if not isinstance(v, str) or len(v) > MAX_TEXT:
            yield bad(f"must be text of at most {MAX_TEXT} characters, not {short(v)}", "5.2.6.2.1.1")
        elif kind == "effect" and not v.strip():
            yield bad("a one-time effect needs its effect text", "5.2.6.2.1.1")
    elif name == "steps":
        # Each key is one of the card's texts as written; its value what the app does.
        if not isinstance(v, dict):
            yield bad(f"must be an object of text → steps, not {json_kind(v)}", "RULINGS A-12")
            return
        texts = [o.strip() for o in card.get("orders", ()) if isinstance(o, str)]
        if isinstance(card.get("effect"), str) and card["effect"].strip():
            texts.append(card["effect"].strip())
        for text, st in v.items():
            path = f"steps[{short(text)}]"
            if text not in texts:
                yield bad(f"{short(text)} is not one of this card's orders or its effect text", "RULINGS A-12", path)
                continue
            for p in step_problems(st, path, tuple(t for t, spec in TOKENS.items() if "scale" not in spec.on and t != "Damage")):
                yield bad(p.message, "RULINGS A-12", p.path)
    else:
        yield bad(f"a card has no field {short(name)} (its fields: {', '.join(FIELDS)})")


def fields_for(kind: str) -> tuple[str, ...]:
    """The fields an editor shows for a card of ``kind`` (the rest keep their defaults).

    >>> fields_for("effect")
    ('id', 'name', 'unique', 'faction', 'subfaction', 'kind', 'types', 'escalation', 'traits', 'effect')
    """
    skip = {"effect": ("theaters", "attack", "health", "orders"), "leader": ("theaters",),
            "base": ("types",)}.get(kind, ())
    # A text's steps come with a card file; the editor says whether each text has them.
    return tuple(f for f in FIELDS if f not in skip and f != "steps")


def _a(word: str) -> str:
    return ("an " if word[:1] in "AEIOUaeiou" else "a ") + word


def card_problems(data: Any) -> list[FieldProblem]:
    """Every problem of a whole card (``[]`` for a good one)."""
    if not isinstance(data, dict):
        return [FieldProblem("", "(card)", f"a card is an object, not {json_kind(data)}")]
    who = _label(data)
    found = [FieldProblem(who, k, "missing") for k in REQUIRED if k not in data]
    if data.get("kind") == "effect" and "effect" not in data:
        found.append(FieldProblem(who, "effect", "missing: a one-time effect needs its effect text", "5.2.6.2.1.1"))
    if data.get("kind") in ("unit", "objective", "base") and "theaters" not in data:
        found.append(FieldProblem(who, "theaters", "missing: where may this card be put into play?", "5.2.2.1"))
    if data.get("kind") in ("unit", "leader", "base", "objective") and "health" not in data:
        found.append(FieldProblem(who, "health", "missing", "7.1"))
    for k, v in data.items():
        if k == "$comment":
            continue
        found.extend(_field(k, v, data, who))
    return found


def parse_card(data: Any, source: str = "") -> Card:
    """A card from its JSON data; raises :class:`CardError` naming every bad field."""
    found = card_problems(data)
    if found:
        raise CardError(found, source)
    traits = tuple(t if isinstance(t, Trait) else check_trait(t, "") for t in data.get("traits", []))
    return Card(
        id=data["id"], name=data["name"].strip(), faction=data["faction"].strip(), kind=data["kind"],
        unique=data.get("unique", False), subfaction=data.get("subfaction", "").strip(),
        types=tuple(data.get("types", ())), escalation=data.get("escalation", 0),
        theaters=tuple(t for t in THEATERS if t in data.get("theaters", ())),
        attack=data.get("attack", 0), health=data.get("health", 0),
        traits=traits,  # type: ignore[arg-type]
        orders=tuple(o.strip() for o in data.get("orders", ())), effect=data.get("effect", "").strip(),
        steps=tuple((t, parse_steps(st, t)) for t, st in data.get("steps", {}).items()),
    )


# ------------------------------------------------------------------ card sets

MAX_CARDS = 2000


@dataclass(frozen=True)
class CardSet:
    """A library of cards, by id: what a table shares as one file."""

    name: str
    cards: Mapping[str, Card]
    example: bool = False
    note: str = ""
    _instances: "_ByInstance" = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_instances", _ByInstance(self.cards))

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __len__(self) -> int:
        return len(self.cards)

    def __deepcopy__(self, memo: dict[int, Any]) -> "CardSet":
        return self  # immutable: a state copy shares its library

    def of_instance(self, instance: str) -> Card:
        """The card of an instance id (``"D:ff-rebel-cell#2"`` → Rebel Cell), remembered:
        every check asks it."""
        return self._instances[instance]

    def merged(self, other: "CardSet") -> "CardSet":
        """This set with ``other``'s cards added (``other`` wins on a shared id)."""
        return CardSet(self.name, {**self.cards, **other.cards}, self.example or other.example, self.note)


class _ByInstance(dict):  # type: ignore[type-arg]
    """Instance id → card, filled as instances are asked for (a KeyError for an id whose
    card is not in the set): a plain dict look-up once an instance has been seen."""

    def __init__(self, cards: Mapping[str, Card]) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, instance: str) -> Card:
        card = self[instance] = self.cards[instance.partition(":")[2].rpartition("#")[0]]
        return card


def card_set_problems(data: Any) -> tuple[list[FieldProblem], dict[str, Card]]:
    deep = too_deep(data)
    if deep is not None:
        return [FieldProblem("", deep, "nests lists or objects too deep")], {}
    if not isinstance(data, dict):
        return [FieldProblem("", "(top)", f"a card set is an object, not {json_kind(data)}")], {}
    found: list[FieldProblem] = []
    for k in data:
        if k not in ("format", "name", "example", "note", "cards", "$comment"):
            found.append(FieldProblem("", k, "not a field of a card set"))
    if data.get("format") != FORMAT:
        found.append(FieldProblem("", "format", f"must be {FORMAT!r}, not {short(data.get('format'))}"))
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        found.append(FieldProblem("", "name", "a card set needs a name"))
    if not isinstance(data.get("example", False), bool):
        found.append(FieldProblem("", "example", "must be true or false"))
    rows = data.get("cards")
    cards: dict[str, Card] = {}
    if not isinstance(rows, list):
        found.append(FieldProblem("", "cards", f"must be a list of cards, not {json_kind(rows)}"))
        return found, cards
    if len(rows) > MAX_CARDS:
        found.append(FieldProblem("", "cards", f"holds {len(rows)} cards; {MAX_CARDS} at most"))
        return found, cards
    for i, row in enumerate(rows):
        problems = card_problems(row)
        for p in problems:
            found.append(FieldProblem(p.card, f"cards[{i}].{p.field}", p.message, p.rule))
        if problems:
            continue
        c = parse_card(row)
        if c.id in cards:
            found.append(FieldProblem(c.name, f"cards[{i}].id", f"the id {c.id!r} is used twice in this set"))
        cards[c.id] = c
    return found, cards


FORMAT = "against-all-tyrants/cards@1"
DECK_FORMAT = "against-all-tyrants/deck@1"


def parse_card_set(data: Any, source: str = "") -> CardSet:
    """A card set from its JSON data (see README, "Card sets"); raises :class:`CardError`."""
    found, cards = card_set_problems(data)
    if found:
        raise CardError(found, source)
    return CardSet(data["name"].strip(), cards, data.get("example", False), data.get("note", ""))


def load_card_set(text: str, source: str = "") -> CardSet:
    """A card set from the text of its file (the app reads the file)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise CardError([FieldProblem("", "(file)", f"not JSON: {str(e)[:80]}")], source) from None
    except ValueError as e:  # an int too long to read
        raise CardError([FieldProblem("", "(file)", f"not usable JSON: {str(e)[:80]}")], source) from None
    return parse_card_set(data, source)


def dump_card_set(cards: CardSet) -> str:
    """The text of a card set's file: :func:`load_card_set` reads it back unchanged."""
    data = {"format": FORMAT, "name": cards.name, "example": cards.example, "note": cards.note,
            "cards": [c.to_data() for c in cards.cards.values()]}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


@lru_cache(maxsize=1)
def example_set() -> CardSet:
    """The example set shipped in ``data/example_set.json``: made for trying the rules,
    NOT the published cards (none were published)."""
    return load_card_set((DATA / "example_set.json").read_text(encoding="utf-8"), "example_set.json")
