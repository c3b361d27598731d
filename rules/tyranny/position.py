"""Tyranny's public position (issue 14): the board as the table sees it at the start of a
seat's turn, plus what the players tell the app.

Keys (every one required)::

    seat       the seat whose turn starts (it is in custody: a custody turn)
    turn       turns taken so far, from 1;  round: passes through the order, from 1
    influence  the criminals' influence (0 or more)
    streaks    {"criminals": n, "cops": n}: consecutive turns held, each 0..2
    misses     {seat: n}: turns the seat will miss (n >= 1; absent: none)
    pieces     {seat: {"tile": id, "custody": bool, "escape_on": [1..6, ...]}}, one per seat;
               escape_on is empty unless the piece is in custody
    owners     {property tile: "cops" | "criminals"}; an unowned property is absent
    tunnels    the open tunnels' ids, sorted
    discards   {"gamble": [...], "gains": [...]}: the face-up discard piles, card ids
    decks      {"gamble": n, "gains": n}: how many cards each draw pile holds
    hands      {seat: n}: how many face-down cards each seat holds

Hands are counts: the cards are on the table, in the players' hands, so a game joined in
progress deals each hand that many cards at random from what is not discarded, and the
app's decks hold the rest. A hand card is therefore known to the app only once it is played.
"""
from __future__ import annotations

from typing import Any

from rules.core import Deck, Game, Hand, NoPositions, Rng, Seat, Streak, Track, TurnOrder, t
from rules.core.position import PositionReader

from .board import board_for
from .cards import CARDS, DECKS
from .state import STREAK, TyrannyState


KEYS = ("seat", "turn", "round", "influence", "streaks", "misses", "pieces", "owners", "tunnels", "discards", "decks", "hands")
# The turn's first steps: a state in one of them (before any roll or tunnel) is a turn's start.
TURN_START = ("start", "custody")


def write(game: "Game[TyrannyState]", state: TyrannyState) -> dict[str, Any]:
    if state.result is not None:
        raise NoPositions("The game is over: it has no turn to resume.")
    if state.phase not in TURN_START or state.stage != "done" or state.tunnel_done or state.extra_rolls:
        raise NoPositions(f"A position describes the start of a turn; {state.seat_name(state.actor)} is in the middle of one.")
    order = state.order
    return {
        "seat": order.current,
        "turn": order.turn,
        "round": order.round,
        "influence": state.influence.value,
        "streaks": {"criminals": state.criminal_streak.count, "cops": state.cop_streak.count},
        "misses": dict(order.skips),
        "pieces": {s: {"tile": state.pos[s], "custody": s in state.custody, "escape_on": list(state.custody.get(s, []))}
                   for s in order.order},
        "owners": dict(sorted(state.owner.items())),
        "tunnels": sorted(state.open_tunnels),
        "discards": {n: list(d.discard) for n, d in state.decks.items()},
        "decks": {n: len(d.cards) for n, d in state.decks.items()},
        "hands": {s: len(h) for s, h in state.hands.items()},
    }


