"""What players call Dicetopia's pieces, for the app's forms and messages (the kernel's
``Game.names`` and ``Game.choices`` hooks): neighbourhoods and their spaces, factions,
missions, the dice by colour and number, the faction board's slots and the agents.

>>> from rules.dicetopia import GAME
>>> GAME.choices("dice", {}, [])[:2]
[('p1', 'Purple 1'), ('p2', 'Purple 2')]
>>> GAME.choices("space-contents", {}, [{"id": "a", "name": "Ann"}])[-2:]
[('@a', "Ann's agent"), ('x', 'Exterminated')]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .state import AGENT, BOARD_SLOTS, DEAD
from .tables import tables


def _dice() -> list[tuple[str, str]]:
    """The dice by colour and number: "Purple 4" is ``p4``."""
    return [(f"{c.letter}{v}", f"{c.id.title()} {v}") for c in tables().colours for v in range(1, 7)]


class Naming:
    """Dicetopia's ``names`` and ``choices`` (mixed into the Game)."""

    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        t = tables()
        out = {h.id: h.name for h in t.hoods}
        out.update({f.id: f.name for f in t.factions.values()})
        out.update({m.id: m.name for m in t.missions.values()})
        return out

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        t = tables()
        if source == "dice":
            return _dice()
        if source == "dice-in-play":
            # Every die of the game, as often as there are dice of its colour: a pile counts them.
            per = t.dice_per_colour(len(seats))
            return [(v, n) for v, n in _dice() for _ in range(per)]
        if source == "spaces":
            # The neighbourhood spaces this many players use, as "<hood>.<index>".
            return [(f"{h.id}.{i}", f"{h.name}, space {i + 1}") for h in t.hoods
                    for i, need in enumerate(h.spaces) if need <= len(seats)]
        if source == "space-contents":
            return _dice() + [(AGENT + s["id"], f"{s.get('name') or s['id']}'s agent") for s in seats] + [(DEAD, "Exterminated")]
        if source == "slots":
            return [(str(i), f"slot {i + 1}" + (" (leftmost)" if i == 0 else "")) for i in range(BOARD_SLOTS)]
        if source == "slot-contents":
            return [(AGENT, "An agent (still on the board)")] + _dice()
        if source == "factions":
            return [(f.id, f.name) for f in t.factions.values()]
        if source == "missions":
            return [(m.id, m.name) for m in t.missions.values()]
        return super().choices(source, options, seats, position)  # type: ignore[misc]
