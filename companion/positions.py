"""Games joined in progress: the position a table enters, checked by the engine, with its
problems in the players' words.

A position is the engine's own (``game.position(state)``, ``game.new(..., position=p)``,
see rules/README.md "Positions"). The engine names each problem by its field path
(``position.pebbles.fox-1: must be a whole number from 0, not -2.``); a player reads
``pebbles — Ann: must be a whole number from 0, not -2.`` instead, and the path stays on
:attr:`PositionProblem.field` so a form can show the problem beside the field it concerns.

Secrets: a position's ``private`` part (Liberation's base and hands) is entered by its
holders and is kept by the journal so the game can resume, but :func:`public_position`
drops it, and the problems of a private field are worded for the shared screen without
the value (:func:`PositionProblem.public_message`).

>>> game = "stepping_stones"
>>> seats = [{"id": "fox-1", "faction": "fox", "name": "Ann"},
...          {"id": "hare-1", "faction": "hare", "name": "Bob"}]
>>> p = default_position(game, seats, {})
>>> p
{'seat': 'fox-1', 'turn': 1, 'stones': {'fox-1': 'ford', 'hare-1': 'ford'}, 'pebbles': {'fox-1': 0, 'hare-1': 0}}

Every problem is found in one check, each beside its field, with seats by their players'
names and pieces by the game's own names for them (``Game.names``: "tower" is the Tower):

>>> p["pebbles"]["fox-1"] = -2
>>> p["stones"]["hare-1"] = "tower"
>>> for x in check_position(game, seats, {}, p):
...     print(x.field, "|", x.message)
pebbles.fox-1 | pebbles — Ann: must be a whole number from 0, not -2.
stones.hare-1 | stones — Bob: no stone 'the Tower' before the Tower (one standing on the Tower has won).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import rules
from rules import InvalidSetup
from rules.core import NoPositions

from .errors import CompanionError

PRIVATE = "private"
# A position is a turn's start; reaching one from a fresh game takes the setup steps
# (Liberation deals, discards, picks a first City and hides the base): a handful of actions.
_SETUP_LIMIT = 200
_PATH = re.compile(r"^position\.([^:]*):\s*")


@dataclass(frozen=True)
class PositionProblem:
    """One problem of a position: ``field`` is the engine's path without ``position.``
    (``"pieces.cops-1.tile"``; ``""`` for the whole position), ``message`` the engine's
    sentence in players' words (names for ids)."""

    field: str
    message: str

    @property
    def is_private(self) -> bool:
        return self.field == PRIVATE or self.field.startswith(PRIVATE + ".")

    def public_message(self, names: Mapping[str, str]) -> str:
        """What the shared screen may say: a private field's problem names only whose
        secret entry it is (its message may quote the secret city)."""
        if not self.is_private:
            return self.message
        parts = self.field.split(".")
        # private.<seat>.… (Liberation, Dicetopia) or private.<what>.<seat> (Outrage's hands).
        who = next((names[x] for x in parts[1:3] if x in names), "A player")
        if len(parts) == 1:
            return "The secret entries do not fit together (a card in two places): check them behind the gate."
        return f"{who}'s secret entry has a problem: {who} checks it behind the gate."


class PositionRefused(InvalidSetup, CompanionError):
    """A position the engine refused. Still an :class:`InvalidSetup` (a ValueError) with
    the engine's violations; ``problems`` and ``str()`` speak the players' language,
    without any secret (private fields are named, not quoted)."""

    code = "position-refused"

    def __init__(self, violations: Iterable[Any], problems: Iterable[PositionProblem], names: Mapping[str, str]) -> None:
        super().__init__(violations)
        self.problems = tuple(problems)
        self.args = ("; ".join(p.public_message(names) for p in self.problems),)

    def __str__(self) -> str:
        return str(self.args[0])


def has_positions(game_id: str) -> bool:
    """Whether the engine can start a game from a position."""
    game = rules.load(game_id)
    return type(game).from_position is not rules.core.Game.from_position


