"""The end screen's model, without Kivy: the winner, the reason, the scores with their
breakdown, and the value the game charts per turn (Tyranny's influence), with the lines
the game draws on it. Faction names, glyphs, what to chart and the winning thresholds are
the game's own facts (:mod:`rules.facts`), not this screen's.

>>> from types import SimpleNamespace as NS
>>> out = NS(winner="fox", reason="Ann stands on the Tower", winning_seats=("fox-1",),
...          scores={"fox-1": NS(total=5, breakdown={}), "hare-1": NS(total=3, breakdown={})})
>>> e = EndModel("stepping_stones", out, {"fox-1": "Ann", "hare-1": "Bob"})
>>> e.headline, e.winners, e.reason
('✦ Ann wins', 'Ann (✦ Fox)', 'Ann stands on the Tower.')
>>> e.score_lines()
['Ann: 5', 'Bob: 3']

The headline names the winning players, with their faction's glyph; a team names each of
its players; a shared win without one winning faction gives each seat its own glyph; an
outcome naming no seat names the faction:

>>> team = NS(winner="fox", reason="", scores={}, winning_seats=("fox-1", "fox-2"))
>>> both = EndModel("stepping_stones", team, {"fox-1": "Ann", "fox-2": "Cy"})
>>> both.headline, both.winners
('✦ Ann and Cy win', 'Ann and Cy (✦ Fox)')
>>> tie = NS(winner=None, reason="", scores={}, winning_seats=("fox-1", "hare-1"))
>>> EndModel("stepping_stones", tie, {"fox-1": "Ann", "hare-1": "Bob"},
...          factions={"fox-1": "fox", "hare-1": "hare"}).headline
'✦ Ann and ✧ Bob share the win'
>>> EndModel("stepping_stones", NS(winner="hare", reason="", scores={}, winning_seats=()), {}).headline
'✧ Hare wins'

A score by faction is named by the faction, its parts in words:

>>> EndModel("stepping_stones", NS(winner="fox", reason="", winning_seats=(),
...          scores={"fox": NS(total=7, breakdown={"stones": 5, "spare_pebbles": 2})}), {}).score_lines()
['✦ Fox: 7 (stones 5, spare pebbles 2)']

Stepping Stones charts nothing (its facts list no chart), so its end screen has none:

>>> e.has_chart, e.chart_title, e.chart_points(100, 50)
(False, '', [])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rules import facts

from .words import humanise

# Score parts in plain words. Tyranny's "captured" counts the criminals in custody when
# the game ends, not the arrests made during it ("captured 0" read as "nobody was ever
# arrested").
PARTS = {"captured": "criminals in custody at the end"}


@dataclass
class EndModel:
    game_id: str
    outcome: Any
    names: dict[str, str]
    view: Mapping[str, Any] = field(default_factory=dict)  # the table's public view at the end
    # The game's words for its ids in a score's parts ({"st-edwards-crown": "St Edward's
    # Crown"}): a game scoring per seat by named things (Outrage's jewels) has no
    # faction-level words for them.
    words: Mapping[str, str] = field(default_factory=dict)
    # Each seat's faction (seat id → faction id): the glyph beside a winner's name when the
    # game's winner is not one faction (Outrage's teams, Dicetopia's shared win).
    factions: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        found = facts.charts(self.game_id)
        self.chart: facts.Chart | None = found[0] if found else None
        raw = self.view.get(self.chart.series, []) if self.chart else []
        self.series: list[tuple[int, int]] = [(int(t), int(v)) for t, v in raw]

    def _title(self, faction: str) -> str:
        return facts.faction_title(self.game_id, faction)

    @property
    def chart_title(self) -> str:
        """The chart's heading, with the game's threshold lines ("- - - 1000")."""
        if self.chart is None:
            return ""
        glyph = facts.factions(self.game_id).get(self.chart.faction)
        lines = "".join(f"   - - - {ln.at}" for ln in self.chart.lines)
        return f"{glyph.glyph + ' ' if glyph else ''}{self.chart.label}{lines}"

    @property
    def chart_faction(self) -> str:
        """Whose colour the series is drawn in (a palette key)."""
        if self.chart is None:
            return ""
        f = facts.factions(self.game_id).get(self.chart.faction)
        return f.colour if f else ""

    @property
    def value_name(self) -> str:
        return self.chart.value if self.chart else ""

    def _range(self) -> tuple[int, int]:
        # The chart always shows 0 and every threshold line, so a short game's curve is
        # seen against the target it fell short of.
        vals = [v for _, v in self.series] + [ln.at for ln in (self.chart.lines if self.chart else ())]
        return min([0, *vals]), max([1, *vals])

    def line_fractions(self) -> list[float]:
        """Where each threshold line sits on the chart's height (0 bottom, 1 top)."""
        lo, hi = self._range()
        return [(ln.at - lo) / ((hi - lo) or 1) for ln in (self.chart.lines if self.chart else ())]

    def _seats(self) -> tuple[str, ...]:
        return tuple(getattr(self.outcome, "winning_seats", ()) or ())

    def _names(self, seats: tuple[str, ...], glyphs: bool = False) -> str:
        """"Ann", "Ann and Bob", "Ann, Bob and Cy" (with each seat's glyph if ``glyphs``)."""
        game = facts.factions(self.game_id)

        def one(s: str) -> str:
            f = game.get(self.factions.get(s, ""))
            return f"{f.glyph} {self.names.get(s, s)}" if glyphs and f else self.names.get(s, s)

        names = [one(s) for s in seats]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    @property
    def headline(self) -> str:
        """The winning players by name, with their faction's glyph: "♜ Ann wins",
        "◆ Bob and Dan win"; the faction alone when the outcome names no seat."""
        if self.outcome is None:
            return "The game is not over"
        w = self.outcome.winner
        seats = self._seats()
        faction = facts.factions(self.game_id).get(w or "")
        if seats and faction is not None:
            return f"{faction.glyph} {self._names(seats)} {'wins' if len(seats) == 1 else 'win'}"
        if seats and w:  # a team or seat that is not one faction: each player's own glyph
            return f"{self._names(seats, glyphs=True)} {'wins' if len(seats) == 1 else 'win'}"
        if seats:
            return f"{self._names(seats, glyphs=True)} {'wins' if len(seats) == 1 else 'share the win'}"
        if not w:
            return "A draw"
        # "Cops win", "Criminals win", but "Dynasty wins": the verb follows the name's number.
        return f"{self._title(w)} {'win' if w.endswith('s') else 'wins'}"

    @property
    def winners(self) -> str:
        """The winning players and, when one faction won, its glyph and name:
        "Bob and Dan (◆ Criminals)"."""
        seats = self._seats()
        if not seats:
            return ""
        faction = facts.factions(self.game_id).get(getattr(self.outcome, "winner", None) or "")
        return self._names(seats) + (f" ({faction.title})" if faction is not None else "")

    @property
    def reason(self) -> str:
        # The engine's reason may name seats by id ("criminals-1 ran out of time" in a
        # record kept before the Table named players): players read their names.
        r = humanise(getattr(self.outcome, "reason", "") or "", dict(self.names))
        return r[:1].upper() + r[1:] + ("." if r and not r.endswith(".") else "")

    def score_lines(self) -> list[str]:
        """A line per score: by faction, or by seat where a game scores each player.

        A game scoring each player by named things gives its own words for them (here
        Stepping Stones' names for its stones, from its engine):

        >>> from types import SimpleNamespace as NS
        >>> from rules import load
        >>> EndModel("stepping_stones", NS(winner="fox", reason="", winning_seats=("fox-1",),
        ...          scores={"fox-1": NS(total=3, breakdown={"mill": 2, "oak": 1})}), {"fox-1": "Ann"},
        ...          words=load("stepping_stones").names({})).score_lines()
        ['Ann: 3 (the Mill 2, the Old Oak 1)']
        """
        out = []
        for key, sc in (getattr(self.outcome, "scores", {}) or {}).items():
            total = getattr(sc, "total", sc)
            parts = getattr(sc, "breakdown", {}) or {}
            detail = ", ".join(f"{self.words.get(k) or PARTS.get(k, k.replace('_', ' '))} {v}" for k, v in parts.items())
            who = self.names[key] if key in self.names else self._title(key)
            out.append(f"{who}: {total}" + (f" ({detail})" if detail else ""))
        return out

    def penalty_lines(self, penalties: dict[str, int]) -> list[str]:
        """The clocks' penalty points per seat, for the table to settle.

        >>> EndModel("stepping_stones", None, {"fox-1": "Ann", "hare-1": "Bob"}).penalty_lines({"fox-1": 3, "hare-1": 1})
        ['Time penalties: Ann 3 points, Bob 1 point']
        """
        if not penalties:
            return []
        parts = ", ".join(f"{self.names.get(s, s)} {p} point{'s' if p != 1 else ''}" for s, p in penalties.items())
        return [f"Time penalties: {parts}"]

    def clock_lines(self, remaining: Mapping[str, float]) -> list[str]:
        """Each seat's time left when the game ended (timed clocks only): a seat that lost
        on time reads 0:00, as its face does.

        >>> EndModel("stepping_stones", None, {"fox-1": "Ann", "hare-1": "Bob"}).clock_lines({"fox-1": 0.0, "hare-1": 297.2})
        ['Time left: Ann 0:00, Bob 4:58']
        >>> EndModel("stepping_stones", None, {"fox-1": "Ann"}).clock_lines({"fox-1": float("inf")})
        []
        """
        from companion.clocks import format_time

        timed = {s: t for s, t in remaining.items() if t != float("inf")}
        if not timed:
            return []
        return ["Time left: " + ", ".join(f"{self.names.get(s, s)} {format_time(t)}" for s, t in timed.items())]

    @property
    def has_chart(self) -> bool:
        """Only a game that charts a tracked value, and has values to chart, shows a chart."""
        return bool(self.series)

    def chart_points(self, width: float, height: float) -> list[tuple[float, float]]:
        if not self.series:
            return []
        lo, hi = self._range()
        first, last = self.series[0][0], self.series[-1][0]
        span_t = (last - first) or 1
        return [(round((t - first) / span_t * width, 2), round((v - lo) / (hi - lo) * height, 2)) for t, v in self.series]

    def axis(self) -> tuple[int, int, int, int]:
        """(first turn, last turn, lowest value, highest value) of the chart."""
        turns = [t for t, _ in self.series] or [0]
        return (turns[0], turns[-1], *self._range())
