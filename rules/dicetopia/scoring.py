"""End-of-game scoring (§6), pure: loot, domination per neighbourhood, each mission (§8),
and the tie-breaks. Every player's score is a list of :class:`Line`, as the book's scoring
example reads it.

Cells: a die is its colour letter and value (``"p4"``: a purple 4), an agent ``"@" + seat``;
a city space may also be ``"x"`` (exterminated) or ``"-"`` (not used at this player count).

>>> t = tables()
>>> d = Domination.of(t, {"agency": ["@a", "@b", "p3", "-", "-"]}, ["a", "b"], {})
>>> d["agency"].winners, d["agency"].points, d["agency"].share
(('a', 'b'), 8, 4)
>>> mission_points(t, t.mission("replica"), "a", {"a": ["p4", "p4", "t2", "t2", "w1", "w6"], "b": []},
...                {}, {}, "all")
14
"""
from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from rules.core import serializable

from .tables import MissionSpec, Tables, tables


LETTERS = "ptw"
"""The dice's colour letters (purple, teal, white), as the colours' data names them."""
DICE = frozenset(f"{c}{v}" for c in LETTERS for v in range(1, 7))
"""Every die a cell can hold: a colour letter and a value."""
PIP = {c: int(c[1]) for c in DICE}
"""Each die's value."""
PIP_TEXT = {c: c[1] for c in DICE}
"""Each die's value as the loot line writes it (no int-to-text conversion per die)."""
_ZEROS = (0,) * 8  # the value of anything else: longer than any neighbourhood
_new = tuple.__new__


def is_die(cell: str) -> bool:
    return cell in DICE


@serializable("dicetopia.Line")
class Line(NamedTuple):
    """One line of a player's tally: ``what`` (``loot``, ``domination``, ``mission``),
    its label in players' words, and the points."""

    what: str
    label: str
    points: int


