"""Actions: small frozen values, one class per kind, registered for JSON.

Chance is an input: a die roll or a card draw is an action carrying its result, so a
physical die, the app's own roller and a test all drive the same path. ``source`` says
where an action came from (``"touch"``, ``"die:hub1/0"``, ``"app"``…); it is recorded but
never part of an action's identity, so a roll from a die equals the same roll typed in.

>>> Roll("cop-1", (4,), source="die:hub1/0") == Roll("cop-1", (4,))
True
>>> Roll("cop-1", (4,)).kind
'roll'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, TypeVar

from .serial import from_data, serializable, to_data
from .errors import ParseError

A = TypeVar("A", bound="Action")


@dataclass(frozen=True)
class Action:
    """Base of every action: who acts (``seat``) and where the input came from."""

    kind: ClassVar[str] = "action"
    chance: ClassVar[bool] = False

    seat: str
    source: str = field(default="touch", compare=False, kw_only=True)

    def to_data(self) -> dict[str, Any]:
        return to_data(self)


def action(tag: str) -> Callable[[type[A]], type[A]]:
    """Class decorator: register an action kind under ``"<game>.<kind>"``.

    The part after the last dot is the action's ``kind``, the word prompts use.
    """

    def register(cls: type[A]) -> type[A]:
        cls.kind = tag.rsplit(".", 1)[-1]
        return serializable(tag)(cls)

    return register


def parse_action(data: Any) -> Action:
    """Read an action from JSON data produced by ``Action.to_data``."""
    value = from_data(data)
    if not isinstance(value, Action):
        raise ParseError(f"not an action: {data!r}")
    return value


@action("core.roll")
@dataclass(frozen=True)
class Roll(Action):
    """The result of rolling ``len(values)`` dice."""

    chance: ClassVar[bool] = True
    values: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.values)

    @property
    def is_double(self) -> bool:
        return len(self.values) == 2 and self.values[0] == self.values[1]


@action("core.draw")
@dataclass(frozen=True)
class Draw(Action):
    """Drawing ``card`` (its identity) from ``deck``: the app's top card or the physical card."""

    chance: ClassVar[bool] = True
    deck: str = ""
    card: str = ""


@action("core.commit")
@dataclass(frozen=True)
class Commit(Action):
    """A secret choice, hidden until every seat that must choose has chosen."""

    choice: str = ""
