"""What a game screen's action panel and its privacy gate show, as plain values (no Kivy).

A game's presenter returns :class:`ButtonSpec` values for the public action panel and
:class:`GateSection` values for a page behind the privacy gate; the shared
:class:`companion.ui.gamescreen.GameScreen` turns them into widgets
(``widgets/action_panel.py``, ``widgets/gate_page.py``) and taps into Table calls.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .gate import GatePick

# The intents GameScreen carries out itself; any other intent goes to the screen's
# ``on_intent`` (a game's own panel step: Liberation's audit, a question's steps).
SHARED_INTENTS = ("submit", "app-draw", "physical-draw", "hand", "hands")


@dataclass(frozen=True)
class ButtonSpec:
    """One button of the action panel.

    ``intent``: ``submit`` (give ``action`` to the Table), ``app-draw`` (the app's roller
    or deck, ``count`` times), ``physical-draw`` (``seat`` enters the card it drew, behind
    the gate), ``hand`` (open ``seat``'s hand behind the gate), ``hands`` (a button per
    seat's hand), ``back`` (the game's buttons again), or a game's own (``steps``…).
    ``span``: ``auto`` (half the panel when the label fits there), ``half``, ``full``, or
    ``tile`` (a card: a column of at least 230 dp, as many as fit)."""

    label: str
    intent: str = "submit"
    action: Any = None
    seat: str = ""
    role: str = "normal"
    count: int = 1
    steps: int = 0
    span: str = "auto"


@dataclass(frozen=True)
class GateLine:
    """Words behind the gate. ``tone``: a theme colour role (``text``, ``muted``,
    ``highlight``, ``accent``, ``bad``) or ``faction:<id>``; ``size``: ``small``,
    ``body`` or ``large``."""

    text: str
    tone: str = "text"
    size: str = "body"
    markup: bool = False


@dataclass(frozen=True)
class GateChoice:
    """A button behind the gate: ``action`` is submitted from there; a refusal is shown
    behind the gate (it may quote a hidden card), never on the public banner."""

    label: str
    action: Any
    role: str = "normal"
    span: str = "auto"


@dataclass(frozen=True)
class GateSection:
    """A part of a page behind the gate: a title, lines of words, then choices; ``pick``:
    several items chosen together, then confirmed (:class:`~.gate.GatePick`)."""

    title: str = ""
    lines: tuple[GateLine, ...] = ()
    choices: tuple[GateChoice, ...] = ()
    pick: GatePick | None = None


def peek_button(who: str, seat: str) -> ButtonSpec:
    """The button that opens the gate for a seat that has just drawn a card face down."""
    return ButtonSpec(f"◉ {who}: look at the card you drew", "hand", seat=seat, role="primary")


@dataclass(frozen=True)
class Moment:
    """A result the whole table should read at once, not only in the log: a capture or a
    miss, an escape, a property changing hands. ``kind``: ``good``, ``bad`` or ``info``
    (the card's colour); ``faction``: whose colour marks it ("" for none). A game's
    presenter returns one from ``moment(before, after)`` (two public views, one action
    apart); the shared screen shows it over the board for a few seconds."""

    title: str
    text: str = ""
    kind: str = "info"
    faction: str = ""