class Hold(NamedTuple):
    """One neighbourhood's domination: who has the most agents, what it is worth."""

    hood: str
    counts: Mapping[str, int]
    winners: tuple[str, ...]
    tied: bool  # more than one player had the most agents (before any Rigging)
    points: int  # 5 + the leftover dice

    @property
    def share(self) -> int:
        """Each winner's part: ties share, rounded up (§6)."""
        return -(-self.points // len(self.winners)) if self.winners else 0


class Domination(dict[str, Hold]):
    @classmethod
    def of(cls, t: Tables, city: Mapping[str, Sequence[str]], order: Sequence[str], rigged: Mapping[str, str]) -> "Domination":
        out = cls()
        pip, zeros = PIP.get, _ZEROS
        agents = [(s, "@" + s) for s in order]
        for hood, cells in city.items():
            # This is the end's main loop: counted by C-level list calls, the leaders kept as
            # the counts are taken (no second pass). The counts (and so the winners) are in
            # play order.
            counts: dict[str, int] = {}
            best, top = 0, []
            for s, a in agents:
                n = cells.count(a)
                if n:
                    counts[s] = n
                    if n > best:
                        best, top = n, [s]
                    elif n == best:
                        top.append(s)
            if not counts:
                out[hood] = _new(Hold, (hood, counts, (), False, 0))
                continue
            winners: tuple[str, ...] = (*top,)
            tied = len(top) > 1
            if tied and hood in rigged:
                winners = (rigged[hood],)
            # tuple.__new__, as the NamedTuple's own __new__ ends in, without its frame.
            out[hood] = _new(Hold, (hood, counts, winners, tied, 5 + sum(map(pip, cells, zeros))))
        return out

    def dominated(self, seat: str) -> int:
        """Neighbourhoods ``seat`` dominates, a shared domination included (the tie-break)."""
        return sum([1 for h in self.values() if seat in h[2]])

    def any_tied(self) -> bool:
        return any(h.tied for h in self.values())


def any_tied(city: Mapping[str, Sequence[str]]) -> bool:
    """Whether some neighbourhood's domination is tied (Rigging's question), without
    working out what each is worth.

    >>> any_tied({"agency": ["@a", "@b", "p3"]}), any_tied({"agency": ["@a", "@a", "@b"]})
    (True, False)
    """
    for cells in city.values():
        # Each agent's count, one C-level count per different agent, not a loop per cell.
        counts = [cells.count(c) for c in set(cells) if c[0] == "@"]
        if len(counts) > 1 and counts.count(max(counts)) > 1:
            return True
    return False


class Facts:
    """What the missions read, worked out once per scoring rather than by each mission:
    each board's dice values in board order and their total (the loot, which every
    player scores), and, when a mission first asks, a board's dice per value (index 1-6)
    or per colour letter, and the city's dice per colour letter."""

    __slots__ = ("t", "boards", "city", "dom", "ties", "pips", "totals", "_values", "_letters", "_city_letters")

    def __init__(self, t: Tables, boards: Mapping[str, Sequence[str]], city: Mapping[str, Sequence[str]],
                 dom: Mapping[str, Hold], ties: str) -> None:
        self.t, self.boards, self.city, self.dom, self.ties = t, boards, city, dom, ties
        pip = PIP.get
        pips: dict[str, list[int]] = {}
        totals: dict[str, int] = {}
        self.pips, self.totals = pips, totals
        # A plain loop, not two comprehensions (each a call of its own). Every die's value
        # is at least 1, so filter(None, ...) keeps exactly the dice.
        for s, b in boards.items():
            p = pips[s] = [*filter(None, map(pip, b))]
            totals[s] = sum(p)
        self._values: dict[str, list[int]] = {}
        self._letters: dict[str, dict[str, int]] = {}
        self._city_letters: dict[str, int] | None = None

    def values(self, seat: str) -> list[int]:
        """How many of ``seat``'s dice show each value (index 1-6)."""
        out = self._values.get(seat)
        if out is None:
            out = self._values[seat] = [0] * 7
            for v in self.pips[seat]:
                out[v] += 1
        return out

    def letters(self, seat: str) -> dict[str, int]:
        """How many of ``seat``'s dice are of each colour letter."""
        out = self._letters.get(seat)
        if out is None:
            out = self._letters[seat] = _count_letters(self.boards[seat])
        return out

    def city_letters(self) -> dict[str, int]:
        """How many dice of each colour letter are in the city."""
        if self._city_letters is None:
            self._city_letters = _count_letters([c for cells in self.city.values() for c in cells])
        return self._city_letters


def _count_letters(cells: Sequence[str]) -> dict[str, int]:
    out = dict.fromkeys(LETTERS, 0)
    for c in cells:
        if c in DICE:
            out[c[0]] += 1
    return out


def mission_points(t: Tables, spec: MissionSpec, seat: str, boards: Mapping[str, Sequence[str]],
                   city: Mapping[str, Sequence[str]], dom: Mapping[str, Hold], ties: str) -> int:
    """What mission ``spec`` scores for ``seat`` (0 if not eligible). ``ties`` is the
    relative missions' reading of a tie (RULINGS.md D-21): ``"all"`` every tied player
    scores, ``"none"`` nobody does."""
    return _points(Facts(t, boards, city, dom, ties), spec, seat)


def _points(f: Facts, spec: MissionSpec, seat: str) -> int:
    """:func:`mission_points`, reading the scoring's :class:`Facts`."""
    scorer = scorer_of(spec, f.t.letter)
    # copycat and high-stakes have no scorer: they score through the card they stand for (tally)
    return scorer(f, seat) if scorer is not None else 0


Scorer = Callable[["Facts", str], int]


def scorer_of(spec: MissionSpec, letter: Callable[[str], str]) -> Scorer | None:
    """Mission ``spec``'s scorer, its parameters read once (``letter`` names a colour's
    dice letter); ``None`` for Copycat and High Stakes Gambling, which score through
    another card. :func:`mission_scorers` keeps one per mission, so a tally neither
    looks up the kind nor reads the card's parameters per mission."""
    make = _SCORERS.get(spec.kind)
    return None if make is None else make(spec.params, letter)


_BOUND: dict[int, tuple[Tables, dict[str, Scorer | None]]] = {}
"""Each tables' scorers, by the tables' identity (the tables object kept with them, so an
identity is never reused while its entry stands; there is one tables object per data load)."""


def mission_scorers(t: Tables) -> dict[str, Scorer | None]:
    """Each of ``t``'s missions' scorer, its parameters bound, by id: made once per tables.
    Kept here rather than on the tables, which this module reads (no import cycle)."""
    got = _BOUND.get(id(t))
    if got is None or got[0] is not t:
        got = _BOUND[id(t)] = (t, {m: scorer_of(spec, t.letter) for m, spec in t.missions.items()})
    return got[1]


# Each mission kind's scorer maker, by kind (the cards' data says which kind and its
# params): given the params (and the colours' letters), the function of the facts and a seat.
_Maker = Callable[[Mapping[str, Any], Callable[[str], str]], Scorer]


def _most_colour(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, colour = p["points"], letter(p["colour"])

    def score(f: Facts, seat: str) -> int:
        n = f.letters(seat)[colour]
        others = [f.letters(s)[colour] for s in f.boards if s != seat]
        return points if n > 0 and _best(n, others, f.ties, max) else 0
    return score


def _extreme_total(pick: Callable[[Sequence[int]], int]) -> _Maker:
    def make(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
        points = p["points"]

        def score(f: Facts, seat: str) -> int:
            others = [n for s, n in f.totals.items() if s != seat]
            return points if _best(f.totals[seat], others, f.ties, pick) else 0
        return score
    return make


def _per_colour(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, colour = p["points"], letter(p["colour"])
    return lambda f, seat: points * f.letters(seat)[colour]


def _no_colour(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, colour = p["points"], letter(p["colour"])
    return lambda f, seat: points if f.letters(seat)[colour] == 0 else 0


def _per_city_colour(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, colour = p["points"], letter(p["colour"])
    return lambda f, seat: points * f.city_letters()[colour]


def _per_value(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, value = p["points"], p["value"]
    return lambda f, seat: points * f.values(seat)[value]


def _no_value(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, value = p["points"], p["value"]
    return lambda f, seat: points if f.values(seat)[value] == 0 else 0


def _values(rule: Callable[[int, list[int]], int]) -> _Maker:
    """A mission scored from the seat's dice per value (index 1-6): ``rule(points, values)``."""
    def make(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
        points = p["points"]
        return lambda f, seat: rule(points, f.values(seat))
    return make


def _only_parity(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, odd = p["points"], p["parity"] == "odd"
    wrong = [v for v in range(1, 7) if (v % 2 == 1) != odd]  # the values the mission forbids

    def score(f: Facts, seat: str) -> int:
        values = f.values(seat)
        return points if sum(values) and not any(values[v] for v in wrong) else 0
    return score


def _replica_pairs(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points = p["points"]

    def score(f: Facts, seat: str) -> int:
        same: dict[str, int] = {}
        for c in f.boards[seat]:
            if c in DICE:
                same[c] = same.get(c, 0) + 1
        return points * sum(n // 2 for n in same.values())
    return score


def _city(rule: Callable[[int, "Facts", str], int]) -> _Maker:
    """A mission scored from the dominations: ``rule(points, facts, seat)``."""
    def make(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
        points = p["points"]
        return lambda f, seat: rule(points, f, seat)
    return make


def _king_of_the_hill(p: Mapping[str, Any], letter: Callable[[str], str]) -> Scorer:
    points, agents = p["points"], p["agents"]
    return lambda f, seat: points * sum(1 for h in f.dom.values() if h.counts.get(seat, 0) >= agents)


_SCORERS: dict[str, _Maker] = {
    "most-colour": _most_colour,
    "highest-total": _extreme_total(max),
    "lowest-total": _extreme_total(min),
    "no-colour": _no_colour,
    "per-colour": _per_colour,
    "per-city-colour": _per_city_colour,
    "per-value": _per_value,
    "no-value": _no_value,
    "per-value-pair": _values(lambda pts, values: pts * sum(n // 2 for n in values)),
    "value-triple": _values(lambda pts, values: pts if any(n >= 3 for n in values) else 0),
    "only-parity": _only_parity,
    "all-same-value": _values(lambda pts, values: pts if sum(1 for n in values if n) == 1 else 0),
    "every-value": _values(lambda pts, values: pts if all(values[1:]) else 0),
    "per-replica-pair": _replica_pairs,
    "every-colour": _city(lambda pts, f, seat: pts if all(f.letters(seat).values()) else 0),
    "spies": _city(lambda pts, f, seat: pts * sum(1 for h in f.dom.values() if h.counts.get(seat) and seat not in h.winners)),
    "every-neighbourhood": _city(lambda pts, f, seat: pts if all(h.counts.get(seat) for h in f.dom.values()) else 0),
    "infiltration": _city(lambda pts, f, seat: pts * sum(1 for h in f.dom.values() if h.winners == (seat,) and not h.tied)),
    "king-of-the-hill": _king_of_the_hill,
}


def _best(mine: int, others: Sequence[int], ties: str, pick: object) -> bool:
    best = pick([mine, *others])  # type: ignore[operator]
    if mine != best:
        return False
    return ties == "all" or others.count(best) == 0


class Played(NamedTuple):
    """A mission as it scores: the card on the table, the card whose effect counts (the
    card itself, the one High Stakes Gambling drew, the one Copycat copies) and the factor."""

    card: str
    effect: str
    factor: int = 1


Key = tuple[int, int, int]
"""A seat's place in the ranking (§6): total ★, then neighbourhoods dominated, then the
total dice value."""


def tally(t: Tables, order: Sequence[str], boards: Mapping[str, Sequence[str]], city: Mapping[str, Sequence[str]],
          played: Mapping[str, Sequence[Played]], rigged: Mapping[str, str], ties: str) -> tuple[dict[str, list[Line]], Domination]:
    """Every player's lines, in the book's order: loot, each neighbourhood dominated, each mission."""
    lines, dom, _ = score(t, order, boards, city, played, rigged, ties)
    return lines, dom


def score(t: Tables, order: Sequence[str], boards: Mapping[str, Sequence[str]], city: Mapping[str, Sequence[str]],
          played: Mapping[str, Sequence[Played]], rigged: Mapping[str, str],
          ties: str) -> tuple[dict[str, list[Line]], Domination, dict[str, Key]]:
    """:func:`tally`, with each seat's ranking :data:`Key` summed as its lines are written."""
    dom = Domination.of(t, city, order, rigged)
    facts = Facts(t, boards, city, dom, ties)
    pips, totals = facts.pips, facts.totals
    # Each neighbourhood's line, once, for each of its winners (in board order).
    dominated: dict[str, list[Line]] = {s: [] for s in order}
    stars = dict.fromkeys(order, 0)  # each seat's ★ so far, summed as its lines are written
    labels = t.domination_labels
    for h in t.hoods:
        _, _, winners, tied, points = dom[h.id]
        if winners:
            n = len(winners)
            label = labels[h.id]
            if n > 1:
                label = f"{label} (tied {n} ways, {points} shared, rounded up)"
            elif tied:
                label += " (tie decided by Rigging)"
            share = -(-points // n)
            line = _new(Line, ("domination", label, share))
            for w in winners:
                dominated[w].append(line)
                stars[w] += share
    missions, labels, scorers = t.missions, t.mission_labels, mission_scorers(t)
    text = PIP_TEXT.get
    out: dict[str, list[Line]] = {}
    keys: dict[str, Key] = {}
    for seat in order:
        held, loot = dominated[seat], totals[seat]
        # The values as the board's cells write them: every die's value is a digit.
        lines = [_new(Line, ("loot", "Loot: " + " + ".join(filter(None, map(text, boards[seat]))), loot)), *held]
        total = stars[seat] + loot
        for card_id, effect_id, factor in played.get(seat, ()):
            label = labels[card_id]
            if not effect_id:
                lines.append(_new(Line, ("mission", f"{label} (nothing to score)", 0)))
                continue
            scorer = scorers[effect_id]
            pts = 0 if scorer is None else scorer(facts, seat) * factor
            if effect_id != card_id:
                effect = missions[effect_id]
                label += f" as {effect.name}" + (f" ×{factor}" if factor != 1 else "")
            lines.append(_new(Line, ("mission", label, pts)))
            total += pts
        out[seat] = lines
        # One domination line per neighbourhood held: their number is the tie-break.
        keys[seat] = (total, len(held), loot)
    return out, dom, keys


def ranked(keys: Mapping[str, Key]) -> list[tuple[str, Key]]:
    """Seats best first, each with its key (ties keep play order)."""
    return sorted(keys.items(), key=_second, reverse=True)


_second = itemgetter(1)  # a C-level key: no Python call per seat


def ranking(order: Sequence[str], lines: Mapping[str, Sequence[Line]], dom: Domination,
            boards: Mapping[str, Sequence[str]]) -> list[tuple[str, tuple[int, int, int]]]:
    """Seats best first, each with its key: total ★, then neighbourhoods dominated, then
    the total dice value (§6)."""
    pip = PIP.get
    # Neighbourhoods dominated by each seat, in one pass over the neighbourhoods.
    held = dict.fromkeys(order, 0)
    for h in dom.values():
        for w in h[2]:
            held[w] += 1
    return ranked({s: (sum([ln[2] for ln in lines[s]]), held[s], sum(map(pip, boards[s], repeat(0)))) for s in order})
