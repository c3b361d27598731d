"""Tyranny's actions: one small frozen class per kind. Dice rolls and card draws are the
kernel's :class:`~rules.core.Roll` and :class:`~rules.core.Draw` (decks ``"gamble"`` and
``"gains"``).

Turn start (free): ``Roll`` (purpose "move": a movement turn), ``Capture`` (a capture turn
on the property you stand on), ``PlayCard``, ``OpenTunnel`` / ``CollapseTunnel``.
In custody: ``Roll`` (purpose "escape"), ``PayEscape``, ``PlayCard``.
After a movement roll: ``MoveTo``. Passing an enemy: ``ChooseRange`` or ``Decline``, then
the enemy's ``Roll``. Landing on an enemy: ``Arrest`` or ``Decline``. On a Gamble/Gains
tile: ``Draw`` or ``Decline``. On your home base: ``CrossTier`` or ``Decline``. A card that
picks from a face-down hand: ``PickCard``.

>>> MoveTo("cop-1", "o-docks").kind, ChooseRange("cop-1", "crim-1", 2).numbers
('move', (2, 3, 4))
>>> from rules.core import parse_action, to_data
>>> parse_action(to_data(PlayCard("crim-1", "gains-07a", tunnel="tunnel-b")))
PlayCard(seat='crim-1', source='touch', card='gains-07a', target='', number=0, tunnel='tunnel-b')
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action, action


@action("tyranny.move")
@dataclass(frozen=True)
class MoveTo(Action):
    """Move the piece to ``tile``, one of the tiles the roll (or card) reaches."""

    tile: str = ""


@action("tyranny.capture")
@dataclass(frozen=True)
class Capture(Action):
    """Start a capture turn on the property tile the piece stands on."""


@action("tyranny.play")
@dataclass(frozen=True)
class PlayCard(Action):
    """Play ``card`` from the hand. ``target``: the seat a card acts on (the captured
    criminal for Gains 6's cop half); ``number``: the number chosen (Gains 6, cops);
    ``tunnel``: the tunnel a card opens or collapses (Gains 7)."""

    card: str = ""
    target: str = ""
    number: int = 0
    tunnel: str = ""


@action("tyranny.open")
@dataclass(frozen=True)
class OpenTunnel(Action):
    """Dig (open) the tunnel whose end the piece stands on, paying its cost."""

    tunnel: str = ""


@action("tyranny.collapse")
@dataclass(frozen=True)
class CollapseTunnel(Action):
    """Collapse the open tunnel whose end the piece stands on, paying its cost."""

    tunnel: str = ""


@action("tyranny.pay")
@dataclass(frozen=True)
class PayEscape(Action):
    """Escape custody by paying 200 influence."""


@action("tyranny.range")
@dataclass(frozen=True)
class ChooseRange(Action):
    """Passing ``target``: start a Capture Roll; the enemy must roll ``low``..``low+2`` to go free."""

    target: str = ""
    low: int = 1

    @property
    def numbers(self) -> tuple[int, int, int]:
        return (self.low, self.low + 1, self.low + 2)


@action("tyranny.arrest")
@dataclass(frozen=True)
class Arrest(Action):
    """Capture ``target``, an enemy on the tile the piece landed on."""

    target: str = ""


@action("tyranny.cross")
@dataclass(frozen=True)
class CrossTier(Action):
    """On your faction's home base: move to the home base on the other tier."""


@action("tyranny.pick")
@dataclass(frozen=True)
class PickCard(Action):
    """Choose the ``index``-th (from 0) card of ``target``'s face-down hand, to discard or steal."""

    target: str = ""
    index: int = 0


@action("tyranny.decline")
@dataclass(frozen=True)
class Decline(Action):
    """Say no to an optional step (a Capture Roll, an arrest, a draw, a card, crossing)."""
