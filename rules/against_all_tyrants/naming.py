"""What players call Against All Tyrants' pieces, for the app's forms and messages (the
kernel's ``Game.names`` and ``Game.choices`` hooks): every card copy of both decks by its
title, the theaters, and, for a position being entered, the cards in play and the tokens
that may lie on them (live sources: they follow the position).

>>> from rules.against_all_tyrants import GAME
>>> GAME.choices("theaters", {}, [])
[('space', 'Space'), ('planetside', 'Planetside')]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..words import ordinal
from .cards import THEATERS, TOKENS
from .state import card_id, cards_of, deck_of, instances

_SECTION_WORDS = {"bases": "base", "special_forces": "Special Forces", "main": "main deck", "objectives": "objective"}


def _deck(options: Mapping[str, Any], role: str) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """(section → the role's card copies, copy → its card)."""
    deck = instances(deck_of(dict(options), role), role)
    known = cards_of(dict(options))
    return deck, {c: known[card_id(c)] for ids in deck.values() for c in ids}


def _cards(options: Mapping[str, Any], role: str, sections: str, theater: str = "") -> list[tuple[Any, str]]:
    """The card copies of ``role``'s deck in ``sections`` ("main+special_forces"), those that
    may stand in ``theater`` if one is given, by title; a title found in two sections says
    which ("Marine (Special Forces)")."""
    deck, cards = _deck(options, role)
    titles: dict[str, set[str]] = {}
    for sec, ids in deck.items():
        for c in ids:
            titles.setdefault(cards[c].title, set()).add(sec)
    out = []
    for sec in sections.split("+"):
        for c in deck[sec]:
            card = cards[c]
            # An effect never stands in a theater; a unit or base only where its card allows (a leader anywhere).
            if theater in THEATERS and (card.kind == "effect" or (card.kind != "leader" and theater not in card.theaters)):
                continue
            out.append((c, card.title + (f" ({_SECTION_WORDS[sec]})" if len(titles[card.title]) > 1 else "")))
    return out


def _named_pieces(options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                  position: Mapping[str, Any]) -> list[tuple[int, dict[str, Any], Any, str]]:
    """The cards in play as (index, row, card, "Title in Theater", "(2nd)" when copies share it)."""
    pieces = position.get("pieces", []) or []
    cards: dict[str, Any] = {}
    for s in seats:
        cards.update(_deck(options, s["faction"])[1])
    placed = [(i, r, cards[r["id"]]) for i, r in enumerate(pieces) if isinstance(r, dict) and r.get("id") in cards]
    where = {i: f"{c.title} in {str(r.get('theater', '')).title()}" for i, r, c in placed}
    seen: dict[str, int] = {}
    out = []
    for i, r, c in placed:
        seen[where[i]] = seen.get(where[i], 0) + 1
        copies = sum(1 for w in where.values() if w == where[i])
        out.append((i, r, c, where[i] + (f" ({ordinal(seen[where[i]])})" if copies > 1 else "")))
    return out


def _asked(position: Mapping[str, Any], path: str) -> Any:
    """A form's own answer (``ask.<name>``), kept under the position's ``"ask"``."""
    node: Any = position
    for part in path.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node


class Naming:
    """Against All Tyrants' ``names`` and ``choices`` (mixed into the Game).

    Sources: "theaters"; "aat-cards:<seat>:<sections>[:<theater>]" (a seat's own deck);
    and the live "aat-in-play" (every card in play, by copy) and "aat-tokens[:<ask path>]"
    (one item per token that may lie on each card in play, ``<index>.tokens.<token>``)."""

    live_sources = frozenset({"aat-tokens", "aat-in-play"})

    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Every card copy of both decks by its title."""
        cards = cards_of(dict(options))
        out = {}
        for role in ("attacker", "defender"):
            for ids in instances(deck_of(dict(options), role), role).values():
                out.update({c: cards[card_id(c)].title for c in ids})
        return out

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        name, *args = source.split(":")
        if source == "theaters":
            return [(t, t.title()) for t in THEATERS]
        if name == "aat-cards" and len(args) in (2, 3):
            role = next(s["faction"] for s in seats if s["id"] == args[0])
            return _cards(options, role, *args[1:])
        if name == "aat-in-play":
            said = {s["id"]: s.get("name") or s["id"] for s in seats}
            return [(r["id"], f"{named} — {said.get(r.get('owner', ''), r.get('owner', ''))}")
                    for _i, r, _c, named in _named_pieces(options, seats, position or {})]
        if name == "aat-tokens":
            # With a pick of the cards that carry tokens, only those cards' tokens are asked,
            # and the cards that already hold some (nothing entered is ever hidden).
            picked = set(_asked(position or {}, args[0]) or []) if args else None
            out = []
            for i, row, card, named in _named_pieces(options, seats, position or {}):
                if picked is not None and row["id"] not in picked and not row.get("tokens"):
                    continue
                out.extend((f"{i}.tokens.{tok}", f"{named}: {tok}") for tok, spec in TOKENS.items() if card.kind in spec.on)
            return out
        return super().choices(source, options, seats, position)  # type: ignore[misc]
