"""Against All Tyrants' public position: the start of a turn (phase 1, before the draw),
as the table sees it. The decks come from the options; the position says where each
public card is.

Keys (all required but ``private``)::

    turn        turns played, from 1;  active: the seat whose turn starts
    escalation  {"level": 0..5, "incidents": 0..3}
    pieces      the cards in play, in play order: [{"id", "owner", "theater", "tokens"}]
                (a leader's theater is its base's; tokens {name: count}, Damage included)
    sides       {seat: {"deck": n, "hand": n, "special_forces": n, "objectives": [ids],
                 "discard": [ids], "unused_base": id, "scored": n, "escaped": [ids]}}
    private     what the holders enter and ``position(state)`` never writes:
                {seat: {"hand": [ids], "special_forces": [ids]}}; a part not given is
                dealt at random from the cards no one has placed.

Card ids are instance ids (``"D:ff-rebel-cell#2"``), numbered as :func:`state.instances` does.
"""
from __future__ import annotations

from typing import Any

from rules.core import Deck, Escalation, Game, Hand, NoPositions, Rng, Seat
from rules.core.position import PositionReader

from .cards import TOKENS, THEATERS
from .state import HOME, AatState, Piece, SideState, card_id, cards_of, deck_of, instances

KEYS = ("turn", "active", "escalation", "pieces", "sides")
SIDE_KEYS = ("deck", "hand", "special_forces", "objectives", "discard", "unused_base", "scored", "escaped")
RULE = "5.2.5 Game Setup"


def write(game: "Game[AatState]", state: AatState) -> dict[str, Any]:
    if state.result is not None or state.phase != "draw" or state.pending:
        raise NoPositions("An Against All Tyrants position is the start of a turn (phase 1, before the draw).")
    return {
        "turn": state.turn, "active": state.active,
        "escalation": {"level": state.escalation.level, "incidents": state.escalation.incidents},
        "pieces": [{"id": p.id, "owner": p.owner, "theater": p.theater, "tokens": dict(sorted(p.tokens.items()))}
                   for p in state.pieces.values()],
        "sides": {s: {"deck": len(side.deck.cards), "hand": len(side.hand), "special_forces": len(side.special_forces),
                      "objectives": list(side.objectives), "discard": list(side.discard), "unused_base": side.unused_base,
                      "scored": side.scored, "escaped": list(side.escaped)} for s, side in state.sides.items()},
    }


