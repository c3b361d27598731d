"""Outrage!'s actions: one small frozen class per kind. Throws of the dice and card draws
are the kernel's :class:`~rules.core.Roll` (2d6, one chance input) and
:class:`~rules.core.Draw` (decks ``"tower"``, hidden in the hand, and ``"raven"``, read
aloud).

>>> from rules.core import parse_action, to_data
>>> parse_action(to_data(MoveTo("ann", "w05")))
MoveTo(seat='ann', source='touch', square='w05', disguise='')
>>> Arm("ann", ("mace-1", "sword-2")).secret, Arm.kind
(True, 'arm')
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action, Commit, action


@action("outrage.move")
@dataclass(frozen=True)
class MoveTo(Action):
    """Move the piece being moved to ``square`` (exactly the count, or the square a player
    names with movement unchecked). ``disguise``: a Disguise card played to pass a warder."""

    square: str = ""
    disguise: str = ""


@action("outrage.split")
@dataclass(frozen=True)
class Split(Action):
    """Split a throw of seven: move ``steps`` (1–6) yourself, and ``other`` the rest."""

    other: str = ""
    steps: int = 0


@action("outrage.choose")
@dataclass(frozen=True)
class Choose(Action):
    """A public choice a card or square offers: ``option`` names it ("go", "stay", a
    square, a warder's post, "cards" or "coin", "reenter" or "retire")."""

    option: str = ""


@action("outrage.play")
@dataclass(frozen=True)
class Play(Action):
    """Show ``card`` from the hand and use it (a Pardon, Tower Pass, Sanctuary, Rope,
    Ladder, Disguise; a Confession names ``target``, the opponent informed on)."""

    card: str = ""
    target: str = ""


@action("outrage.decline")
@dataclass(frozen=True)
class Decline(Action):
    """Let an offer go (a burglary, a card change, a challenge, a card to play)."""


@action("outrage.change")
@dataclass(frozen=True)
class Change(Action):
    """Put ``cards`` from the hand at the bottom of the Tower pack and be dealt as many
    (in lieu of a turn, or on a 'change a card' square)."""

    hidden_fields = ("cards",)
    cards: tuple[str, ...] = ()


@action("outrage.burgle")
@dataclass(frozen=True)
class Burgle(Action):
    """Declare a burglary of the jewel this square faces, laying ``tools`` face up."""

    tools: tuple[str, ...] = ()


@action("outrage.abandon")
@dataclass(frozen=True)
class Abandon(Action):
    """Give up a burglary: the tools go to the bottom of the pack, and the turn goes on."""


@action("outrage.attack")
@dataclass(frozen=True)
class Attack(Action):
    """Announce an attack on ``target`` at the start of the turn (no throw)."""

    target: str = ""


@action("outrage.arm")
@dataclass(frozen=True)
class Arm(Commit):
    """The weapons laid face down in an attack (or a Sanctuary card alone, in defence)."""

    cards: tuple[str, ...] = ()


@action("outrage.surrender")
@dataclass(frozen=True)
class Surrender(Action):
    """Show ``cards`` (the weapons surrendered) and put them at the bottom of the pack."""

    cards: tuple[str, ...] = ()


@action("outrage.challenge")
@dataclass(frozen=True)
class Challenge(Action):
    """Accuse the surrendering player of keeping weapons back."""


@action("outrage.give")
@dataclass(frozen=True)
class Give(Action):
    """A swap (the Wall Walk's "Swap a card"; RULINGS R-10): ``card`` is the Tower card
    the other player took face down from this seat's own hand, entered by this seat,
    who alone may see that hand; ``""`` lets the app pick one blind."""

    hidden_fields = ("card",)
    card: str = ""


@action("outrage.escape")
@dataclass(frozen=True)
class Escape(Action):
    """Pay the ferryman with your coin at the Cradle Tower and leave with your jewels."""