def read(game: "Game[TyrannyState]", seats: list[Seat], options: dict[str, Any], p: dict[str, Any], rng: Rng, seed: int) -> TyrannyState:

    r = PositionReader(p, "Setup")
    r.keys(p, KEYS)
    board = board_for(options["board"] or None)
    ids = [s.id for s in seats]
    factions = {s.id: s.faction for s in seats}
    seat = p.get("seat")
    if "seat" in p and seat not in ids:
        r.bad("seat", f"no seat {seat!r} at this table.")
    turn = r.int("turn", lo=1) if "turn" in p else None
    rnd = r.int("round", lo=1) if "round" in p else None
    if turn is not None and rnd is not None and rnd > turn:
        r.bad("round", f"round {rnd} cannot come after turn {turn}.")
    influence = r.int("influence", lo=0) if "influence" in p else None
    streaks = r.obj("streaks", p.get("streaks", {}))
    r.keys(streaks, ("criminals", "cops"), path="streaks") if "streaks" in p else None
    counts = {f: r.int(f"streaks.{f}", streaks.get(f), 0, STREAK - 1) for f in ("criminals", "cops") if f in streaks}
    misses = r.obj("misses", p.get("misses", {}))
    for s, n in misses.items():
        if s not in ids:
            r.bad(f"misses.{s}", f"no seat {s!r} at this table.")
        else:
            r.int(f"misses.{s}", n, lo=1)
    pieces = r.obj("pieces", p.get("pieces", {}))
    pos: dict[str, str] = {}
    custody: dict[str, list[int]] = {}
    for s in ids:
        if "pieces" in p and s not in pieces:
            r.bad(f"pieces.{s}", "missing: every seat's piece is on the board.")
    for s, piece in pieces.items():
        path = f"pieces.{s}"
        if s not in ids:
            r.bad(path, f"no seat {s!r} at this table.")
            continue
        piece = r.obj(path, piece)
        r.keys(piece, ("tile", "custody", "escape_on"), path=path)
        tile = piece.get("tile")
        if "tile" in piece:
            if not isinstance(tile, str) or tile not in board.tiles:
                r.bad(f"{path}.tile", f"no tile {tile!r} on the {board.name} board.")
            else:
                pos[s] = tile
        held = piece.get("custody", False)
        if not isinstance(held, bool):
            r.bad(f"{path}.custody", f"must be true or false, not {held!r}.")
        escape = r.list(f"{path}.escape_on", piece.get("escape_on", []))
        nums = [r.int(f"{path}.escape_on", n, 1, 6) for n in escape]
        if len(set(escape)) != len(escape):
            r.bad(f"{path}.escape_on", "names a number twice.")
        if held is True:
            if not escape:
                r.bad(f"{path}.escape_on", "a piece in custody needs the numbers that free it (e.g. [6]).")
            custody[s] = sorted(n for n in nums if n is not None)
        elif escape:
            r.bad(f"{path}.escape_on", "only a piece in custody has escape numbers.")
    owners = r.obj("owners", p.get("owners", {}))
    for tile, f in owners.items():
        if tile not in board.tiles or board.tiles[tile].kind != "property":
            r.bad(f"owners.{tile}", f"no property {tile!r} on the {board.name} board.")
        if f not in game.factions:
            r.bad(f"owners.{tile}", f"owner must be one of {', '.join(game.factions)}, not {f!r}.")
    tunnels = r.list("tunnels", p.get("tunnels", []))
    for i, tunnel in enumerate(tunnels):
        if not isinstance(tunnel, str) or tunnel not in board.tunnels:
            r.bad(f"tunnels.{i}", f"no tunnel {tunnel!r} on the {board.name} board.")
    if len(set(map(repr, tunnels))) != len(tunnels):
        r.bad("tunnels", "names a tunnel twice.")
    discards = r.obj("discards", p.get("discards", {}))
    if "discards" in p:
        r.keys(discards, tuple(DECKS), path="discards")
    piles: dict[str, list[str]] = {}
    for name in DECKS:
        pile = r.list(f"discards.{name}", discards.get(name, []))
        for i, c in enumerate(pile):
            if not isinstance(c, str) or c not in CARDS or CARDS[c].deck != name:
                r.bad(f"discards.{name}.{i}", f"no card {c!r} in the {name} deck.")
        if len(set(map(repr, pile))) != len(pile):
            r.bad(f"discards.{name}", "names a card twice.")
        piles[name] = [c for c in pile if isinstance(c, str)]
    hands = r.obj("hands", p.get("hands", {}))
    sizes: dict[str, int] = {}
    for s in ids:
        if "hands" in p and s not in hands:
            r.bad(f"hands.{s}", "missing: give the number of cards the seat holds (0 if none).")
    for s, n in hands.items():
        if s not in ids:
            r.bad(f"hands.{s}", f"no seat {s!r} at this table.")
        elif (v := r.int(f"hands.{s}", n, lo=0)) is not None:
            sizes[s] = v
    piles_left = r.obj("decks", p.get("decks", {}))
    if "decks" in p:
        r.keys(piles_left, tuple(DECKS), path="decks")
    in_hands: dict[str, int] = {}
    for name, cards in DECKS.items():
        n = r.int(f"decks.{name}", piles_left.get(name), lo=0) if name in piles_left else None
        if n is not None:
            in_hands[name] = len(cards) - len(piles[name]) - n
            if in_hands[name] < 0:
                r.bad(f"decks.{name}", f"the {name} deck has {len(cards)} cards; {n} in the pile and {len(piles[name])} discarded is too many.")
    if len(in_hands) == len(DECKS) and len(sizes) == len(ids) and all(v >= 0 for v in in_hands.values()) and sum(sizes.values()) != sum(in_hands.values()):
        r.bad("hands", f"the hands hold {sum(sizes.values())} cards, but the decks are missing {sum(in_hands.values())} (neither in the pile nor discarded).")
    r.done()

    decks: dict[str, Deck] = {}
    for name, cards in DECKS.items():
        deck = Deck(name, cards=[c for c in cards if c not in piles[name]], discard=list(piles[name]))
        deck.shuffle(rng)
        decks[name] = deck
    # Each deck gives the hands the cards neither in its pile nor discarded.
    pool = [(n, c) for n, d in decks.items() for c in d.cards[: in_hands[n]]]
    rng.shuffle(pool)
    hand_of = {s: Hand(s) for s in ids}
    for s in ids:
        for _ in range(sizes[s]):
            name, card = pool.pop()
            decks[name].cards.remove(card)
            hand_of[s].add(card)
    order = TurnOrder(list(ids), index=ids.index(seat), skips={s: n for s, n in misses.items()}, turn=turn, round=rnd)
    assert influence is not None
    state = TyrannyState(
        seats=seats, options=options, seed=seed, rng=rng, order=order,
        pos=pos, custody=custody, owner=dict(sorted(owners.items())), open_tunnels=sorted(tunnels),
        influence=Track("influence", influence, lo=0),
        criminal_streak=Streak(STREAK, counts["criminals"] or 0), cop_streak=Streak(STREAK, counts["cops"] or 0),
        decks=decks, hands=hand_of, board=board,
    )
    state.influence.mark(turn - 1)
    game._begin_turn(state)
    state.note(t("The game resumes from a position: {seat}'s turn {turn}.", seat=state.seat_name(seat), turn=turn))
    return state