def read(game: "Game[AatState]", seats: list[Seat], options: dict[str, Any], p: dict[str, Any], rng: Rng, seed: int) -> AatState:
    r = PositionReader(p, RULE)
    r.keys(p, KEYS, ("private",))
    cards = cards_of(options)
    ids = [s.id for s in seats]
    role = {s.id: s.faction for s in seats}
    turn = r.int("turn", lo=1) if "turn" in p else None
    if "active" in p and p["active"] not in ids:
        r.bad("active", f"no seat {p['active']!r} at this table.")
    esc = r.obj("escalation", p.get("escalation", {}))
    r.keys(esc, ("level", "incidents"), path="escalation")
    level = r.int("escalation.level", esc.get("level"), 0, 5) if "level" in esc else 0
    incidents = r.int("escalation.incidents", esc.get("incidents"), 0, 3) if "incidents" in esc else 0
    inst = {s: instances(deck_of(options, role[s]), role[s]) for s in ids}
    owner_of = {c: s for s in ids for sec in inst[s].values() for c in sec}
    section_of = {c: sec for s in ids for sec, cs in inst[s].items() for c in cs}
    public: dict[str, str] = {}  # card → where it was named

    def claim(c: Any, path: str, seat: str, sections: tuple[str, ...]) -> bool:
        if not isinstance(c, str) or owner_of.get(c) != seat:
            r.bad(path, f"{c!r} is not a card of {seat}'s deck.")
            return False
        if section_of[c] not in sections:
            r.bad(path, f"{c!r} comes from the {section_of[c].replace('_', ' ')} section; it cannot be here.")
            return False
        if c in public:
            r.bad(path, f"{c!r} is already at {public[c]}.")
            return False
        public[c] = path
        return True

    pieces: list[Piece] = []
    for i, row in enumerate(r.list("pieces", p.get("pieces", []))):
        path = f"pieces.{i}"
        row = r.obj(path, row)
        r.keys(row, ("id", "owner", "theater", "tokens"), path=path)
        owner = row.get("owner")
        if owner not in ids:
            r.bad(f"{path}.owner", f"no seat {owner!r} at this table.")
            continue
        if not claim(row.get("id"), f"{path}.id", owner, ("bases", "special_forces", "main", "objectives")):
            continue
        c = cards[card_id(row["id"])]
        theater = row.get("theater")
        if theater not in THEATERS or (c.kind != "leader" and theater not in c.theaters):
            r.bad(f"{path}.theater", f"{c.title} can not be in {theater!r}.")
            continue
        if c.kind == "effect":
            r.bad(f"{path}.id", f"{c.title} is a one-time effect: it never stays in play.")
        tokens = r.obj(f"{path}.tokens", row.get("tokens", {}))
        good: dict[str, int] = {}
        for k, n in tokens.items():
            if k not in TOKENS or "scale" in TOKENS[k].on:
                r.bad(f"{path}.tokens.{k}", "not a token placed on cards.")
            elif (v := r.int(f"{path}.tokens.{k}", n, 1, 99)) is not None:
                good[k] = v
        if c.kind != "base" and good.get("Damage", 0) >= c.health:
            r.bad(f"{path}.tokens.Damage", f"{c.title} would be destroyed ({good['Damage']} damage, {c.health} health).")
        pieces.append(Piece(row["id"], c.id, owner, theater, good))
    for s in ids:
        bases = [q for q in pieces if q.owner == s and cards[q.card].kind == "base"]
        if len(bases) != 1 or bases[0].theater != HOME[role[s]]:
            r.bad("pieces", f"{s} needs its base in play in {HOME[role[s]]}.")
    sides_in = r.obj("sides", p.get("sides", {}))
    private = r.obj("private", p.get("private", {}))
    sides: dict[str, SideState] = {}
    for s in ids:
        path = f"sides.{s}"
        if s not in sides_in:
            r.bad(path, "missing.")
            continue
        row = r.obj(path, sides_in[s])
        r.keys(row, SIDE_KEYS, path=path)
        objectives = [c for i, c in enumerate(r.list(f"{path}.objectives", row.get("objectives", [])))
                      if claim(c, f"{path}.objectives.{i}", s, ("objectives",))]
        discard = [c for i, c in enumerate(r.list(f"{path}.discard", row.get("discard", [])))
                   if claim(c, f"{path}.discard.{i}", s, ("bases", "special_forces", "main", "objectives"))]
        escaped = [c for i, c in enumerate(r.list(f"{path}.escaped", row.get("escaped", [])))
                   if claim(c, f"{path}.escaped.{i}", s, ("special_forces", "main", "objectives"))]
        unused = row.get("unused_base", "")
        claim(unused, f"{path}.unused_base", s, ("bases",))
        scored = r.int(f"{path}.scored", row.get("scored"), 0, 99) or 0
        n_deck = r.int(f"{path}.deck", row.get("deck"), 0, 40)
        n_hand = r.int(f"{path}.hand", row.get("hand"), 0, 40)
        n_sf = r.int(f"{path}.special_forces", row.get("special_forces"), 0, 5)
        mine = r.obj(f"private.{s}", private.get(s, {}))
        r.keys(mine, (), ("hand", "special_forces"), path=f"private.{s}")
        hand_given = [c for i, c in enumerate(r.list(f"private.{s}.hand", mine.get("hand", [])))
                      if claim(c, f"private.{s}.hand.{i}", s, ("main",))]
        sf_given = [c for i, c in enumerate(r.list(f"private.{s}.special_forces", mine.get("special_forces", [])))
                    if claim(c, f"private.{s}.special_forces.{i}", s, ("special_forces",))]
        sides[s] = SideState(Deck(f"deck-{s}", auto_reshuffle=False), Hand(s), objectives=objectives, discard=discard,
                             unused_base=unused if isinstance(unused, str) else "", scored=scored, escaped=escaped)
        sides[s].hand.cards[:] = hand_given
        sides[s].special_forces[:] = sf_given
        sides[s].deck.cards[:] = [n_deck, n_hand, n_sf]  # type: ignore[list-item]  # counts, placed below
    for s in private:
        if s not in ids:
            r.bad(f"private.{s}", f"no seat {s!r} at this table.")
    r.done()
    state_sides: dict[str, SideState] = {}
    for s in ids:
        side = sides[s]
        n_deck, n_hand, n_sf = side.deck.cards  # type: ignore[misc]
        free_sf = [c for c in inst[s]["special_forces"] if c not in public]
        free_main = [c for c in inst[s]["main"] if c not in public]
        if side.special_forces and len(side.special_forces) != n_sf:
            r.bad(f"private.{s}.special_forces", f"holds {len(side.special_forces)} cards; sides.{s}.special_forces says {n_sf}.")
        if side.hand.cards and len(side.hand.cards) != n_hand:
            r.bad(f"private.{s}.hand", f"holds {len(side.hand.cards)} cards; sides.{s}.hand says {n_hand}.")
        if len(free_sf) + len(side.special_forces) != n_sf:
            r.bad(f"sides.{s}.special_forces", f"{len(free_sf) + len(side.special_forces)} Special Forces cards are not in play, discarded or escaped, not {n_sf}.")
        if len(free_main) + len(side.hand.cards) != n_deck + n_hand:
            r.bad(f"sides.{s}.deck", f"{len(free_main) + len(side.hand.cards)} main-deck cards are neither in play nor discarded; deck {n_deck} + hand {n_hand} says otherwise.")
        state_sides[s] = side
    r.done()
    for s in ids:
        side = state_sides[s]
        n_deck, n_hand, _ = side.deck.cards  # type: ignore[misc]
        free_sf = [c for c in inst[s]["special_forces"] if c not in public]
        free_main = [c for c in inst[s]["main"] if c not in public]
        rng.shuffle(free_main)
        if not side.special_forces:
            side.special_forces[:] = free_sf
        if not side.hand.cards:
            side.hand.cards[:] = free_main[:n_hand]
            free_main = free_main[n_hand:]
        side.deck.cards[:] = free_main
    state = AatState(seats=seats, options=options, seed=seed, rng=rng, sides=state_sides,
                     escalation=Escalation(level=level or 0, incidents=incidents or 0), phase="draw",
                     turn=turn or 1, active=p["active"])
    for q in pieces:
        state.pieces[q.id] = q
    state.note("The game resumes from a position.")
    return state
