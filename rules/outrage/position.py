"""Outrage!'s public position: the board as the table sees it at the start of a seat's turn,
plus what the players say aloud.

Keys (every one required)::

    seat      the seat whose turn starts (not in Sanctuary: that ends as its turn starts)
    turn      turns taken so far, from 1;  round: passes through the order, from 1
    pieces    {seat: {"square": id, "accredited": bool, "coin": bool, "cards": n,
                      "escaped": [jewel, ...], "held": null | {"place": bloody|bowyer|beauchamp|rack,
                      "served": 0..2}, "misses": n, "burglary": null | {"jewel": id,
                      "tools": [Tower card ids, face up], "attempts": n},
                      "sanctuary": bool, "tea": bool, "retired": bool}}, one per seat
    jewels    {jewel: "case" | a seat carrying it | "escaped"}
    warders   {post: true if a Yeoman Warder stands there}
    mint      the coins in the Mint (with the players' coins, one per player)

Hands are counts (``cards``): the cards are in the players' hands. A game joined in
progress deals each hand that many cards at random from the cards not on the table, unless
the players enter them under ``position["private"]["hands"]`` ({seat: [card ids]}), which
:func:`write` never writes. The Tower pack holds the rest, and the Raven pack all 59, each
in a fresh shuffled order (the packs are face down).
"""
from __future__ import annotations

from typing import Any

from rules.core import Deck, Hand, NoPositions, Rng, Seat, TurnOrder
from rules.core.position import PositionReader

from .board import PRISONS, default_board
from .cards import RAVEN_CARDS, TOWER, TOWER_CARDS
from .state import CASE, ESCAPED, Burglary, Held, OutrageState

KEYS = ("seat", "turn", "round", "pieces", "jewels", "warders", "mint")
PIECE_KEYS = ("square", "accredited", "coin", "cards", "escaped", "held", "misses", "burglary", "sanctuary", "tea", "retired")
RULE = "BEFORE PLAY BEGINS"


def write(state: OutrageState) -> dict[str, Any]:
    if state.result is not None:
        raise NoPositions("The game is over: it has no turn to resume.")
    if not state.fresh:
        raise NoPositions(f"A position describes the start of a turn; {state.seat_name(state.actor or state.order.current)} is in the middle of one (or the game is being set up).")
    order = state.order
    pieces = {}
    for s in order.order:
        held = state.held.get(s)
        burg = state.burglaries.get(s)
        pieces[s] = {
            "square": state.pos[s], "accredited": state.accredited[s], "coin": state.coins[s],
            "cards": len(state.hands[s]), "escaped": list(state.escaped[s]),
            "held": {"place": held.place, "served": held.served} if held else None,
            "misses": order.skips.get(s, 0),
            "burglary": {"jewel": burg.jewel, "tools": list(burg.tools), "attempts": burg.attempts} if burg else None,
            "sanctuary": s in state.sanctuary, "tea": s in state.tea, "retired": s in state.retired,
        }
    return {"seat": order.current, "turn": order.turn, "round": order.round, "pieces": pieces,
            "jewels": dict(state.jewels), "warders": dict(state.warders), "mint": state.mint}


