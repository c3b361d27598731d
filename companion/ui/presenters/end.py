"""The end screen's model, without Kivy: the winner, the reason, the scores with their
breakdown, and the influence (or any tracked value) per turn for the chart.

>>> from types import SimpleNamespace as NS
>>> out = NS(winner="criminals", reason="the criminals held 1000+ influence for 3 consecutive turns",
...          scores={"criminals": NS(total=1150, breakdown={"influence": 1150, "properties": 4})},
...          winning_seats=("crim-1",))
>>> e = EndModel(out, {"crim-1": "Bob"}, [(0, 500), (1, 700), (2, 1150)])
>>> e.headline, e.winners
('◆ Criminals win', 'Bob')
>>> EndModel(NS(winner="dynasty", reason="", scores={}, winning_seats=()), {}).headline
'■ Dynasty wins'
>>> e.score_lines()
['◆ Criminals: 1150 (influence 1150, properties 4)']
>>> EndModel(NS(winner="cops", reason="", winning_seats=(),
...               scores={"cops": NS(total=2, breakdown={"properties": 2, "captured": 0})}), {}).score_lines()
['▲ Cops: 2 (properties 2, criminals in custody at the end 0)']
>>> e.chart_points(100, 50)
[(0.0, 21.74), (50.0, 30.43), (100.0, 50.0)]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GLYPHS = {"cops": "▲", "criminals": "◆", "dynasty": "■", "liberation": "●"}
# Score parts in plain words. Tyranny's "captured" counts the criminals in custody when
# the game ends, not the arrests made during it ("captured 0" read as "nobody was ever
# arrested").
PARTS = {"captured": "criminals in custody at the end"}


def _title(faction: str) -> str:
    return f"{GLYPHS.get(faction, '○')} {faction.replace('-', ' ').title()}"


@dataclass
class EndModel:
    outcome: Any
    names: dict[str, str]
    series: list[tuple[int, int]] = field(default_factory=list)  # (turn, value)

    @property
    def headline(self) -> str:
        if self.outcome is None:
            return "The game is not over"
        w = self.outcome.winner
        if not w:
            return "A draw"
        # "Cops win", "Criminals win", but "Dynasty wins": the verb follows the name's number.
        return f"{_title(w)} {'win' if w.endswith('s') else 'wins'}"

    @property
    def winners(self) -> str:
        seats = getattr(self.outcome, "winning_seats", ()) or ()
        return ", ".join(self.names.get(s, s) for s in seats)

    @property
    def reason(self) -> str:
        r = getattr(self.outcome, "reason", "") or ""
        return r[:1].upper() + r[1:] + ("." if r and not r.endswith(".") else "")

    def score_lines(self) -> list[str]:
        out = []
        for faction, sc in (getattr(self.outcome, "scores", {}) or {}).items():
            total = getattr(sc, "total", sc)
            parts = getattr(sc, "breakdown", {}) or {}
            detail = ", ".join(f"{PARTS.get(k, k.replace('_', ' '))} {v}" for k, v in parts.items())
            out.append(f"{_title(faction)}: {total}" + (f" ({detail})" if detail else ""))
        return out

    def penalty_lines(self, penalties: dict[str, int]) -> list[str]:
        """The clocks' penalty points per seat, for the table to settle.

        >>> EndModel(None, {"cop-1": "Ann"}).penalty_lines({"cop-1": 3})
        ['Time penalties: Ann 3 points']
        """
        if not penalties:
            return []
        parts = ", ".join(f"{self.names.get(s, s)} {p} point{'s' if p != 1 else ''}" for s, p in penalties.items())
        return [f"Time penalties: {parts}"]

    @property
    def has_chart(self) -> bool:
        """Only a game that tracks a value over the turns (Tyranny's influence) has a chart."""
        return bool(self.series)

    def chart_points(self, width: float, height: float) -> list[tuple[float, float]]:
        if not self.series:
            return []
        vals = [v for _, v in self.series]
        lo, hi = min(0, *vals), max(1000, *vals)
        first, last = self.series[0][0], self.series[-1][0]
        span_t = (last - first) or 1
        return [(round((t - first) / span_t * width, 2), round((v - lo) / (hi - lo) * height, 2)) for t, v in self.series]

    def axis(self) -> tuple[int, int, int, int]:
        """(first turn, last turn, lowest value, highest value) of the chart."""
        vals = [v for _, v in self.series] or [0]
        turns = [t for t, _ in self.series] or [0]
        return turns[0], turns[-1], min(0, *vals), max(1000, *vals)
