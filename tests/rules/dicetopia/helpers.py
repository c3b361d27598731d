"""Building Dicetopia games for tests: seats named Ann, Bob, Cat, Dan; setup played with
the app's roller and deck; a city or board set by hand."""
from __future__ import annotations

from typing import Any

from rules.core import IllegalAction, Seat
from rules.dicetopia import GAME, Keep

NAMES = ("Ann", "Bob", "Cat", "Dan")
U = "-"


def seats(*factions: str) -> list[Seat]:
    return [Seat(f"p{i + 1}", f, NAMES[i]) for i, f in enumerate(factions)]


def started(*factions: str, options: dict[str, Any] | None = None, seed: int = 1, keep: int = 0):
    """A game at the first player's first turn (Ann, p1, first); each keeper discards its ``keep``-th mission."""
    s = GAME.new(seats(*factions), {"first": "p1", **(options or {})}, seed)
    while s.phase in ("deal-factions", "roll", "deal"):
        GAME.push(s, GAME.sample(s))
    for seat in list(GAME.prompt(s).waits):
        GAME.push(s, Keep(seat, s.hands[seat].cards[keep]))
    assert s.phase == "deploy"
    return s


def set_city(s, **hoods: list[str]) -> None:
    for h, cells in hoods.items():
        s.city[h] = list(cells)
    s.changed()


def set_board(s, seat: str, cells: list[str]) -> None:
    s.boards[seat] = list(cells)
    s.changed()


def rejected(s, action) -> IllegalAction:
    before = GAME.state_to_data(s)
    try:
        GAME.push(s, action)
    except IllegalAction as e:
        assert GAME.state_to_data(s) == before
        return e
    raise AssertionError(f"{action} was accepted")


def codes(s, action) -> tuple[str, ...]:
    return rejected(s, action).codes


def set_hand(s, seat: str, cards: list[str]) -> None:
    """Give ``seat`` exactly ``cards`` (from wherever they are), its old missions back to the deck."""
    for c in s.hands[seat].cards:
        s.deck.cards.append(c)
    s.hands[seat].cards = []
    for c in cards:
        for h in s.hands.values():
            if c in h.cards:
                h.cards.remove(c)
                s.deck.cards.append(c)
        s.deck.cards.remove(c)
        s.hands[seat].cards.append(c)
    s.changed()


def last_round(s) -> None:
    """Two players, each with one agent left; Ann (p1) to play. Gugu, Congress and Bank are tied."""
    set_city(s, agency=["@p1", "@p1", "p3", U, U], gugu=["@p1", "@p2", "t2", U, U], waste=["@p2", "@p2", "w4", U, U],
             congress=["@p1", "@p2", "p5", U, U], bank=["@p1", "@p2", "t6", U, U], syndicate=["p1", "t1", "w1", U, U])
    set_board(s, "p1", ["p6", "p6", "t3", "w2", "w5", "@"])
    set_board(s, "p2", ["p2", "t5", "t4", "w3", "w6", "@"])


def play_out_turns(s) -> None:
    """Both deploy in the Nethal Syndicate, swapping nothing of note, until the end."""
    from rules.dicetopia import Deploy, Swap
    while s.phase not in ("clone", "rig", "choose", "gamble", "copy", "over"):
        if s.phase == "deploy":
            h = "syndicate"
            GAME.push(s, Deploy(s.current, h, next(i for i, c in enumerate(s.city[h]) if c[0] in "ptw")))
        elif s.phase == "act":
            GAME.push(s, Swap(s.current, "p1", 0, "p2", 0))
        else:
            GAME.push(s, next(a for a in GAME.legal_actions(s) if a.kind in ("decline", "roll")))
