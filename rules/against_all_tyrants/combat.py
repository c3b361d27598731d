"""Combat arithmetic, exact and pure (5.2.6.2.1, 5.2.8.2, 5.2.8.4): what one instance of
damage does to a card, with every step written out for the screen to show before an
attack is confirmed.

Order (RULINGS A-09): the attack value (or a Point-Defense unit's X against a Fighter),
plus Bomber or Torpedo bonuses; minus Armor, itself reduced by Pierce (no X: to 0); a
Stealth token then negates the whole instance; Shield tokens absorb one damage each; what
is left becomes Damage tokens, and a unit with as many Damage tokens as health is destroyed.
Damage that is not an attack (Point-Defense's reply, an order's "deal 2 damage") ignores
Armor, which only reduces attacks.

>>> from rules.against_all_tyrants.cards import Trait
>>> a = Side(attack=3, traits={"Pierce": 1})
>>> t = Side(health=4, traits={"Armor": 2}, tokens={"Shield": 1})
>>> print(combat_preview(a, t).text)
3 attack − Armor 2 (Pierce 1 → Armor 1) = 2; 1 absorbed by a Shield → 1 damage (1 of 4 health)
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, NamedTuple

from .cards import Card


_NONE: Mapping[str, int] = MappingProxyType({})


class Side(NamedTuple):
    """What combat needs to know of one card in play: its printed attack and health, its
    working traits (name → X, ``None`` for no X; a Disruption token leaves only Armor,
    Fighter and Capital), its tokens and its theater. (A named tuple: one is made for
    each card of every attack, so it is made as cheaply as Python makes anything.)"""

    attack: int = 0
    health: int = 1
    traits: Mapping[str, int | str | None] = _NONE
    tokens: Mapping[str, int] = _NONE
    theater: str = ""
    name: str = ""

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def x(self, trait: str) -> int:
        v = self.traits.get(trait)
        return v if isinstance(v, int) else 0

    @classmethod
    def of(cls, card: Card, tokens: Mapping[str, int], theater: str) -> "Side":
        # The card's own trait maps (never changed): a Disruption token leaves Armor,
        # Fighter and Capital only (5.2.8.4).
        traits = card._xs_disrupted if tokens.get("Disruption", 0) > 0 else card._xs
        return cls(card.attack, card.health, traits, dict(tokens), theater, card.title)


class Hit(NamedTuple):
    """One instance of damage worked out: ``amount`` before Armor, ``armor`` left after
    Pierce, whether a Stealth token negated it, the Shield tokens used, the Damage tokens
    placed, whether the card is destroyed, and the ``steps`` in words."""

    amount: int
    armor: int
    stealth: bool
    shields: int
    damage: int
    destroyed: bool
    steps: tuple[str, ...]

    @property
    def text(self) -> str:
        return "; ".join(self.steps)


def attack_amount(attacker: Side, target: Side) -> tuple[int, str]:
    """The damage an attack brings before Armor, and how it was reached."""
    if attacker.has("Point-Defense") and target.has("Fighter"):
        x = attacker.x("Point-Defense")
        amount, text = x, f"{x} Point-Defense damage (instead of {attacker.attack} attack)"
    else:
        amount, text = attacker.attack, f"{attacker.attack} attack"
    if attacker.has("Bomber") and target.theater == "planetside" and attacker.x("Bomber"):
        amount += attacker.x("Bomber")
        text += f" + Bomber {attacker.x('Bomber')}"
    if attacker.has("Torpedo") and target.has("Capital") and attacker.x("Torpedo"):
        amount += attacker.x("Torpedo")
        text += f" + Torpedo {attacker.x('Torpedo')}"
    return amount, text


def combat_preview(attacker: Side, target: Side) -> Hit:
    """The attack of ``attacker`` on ``target``, step by step (nothing is changed)."""
    amount, text = attack_amount(attacker, target)
    steps: list[str] = []
    armor = target.x("Armor") if target.has("Armor") else 0
    after = amount
    if armor:
        part = f"{text} − Armor {armor}"
        if attacker.has("Pierce"):
            px = attacker.traits["Pierce"]
            left = 0 if not isinstance(px, int) else max(0, armor - px)
            part += f" (Pierce {px} → Armor {left})" if isinstance(px, int) else f" (Pierce → Armor {left})"
            armor = left
        after = max(0, amount - armor)
        steps.append(f"{part} = {after}")
    else:
        steps.append(text if amount == after else f"{text} = {after}")
    return _land(target, after, armor, amount, steps)


def damage_preview(target: Side, amount: int, source: str = "") -> Hit:
    """Damage that is not an attack (an order's, Point-Defense's reply): no Armor."""
    steps = [f"{amount} damage" + (f" ({source})" if source else "")]
    return _land(target, amount, 0, amount, steps)


def _land(target: Side, after: int, armor: int, amount: int, steps: list[str]) -> Hit:
    if target.tokens.get("Stealth", 0) > 0 and after > 0:
        steps.append("a Stealth token negates it → 0 damage (the token is removed)")
        return Hit(amount, armor, True, 0, 0, False, tuple(steps))
    shields = min(target.tokens.get("Shield", 0), after)
    dealt = after - shields
    if shields:
        steps.append(f"{shields} absorbed by {'a Shield' if shields == 1 else f'{shields} Shields'} → {dealt} damage")
    elif after == 0 and len(steps) == 1 and "=" not in steps[0]:
        steps[0] += " → 0 damage"
    total = target.tokens.get("Damage", 0) + dealt
    destroyed = dealt > 0 and total >= target.health
    if dealt:
        steps[-1] += f" ({total} of {target.health} health{': destroyed' if destroyed else ''})"
    return Hit(amount, armor, False, shields, dealt, destroyed, tuple(steps))
