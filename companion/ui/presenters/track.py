"""A tracked number (influence, score…) with its history, as the track widget shows it.

>>> t = TrackModel("Influence")
>>> t.update(500, turn=0); t.update(550, turn=1)
(50, '+50')
>>> t.update(450, turn=2)
(-100, '−100')
>>> t.recent_deltas()
['+50', '−100']
>>> t.points(100, 10)[:2]
[(0.0, 5.0), (50.0, 10.0)]
"""
from __future__ import annotations

from dataclasses import dataclass, field


def signed(delta: int) -> str:
    """``+50`` / ``−100`` (a real minus sign: it reads better at a distance)."""
    return f"+{delta}" if delta > 0 else (f"−{-delta}" if delta < 0 else "±0")


@dataclass
class TrackModel:
    title: str
    value: int | None = None
    history: list[tuple[int, int]] = field(default_factory=list)  # (turn, value)
    deltas: list[int] = field(default_factory=list)

    def update(self, value: int, turn: int) -> tuple[int, str] | None:
        """Record a value; returns ``(delta, text)`` when it changed (to animate)."""
        old = self.value
        self.value = value
        if self.history and self.history[-1][0] == turn:
            self.history[-1] = (turn, value)
        else:
            self.history.append((turn, value))
        if old is None or old == value:
            return None
        self.deltas.append(value - old)
        return value - old, signed(value - old)

    def reset(self, history: list[tuple[int, int]] | None = None) -> None:
        self.history = list(history or [])
        self.value = self.history[-1][1] if self.history else None
        self.deltas = [b[1] - a[1] for a, b in zip(self.history, self.history[1:]) if b[1] != a[1]]

    def recent_deltas(self, n: int = 5) -> list[str]:
        return [signed(d) for d in self.deltas[-n:]]

    def points(self, width: float, height: float, lo: int | None = None, hi: int | None = None) -> list[tuple[float, float]]:
        """The history as a polyline in a ``width`` × ``height`` box (turns along x)."""
        if not self.history:
            return []
        vals = [v for _, v in self.history]
        lo = min(vals) if lo is None else lo
        hi = max(vals) if hi is None else hi
        span = (hi - lo) or 1
        n = len(self.history)
        step = width / max(1, n - 1)
        return [(round(i * step, 2), round((v - lo) / span * height, 2)) for i, (_, v) in enumerate(self.history)]