def public_position(position: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The position without its private part: what a public view, a log or an export may hold."""
    if position is None:
        return None
    return {k: copy.deepcopy(v) for k, v in position.items() if k != PRIVATE}


def default_position(game_id: str, seats: list[Mapping[str, Any]], options: Mapping[str, Any], seed: int = 0) -> dict[str, Any]:
    """The engine's own position of a fresh game: the opening's first turn, after the
    setup steps (taken with the engine's own sampler or its first legal choice), so a
    table joining a game only changes what differs. Raises NoPositions for a game
    without positions."""
    game = rules.load(game_id)
    state = game.new([dict(s) for s in seats], dict(options), seed)
    for _ in range(_SETUP_LIMIT):
        try:
            return game.position(state)
        except NoPositions:
            if state.result is not None:
                raise
        action = game.sample(state)
        if action is None:
            action = next(iter(game.legal_actions(state)))
        game.push(state, action)
    raise NoPositions(f"{game.title}: no turn start within {_SETUP_LIMIT} setup actions.")


# ------------------------------------------------------------------------------ names

def names_for(game_id: str, seats: Iterable[Mapping[str, Any]], options: Mapping[str, Any]) -> dict[str, str]:
    """id → the name players use: the game's own names of its pieces (``Game.names``: tiles,
    cards, cities, read from its data for these options, so a table's own board or map is
    named as the table entered it), then the seats' names."""
    out = dict(rules.load(game_id).names(dict(options)))
    for i, s in enumerate(seats):
        out[str(s["id"])] = str(s.get("name") or f"Player {i + 1}")
    return out


def field_words(field: str, names: Mapping[str, str], labels: Mapping[str, str] | None = None) -> str:
    """A field path in players' words: ``pieces.cops-1.tile`` → ``Ann's piece — tile``,
    ``owners.o-docks`` → ``owners — The Docks``. ``labels`` (a form's own labels by
    path) win over the generic wording."""
    if labels and field in labels:
        return labels[field]
    parts = field.split(".")
    head, rest = parts[0], parts[1:]
    said = [names.get(p, f"#{int(p) + 1}" if p.isdigit() else p.replace("_", " ")) for p in rest]
    if rest and rest[0] in names and head in _PER_SEAT:
        tail = " ".join(said[1:])
        return f"{said[0]}'s {_PER_SEAT[head]}" + (f" — {tail}" if tail else "")
    return " — ".join([head.replace("_", " ")] + [" ".join(said)] if said else [head.replace("_", " ")])


# The engine's per-seat sections, said of their seat ("Ann's piece").
_PER_SEAT = {"pieces": "piece", "hands": "hand", "misses": "missed turns", "private": "secret entry"}


def player_words(message: str, names: Mapping[str, str], labels: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(field path, sentence) of an engine violation message: the path taken off the
    front and said in words, every id the message quotes replaced by its name."""
    m = _PATH.match(message)
    # A list item is "city.agency[0]" in some engines' messages, "pieces.0" in others: one way here.
    field = re.sub(r"\[(\d+)\]", r".\1", m.group(1)) if m else ""
    text = message[m.end():] if m else message
    # Field paths named inside the sentence ("hands.cops-1 says 3").
    text = re.sub(r"\b(hands|pieces|misses|private)\.([\w-]+)", lambda g: field_words(g.group(0), names, labels), text)
    for ident in sorted(names, key=len, reverse=True):
        if ident in text:
            text = re.sub(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", names[ident], text)
    where = field_words(field, names, labels) if field else ""
    return field, (f"{where}: {text}" if where else text)


def check_position(game_id: str, seats: list[Mapping[str, Any]], options: Mapping[str, Any], position: Mapping[str, Any],
                   labels: Mapping[str, str] | None = None) -> list[PositionProblem]:
    """Every problem the engine finds with ``position`` (empty: it can start), in players'
    words. Seats or options the engine refuses are reported too (field ``""``)."""
    game = rules.load(game_id)
    try:
        game.new([dict(s) for s in seats], dict(options), 0, position=dict(position))
    except InvalidSetup as e:
        return problems_of(game_id, seats, options, e.violations, labels)
    return []


def problems_of(game_id: str, seats: Iterable[Mapping[str, Any]], options: Mapping[str, Any], violations: Iterable[Any],
                labels: Mapping[str, str] | None = None) -> list[PositionProblem]:
    names = names_for(game_id, seats, options)
    out = []
    for v in violations:
        field, text = player_words(v.message, names, labels)
        out.append(PositionProblem(field, text))
    return out
