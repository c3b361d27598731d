"""STEALING THE JEWELS: on the square facing a jewel in its case, an accredited player may
declare a burglary, laying burglary tools face up (more than one, never two of a kind, the
Key alone); on a later turn the burglar throws for the target the tools' points set, and
the first to make it takes the jewel.

>>> from rules.outrage.cards import burglary_target
>>> burglary_target(["file-1"]), burglary_target(["file-1", "dynamite-1"]), burglary_target(["key-1"])
(10, 5, 3)
"""
from __future__ import annotations

from typing import Iterator

from rules.core import Roll, Violation

from .actions import Abandon, Burgle
from .cards import TOWER, burglary_target, kind_of
from .places import BOARD
from .sections import R_STEAL
from .state import Burglary, OutrageState

TOOL_KINDS = ("file", "crowbar", "dynamite", "key")


class Burglaries:
    """Declaring, attempting, abandoning and losing a burglary (the rules' part of
    :class:`~rules.outrage.game.Outrage`)."""

    def _burgle_violations(self, state: OutrageState, action: Burgle) -> Iterator[Violation]:
        hand = state.hands[action.seat].cards
        tools = action.tools
        who = state.seat_name(action.seat)
        if not tools or len(set(tools)) != len(tools) or any(c not in hand for c in tools):
            yield Violation("not-in-hand", R_STEAL, f"{who} lays one or more burglary tools from their own hand.")
            return
        if any(TOWER[c].group != "tool" for c in tools):
            yield Violation("not-a-tool", R_STEAL, f"{who} lays only burglary tools (File, Crowbar, Dynamite, Key) for a burglary.")
        kinds = [kind_of(c) for c in tools]
        if len(set(kinds)) != len(kinds):
            yield Violation("two-of-a-kind", R_STEAL, f"{who} may use more than one tool, but not more than one of the same kind.")
        if "key" in kinds and len(kinds) > 1:
            yield Violation("key-alone", R_STEAL, f"{who} cannot combine the Key with any other tool.")

    def _burgle(self, state: OutrageState, action: Burgle) -> None:
        seat = action.seat
        jewel = BOARD.square(state.pos[seat]).faces
        for c in action.tools:
            state.hands[seat].remove(c)
        state.burglaries[seat] = Burglary(jewel, list(action.tools))
        target = burglary_target(action.tools)
        tools = ", ".join(TOWER[c].name for c in action.tools)
        state.note(f"{state.seat_name(seat)} declares a burglary of the {BOARD.jewel_name[jewel]} with {tools}: needs {target} or more on a later turn. [{R_STEAL}]")
        state.end_now = True
        state.again = False
        self.proceed(state)

    def _burgle_roll(self, state: OutrageState, roll: Roll) -> None:
        seat = roll.seat
        total = sum(roll.values)
        burglary = state.burglaries[seat]
        burglary.attempts += 1
        target = burglary_target(burglary.tools)
        if total >= target:
            self._take_jewel(state, seat, burglary)
        else:
            state.note(f"{state.seat_name(seat)} throws {total} and needs {target}+ for {BOARD.jewel_name[burglary.jewel]} (attempt {burglary.attempts}); try again next turn. [{R_STEAL}]")
        self.end_turn(state)

    def _take_jewel(self, state: OutrageState, seat: str, burglary: Burglary) -> None:
        jewel = burglary.jewel
        state.jewels[jewel] = seat
        del state.burglaries[seat]
        self._to_pack(state, burglary.tools)
        state.note(f"{state.seat_name(seat)} makes the throw and takes the {BOARD.jewel_name[jewel]} from its case! [{R_STEAL}]")
        for other, rival in list(state.burglaries.items()):
            if rival.jewel == jewel:
                del state.burglaries[other]
                self._to_pack(state, rival.tools)
                state.note(f"{state.seat_name(other)} was beaten to it and forfeits their burglary tools. [{R_STEAL}]")

    def _abandon(self, state: OutrageState, action: Abandon) -> None:
        seat = action.seat
        burglary = state.burglaries.pop(seat)
        self._to_pack(state, burglary.tools)
        state.note(f"{state.seat_name(seat)} abandons the burglary; the tools go to the bottom of the Tower pack. [{R_STEAL}]")
        state.phase = "start"

    def drop_burglary(self, state: OutrageState, seat: str) -> None:
        """A burglar taken away forfeits the attempt; the tools go back to the pack."""
        burglary = state.burglaries.pop(seat, None)
        if burglary is not None:
            self._to_pack(state, burglary.tools)
            state.note(f"{state.seat_name(seat)}'s burglary ends; the tools go to the bottom of the Tower pack. [{R_STEAL}]")
