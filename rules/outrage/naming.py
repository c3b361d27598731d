"""What players call Outrage!'s pieces, for the app's forms and messages (the kernel's
``Game.names`` and ``Game.choices`` hooks): the board's squares (a name printed on several
squares gets its place along its region), the jewels, the warders' posts, the four prisons
and the Tower cards.

>>> from rules.outrage import GAME
>>> GAME.names({})["rack"]
'the Rack'
>>> [n for _, n in GAME.choices("squares", {}, []) if n.startswith("Miss a turn")][:1]
['Miss a turn — 1st of 2 on The Wall Walk']
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ..words import ordinal
from .board import default_board
from .cards import TOWER, TOWER_CARDS
from .prisons import PRISON_NAMES  # the four prisons (board.PRISONS) as players say them



def _regions() -> dict[str, str]:
    # "The Wall Walk (and the approach from Start), yellow" → "The Wall Walk"
    return {k: re.split(r" \(|,", v)[0] for k, v in default_board().data.get("regions", {}).items()}


def square_names() -> dict[str, str]:
    """Every square of the board by a name no other square has: a name printed on
    several squares ("Miss a turn") gets its place along its region, in board order
    ("Miss a turn — 2nd of 2 on The Wall Walk")."""
    squares = list(default_board().squares.values())
    same: dict[str, list[str]] = {}
    for sq in squares:
        same.setdefault(sq.name, []).append(sq.id)
    regions = _regions()
    out = {}
    for sq in squares:
        ids = same[sq.name]
        if len(ids) == 1:
            out[sq.id] = sq.name
        else:
            region = regions.get(sq.region, sq.region)
            out[sq.id] = f"{sq.name} — {ordinal(ids.index(sq.id) + 1)} of {len(ids)} on {region}"
    return out


def _post_name(post: str) -> str:
    return f"the {post.title()} post"


class Naming:
    """Outrage!'s ``names`` and ``choices`` (mixed into the Game)."""

    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        b = default_board()
        out = square_names()
        out.update(b.jewel_name)
        out.update({post: _post_name(post) for post in b.posts})
        out.update(PRISON_NAMES)
        out.update({cid: c.name for cid, c in TOWER.items()})
        return out

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        b = default_board()
        if source == "squares":
            return list(square_names().items())
        if source == "jewels":
            return [(j, b.jewel_name[j]) for j in b.jewels]
        if source == "posts":
            return [(post, _post_name(post)) for post in b.posts]
        if source == "prisons":
            return list(PRISON_NAMES.items())
        if source in ("cards:tower", "cards:tools"):
            # The Tools are the Tower cards of the "tool" group.
            return [(c, TOWER[c].name) for c in TOWER_CARDS if source == "cards:tower" or TOWER[c].group == "tool"]
        return super().choices(source, options, seats, position)  # type: ignore[misc]