def read(game: Any, seats: list[Seat], options: dict[str, Any], p: dict[str, Any], rng: Rng, seed: int) -> OutrageState:
    b = default_board()
    ids = [s.id for s in seats]
    r = PositionReader(p, RULE)
    r.keys(p, KEYS, ("private",))
    seat = p.get("seat")
    if "seat" in p and seat not in ids:
        r.bad("seat", f"no seat {seat!r} at this table.")
    turn = r.int("turn", lo=1) if "turn" in p else 1
    rnd = r.int("round", lo=1) if "round" in p else 1
    raw = r.obj("pieces", p.get("pieces", {}))
    for s in ids:
        if s not in raw:
            r.bad(f"pieces.{s}", "missing.")
    for s in raw:
        if s not in ids:
            r.bad(f"pieces.{s}", f"no seat {s!r} at this table.")
    pieces: dict[str, dict[str, Any]] = {}
    table: list[str] = []
    for s in ids:
        if s not in raw:
            continue
        q = r.obj(f"pieces.{s}", raw[s])
        r.keys(q, PIECE_KEYS, path=f"pieces.{s}")
        got: dict[str, Any] = {}
        sq = q.get("square")
        if not isinstance(sq, str) or sq not in b.squares:
            r.bad(f"pieces.{s}.square", f"no square {sq!r} on the {b.name}.")
        got["square"] = sq
        for k in ("accredited", "coin", "sanctuary", "tea", "retired"):
            v = q.get(k, False)
            if not isinstance(v, bool):
                r.bad(f"pieces.{s}.{k}", f"must be true or false, not {v!r}.")
            got[k] = v is True
        got["cards"] = r.int(f"pieces.{s}.cards", q.get("cards"), 0, len(TOWER_CARDS))
        got["misses"] = r.int(f"pieces.{s}.misses", q.get("misses"), 0, 3)
        esc = r.list(f"pieces.{s}.escaped", q.get("escaped", []))
        for i, j in enumerate(esc):
            if j not in b.jewels:
                r.bad(f"pieces.{s}.escaped.{i}", f"no jewel {j!r}.")
        got["escaped"] = [j for j in esc if j in b.jewels]
        held = q.get("held")
        got["held"] = None
        if held is not None:
            h = r.obj(f"pieces.{s}.held", held)
            r.keys(h, ("place", "served"), path=f"pieces.{s}.held")
            if h.get("place") not in PRISONS:
                r.bad(f"pieces.{s}.held.place", f"must be one of {', '.join(PRISONS)}, not {h.get('place')!r}.")
            served = r.int(f"pieces.{s}.held.served", h.get("served"), 0, 2)
            if h.get("place") in PRISONS and served is not None:
                got["held"] = Held(h["place"], served)
                prison = b.places[{"bloody": "bloody_tower", "bowyer": "bowyer_tower", "beauchamp": "beauchamp_tower", "rack": "rack"}[h["place"]]]
                if sq != prison:
                    r.bad(f"pieces.{s}.square", f"a player held in {h['place']} stands on {prison}, not {sq!r}.")
        burg = q.get("burglary")
        got["burglary"] = None
        if burg is not None:
            bq = r.obj(f"pieces.{s}.burglary", burg)
            r.keys(bq, ("jewel", "tools", "attempts"), path=f"pieces.{s}.burglary")
            jewel = bq.get("jewel")
            if jewel not in b.jewels:
                r.bad(f"pieces.{s}.burglary.jewel", f"no jewel {jewel!r}.")
            elif sq != b.facing[jewel]:
                r.bad(f"pieces.{s}.burglary.jewel", f"a burglar stands on the square facing the case ({b.facing[jewel]}), not {sq!r}.")
            tools = r.list(f"pieces.{s}.burglary.tools", bq.get("tools", []))
            for i, c in enumerate(tools):
                if not isinstance(c, str) or c not in TOWER or TOWER[c].group != "tool":
                    r.bad(f"pieces.{s}.burglary.tools.{i}", f"{c!r} is not a burglary tool card.")
                elif c in table:
                    r.bad(f"pieces.{s}.burglary.tools.{i}", f"the card {c!r} is on the table twice.")
                else:
                    table.append(c)
            if not tools:
                r.bad(f"pieces.{s}.burglary.tools", "a burglary lays at least one tool.")
            attempts = r.int(f"pieces.{s}.burglary.attempts", bq.get("attempts"), 0, None)
            if jewel in b.jewels and attempts is not None and tools and all(isinstance(c, str) and c in TOWER for c in tools):
                got["burglary"] = Burglary(jewel, [c for c in tools], attempts)
        pieces[s] = got
    jewels = r.obj("jewels", p.get("jewels", {}))
    r.keys(jewels, b.jewels, path="jewels")
    for j, w in jewels.items():
        if j in b.jewels and w not in (CASE, ESCAPED) and w not in ids:
            r.bad(f"jewels.{j}", f"must be 'case', 'escaped' or a seat, not {w!r}.")
        if j in b.jewels and w == ESCAPED and sum(j in pc.get("escaped", []) for pc in pieces.values()) != 1:
            r.bad(f"jewels.{j}", "an escaped jewel is in exactly one player's escaped list.")
    for s, pc in pieces.items():
        for j in pc.get("escaped", []):
            if jewels.get(j) != ESCAPED:
                r.bad(f"pieces.{s}.escaped", f"{j} is listed as escaped but the jewels say {jewels.get(j)!r}.")
    warders = r.obj("warders", p.get("warders", {}))
    r.keys(warders, tuple(b.posts), path="warders")
    for k, v in warders.items():
        if not isinstance(v, bool):
            r.bad(f"warders.{k}", f"must be true or false, not {v!r}.")
    mint = r.int("mint", lo=0, hi=len(ids)) if "mint" in p else None
    if mint is not None and all(isinstance(pc.get("coin"), bool) for pc in pieces.values()):
        if mint + sum(pc["coin"] for pc in pieces.values()) != len(ids):
            r.bad("mint", f"the Mint and the players hold one coin per player ({len(ids)}), not {mint + sum(pc['coin'] for pc in pieces.values())}.")
    counts = [pc["cards"] for pc in pieces.values() if pc.get("cards") is not None]
    if sum(counts) + len(table) > len(TOWER_CARDS):
        r.bad("pieces", f"the hands and the table hold {sum(counts) + len(table)} Tower cards; there are {len(TOWER_CARDS)}.")
    if isinstance(seat, str) and seat in pieces:
        if pieces[seat].get("sanctuary"):
            r.bad(f"pieces.{seat}.sanctuary", "Sanctuary lasts one turn: it has ended when its holder's turn starts.")
        if pieces[seat].get("retired"):
            r.bad(f"pieces.{seat}.retired", "a retired player takes no turns.")
        if pieces[seat].get("misses"):
            r.bad(f"pieces.{seat}.misses", "the seat whose turn starts is not missing it.")
    private = p.get("private", {})
    hands_in: dict[str, list[str]] = {}
    if "private" in p:
        priv = r.obj("private", private)
        r.keys(priv, (), ("hands",), path="private")
        for s, cards in r.obj("private.hands", priv.get("hands", {})).items():
            if s not in pieces:
                r.bad(f"private.hands.{s}", f"no seat {s!r} at this table.")
                continue
            cl = r.list(f"private.hands.{s}", cards)
            for i, c in enumerate(cl):
                if not isinstance(c, str) or c not in TOWER:
                    r.bad(f"private.hands.{s}.{i}", f"no Tower card {c!r}.")
                elif c in table:
                    r.bad(f"private.hands.{s}.{i}", f"the card {c!r} is already elsewhere.")
                else:
                    table.append(c)
            if len(cl) != pieces[s].get("cards"):
                r.bad(f"private.hands.{s}", f"{len(cl)} cards entered for a hand of {pieces[s].get('cards')}.")
            hands_in[s] = [c for c in cl if isinstance(c, str) and c in TOWER]
    r.done()
    rest = [c for c in TOWER_CARDS if c not in table]
    rng.shuffle(rest)
    hands = {}
    for s in ids:
        cards = hands_in.get(s)
        if cards is None:
            n = pieces[s]["cards"]
            cards, rest = rest[:n], rest[n:]
        hands[s] = Hand(s, list(cards))
    raven = list(RAVEN_CARDS)
    rng.shuffle(raven)
    state = OutrageState(
        seats=seats, options=options, seed=seed, rng=rng,
        order=TurnOrder(ids, index=ids.index(seat), skips={s: pc["misses"] for s, pc in pieces.items() if pc["misses"]},
                        turn=turn, round=rnd),
        pos={s: pieces[s]["square"] for s in ids}, accredited={s: pieces[s]["accredited"] for s in ids},
        coins={s: pieces[s]["coin"] for s in ids}, mint=mint, jewels={j: jewels[j] for j in b.jewels},
        escaped={s: list(pieces[s]["escaped"]) for s in ids}, warders={k: warders[k] for k in b.posts},
        hands=hands, decks={"tower": Deck("tower", cards=rest, auto_reshuffle=False),
                            "raven": Deck("raven", cards=raven, auto_reshuffle=False)},
        held={s: pc["held"] for s, pc in pieces.items() if pc["held"] is not None},
        burglaries={s: pc["burglary"] for s, pc in pieces.items() if pc["burglary"] is not None},
        retired=[s for s in ids if pieces[s]["retired"]], sanctuary=[s for s in ids if pieces[s]["sanctuary"]],
        tea=[s for s in ids if pieces[s]["tea"]],
    )
    state.note(f"A game joined in progress: {state.seat_name(seat)}'s turn starts.")
    game.begin_turn(state)
    return state
