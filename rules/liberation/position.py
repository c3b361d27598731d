"""Liberation's public position (issue 14): the start of a turn (step 1), as the table sees it.

Keys (every one required but ``private``)::

    act        ACT I..III (1 + the deck's reshuffles)
    turn       turns played, from 1;  active: the seat whose turn starts
    occupied   the occupied Cities, in the order they were occupied
    exploited  the exploited Cities (each one occupied)
    deck, discard   how many cards the draw pile and the face-down discard pile hold
    hands      {seat: 0..3}: how many cards each side holds
    base       true: the secret base is placed (a turn starts only after it is)
    private    what the holders enter and ``position(state)`` never writes:
               {liberation seat: {"base": city, "hand": [cities]}, dynasty seat: {"hand": [...]}}.
               The base is required (only its holder knows it); a hand not given is dealt
               at random from the cards no one has placed.
"""
from __future__ import annotations

from typing import Any

from rules.core import Deck, Game, Hand, NoPositions, Rng, Seat
from rules.core.position import PositionReader

from .mapdata import parse_map
from .state import DECK, HAND_LIMIT, BaseMove, LiberationState


KEYS = ("act", "turn", "active", "occupied", "exploited", "deck", "discard", "hands", "base")


def write(game: "Game[LiberationState]", state: LiberationState) -> dict[str, Any]:
    if state.result is not None or state.phase != "step1":
        raise NoPositions("A Liberation position is the start of a turn (step 1).")
    return {
        "act": state.act, "turn": state.turn, "active": state.active,
        "occupied": list(state.occupied), "exploited": list(state.exploited),
        "deck": len(state.deck.cards), "discard": len(state.deck.discard),
        "hands": {s: len(h) for s, h in state.hands.items()}, "base": bool(state.base),
    }


def read(game: "Game[LiberationState]", seats: list[Seat], options: dict[str, Any], p: dict[str, Any], rng: Rng, seed: int) -> LiberationState:
    r = PositionReader(p, "Setup")
    r.keys(p, KEYS, ("private",))
    spec = parse_map(options["map"])
    cities = set(spec.city_ids)
    ids = [s.id for s in seats]
    liberation = next(s.id for s in seats if s.faction == "liberation")
    act = r.int("act", lo=1, hi=3) if "act" in p else None
    turn = r.int("turn", lo=1) if "turn" in p else None
    if "active" in p and p["active"] not in ids:
        r.bad("active", f"no seat {p['active']!r} at this table.")
    occupied = r.list("occupied", p.get("occupied", []))
    for i, c in enumerate(occupied):
        if c not in cities:
            r.bad(f"occupied.{i}", f"no City {c!r} on {spec.name}.")
    if len(set(map(repr, occupied))) != len(occupied):
        r.bad("occupied", "names a City twice.")
    exploited = r.list("exploited", p.get("exploited", []))
    for i, c in enumerate(exploited):
        if c not in occupied:
            r.bad(f"exploited.{i}", f"{c!r} is not an occupied City.")
    if len(set(map(repr, exploited))) != len(exploited):
        r.bad("exploited", "names a City twice.")
    deck_n = r.int("deck", lo=0) if "deck" in p else None
    discard_n = r.int("discard", lo=0) if "discard" in p else None
    hands = r.obj("hands", p.get("hands", {}))
    sizes: dict[str, int] = {}
    for s in ids:
        if "hands" in p and s not in hands:
            r.bad(f"hands.{s}", "missing.")
    for s, n in hands.items():
        if s not in ids:
            r.bad(f"hands.{s}", f"no seat {s!r} at this table.")
        elif (v := r.int(f"hands.{s}", n, 0, HAND_LIMIT)) is not None:
            sizes[s] = v
    if "base" in p and p["base"] is not True:
        r.bad("base", "a turn starts only once the secret base is placed: must be true.")
    private = r.obj("private", p.get("private", {}))
    free = cities - {c for c in occupied if isinstance(c, str)}
    base = ""
    given: dict[str, list[str]] = {}
    for s, entry in private.items():
        path = f"private.{s}"
        if s not in ids:
            r.bad(path, f"no seat {s!r} at this table.")
            continue
        entry = r.obj(path, entry)
        r.keys(entry, (), ("base", "hand") if s == liberation else ("hand",), path=path)
        if "hand" in entry:
            hand = r.list(f"{path}.hand", entry["hand"])
            for i, c in enumerate(hand):
                if c not in free:
                    r.bad(f"{path}.hand.{i}", f"{c!r} is not a City card anyone may hold.")
            if s in sizes and len(hand) != sizes[s]:
                r.bad(f"{path}.hand", f"holds {len(hand)} cards; hands.{s} says {sizes[s]}.")
            given[s] = [c for c in hand if c in free]
        if s == liberation and "base" in entry:
            if entry["base"] not in free:
                r.bad(f"{path}.base", f"{entry['base']!r} is not a City the base can be on.")
            else:
                base = entry["base"]
    if not base and not any(v.message.startswith(f"position.private.{liberation}.base") for v in r.found):
        r.bad(f"private.{liberation}.base", "missing: the Liberation enters where its secret base is.")
    placed = [c for h in given.values() for c in h] + ([base] if base else [])
    if len(set(placed)) != len(placed):
        r.bad("private", "a City card is in two places (hands, base).")
    if deck_n is not None and discard_n is not None and len(sizes) == len(ids):
        rest = len(cities) - len(occupied) - 1 - sum(sizes.values())
        if deck_n + discard_n != rest:
            r.bad("deck", f"the deck and discard hold {deck_n + discard_n} cards, but {rest} are neither occupied, held nor the base.")
    r.done()

    pool = sorted(free - set(placed))
    rng.shuffle(pool)
    hand_of = {s: Hand(s) for s in ids}
    for s in ids:
        for c in given.get(s) or [pool.pop() for _ in range(sizes[s])]:
            hand_of[s].add(c)
    deck = Deck(DECK, cards=pool[:deck_n], discard=pool[deck_n:], reshuffles=act - 1, auto_reshuffle=True)
    state = LiberationState(seats=seats, options=options, seed=seed, rng=rng, deck=deck, hands=hand_of,
                            occupied=list(occupied), exploited=list(exploited), base=base, phase="step1",
                            active=p["active"], turn=turn)
    state.moves.append(BaseMove(0, turn, act, "", base))
    state.note("The game resumes from a position.")
    return state
