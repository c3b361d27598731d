"""What Stepping Stones' table screen shows, without Kivy: the path of stones with who
stands where, the pebbles, whose turn and what the game waits for, the buttons for the
choice after a roll (the roll itself goes to the shared dice tray)."""
from __future__ import annotations

from typing import Any

from companion.ui.presenters.actions import ButtonSpec
from companion.ui.presenters.base import GamePresenter

from .engine import STONE_NAMES, STONES, GAME

_VERBS = {"leap": "Leap forward", "gather": "Gather a pebble", "hop": "Hop (two pebbles)"}


class StonesPresenter(GamePresenter):
    """Only what is Stepping Stones' own: everything generic (seats, names, who, actors,
    the words from the engine's ``names`` hook) is the shared base's."""

    game_id = GAME.id

    def turn_line(self, view: dict[str, Any] | None = None) -> str:
        return f"Turn {(view or self.view())['turn']}"

    def prompt_line(self) -> str:
        if self.is_over():
            return f"Game over — {self.humanise(self.table.outcome.reason)}."
        p = self.table.prompt
        seat = self.actors()[0]
        if p.awaiting.kinds == ("leap", "gather"):
            return f"{self.who(seat)} rolled {self.view()['rolled']}: leap or gather a pebble?"
        return f"{self.who(seat)}: roll the die."

    def path_lines(self) -> list[str]:
        """One line per stone, from the Tower down, with who stands there."""
        v = self.view()
        lines = []
        for stone in reversed(STONES):
            here = [self.name(s) for s, at in v["stones"].items() if at == stone]
            lines.append(f"{STONE_NAMES[stone]}" + (f": {', '.join(here)}" if here else ""))
        return lines

    def pebble_line(self) -> str:
        return " · ".join(f"{self.name(s)}: {n} pebble{'s' if n != 1 else ''}" for s, n in self.view()["pebbles"].items())

    def buttons(self) -> list[ButtonSpec]:
        if self.is_over():
            return []
        out = []
        for act in self.table.legal_actions():
            if act.kind in _VERBS:
                out.append(ButtonSpec(_VERBS[act.kind], action=act))
        return out
