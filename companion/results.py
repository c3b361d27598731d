"""What the Table and its input router say about an action or an input event: plain
values, shared by the Table, the router and the UI (so neither imports the other).

>>> RouteResult(collecting=(4,)).collecting
(4,)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Action, IllegalAction, Violation


@dataclass(frozen=True)
class Accepted:
    """An action the engine accepted and the journal committed. ``ply``: its index in the
    line of play; ``events``: the public log lines it produced; ``seq``: its journal row."""

    ply: int
    action: Action
    events: tuple[str, ...] = ()
    seq: int = -1


@dataclass(frozen=True)
class Rejected:
    """Input that does not fit, with a stable ``code`` and a sentence for the UI (and the
    rule's section when the engine refused it). Nothing changed."""

    code: str
    message: str
    rule: str = ""


@dataclass(frozen=True)
class RouteResult:
    """What :meth:`Table.route` did with an event: exactly one of ``accepted`` (it became
    an action), ``rejected`` (it does not fit; nothing changed), ``ignored`` (not input for
    the game, a duplicate, a token lifted…: why), or ``collecting`` (some dice of a
    several-dice roll are in; waiting for the rest)."""

    accepted: Accepted | None = None
    rejected: Rejected | None = None
    ignored: str | None = None
    collecting: tuple[int, ...] = ()


@dataclass(frozen=True)
class Change:
    """A notification for subscribers. ``kind``: "action", "undo", "redo", "clock",
    "secret", "over", "routed"; ``ply``: the line of play's length after it;
    ``detail``: the clock events, a :class:`RoutedInput`, … (public data only).

    Subscribers are the one channel by which results reach a screen: an input event's
    result arrives once, as the "routed" change that ends the changes it caused."""

    kind: str
    ply: int
    detail: Any = None


@dataclass(frozen=True)
class RoutedInput:
    """The detail of a "routed" change: a physical input event and what the Table did
    with it (its :class:`RouteResult`)."""

    event: Any
    result: RouteResult


@dataclass(frozen=True)
class Routed:
    """The router's verdict on one event, before the Table acts on it: either ``result``
    (rejected, ignored or collecting: nothing to submit) or ``action`` to submit for the
    event (with its ``source``); ``changes`` are notifications the event itself causes
    (a seat selected for the secret desk)."""

    result: RouteResult | None = None
    action: Action | None = None
    source: str = ""
    changes: tuple[Change, ...] = ()


def rejected_from(err: IllegalAction) -> Rejected:
    """The engine's refusal as a :class:`Rejected` (first violation's code, every message)."""
    vs: tuple[Violation, ...] = err.violations
    return Rejected("illegal", " ".join(v.message for v in vs) or str(err), " · ".join(dict.fromkeys(v.rule for v in vs)))
