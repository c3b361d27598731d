"""A six-seat Outrage! position that reaches an attack, a burglary and a prison escape in a
few taps: Ann in the Bloody Tower (turn 3 of 3), Bob and Cat accredited face to face in
the Inner Ward with weapons in hand, Dan burgling the Sword of State (needs 5+), Eve and
Fay on the Wall Walk. The box equips four players: this table brings its own pieces and
coins for Eve and Fay (RULINGS S-04, option ``own_pieces``)."""
from __future__ import annotations

from typing import Any

SEATS = [{"id": f"p{i + 1}", "faction": f, "name": n} for i, (f, n) in enumerate(
    zip(("red", "blue", "green", "yellow", "white", "black"), ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")))]

SIX = {"own_pieces": True}
"""The options a six-seat table needs: its own pieces and coins for the 5th and 6th player."""


def _piece(square: str, cards: int, **kw: Any) -> dict[str, Any]:
    p = {"square": square, "accredited": False, "coin": False, "cards": cards, "escaped": [], "held": None,
         "misses": 0, "burglary": None, "sanctuary": False, "tea": False, "retired": False}
    p.update(kw)
    return p


def heist(movement: str = "checked") -> tuple[dict[str, Any], dict[str, Any]]:
    """(options, position)."""
    position = {
        "seat": "p1", "turn": 9, "round": 2,
        "pieces": {
            "p1": _piece("bloody-tower", 1, accredited=True, held={"place": "bloody", "served": 2}),
            "p2": _piece("i0-05", 2, accredited=True, coin=True),
            "p3": _piece("i0-06", 1, accredited=True),
            "p4": _piece("t08", 0, accredited=True, burglary={"jewel": "sword", "tools": ["file-1", "dynamite-1"], "attempts": 1}),
            "p5": _piece("w10", 3),
            "p6": _piece("w30", 3),
        },
        "jewels": {"sword": "case", "sceptre": "case", "orb": "p3", "prince-of-wales-crown": "case", "st-edwards-crown": "case"},
        "warders": {"scaffold": True, "chapel": True, "waterloo": False, "lanthorn": True},
        "mint": 5,
        "private": {"hands": {"p1": ["mace-1"], "p2": ["sword-1", "dagger-1"], "p3": ["mace-2"],
                              "p5": ["tower-pass-1", "rope-1", "key-1"], "p6": ["mace-3", "file-2", "pardon-1"]}},
    }
    return {"endgame": "first-escape", "movement": movement, "own_pieces": True}, position
