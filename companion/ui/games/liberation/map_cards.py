"""The map-cards choice at setup, without Kivy (RULINGS L-15): the table lays its four map
cards out (or asks the app to), then enters per quadrant which card lies there, which side
is up and how it is turned; the composed map becomes the game's ``map`` option, so the
journal, resume, positions and exports see an ordinary map.

>>> from rules.liberation import placeholder_card_set
>>> c = CardsChoice([placeholder_card_set()])
>>> c.cycle_card("top-left")               # card 2 moves here; card 1 takes its quadrant
>>> [p.card for p in c.arrangement.placements]
['card-2', 'card-1', 'card-3', 'card-4']
>>> c.flip("top-left"); c.turn("top-left"); c.cell("top-left").text
'Map card 2\\nside B · ↻ 90°'
>>> c.problems(), c.option()["id"]
([], 'placeholder-cards@2b90.1a0.3a0.4a0')
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.liberation import dump_map, placeholder_card_set
from rules.liberation.mapcards import (
    QUADRANT_NAMES, QUADRANTS, SIDES, TURNS, Arrangement, ArrangementError, CardSet, Placement, compose, describe,
    shuffled,
)

from companion.ui.games.liberation.mapfiles import CARDS_FOLDER, saved_card_sets

_FIELD = re.compile(r"\b(?:cities|lines|quadrants)(?:\[\d+\])?(?:\.\w+)?: ")
ARROWS = {0: "↑", 90: "→", 180: "↓", 270: "←"}  # where the card's top edge points, for the picture


def card_sets(user_data: str | Path) -> list[CardSet]:
    """The table's saved card sets (``liberation-map-cards/`` in the user-data folder),
    then the made-up placeholder set."""
    return [c for c in saved_card_sets(Path(user_data) / CARDS_FOLDER) if not c.placeholder] + [placeholder_card_set()]


@dataclass(frozen=True)
class QuadrantCell:
    """One quadrant of the small layout picture."""

    quadrant: str
    text: str  # the card, its side and its turn, as the button shows them
    arrow: str  # where the card's top edge points
    card: str
    side: str
    turn: int


class CardsChoice:
    """The card set in use and this game's arrangement, being entered."""

    def __init__(self, sets: list[CardSet], set_id: str = "") -> None:
        self.sets = sets
        self.card_set = next((s for s in sets if s.id == set_id), sets[0])
        self.arrangement = Arrangement.in_order(self.card_set)
        self.shuffled_by_app = False

    def choose_set(self, set_id: str) -> None:
        self.card_set = next(s for s in self.sets if s.id == set_id)
        self.arrangement = Arrangement.in_order(self.card_set)
        self.shuffled_by_app = False

    def _set(self, quadrant: str, **changes: Any) -> None:
        old = self.arrangement.at(quadrant)
        new = Placement(quadrant, changes.get("card", old.card), changes.get("side", old.side), changes.get("turn", old.turn))
        self.arrangement = Arrangement(tuple(new if p.quadrant == quadrant else p for p in self.arrangement.placements))
        self.shuffled_by_app = False

    def cycle_card(self, quadrant: str) -> None:
        """The next card in this quadrant; the quadrant that held that card gets this one's
        (a card lies in one quadrant only, so the two swap)."""
        ids = [c.id for c in self.card_set.cards]
        here = self.arrangement.at(quadrant)
        nxt = ids[(ids.index(here.card) + 1) % len(ids)]
        other = next(p for p in self.arrangement.placements if p.card == nxt)
        self._set(other.quadrant, card=here.card)
        self._set(quadrant, card=nxt)

    def flip(self, quadrant: str) -> None:
        side = self.arrangement.at(quadrant).side
        self._set(quadrant, side=SIDES[(SIDES.index(side) + 1) % len(SIDES)])

    def turn(self, quadrant: str) -> None:
        """A quarter turn clockwise."""
        t = self.arrangement.at(quadrant).turn
        self._set(quadrant, turn=TURNS[(TURNS.index(t) + 1) % len(TURNS)])

    def shuffle(self, rng: random.Random, tries: int = 64) -> None:
        """The app lays the cards out at random (when the table has not): a layout whose
        map the engine can play, if one turns up in ``tries`` draws (a set where some
        sides strand a city would otherwise hand the table a layout it cannot start)."""
        for _ in range(tries):
            self.arrangement = shuffled(self.card_set, rng)
            if not self.problems():
                break
        self.shuffled_by_app = True

    def cell(self, quadrant: str) -> QuadrantCell:
        p = self.arrangement.at(quadrant)
        turn = "upright" if p.turn == 0 else f"↻ {p.turn}°"
        text = f"{self.card_set.card(p.card).name}\nside {p.side.upper()} · {turn}"
        return QuadrantCell(quadrant, text, ARROWS[p.turn], p.card, p.side, p.turn)

    def cells(self) -> list[QuadrantCell]:
        return [self.cell(q) for q in QUADRANTS]

    def describe(self) -> str:
        return describe(self.card_set, self.arrangement)

    def problems(self) -> list[str]:
        """Why this arrangement makes no playable map (empty when it does)."""
        try:
            compose(self.card_set, self.arrangement)
        except ArrangementError as e:
            # The map's field paths ("cities[3]: ") are for files, not players.
            return [_FIELD.sub("", p).replace("the map these cards make cannot be played: ", "") for p in e.problems]
        return []

    def option(self) -> dict[str, Any]:
        """The game's ``map`` option: the composed map (raises ``ArrangementError``)."""
        return dump_map(compose(self.card_set, self.arrangement))


def quadrant_words(quadrant: str) -> str:
    return QUADRANT_NAMES[quadrant]


__all__ = ["ARROWS", "CardsChoice", "QuadrantCell", "card_sets", "quadrant_words"]
