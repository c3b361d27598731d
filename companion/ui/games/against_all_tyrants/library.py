"""The table's Against All Tyrants library, without Kivy: which decks the setup wizard
offers each side, the card editor's draft (validated field by field as it is typed, with
the rules' own ``check_field``) and the deck builder's draft (``DeckList.adding`` on each
tap, ``check_deck`` rule by rule with its section). Files go through
:mod:`companion.ui.games.against_all_tyrants.cardfiles`; nothing here reads or writes a file itself.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.against_all_tyrants import (
    CardError, CardSet, DeckList, check_deck, check_field, example_decks, objective_of, parse_card,
)
from rules.against_all_tyrants.cards import fields_for
from rules.against_all_tyrants.decks import SIZES
from rules.against_all_tyrants.steps import CHECKED, TABLE_RESOLVES, parse_steps
from rules.against_all_tyrants.state import cards_of

from . import cardfiles
from ....errors import CompanionError

MY_SET = "Our cards"
_WHOLE = re.compile(r"[+-]?[0-9]+")  # a whole number as a person types it (int() reads more: "1_0", "٣")
EXAMPLE_NOTE = "made for trying the rules, not the published cards"


class LibraryRefused(CompanionError, ValueError):
    """The table's card library refused a change (a card a saved deck still holds, an id
    clash), saying why; nothing was changed."""

    code = "library-refused"


class NoSuchCard(LibraryRefused, LookupError):
    """A card the named set does not hold."""

    code = "no-such-card"


@dataclass(frozen=True)
class DeckChoice:
    """A deck the wizard offers: an example deck (its key) or one of the table's saved decks."""

    label: str
    option: Any  # what the game's ``<role>_deck`` option takes: a key, or deck-file data
    deck: DeckList
    example: bool


def deck_choices(folder: str | Path) -> list[DeckChoice]:
    """The example decks, then the table's own saved decks."""
    out = [DeckChoice(f"{d.name} — {EXAMPLE_NOTE}", key, d, True) for key, d in sorted(example_decks().items())]
    out += [DeckChoice(d.name, d.to_data(), d, False) for d in cardfiles.saved_decks(folder)]
    return out


def default_choice(choices: list[DeckChoice], role: str) -> DeckChoice:
    key = "first-leaders-navy" if role == "attacker" else "freedom-fighters"
    return next((c for c in choices if c.option == key), choices[0])


def deck_notes(choice: DeckChoice, role: str, cards_option: dict[str, Any]) -> list[str]:
    """What the wizard says under a chosen deck: the alternate objective (or that the book
    has it "To Be Determined"), and every way the deck breaks 5.2.4 with its section."""
    deck = choice.deck
    notes = []
    obj = objective_of(deck.subfaction, role)
    if obj.goal == "tbd":
        notes.append(f"⚠ {deck.subfaction}: the book marks its alternate objective “To Be Determined”; "
                     "it plays on the primary objective (destroy the enemy base).")
    elif obj.name:
        notes.append(f"Alternate objective: {obj.name}.")
    else:
        notes.append("No alternate objective for this subfaction: the primary objective (destroy the enemy base).")
    for v in check_deck(deck, cards_of({"cards": cards_option})):
        notes.append(f"✖ {v.message} ({v.rule})")
    return notes


# ------------------------------------------------------------------ the card editor

FIELD_LABELS = {
    "name": "Name", "unique": "Unique", "faction": "Faction", "subfaction": "Subfaction", "kind": "Kind",
    "types": "Types (comma between)", "escalation": "Escalation 0–5", "theaters": "Theaters",
    "attack": "Attack", "health": "Health (a base: its hit points)", "traits": "Traits (comma between: Armor 2, Pierce)",
    "orders": "Orders (one a line)", "effect": "Effect text",
}
KIND_NAMES = {"unit": "Unit", "leader": "Leader", "effect": "One-time effect", "base": "Base", "objective": "Objective unit"}
TEXT_FIELDS = ("name", "faction", "subfaction", "types", "escalation", "attack", "health", "traits", "orders", "effect")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "card"


@dataclass(frozen=True)
class LibraryCard:
    """One of the table's saved cards, with the set it is kept in (what the editor lists)."""

    set_name: str
    card: Any


