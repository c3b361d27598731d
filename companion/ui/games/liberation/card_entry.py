"""Entering a table's four double-sided map cards once (RULINGS L-15), without Kivy: the
model behind the card-set entry screen (unit-tested without a window).

The table names the 14 cities and their categories and says which card each lies on (the
naming is the map entry's :class:`~.map_entry.MapEntry`); then, per card and side, taps two
cities to add or remove the line between them (the map entry's tap-pairs, a
:class:`~rules.liberation.MapBuilder` per side), and taps a city then an edge position to
say a line leaves the card there (a *stub*). After every change the set is checked by the
rules (:func:`~rules.liberation.mapcards.parse_card_set`) and what is wrong is listed in
the players' words ("Map card 2, side B: …"). A finished set is saved with
:func:`companion.ui.games.liberation.mapfiles.save_card_set` and offered at setup.

>>> import tempfile
>>> e = CardSetEntry.blank(tempfile.mkdtemp(), "Kitchen cards")
>>> [len(e.cities_on(c)) for c in CARD_IDS]
[4, 4, 3, 3]
>>> e.problems()[0]
'Map card 1: City 1 has no name yet.'
>>> e.set_mode("exits"); _ = e.tap("city-01"); e.tap_edge("right-2")
'Map card 1, side A: a line leaves City 1 at the right edge, 2nd from the top.'
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rules.liberation import CATEGORIES, MapBuilder, MapError, placeholder_card_set
from rules.liberation.mapcards import (
    CARD_COUNT, EDGES, FORMAT, SIDES, CardSet, CardSetError, parse_card_set, parse_position, position_words,
)
from rules.liberation.mapdata import City

from companion.ui.games.liberation.mapfiles import save_card_set

from .layout import card_spots
from .map_entry import EntryCell, MapEntry

CARD_IDS = tuple(f"card-{i}" for i in range(1, CARD_COUNT + 1))
SPLIT = (4, 4, 3, 3)  # how 14 new cities start out over the four cards (moved with a tap)
MODES = ("cities", "lines", "exits")


def card_words(card_id: str) -> str:
    return f"Map card {card_id.rsplit('-', 1)[-1]}"


class CardSetEntry:
    """A card set being entered; ``card`` and ``side`` say which side of which card is on
    screen, ``mode`` what a tap on a city does (``cities``: edit it, ``lines``: pair it,
    ``exits``: pick it for a line leaving the card)."""

    def __init__(self, folder: str | Path, names: MapEntry, card_of: dict[str, str], slots: int = 3) -> None:
        self.folder = Path(folder)
        self.names = names  # the 14 cities' names and categories, as the map entry keeps them
        self.card_of = dict(card_of)
        self.slots = slots
        self.sides: dict[tuple[str, str], MapBuilder] = {(c, s): MapBuilder(f"{c}-{s}", c) for c in CARD_IDS for s in SIDES}
        self.stubs: dict[tuple[str, str], dict[str, str]] = {(c, s): {} for c in CARD_IDS for s in SIDES}
        self.card, self.side, self.mode = CARD_IDS[0], SIDES[0], "cities"
        self.picked: str | None = None  # the city whose line leaves at the next edge tapped
        self.names.editing = self.cities_on(self.card)[0].id if self.cities_on(self.card) else ""
        self.message = ""

    @classmethod
    def blank(cls, folder: str | Path, name: str = "Our map cards") -> "CardSetEntry":
        names = MapEntry.blank(folder, name)
        ids = [c.id for c in names.builder.cities]
        card_of, i = {}, 0
        for card, n in zip(CARD_IDS, SPLIT):
            for cid in ids[i:i + n]:
                card_of[cid] = card
            i += n
        return cls(folder, names, card_of)

    @classmethod
    def from_card_set(cls, folder: str | Path, cs: CardSet) -> "CardSetEntry":
        """Start from a saved set, to correct it (saving it again replaces it)."""
        names = MapEntry(folder, MapBuilder(cs.id, cs.name, [City(c.id, c.name, c.category) for card in cs.cards for c in card.cities]))
        card_of = {c.id: CARD_IDS[i] for i, card in enumerate(cs.cards) for c in card.cities}
        e = cls(folder, names, card_of, cs.slots)
        for i, card in enumerate(cs.cards):
            for s, side in card.sides.items():
                e.sides[(CARD_IDS[i], s)].lines = {MapBuilder._key(a, b) for a, b in side.lines}
                e.stubs[(CARD_IDS[i], s)] = {t.at: t.city for t in side.stubs}
        return e

    # ------------------------------------------------------------ what is on screen

    @property
    def name(self) -> str:
        return self.names.builder.name

    def rename_set(self, name: str) -> None:
        self.names.rename_map(name)

    def cities_on(self, card: str) -> list[City]:
        return [c for c in self.names.builder.cities if self.card_of[c.id] == card]

    def label(self, city_id: str) -> str:
        return self.names.label(city_id)

    def show(self, card: str | None = None, side: str | None = None) -> None:
        """Turn to ``card``'s ``side`` (a choice half made is dropped)."""
        self.card, self.side = card or self.card, side or self.side
        self._drop_picks()
        on = self.cities_on(self.card)
        if self.names.editing not in {c.id for c in on}:
            self.names.editing = on[0].id if on else ""
        self.message = f"{card_words(self.card)}, side {self.side.upper()}."

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode is one of {MODES}, not {mode!r}")
        self.mode = mode
        self._drop_picks()
        self.message = {
            "cities": "Tap a city to name it, change its category or move it to another card.",
            "lines": "Tap two cities to add the line between them (or remove it).",
            "exits": "Tap a city, then the edge position where its line leaves the card.",
        }[mode]

    def _drop_picks(self) -> None:
        self.picked = None
        for b in self.sides.values():
            b.selected = None

    # ------------------------------------------------------------ taps

    def tap(self, city_id: str) -> str:
        """A tap on a city of the card on screen; returns (and keeps in :attr:`message`)
        what happened."""
        where = f"{card_words(self.card)}, side {self.side.upper()}"
        if self.mode == "cities":
            self.message = self.names.tap(city_id)
        elif self.mode == "lines":
            b = self._builder()
            first = b.selected
            what = b.tap(city_id)
            if what == "selected":
                self.message = f"{self.label(city_id)} selected: tap another city for the line between them."
            elif what == "cleared":
                self.message = f"{self.label(city_id)} unselected."
            else:
                pair = f"{self.label(first or '')} – {self.label(city_id)}"
                self.message = f"{where}: line {'added' if what == 'added' else 'removed'}, {pair}."
        else:
            self.picked = None if self.picked == city_id else city_id
            self.message = (f"{self.label(city_id)} picked: tap the edge position where its line leaves the card."
                            if self.picked else f"{self.label(city_id)} unpicked.")
        return self.message

    def tap_edge(self, position: str) -> str:
        """A tap on an edge position: a line leaves the picked city there (a tap on the same
        city's position again removes it; a position holds one line)."""
        if parse_position(position, self.slots) is None:
            raise ValueError(f"no edge position {position!r}")
        where = f"{card_words(self.card)}, side {self.side.upper()}"
        stubs = self.stubs[(self.card, self.side)]
        words = position_words(position)
        there = stubs.get(position)
        if self.mode != "exits" or self.picked is None:
            if self.mode != "exits":
                self.set_mode("exits")
            if there is not None:
                del stubs[position]
                self.message = f"{where}: the line from {self.label(there)} at the {words} removed."
            else:
                self.message = "Tap a city first, then the edge position where its line leaves the card."
            return self.message
        city, self.picked = self.picked, None
        if there == city:
            del stubs[position]
            self.message = f"{where}: the line from {self.label(city)} at the {words} removed."
        else:
            stubs[position] = city
            instead = f" (instead of {self.label(there)}: one line leaves at a position)" if there else ""
            self.message = f"{where}: a line leaves {self.label(city)} at the {words}{instead}."
        return self.message

    def rename(self, city_id: str, name: str) -> None:
        self.names.rename(city_id, name)

    def cycle_category(self, city_id: str) -> str:
        return self.names.cycle_category(city_id)

    def cycle_card(self, city_id: str) -> str:
        """Move ``city_id`` to the next card; its lines and exits on the old card go (they
        were drawn on that card)."""
        old = self.card_of[city_id]
        new = CARD_IDS[(CARD_IDS.index(old) + 1) % len(CARD_IDS)]
        dropped = 0
        for s in SIDES:
            b = self.sides[(old, s)]
            gone = {l for l in b.lines if city_id in l}
            b.lines -= gone
            st = self.stubs[(old, s)]
            lost = [p for p, c in st.items() if c == city_id]
            for p in lost:
                del st[p]
            dropped += len(gone) + len(lost)
        self.card_of[city_id] = new
        self.card = new  # follow the city, so it stays on screen
        self.names.editing = city_id
        self.message = f"{self.label(city_id)} is now on {card_words(new)}" + (
            f" ({dropped} line{'s' if dropped != 1 else ''} on {card_words(old)} removed)." if dropped else ".")
        return self.message

    def _builder(self) -> MapBuilder:
        b = self.sides[(self.card, self.side)]
        b.cities = self.cities_on(self.card)  # the pairs are checked against the card's cities
        return b

    # ------------------------------------------------------------ view

    def cells(self) -> list[EntryCell]:
        """The cities of the card on screen, where they are drawn (the same spots the
        table's map uses for an upright card)."""
        on = self.cities_on(self.card)
        spots = card_spots(len(on))
        b = self.sides[(self.card, self.side)]
        stubs = self.stubs[(self.card, self.side)]
        out = []
        for c, (x, y) in zip(on, spots):
            lines = sum(1 for l in b.lines if c.id in l)
            exits = sum(1 for v in stubs.values() if v == c.id)
            counts = f"{lines} line{'s' if lines != 1 else ''}" + (f" · {exits} exit{'s' if exits != 1 else ''}" if exits else "")
            label = f"{self.label(c.id)}\n{CATEGORIES[c.category]}\n{counts}"
            sel = {"cities": self.names.editing, "lines": b.selected, "exits": self.picked}[self.mode] == c.id
            out.append(EntryCell(c.id, label, "free", x, y, selected=sel))
        return out

    def lines(self) -> list[tuple[str, str]]:
        return sorted(self.sides[(self.card, self.side)].lines)

    def exits(self) -> dict[str, str]:
        """Edge position → the city whose line leaves there, on the side on screen."""
        return dict(self.stubs[(self.card, self.side)])

    def positions(self) -> list[str]:
        return [f"{e}-{n}" for e in EDGES for n in range(1, self.slots + 1)]

    def side_summary(self, card: str, side: str) -> str:
        """"3 lines, 4 exits": for the card and side buttons."""
        n, m = len(self.sides[(card, side)].lines), len(self.stubs[(card, side)])
        return f"{n} line{'s' if n != 1 else ''}, {m} exit{'s' if m != 1 else ''}"

    # ------------------------------------------------------------ checking, saving

    def data(self, named: bool = False) -> dict[str, Any]:
        """The set as JSON data (``liberation-map-cards/1``); ``named``: an unnamed city
        carries its placeholder label, so the rest of the set can still be checked."""
        cards = []
        for card in CARD_IDS:
            cities = [{"id": c.id, "name": c.name or (self.label(c.id) if named else ""), "category": c.category}
                      for c in self.cities_on(card)]
            sides = {s: {"lines": [list(l) for l in sorted(self.sides[(card, s)].lines)],
                         "stubs": [{"city": c, "at": p} for p, c in sorted(self.stubs[(card, s)].items(), key=lambda x: self._order(x[0]))]}
                     for s in SIDES}
            cards.append({"id": card, "name": card_words(card), "cities": cities, "sides": sides})
        return {"format": FORMAT, "id": self.names.builder.map_id, "name": self.name, "slots": self.slots, "cards": cards}

    def _order(self, position: str) -> int:
        return self.positions().index(position)

    def problems(self) -> list[str]:
        """What the rules still refuse in the set, in the players' words (empty: ready)."""
        out = [f"{card_words(self.card_of[c.id])}: {self.label(c.id)} has no name yet."
               for c in self.names.builder.cities if not c.name.strip()]
        if not self.name.strip():
            out.insert(0, "Give the map cards a name (they are saved under it).")
        elif self.names.builder.map_id == placeholder_card_set().id:
            out.insert(0, "Choose another name: the made-up placeholder cards are called that.")
        try:
            parse_card_set(self.data(named=True), self.name or "map cards")
        except CardSetError as e:
            out += [self.words(p) for p in e.problems]
        return out

    @property
    def ready(self) -> bool:
        return not self.problems()

    def words(self, problem: str) -> str:
        """A rule's problem (``cards[1].sides.b.stubs[0].at: …``) in the players' words:
        the card, side and city by name, city ids by their names.

        >>> e = CardSetEntry.blank("/tmp")
        >>> e.words("cards[1].sides.b.lines[0]: the line city-05–city-06 is entered twice")
        'Map card 2, side B: the line City 5–City 6 is entered twice'
        """
        path, sep, text = problem.partition(": ")
        if not sep:
            path, text = "", problem
        data = self.data(named=True)
        parts: list[str] = []
        m = re.match(r"cards\[(\d+)\](.*)", path)
        if m:
            i, rest = int(m.group(1)), m.group(2)
            parts.append(card_words(CARD_IDS[i]) if i < len(CARD_IDS) else f"card {i + 1}")
            side = re.search(r"\.sides\.(\w)", rest)
            if side:
                parts.append(f"side {side.group(1).upper()}")
            city = re.search(r"\.cities\[(\d+)\]", rest)
            if city and i < len(data["cards"]) and int(city.group(1)) < len(data["cards"][i]["cities"]):
                parts.append(self.label(data["cards"][i]["cities"][int(city.group(1))]["id"]))
        text = re.sub(r"cards\[(\d+)\]", lambda g: card_words(CARD_IDS[int(g.group(1))]) if int(g.group(1)) < len(CARD_IDS) else g.group(0), text)
        for c in sorted(self.names.builder.cities, key=lambda c: -len(c.id)):
            text = re.sub(rf"'?\b{re.escape(c.id)}\b'?", self.label(c.id), text)
        text = re.sub(r"\b(top|right|bottom|left)-(\d)\b", lambda g: "the " + position_words(g.group(0)), text)
        return (", ".join(parts) + ": " if parts else "") + text

    def save(self) -> Path:
        """Save the finished set (replacing one saved under the same name);
        :class:`MapError` lists what is still wrong, in the players' words."""
        problems = self.problems()
        if problems:
            raise MapError(problems)
        cs = parse_card_set(self.data(), self.name)
        path = save_card_set(cs, self.folder)
        self.message = f"Saved “{cs.name}”: offered at setup as “Map cards arranged this game”."
        return path


__all__ = ["CARD_IDS", "CardSetEntry", "card_words"]
