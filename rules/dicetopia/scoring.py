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

from typing import Any, Callable, Mapping, NamedTuple, Sequence

from rules.core import serializable

from .tables import MissionSpec, Tables, tables


LETTERS = "ptw"
"""The dice's colour letters (purple, teal, white), as the colours' data names them."""
DICE = frozenset(f"{c}{v}" for c in LETTERS for v in range(1, 7))
"""Every die a cell can hold: a colour letter and a value."""
PIP = {c: int(c[1]) for c in DICE}
"""Each die's value."""


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
        """Each neighbourhood's domination (§6): the player with the most agents there
        dominates it and scores 5 ★ and the value of the dice left there; players tied
        for the most share it (or Rigging, ``rigged``, names one of them)."""
        out = cls()
        for hood, cells in city.items():
            # In play order, so the winners are too.
            counts = {s: n for s in order if (n := cells.count("@" + s))}
            if not counts:
                out[hood] = Hold(hood, counts, (), False, 0)
                continue
            most = max(counts.values())
            top = tuple(s for s, n in counts.items() if n == most)
            tied = len(top) > 1
            winners = (rigged[hood],) if tied and hood in rigged else top
            out[hood] = Hold(hood, counts, winners, tied, 5 + sum(PIP.get(c, 0) for c in cells))
        return out

    def dominated(self, seat: str) -> int:
        """Neighbourhoods ``seat`` dominates, a shared domination included (the tie-break)."""
        return sum(1 for h in self.values() if seat in h.winners)

    def any_tied(self) -> bool:
        return any(h.tied for h in self.values())


def any_tied(city: Mapping[str, Sequence[str]]) -> bool:
    """Whether some neighbourhood's domination is tied (Rigging's question), without
    working out what each is worth.

    >>> any_tied({"agency": ["@a", "@b", "p3"]}), any_tied({"agency": ["@a", "@a", "@b"]})
    (True, False)
    """
    for cells in city.values():
        counts = [cells.count(c) for c in set(cells) if c.startswith("@")]  # agents per player there
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
        self.pips = {s: [PIP[c] for c in b if c in DICE] for s, b in boards.items()}
        self.totals = {s: sum(p) for s, p in self.pips.items()}
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
    # Copycat and High Stakes have no scorer: they score through the card they stand for (tally).
    return scorer(f, seat) if scorer is not None else 0


Scorer = Callable[["Facts", str], int]


def scorer_of(spec: MissionSpec, letter: Callable[[str], str]) -> Scorer | None:
    """Mission ``spec``'s scorer, its parameters read once (``letter`` names a colour's
    dice letter); ``None`` for Copycat and High Stakes Gambling, which score through
    another card."""
    make = _SCORERS.get(spec.kind)
    return None if make is None else make(spec.params, letter)


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
    # Each neighbourhood's line, once, for each of its winners (in board order).
    dominated: dict[str, list[Line]] = {s: [] for s in order}
    for h in t.hoods:
        hold = dom[h.id]
        n = len(hold.winners)
        label = f"Domination: {h.name}"
        if n > 1:
            label += f" (tied {n} ways, {hold.points} shared, rounded up)"
        elif hold.tied:
            label += " (tie decided by Rigging)"
        for w in hold.winners:
            dominated[w].append(Line("domination", label, hold.share))
    out: dict[str, list[Line]] = {}
    keys: dict[str, Key] = {}
    for seat in order:
        loot = facts.totals[seat]
        lines = [Line("loot", "Loot: " + " + ".join(str(v) for v in facts.pips[seat]), loot), *dominated[seat]]
        for card_id, effect_id, factor in played.get(seat, ()):
            label = f"Mission: {t.missions[card_id].name}"
            if not effect_id:
                lines.append(Line("mission", f"{label} (nothing to score)", 0))
                continue
            scorer = scorer_of(t.missions[effect_id], t.letter)
            points = 0 if scorer is None else scorer(facts, seat) * factor
            if effect_id != card_id:
                label += f" as {t.missions[effect_id].name}" + (f" ×{factor}" if factor != 1 else "")
            lines.append(Line("mission", label, points))
        out[seat] = lines
        # Total ★, then the neighbourhoods held (one domination line each), then the loot.
        keys[seat] = (sum(ln.points for ln in lines), len(dominated[seat]), loot)
    return out, dom, keys


def ranked(keys: Mapping[str, Key]) -> list[tuple[str, Key]]:
    """Seats best first, each with its key (ties keep play order)."""
    return sorted(keys.items(), key=lambda item: item[1], reverse=True)


def ranking(order: Sequence[str], lines: Mapping[str, Sequence[Line]], dom: Domination,
            boards: Mapping[str, Sequence[str]]) -> list[tuple[str, tuple[int, int, int]]]:
    """Seats best first, each with its key: total ★, then neighbourhoods dominated, then
    the total dice value (§6)."""
    return ranked({s: (sum(ln.points for ln in lines[s]), dom.dominated(s), sum(PIP.get(c, 0) for c in boards[s]))
                   for s in order})
