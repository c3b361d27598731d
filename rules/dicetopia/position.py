"""Dicetopia's public position: the start of a player's turn, as the table sees it.

Keys (plain JSON): ``order`` (seat ids in play order, the first player first), ``current``
(whose turn starts), ``turn`` (turns begun, from 1), ``factions`` (seat → faction id),
``flipped`` (seat → whether its ability token is flipped), ``saved`` (the Roamers seat that
saved a turn, or ``""``), ``city`` (neighbourhood id → its printed spaces in board order,
each ``"p4"``/``"t2"``/``"w6"`` for a die (colour letter and value), ``"@<seat>"`` for an
agent, ``"x"`` for an exterminated space, ``"-"`` for a space this player count does not
use), ``boards`` (seat → its six faction-board slots from the left, ``"@"`` for an agent
still there, else a die), ``removed`` (dice out of the game), ``missions`` (seat → how
many missions it holds). Missions are secret: each holder may enter its own under
``private.<seat>.missions``; missing ones are dealt from the rest of the deck.
"""
from __future__ import annotations

from typing import Any

from rules.core import Deck, Hand, NoPositions, Rng, Seat
from rules.core.position import PositionReader

from .scoring import is_die
from .state import AGENT, BOARD_SLOTS, DEAD, MISSIONS, UNUSED, DicetopiaState, seats_playing
from .tables import tables

RULE = "§3 Setup"
KEYS = ("order", "current", "turn", "factions", "flipped", "saved", "city", "boards", "removed", "missions")


def at_turn_start(state: DicetopiaState) -> bool:
    return state.result is None and state.phase == "deploy" and state.turn_moves == 0 and not state.hypnosis


def write(game: Any, state: DicetopiaState) -> dict[str, Any]:
    if not at_turn_start(state):
        raise NoPositions("A Dicetopia position is the start of a player's turn, before anything is done in it.")
    return {
        "order": list(state.order), "current": state.current, "turn": state.turn,
        "factions": dict(state.faction), "flipped": dict(state.flipped), "saved": state.saved,
        "city": {h: list(c) for h, c in state.city.items()}, "boards": {s: list(b) for s, b in state.boards.items()},
        "removed": list(state.removed), "missions": {s: len(h) for s, h in state.hands.items()},
    }


