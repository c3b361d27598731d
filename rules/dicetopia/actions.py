"""Dicetopia's actions: one small frozen class per kind. Chance uses the kernel's
:class:`~rules.core.Roll` (the setup roll of the whole city, a Gugu Airforce or Tuulu
reroll) and :class:`~rules.core.Draw` (missions from deck ``"missions"``, faction cards from
deck ``"factions"`` when they are dealt).

A place on the table is ``(where, index)``: ``where`` a neighbourhood id (its space
``index`` in board order, counting every printed space) or a seat id (that player's
faction board, slot ``index`` from the left, 0-5).

>>> Deploy("p1", "gugu", 2).kind, Swap("p1", "agency", 0, "bank", 3).kind
('deploy', 'swap')
>>> from rules.core import parse_action, to_data
>>> parse_action(to_data(Keep("p1", "replica")))
Keep(seat='p1', source='touch', discard='replica')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.core import Action, Commit, action


@action("dicetopia.keep")
@dataclass(frozen=True)
class Keep(Commit):
    """Setup (§3 step 3), secretly: keep two of the three dealt missions, discarding ``discard``."""

    hidden_fields: ClassVar[tuple[str, ...]] = ("discard",)
    discard: str = ""


@action("dicetopia.choose")
@dataclass(frozen=True)
class Choose(Commit):
    """Centauri Bureau at end scoring (Opportunist), secretly: the mission ``unused`` is the
    one of three not scored."""

    hidden_fields: ClassVar[tuple[str, ...]] = ("unused",)
    unused: str = ""


@action("dicetopia.deploy")
@dataclass(frozen=True)
class Deploy(Action):
    """§4: the leftmost agent on your faction board swaps with the die on space ``space`` of
    neighbourhood ``hood``."""

    hood: str = ""
    space: int = 0


@action("dicetopia.bottom")
@dataclass(frozen=True)
class Bottom(Action):
    """The Agency (§5): after drawing, put mission ``card`` from your hand on the bottom of
    the deck."""

    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    card: str = ""


@action("dicetopia.reroll")
@dataclass(frozen=True)
class Reroll(Action):
    """The Gugu Airforce (§5): reroll the die at ``(where, index)``."""

    where: str = ""
    index: int = 0


@action("dicetopia.swap")
@dataclass(frozen=True)
class Swap(Action):
    """Waste Management, Twilight Congress, Observatory Bank, Nethal Syndicate (§5): swap
    what is at ``(a, a_index)`` with what is at ``(b, b_index)``."""

    a: str = ""
    a_index: int = 0
    b: str = ""
    b_index: int = 0


@action("dicetopia.transcend")
@dataclass(frozen=True)
class Transcend(Action):
    """Ewo Following, Transcendence (§7): perform neighbourhood ``hood``'s action instead."""

    hood: str = ""


@action("dicetopia.hypnotize")
@dataclass(frozen=True)
class Hypnotize(Action):
    """The Perceptioneers, Hypnosis (§7): the player whose turn it is must deploy in ``hood``."""

    hood: str = ""


@action("dicetopia.save_turn")
@dataclass(frozen=True)
class SaveTurn(Action):
    """Roamers, Last Resort (§7): skip this turn and take it after the very last turn."""


@action("dicetopia.exterminate")
@dataclass(frozen=True)
class Exterminate(Action):
    """Shakra Pirates, Exterminate (§7): remove the die on ``space`` of ``hood`` from the
    game; the space is never used again."""

    hood: str = ""
    space: int = 0


@action("dicetopia.intervene")
@dataclass(frozen=True)
class Intervene(Action):
    """Tuulu Priests, Intervention (§7): reroll the die at ``(a, a_index)``, then the one at
    ``(b, b_index)`` (the same die: rerolled twice)."""

    a: str = ""
    a_index: int = 0
    b: str = ""
    b_index: int = 0


@action("dicetopia.block")
@dataclass(frozen=True)
class Block(Action):
    """Banxa Corporation, Block (§7): the reroll or swap just announced does not happen."""


@action("dicetopia.adapt")
@dataclass(frozen=True)
class Adapt(Action):
    """Hollows, Adaptation (§7): change the die in slot ``index`` of your board by ``delta`` (+1 or -1)."""

    index: int = 0
    delta: int = 1


@action("dicetopia.clone")
@dataclass(frozen=True)
class Clone(Action):
    """Dangmer Program, Cloning (§7): your die in slot ``index`` takes the ``what``
    (``"value"`` or ``"colour"``) of the die in slot ``theirs`` of the opponent to the right."""

    index: int = 0
    theirs: int = 0
    what: str = "value"


@action("dicetopia.rig")
@dataclass(frozen=True)
class Rig(Action):
    """Bingmai Gamblers, Rigging (§7): ``winner`` alone dominates the tied ``hood``."""

    hood: str = ""
    winner: str = ""


@action("dicetopia.copy")
@dataclass(frozen=True)
class CopyMission(Action):
    """Copycat (§8): score mission ``card`` of another player, on your own dice and agents."""

    card: str = ""


@action("dicetopia.decline")
@dataclass(frozen=True)
class Decline(Action):
    """Let a moment for your ability pass without using it."""