def table_cards(folder: str | Path) -> list[LibraryCard]:
    """Every card of the table's saved sets (not the example set), by name."""
    out = [LibraryCard(s.name, c) for s in cardfiles.saved_card_sets(folder) for c in s.cards.values()]
    return sorted(out, key=lambda lc: (lc.card.name.lower(), lc.card.id, lc.set_name))


@dataclass
class CardDraft:
    """A card as it is typed: each field's text, turned into the card format's values and
    checked by the rules as it changes.

    ``editing`` is the id of a saved card being changed (it keeps its id, so the decks that
    hold it still do), ``set_name`` the set it is saved in; ``taken`` the ids the table's
    sets already use, which a new card may not take.

    >>> from rules.against_all_tyrants import example_set
    >>> d = CardDraft.of(example_set()["ff-rebel-cell"], "Our cards")
    >>> d.editing, d.texts["traits"], d.all_problems()
    ('ff-rebel-cell', 'Mass, Sympathized 1', [])
    """

    kind: str = "unit"
    texts: dict[str, str] = field(default_factory=dict)
    unique: bool = False
    theaters: tuple[str, ...] = ()
    editing: str = ""
    set_name: str = MY_SET
    taken: frozenset[str] = frozenset()
    steps: dict[str, Any] = field(default_factory=dict)  # a saved card's steps (its file's), by text

    @classmethod
    def of(cls, card: Any, set_name: str = MY_SET) -> "CardDraft":
        """The editor filled in with a saved card, to change it."""
        texts = {
            "name": card.name, "faction": card.faction, "subfaction": card.subfaction,
            "types": ", ".join(card.types), "escalation": str(card.escalation),
            "attack": str(card.attack), "health": str(card.health),
            "traits": ", ".join(str(t) for t in card.traits),  # as printed: parse_trait_text reads it back
            "orders": "\n".join(card.orders), "effect": card.effect,
        }
        steps = {t: [x.to_data() for x in st] for t, st in card.steps}
        return cls(card.kind, texts, card.unique, tuple(card.theaters), card.id, set_name, steps=steps)

    @property
    def card_id(self) -> str:
        return self.editing or _slug(self.texts.get("name", ""))

    def fields(self) -> tuple[str, ...]:
        """The fields the editor shows for this kind (the rules' ``fields_for``), minus the
        id (made from the name) and the toggles the editor draws itself."""
        return tuple(f for f in fields_for(self.kind) if f in TEXT_FIELDS)

    def value(self, name: str) -> Any:
        text = self.texts.get(name, "").strip()
        if name in ("types", "traits"):
            return [t.strip() for t in text.split(",") if t.strip()]
        if name == "orders":
            return [t.strip().lstrip("»").strip() for t in text.splitlines() if t.strip()]
        if name in ("escalation", "attack", "health"):
            if text == "":
                return 0
            if _WHOLE.fullmatch(text.strip()):
                return int(text)
            return text  # the rules say why it is not a number
        return text

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.card_id, "kind": self.kind, "unique": self.unique}
        for f in self.fields():
            out[f] = self.value(f)
        if "theaters" in fields_for(self.kind):
            out["theaters"] = list(self.theaters)
        # A text keeps the steps its card file gave it while it reads the same; a text
        # changed or new has none (the editor cannot write them): the table resolves it.
        texts = set(out.get("orders") or []) | {out.get("effect") or ""}
        kept = {t: st for t, st in self.steps.items() if t in texts}
        if kept:
            out["steps"] = kept
        return out

    def text_notes(self, name: str) -> list[str]:
        """For the orders or the effect as typed: whether the app carries each text out as
        written (its steps, in words) or the table resolves it (RULINGS A-12).

        >>> from rules.against_all_tyrants import example_set
        >>> d = CardDraft.of(example_set()["nv-orbital-fortress"])
        >>> d.text_notes("orders")
        ['» Deal 1 damage to an enemy unit in Space. — The app carries this text out as written: deal 1 damage to an enemy unit in Space.']
        >>> d.texts["orders"] = "Deal 2 damage to an enemy unit in Space."
        >>> d.text_notes("orders")
        ['» Deal 2 damage to an enemy unit in Space. — The table resolves this text; the app does not check it.']
        """
        data = self.data()
        texts = list(data.get("orders") or []) if name == "orders" else [data.get("effect") or ""]
        out = []
        for t in (x for x in texts if x):
            steps = data.get("steps", {}).get(t)
            if steps:
                words = "; then ".join(s.words() for s in parse_steps(steps, t))
                out.append(f"{'» ' if name == 'orders' else ''}{t} — {CHECKED[:-1]}: {words}.")
            else:
                out.append(f"{'» ' if name == 'orders' else ''}{t} — {TABLE_RESOLVES}")
        return out

    def problems(self, name: str) -> list[str]:
        """The rules' problems with one field, as it stands (``check_field``)."""
        data = self.data()
        if name not in data:
            return []
        return [f"{p.message} ({p.rule})" if p.rule else p.message for p in check_field(name, data[name], data)]

    def all_problems(self) -> list[str]:
        """Every problem the card has (the whole card parsed), or [] when it can be saved."""
        try:
            parse_card(self.data())
        except CardError as e:
            return [f"{FIELD_LABELS.get(p.field.split('[')[0], p.field)}: {p.message} ({p.rule})" for p in e.found]
        return self.clash()

    def clash(self) -> list[str]:
        """A new card whose name gives the id of a card the table already has: saving it
        would silently replace that card, so the editor asks to edit that one instead."""
        if self.editing or self.card_id not in self.taken:
            return []
        return [f"Name: the table already has a card with this name (id {self.card_id!r}); "
                "tap it in the list above to change it, or give this one another name"]

    def card(self) -> Any:
        return parse_card(self.data())