def read(game: Any, seats: list[Seat], options: dict[str, Any], pos: dict[str, Any], rng: Rng, seed: int) -> DicetopiaState:
    t = tables()
    ids = [s.id for s in seats]
    n = len(ids)
    r = PositionReader(pos, RULE)
    r.keys(pos, KEYS, ("private",))
    order = r.list("order", pos.get("order"))
    if sorted(map(str, order)) != sorted(ids) or len(order) != n:
        r.bad("order", f"must list each seat once ({', '.join(ids)}).")
        order = list(ids)
    current = pos.get("current")
    if current not in ids:
        r.bad("current", f"must be one of the seats, not {current!r}.")
    turn = r.int("turn", lo=1) or 1
    factions = r.obj("factions", pos.get("factions"))
    for s in ids:
        if factions.get(s) not in t.factions:
            r.bad(f"factions.{s}", f"must be one of the ten factions, not {factions.get(s)!r}.")
    if len(set(factions.values())) != len(factions):
        r.bad("factions", "each player has their own faction.")
    flipped = r.obj("flipped", pos.get("flipped"))
    for s in ids:
        if not isinstance(flipped.get(s), bool):
            r.bad(f"flipped.{s}", "must be true or false.")
    saved = pos.get("saved")
    if saved != "" and saved not in ids:
        r.bad("saved", "must be a seat or empty.")
    city_in = r.obj("city", pos.get("city"))
    city: dict[str, list[str]] = {}
    for h in t.hoods:
        cells = r.list(f"city.{h.id}", city_in.get(h.id))
        if len(cells) != len(h.spaces):
            r.bad(f"city.{h.id}", f"must list its {len(h.spaces)} spaces.")
            continue
        for i, c in enumerate(cells):
            used = h.spaces[i] <= n
            ok = isinstance(c, str) and ((c == UNUSED) != used) and (
                c == UNUSED or c == DEAD or is_die(c) or (c.startswith(AGENT) and c[1:] in ids))
            if not ok:
                want = "a die, an agent or 'x'" if used else "'-' (not used with this many players)"
                r.bad(f"city.{h.id}[{i}]", f"must be {want}, not {c!r}.")
        city[h.id] = [str(c) for c in cells]
    for k in city_in:
        if k not in {h.id for h in t.hoods}:
            r.bad(f"city.{k}", "not a neighbourhood.")
    boards_in = r.obj("boards", pos.get("boards"))
    boards: dict[str, list[str]] = {}
    for s in ids:
        cells = r.list(f"boards.{s}", boards_in.get(s))
        ok = len(cells) == BOARD_SLOTS and all(isinstance(c, str) and (c == AGENT or is_die(c)) for c in cells)
        k = cells.count(AGENT) if ok else 0
        if not ok or cells[BOARD_SLOTS - k:] != [AGENT] * k:
            r.bad(f"boards.{s}", "must be six slots: the dice taken, from the left, then the agents still there ('@').")
            continue
        boards[s] = list(cells)
    removed = [c for c in r.list("removed", pos.get("removed")) if isinstance(c, str)]
    missions_in = r.obj("missions", pos.get("missions"))
    counts = {s: r.int(f"missions.{s}", missions_in.get(s), lo=2, hi=3) or 2 for s in ids}
    r.done()
    for s in ids:
        agents = boards[s].count(AGENT) + sum(cells.count(AGENT + s) for cells in city.values())
        if agents != BOARD_SLOTS:
            r.bad(f"boards.{s}", f"{s} has {agents} agents between the board and the city, not 6.")
    per = t.dice_per_colour(n)
    dice = [c for cells in city.values() for c in cells if is_die(c)] + [c for b in boards.values() for c in b if is_die(c)] + removed
    for col in t.colours:
        k = sum(1 for d in dice if is_die(d) and d[0] == col.letter)
        if k != per:
            r.bad("city", f"{k} {col.id} dice in play, not {per} for {n} players.")
    if current in boards and AGENT not in boards[current]:
        r.bad("current", f"{current} has no agent left to send out.")
    private = r.obj("private", pos.get("private", {}))
    hands: dict[str, list[str]] = {}
    for s, p in private.items():
        p = r.obj(f"private.{s}", p)
        cards = r.list(f"private.{s}.missions", p.get("missions", []))
        if s not in ids or any(c not in t.missions for c in cards) or len(cards) != counts.get(s):
            r.bad(f"private.{s}.missions", f"must be {counts.get(s, 2)} mission ids of this seat.")
        else:
            hands[s] = list(cards)
    entered = [c for cs in hands.values() for c in cs]
    if len(set(entered)) != len(entered):
        r.bad("private", "a mission is entered twice.")
    r.done()
    deck = Deck(MISSIONS, cards=[c for c in t.missions if c not in entered], auto_reshuffle=False)
    deck.shuffle(rng)
    for s in ids:
        if s not in hands:
            hands[s] = [deck.cards.pop(0) for _ in range(counts[s])]
    state = DicetopiaState(
        seats=seats_playing(seats, factions), options=options, seed=seed, rng=rng, order=[str(o) for o in order],
        faction=dict(factions),
        city=city, boards=boards, deck=deck, hands={s: Hand(s, hands[s]) for s in ids},
        flipped={s: flipped[s] for s in ids}, current=str(current), turn=turn, phase="deploy",
        removed=removed, saved=str(saved),
    )
    state.note(f"The game resumes at {state.seat_name(str(current))}'s turn {turn}.")
    return state
