"""Liberation's actions: one small frozen class per kind. Card ids are city ids (one City
card per city on the map). Draws use the kernel's :class:`~rules.core.Draw` (deck ``"city"``).

Setup: ``Draw`` (setup discard, then the deal), ``FirstCity``, ``PlaceBase``.
Dynasty turn: step 1 ``Draw`` / ``Unexploit`` / ``Pass``; step 2 ``Mission`` / ``Occupy`` /
``Attack`` / ``Unexploit`` / ``Pass`` (then ``Claim`` after a hit, ``AskReferee`` after a mission
with a question); step 3 ``Discard`` while over 3 cards.
Liberation turn: step 1 ``Draw`` / ``Pass``; step 2 ``Evade`` / ``Sabotage`` / ``Mission`` /
``Pass`` (then ``AskReferee``); step 3 ``Discard``.

>>> Attack("dynasty-1", exploit="city-b", city="city-e").kind
'attack'
>>> from rules.core import parse_action, to_data
>>> parse_action(to_data(Evade("liberation-2", to="city-c")))
Evade(seat='liberation-2', source='touch', to='city-c')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.core import Action, action


@action("liberation.first_city")
@dataclass(frozen=True)
class FirstCity(Action):
    """Setup: the Dynasty places ``card`` from its hand face up — its first occupied City."""

    card: str = ""


@action("liberation.place_base")
@dataclass(frozen=True)
class PlaceBase(Action):
    """Setup: the Liberation places ``card`` from its hand face down — its secret base."""

    hidden_fields: ClassVar[tuple[str, ...]] = ('card',)

    card: str = ""


@action("liberation.pass")
@dataclass(frozen=True)
class Pass(Action):
    """Do nothing this step: no draw (step 1), or no action (step 2)."""


@action("liberation.unexploit")
@dataclass(frozen=True)
class Unexploit(Action):
    """Dynasty, step 1 or step 2: rotate the exploited ``city`` back to vertical."""

    city: str = ""


@action("liberation.occupy")
@dataclass(frozen=True)
class Occupy(Action):
    """Dynasty, step 2: exploit the occupied ``exploit`` to occupy ``card`` from hand,
    a City adjacent to it."""

    exploit: str = ""
    card: str = ""


@action("liberation.attack")
@dataclass(frozen=True)
class Attack(Action):
    """Dynasty, step 2: exploit the occupied ``exploit`` to attack ``city``, adjacent to it."""

    exploit: str = ""
    city: str = ""


@action("liberation.claim")
@dataclass(frozen=True)
class Claim(Action):
    """Dynasty, after an Attack took a card from the Liberation: occupy it, or discard it."""

    occupy: bool = True


@action("liberation.mission")
@dataclass(frozen=True)
class Mission(Action):
    """Perform ``card``'s mission. From hand (both sides): reveal the card, then discard
    it. With ``occupied=True`` (Dynasty only): exploit the occupied City ``card`` to perform
    its Dynasty mission. The cost is paid first: ``pay_card`` (discard 1 other card from
    hand, face down) or ``pay_city`` (exploit 1 other occupied City)."""

    hidden_fields: ClassVar[tuple[str, ...]] = ('pay_card',)

    card: str = ""
    occupied: bool = False
    pay_card: str = ""
    pay_city: str = ""


@action("liberation.ask")
@dataclass(frozen=True)
class AskReferee(Action):
    """The referee question of the mission just played: ``cities`` for "is the base among
    these cities?" / "does the opponent hold any of these?", or ``city`` and ``steps`` for
    "is the base within N steps of X?". The app answers truthfully, in public."""

    cities: tuple[str, ...] = ()
    city: str = ""
    steps: int = 0


@action("liberation.evade")
@dataclass(frozen=True)
class Evade(Action):
    """Liberation, step 2: take the base back into hand and secretly put down ``to`` — the
    same City or one adjacent to it — as the new base."""

    hidden_fields: ClassVar[tuple[str, ...]] = ('to',)

    to: str = ""


@action("liberation.sabotage")
@dataclass(frozen=True)
class Sabotage(Action):
    """Liberation, step 2: name ``city``, adjacent to a card in hand or to the base. If the
    Dynasty holds that card, it reveals and discards it."""

    city: str = ""


@action("liberation.discard")
@dataclass(frozen=True)
class Discard(Action):
    """Step 3: discard ``card`` face down (while holding more than 3 cards)."""

    hidden_fields: ClassVar[tuple[str, ...]] = ('card',)

    card: str = ""
