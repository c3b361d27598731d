"""Against All Tyrants' actions: one small frozen class per kind. Card fields name card
*instances* (``"D:ff-rebel-cell#2"``: the Defender's second Rebel Cell); a piece in play
keeps its instance id. Draws are the kernel's :class:`~rules.core.Draw` from the seat's
main deck (``"deck-<seat>"``): the app's deck or the physical card drawn.

Setup: ``Draw`` (five cards), ``Mulligan``, ``Draw`` (as many again), ``Infiltrate``.
Turn: phase 1 ``Draw`` then ``Play`` / ``EndPhase``; phase 2 ``Attack`` / ``Order`` /
``Move`` / ``Clear`` / ``EndPhase``; phase 3 ``PlaceObjective`` / ``EndPhase``.
While a card's text or a trait is being resolved: the primitives ``Damage``, ``Heal``,
``Token``, ``Incident``, ``Draw``, ``Discard``, ``Place``, ``MoveTheater``, ``Instruct``, ``Score``, then
``Done``; and the choices ``Delegate`` (base damage to a leader), ``Skip``.

>>> from rules.core import parse_action, to_data
>>> parse_action(to_data(Attack("attacker", piece="A:nv-destroyer#1", target="D:ff-starhawk#1")))
Attack(seat='attacker', source='touch', piece='A:nv-destroyer#1', target='D:ff-starhawk#1', mark=False)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.core import Action, action


@action("aat.mulligan")
@dataclass(frozen=True)
class Mulligan(Action):
    """Setup (5.2.5.2): discard ``cards`` (any number, none included) from the starting
    hand, to draw as many again; they are shuffled back into the main deck afterwards."""

    hidden_fields: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[str, ...] = ()


@action("aat.infiltrate")
@dataclass(frozen=True)
class Infiltrate(Action):
    """Setup: deploy the Infiltrate unit ``card`` from the Special Forces Deck in ``theater``."""

    card: str = ""
    theater: str = ""


@action("aat.play")
@dataclass(frozen=True)
class Play(Action):
    """Phase 1 (5.2.6.2.1): play ``card`` from hand — a unit into ``theater``, a leader
    beside the base (``theater`` empty), a one-time effect (resolved, then discarded)."""

    card: str = ""
    theater: str = ""


@action("aat.end_phase")
@dataclass(frozen=True)
class EndPhase(Action):
    """End the current phase (deployment, combat, or the turn's end)."""


@action("aat.attack")
@dataclass(frozen=True)
class Attack(Action):
    """Phase 2 (5.2.6.2.1): ``piece`` attacks ``target`` in its theater; ``mark`` spends
    one of its Mark tokens (to ignore Defended, or to target a leader)."""

    piece: str = ""
    target: str = ""
    mark: bool = False


@action("aat.order")
@dataclass(frozen=True)
class Order(Action):
    """Phase 2 (5.2.6.2.2): ``piece`` (a unit, or the base with its own or a leader's
    orders) performs its order number ``index`` from ``card`` (the piece itself or a
    leader): the table then resolves the text with primitives."""

    piece: str = ""
    card: str = ""
    index: int = 0


@action("aat.move")
@dataclass(frozen=True)
class Move(Action):
    """Phase 2 (5.2.6.2.3): ``piece``, deployable in both theaters, changes theater."""

    piece: str = ""


@action("aat.clear")
@dataclass(frozen=True)
class Clear(Action):
    """Phase 2: a Disrupted ``piece`` spends its action removing 1 Disruption token (5.2.8.4)."""

    piece: str = ""


@action("aat.place_objective")
@dataclass(frozen=True)
class PlaceObjective(Action):
    """Phase 3 (5.2.6.3.1): place the objective unit ``card`` in ``theater``, the base's."""

    card: str = ""
    theater: str = ""


# ----------------------------------------------------------- resolution primitives

@action("aat.damage")
@dataclass(frozen=True)
class Damage(Action):
    """Deal ``amount`` damage (not an attack: no Armor) to ``target``."""

    target: str = ""
    amount: int = 1


@action("aat.heal")
@dataclass(frozen=True)
class Heal(Action):
    """Remove up to ``amount`` Damage tokens from ``target``."""

    target: str = ""
    amount: int = 1


@action("aat.token")
@dataclass(frozen=True)
class Token(Action):
    """Add (``delta`` > 0) or remove tokens of kind ``token`` on ``target``."""

    target: str = ""
    token: str = ""
    delta: int = 1


@action("aat.discard")
@dataclass(frozen=True)
class Discard(Action):
    """Discard ``card`` from your hand (face up: the card is named)."""

    card: str = ""


@action("aat.place")
@dataclass(frozen=True)
class Place(Action):
    """Place ``card`` from your hand or Special Forces Deck into ``theater`` (a leader:
    theater empty) — for an order's text, Transport, or Sympathized."""

    card: str = ""
    theater: str = ""


@action("aat.move_theater")
@dataclass(frozen=True)
class MoveTheater(Action):
    """Move ``target`` to its other theater (it must be deployable in both)."""

    target: str = ""


@action("aat.instruct")
@dataclass(frozen=True)
class Instruct(Action):
    """Give ``target`` an instruction: one additional action this turn (5.2.8.1)."""

    target: str = ""


@action("aat.score")
@dataclass(frozen=True)
class Score(Action):
    """An alternate-objective step (5.1.2.3): score 1 Objective token with ``target``
    (``escape``: the Transport leaves the system). Adds an Incident (5.2.7)."""

    target: str = ""
    escape: bool = False


@action("aat.incident")
@dataclass(frozen=True)
class Incident(Action):
    """Add one Incident to the escalation scale, as the text being resolved says (5.2.7,
    RULINGS A-29): four raise the level by one. The hub's Incident token slot sends it."""


@action("aat.done")
@dataclass(frozen=True)
class Done(Action):
    """The text being resolved is done."""


@action("aat.delegate")
@dataclass(frozen=True)
class Delegate(Action):
    """The base's owner moves ``amount`` of the damage its base takes to ``leader``
    (5.2.6.2.1.1); ``amount`` 0 keeps it all on the base."""

    leader: str = ""
    amount: int = 0


@action("aat.skip")
@dataclass(frozen=True)
class Skip(Action):
    """Decline what a trait offers (Transport, Sympathized, Compute, Backup)."""
