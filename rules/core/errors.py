"""Typed errors. Every error a caller can act on subclasses :class:`RulesError`, a
:class:`ValueError`, as python-chess does with ``IllegalMoveError``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Protocol


class Sentence(Protocol):
    """A sentence as structure: :class:`rules.core.text.Text` (named by this Protocol
    because text.py imports jsondata, which imports this module)."""

    msgid: str

    def render(self, translator: Any = None, number: Any = None) -> str: ...


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: a stable ``code`` for programs, the ``rule`` (rulebook section)
    it comes from, and ``text``, the sentence for people that names the rule: a
    :class:`~rules.core.text.Text` (worded in the reader's language at display time) or,
    from code not yet converted, a plain English string. ``message`` is always the English
    sentence.

    >>> from rules.core.text import t
    >>> v = Violation("not-your-turn", "Setup §4", t("It is {actor}'s turn, not {seat}'s.", actor="Ann", seat="Bob"))
    >>> v.code, v.message
    ('not-your-turn', "It is Ann's turn, not Bob's.")
    >>> Violation("bad-option", "Setup", "No such option.").message
    'No such option.'
    """

    code: str
    rule: str
    text: Sentence | str

    @property
    def message(self) -> str:
        """The sentence in English (no catalogue)."""
        text = self.text
        return text if type(text) is str else str(text)

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


class RulesError(ValueError):
    """Base of every error raised by the rule engines."""


class IllegalAction(RulesError):
    """An action broke one or more rules. ``violations`` holds every one found; the state
    the action was applied to is unchanged."""

    def __init__(self, violations: Iterable[Violation], action: object = None) -> None:
        self.violations: tuple[Violation, ...] = tuple(violations)
        self.action = action
        super().__init__("; ".join(str(v) for v in self.violations) or "illegal action")

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(v.code for v in self.violations)


class InvalidSetup(RulesError):
    """The seats or options given to ``Game.new`` cannot start a game."""

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__("; ".join(str(v) for v in self.violations))


class NoPositions(RulesError):
    """``Game.new(position=...)`` or ``Game.position`` on a game that has no positions, or
    ``Game.position`` on a state that is not at the start of a turn."""


class ParseError(RulesError):
    """Text or JSON that does not describe a valid action or state."""


class UnknownGame(RulesError, LookupError):
    """``rules.load`` was given an id the catalogue does not hold."""


class BadPluginCard(RulesError):
    """A game's card (its ``plugin.json``) that cannot be read: names the file and every
    problem (:mod:`rules.plugin`)."""

    code = "bad-plugin-card"


class UnknownSource(RulesError, LookupError):
    """``Game.choices`` was asked for a source of choices the game does not offer (a
    position form naming a source its game does not have)."""

    code = "unknown-source"
