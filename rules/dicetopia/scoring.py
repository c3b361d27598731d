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
from typing import Mapping, NamedTuple, Sequence

from rules.core import serializable

from .tables import MissionSpec, Tables, tables


DICE = frozenset(f"{c}{v}" for c in "ptw" for v in range(1, 7))
"""Every die a cell can hold: a colour letter and a value."""
PIP = {c: int(c[1]) for c in DICE}
"""Each die's value."""
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
            # Counted by C-level list calls, in a plain loop (a comprehension is a call of
            # its own): this is the end's main loop. The counts (and so the winners) are in
            # play order.
            counts: dict[str, int] = {}
            for s, a in agents:
                n = cells.count(a)
                if n:
                    counts[s] = n
            if not counts:
                out[hood] = _new(Hold, (hood, counts, (), False, 0))
                continue
            if len(counts) == 1:
                winners: tuple[str, ...] = (*counts,)
                tied = False
            else:
                best = max(counts.values())
                winners = tuple([s for s, n in counts.items() if n == best])
                tied = len(winners) > 1
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
        counts: dict[str, int] = {}
        for c in cells:
            if c[0] == "@":
                counts[c] = counts.get(c, 0) + 1
        if len(counts) > 1:
            best = max(counts.values())
            if sum(1 for n in counts.values() if n == best) > 1:
                return True
    return False


class Dice(NamedTuple):
    """What the missions read of one faction board: how many dice of each value (index
    1-6), of each colour letter, their total and their values in board order."""

    values: list[int]
    letters: dict[str, int]
    total: int
    pips: list[int]

    @classmethod
    def of(cls, cells: Sequence[str]) -> "Dice":
        values = [0] * 7
        letters = {"p": 0, "t": 0, "w": 0}
        pips = []
        for c in cells:
            v = PIP.get(c)
            if v is not None:
                values[v] += 1
                letters[c[0]] += 1
                pips.append(v)
        return cls(values, letters, sum(pips), pips)


def mission_points(t: Tables, spec: MissionSpec, seat: str, boards: Mapping[str, Sequence[str]],
                   city: Mapping[str, Sequence[str]], dom: Mapping[str, Hold], ties: str) -> int:
    """What mission ``spec`` scores for ``seat`` (0 if not eligible). ``ties`` is the
    relative missions' reading of a tie (RULINGS.md D-21): ``"all"`` every tied player
    scores, ``"none"`` nobody does."""
    return _points(t, spec, seat, {s: Dice.of(b) for s, b in boards.items()}, boards, city, dom, ties)


def _points(t: Tables, spec: MissionSpec, seat: str, dice: Mapping[str, Dice], boards: Mapping[str, Sequence[str]],
            city: Mapping[str, Sequence[str]], dom: Mapping[str, Hold], ties: str) -> int:
    """:func:`mission_points`, with each board's :class:`Dice` read once for every mission."""
    p = spec.params
    kind = spec.kind
    values, letters = dice[seat].values, dice[seat].letters
    if kind == "most-colour":
        letter = t.letter(p["colour"])
        n = letters[letter]
        others = [d.letters[letter] for s, d in dice.items() if s != seat]
        return p["points"] if n > 0 and _best(n, others, ties, max) else 0
    if kind in ("highest-total", "lowest-total"):
        others = [d.total for s, d in dice.items() if s != seat]
        return p["points"] if _best(dice[seat].total, others, ties, max if kind == "highest-total" else min) else 0
    if kind == "no-colour":
        return p["points"] if letters[t.letter(p["colour"])] == 0 else 0
    if kind == "per-colour":
        return p["points"] * letters[t.letter(p["colour"])]
    if kind == "per-city-colour":
        letter = t.letter(p["colour"])
        return p["points"] * sum(1 for cells in city.values() for c in cells if c in DICE and c[0] == letter)
    if kind == "per-value":
        return p["points"] * values[p["value"]]
    if kind == "no-value":
        return p["points"] if values[p["value"]] == 0 else 0
    if kind == "per-value-pair":
        return p["points"] * sum(n // 2 for n in values)
    if kind == "value-triple":
        return p["points"] if any(n >= 3 for n in values) else 0
    if kind == "only-parity":
        odd = p["parity"] == "odd"
        return p["points"] if sum(values) and not any(values[v] for v in range(1, 7) if (v % 2 == 1) != odd) else 0
    if kind == "all-same-value":
        return p["points"] if sum(1 for n in values if n) == 1 else 0
    if kind == "every-value":
        return p["points"] if all(values[v] for v in range(1, 7)) else 0
    if kind == "per-replica-pair":
        same: dict[str, int] = {}
        for c in boards[seat]:
            if c in DICE:
                same[c] = same.get(c, 0) + 1
        return p["points"] * sum(n // 2 for n in same.values())
    if kind == "every-colour":
        return p["points"] if all(letters[c.letter] for c in t.colours) else 0
    if kind == "spies":
        return p["points"] * sum(1 for h in dom.values() if h.counts.get(seat) and seat not in h.winners)
    if kind == "every-neighbourhood":
        return p["points"] if all(h.counts.get(seat) for h in dom.values()) else 0
    if kind == "infiltration":
        return p["points"] * sum(1 for h in dom.values() if h.winners == (seat,) and not h.tied)
    if kind == "king-of-the-hill":
        return p["points"] * sum(1 for h in dom.values() if h.counts.get(seat, 0) >= p["agents"])
    return 0  # copycat and high-stakes score through the card they stand for (tally)


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


def tally(t: Tables, order: Sequence[str], boards: Mapping[str, Sequence[str]], city: Mapping[str, Sequence[str]],
          played: Mapping[str, Sequence[Played]], rigged: Mapping[str, str], ties: str) -> tuple[dict[str, list[Line]], Domination]:
    """Every player's lines, in the book's order: loot, each neighbourhood dominated, each mission."""
    dom = Domination.of(t, city, order, rigged)
    dice = {s: Dice.of(b) for s, b in boards.items()}
    # Each neighbourhood's line, once, for each of its winners (in board order).
    dominated: dict[str, list[Line]] = {s: [] for s in order}
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
            line = _new(Line, ("domination", label, -(-points // n)))
            for w in winners:
                dominated[w].append(line)
    missions, labels = t.missions, t.mission_labels
    out: dict[str, list[Line]] = {}
    for seat in order:
        mine = dice[seat]
        lines = [_new(Line, ("loot", "Loot: " + " + ".join(map(str, mine.pips)), mine.total)), *dominated[seat]]
        for card_id, effect_id, factor in played.get(seat, ()):
            label = labels[card_id]
            if not effect_id:
                lines.append(_new(Line, ("mission", f"{label} (nothing to score)", 0)))
                continue
            effect = missions[effect_id]
            pts = _points(t, effect, seat, dice, boards, city, dom, ties) * factor
            if effect_id != card_id:
                label += f" as {effect.name}" + (f" ×{factor}" if factor != 1 else "")
            lines.append(_new(Line, ("mission", label, pts)))
        out[seat] = lines
    return out, dom


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
    keys = {s: (sum([ln[2] for ln in lines[s]]), held[s], sum(map(pip, boards[s], repeat(0)))) for s in order}
    return sorted(keys.items(), key=lambda kv: kv[1], reverse=True)