def new_draft(folder: str | Path, kind: str = "unit", keep: dict[str, str] | None = None) -> CardDraft:
    """An empty editor for a new card, knowing which ids the table's cards already use."""
    return CardDraft(kind=kind, texts=dict(keep or {}), taken=frozenset(lc.card.id for lc in table_cards(folder)))


def save_card(draft: CardDraft, folder: str | Path) -> CardSet:
    """Save the card in ``folder``: a new card joins the table's own set (``Our cards``); a
    card being edited replaces itself, same id, in the set it came from, so every saved
    deck that holds it now holds the changed card. Returns the set."""
    card = draft.card()
    if draft.clash():
        raise LibraryRefused(draft.clash()[0])
    name = draft.set_name if draft.editing else MY_SET
    sets = {s.name: s for s in cardfiles.saved_card_sets(folder)}
    old = sets.get(name) or CardSet(name, {}, False, "The table's own cards, entered in the app.")
    cards = dict(old.cards)
    cards[card.id] = card  # in place when edited: the set keeps its order
    saved = CardSet(old.name, cards, old.example, old.note)
    cardfiles.save_card_set(saved, folder)
    return saved


@dataclass(frozen=True)
class DeckUse:
    """A saved deck holding a card, and what 5.2.4 now says of it (``problems`` empty: legal)."""

    deck: DeckList
    copies: int
    problems: tuple[str, ...]


def decks_using(card_id: str, folder: str | Path) -> list[DeckUse]:
    """The table's saved decks that hold ``card_id``, each checked again against 5.2.4 with
    the library as it is now (after an edit, a deck may no longer be legal: say so)."""
    lib = cards_of({"cards": cardfiles.library(folder)})
    out = []
    for d in cardfiles.saved_decks(folder):
        n = sum(d.section(s).get(card_id, 0) for s in SIZES)
        if n:
            out.append(DeckUse(d, n, tuple(f"{v.message} ({v.rule})" for v in check_deck(d, lib))))
    return out


def edit_report(card: Any, uses: list[DeckUse]) -> str:
    """What saving an edited card did to the decks that hold it, in a sentence or two."""
    if not uses:
        return f"✔ {card.title} saved; no saved deck holds it."
    legal = [u.deck.name for u in uses if not u.problems]
    broken = [u for u in uses if u.problems]
    out = f"✔ {card.title} saved; the decks that hold it now hold the changed card"
    out += f" ({', '.join(legal)} still legal)" if legal else ""
    out += "."
    for u in broken:
        out += f"\n✖ {u.deck.name} no longer passes 5.2.4: {u.problems[0]}"
    return out


