"""What players call Tyranny's pieces, for the app's forms and messages (the kernel's
``Game.names`` and ``Game.choices`` hooks): the board's tiles and tunnels, as the table's own
board names them, and the Gamble and Gains cards by deck and number.

>>> from rules.tyranny import GAME
>>> GAME.names({})["police-station"], GAME.names({})["gamble-03a"]
('Police Station', 'Gamble 3')
>>> GAME.choices("cards:gains", {}, [])[:2]
[('gains-01a', 'Gains 1'), ('gains-01b', 'Gains 1')]
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .board import Board, board_for
from .cards import CARDS, DECKS


def tunnel_name(board: Board, tunnel_id: str) -> str:
    """A tunnel as the table knows it on the join form: its two ends' names."""
    ends = board.tunnels[tunnel_id].ends
    return " ↔ ".join(board.tiles[e].name for e in ends)


def _card_name(card_id: str) -> str:
    card = CARDS[card_id]
    return f"{card.deck.title()} {card.number}"


class Naming:
    """Tyranny's ``names`` and ``choices`` (mixed into the Game)."""

    def names(self, options: Mapping[str, Any]) -> dict[str, str]:
        board = board_for(options.get("board") or None)
        out = {t.id: t.name for t in board.tiles.values()}
        out.update({tid: tunnel_name(board, tid) for tid in board.tunnels})
        out.update({cid: _card_name(cid) for cid in CARDS})
        return out

    def choices(self, source: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
                position: Mapping[str, Any] | None = None) -> list[tuple[Any, str]]:
        board = board_for(options.get("board") or None)
        if source in ("tiles", "properties"):
            # "properties": the tiles a criminal may own.
            return [(t.id, t.name) for t in board.tiles.values() if source == "tiles" or t.kind == "property"]
        if source == "tunnels":
            return [(tid, tunnel_name(board, tid)) for tid in board.tunnels]
        if source.startswith("cards:") and source[6:] in DECKS:
            return [(cid, _card_name(cid)) for cid in DECKS[source[6:]]]
        return super().choices(source, options, seats, position)  # type: ignore[misc]