def delete_card(card_id: str, set_name: str, folder: str | Path) -> str:
    """Take a card out of the table's set ``set_name``. Refused, naming them, while a saved
    deck holds it: a deck would otherwise name a card no set has, and could not be played
    or shared (its file carries only ids). Returns what happened, in a sentence.

    >>> import tempfile
    >>> from rules.against_all_tyrants import example_set
    >>> folder = tempfile.mkdtemp()
    >>> _ = save_card(CardDraft.of(example_set()["ff-militia"], "Our cards"), folder)
    >>> delete_card("ff-militia", "Our cards", folder)
    '✔ Militia deleted from “Our cards”.'
    >>> table_cards(folder)
    []
    """
    sets = {s.name: s for s in cardfiles.saved_card_sets(folder)}
    old = sets.get(set_name)
    if old is None or card_id not in old.cards:
        raise NoSuchCard(f"“{set_name}” holds no card {card_id!r}")
    card = old.cards[card_id]
    uses = decks_using(card_id, folder)
    if uses:
        names = ", ".join(f"{u.deck.name} ({u.copies} cop{'y' if u.copies == 1 else 'ies'})" for u in uses)
        raise LibraryRefused(f"{card.title} is in the saved deck{'s' if len(uses) > 1 else ''} {names}: "
                         "take it out of them in the deck builder first; nothing was deleted.")
    cards = {k: c for k, c in old.cards.items() if k != card_id}
    cardfiles.save_card_set(CardSet(old.name, cards, old.example, old.note), folder)
    return f"✔ {card.title} deleted from “{old.name}”."


# ------------------------------------------------------------------ the deck builder

SECTION_TITLES = {"bases": "Bases", "special_forces": "Special Forces", "main": "Main deck", "objectives": "Objectives"}
SECTION_KINDS = {"bases": ("base",), "special_forces": ("unit",), "main": ("unit", "leader", "effect"), "objectives": ("objective",)}


@dataclass
class DeckDraft:
    """A deck as the builder taps it together, checked against 5.2.4 after every tap."""

    deck: DeckList
    library: CardSet

    @classmethod
    def blank(cls, folder: str | Path, name: str = "Our deck", faction: str = "", subfaction: str = "") -> "DeckDraft":
        lib = cards_of({"cards": cardfiles.library(folder)})
        return cls(DeckList(name, faction, subfaction), lib)

    @classmethod
    def of(cls, deck: DeckList, folder: str | Path) -> "DeckDraft":
        return cls(deck, cards_of({"cards": cardfiles.library(folder)}))

    def tap(self, section: str, card_id: str, n: int = 1) -> None:
        self.deck = self.deck.adding(section, card_id, n)

    def counts(self) -> list[str]:
        """"Main deck 29 / 30" per section."""
        c = self.deck.counts()
        return [f"{SECTION_TITLES[s]} {c[s]} / {SIZES[s]}" + (" ✔" if c[s] == SIZES[s] else "") for s in SIZES]

    def candidates(self, section: str) -> list[Any]:
        """The library's cards that may go in ``section`` for this deck's faction."""
        d = self.deck
        out = []
        for card in self.library.cards.values():
            if card.kind not in SECTION_KINDS[section]:
                continue
            if d.faction and card.faction != d.faction:
                continue
            if d.subfaction and card.subfaction not in ("", d.subfaction):
                continue
            out.append(card)
        return sorted(out, key=lambda c: (c.escalation, c.name))

    def violations(self) -> list[str]:
        """Every rule of 5.2.4 the deck breaks, each with its section."""
        return [f"✖ {v.message} ({v.rule})" for v in check_deck(self.deck, self.library)]

    def renamed(self, name: str, faction: str, subfaction: str) -> None:
        d = self.deck
        self.deck = DeckList(name.strip() or "Our deck", faction.strip(), subfaction.strip(),
                             **{s: dict(d.section(s)) for s in SIZES})


def deck_as_json(deck: DeckList) -> str:
    return json.dumps(deck.to_data(), ensure_ascii=False)
