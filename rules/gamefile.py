"""Game files: a game's setup and actions as JSON, as ``python -m rules play --save``
writes them and ``python -m rules replay`` reads them back.

Reading checks everything a file could get wrong before any engine sees it, so a bad file
is a :class:`GameFileError` (a :class:`~rules.core.RulesError`) whose message names the file
and the field (``actions[3].values[0]``), never a ``TypeError`` from deep inside a game.

>>> raw = {"game": "mini", "seats": [{"id": "a", "faction": "red"}], "actions": []}
>>> read_game_data(raw, "game.json").seats
[Seat(id='a', faction='red', name='')]
>>> read_game_data({**raw, "seed": 1.5}, "game.json")
Traceback (most recent call last):
...
rules.gamefile.GameFileError: game.json: seed: must be a whole number from 0 to 18446744073709551615, not 1.5
"""
from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from .core import Action, Game, IllegalAction, RulesError, Seat, parse_action, to_data
from .core.actions import misfits
from .core.jsondata import tag_of
from .datafile import MAX_DEPTH, at, kind, short, too_deep

MAX_SEED = 2**64 - 1
INT_LIMIT = 2**63
"""Whole numbers in actions lie strictly between -INT_LIMIT and INT_LIMIT (64-bit, as
JSON readers elsewhere can hold them)."""
KEYS = ("game", "seats", "options", "seed", "actions")


class GameFileError(RulesError):
    """A game file, or an action typed as JSON, that cannot be read. ``source`` names the
    file, ``field`` the place in it (``""`` for the whole file)."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source, self.field, self.problem = source, field, problem
        super().__init__(f"{source}: {field}: {problem}" if field else f"{source}: {problem}")


class NotJson(GameFileError):
    """Text that is empty or not JSON at all (rather than JSON too deep or too long)."""


@dataclass(frozen=True)
class GameFile:
    """What a game file holds; ``actions`` are still JSON data (see :func:`read_action`)."""

    game: str
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    actions: list[Any]


def parse_json(text: str, source: str) -> Any:
    """JSON text → data, or a :class:`GameFileError` saying in one line what is wrong."""
    if not text.strip():
        raise NotJson(source, "", "is empty; JSON was expected")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise NotJson(source, "", f"is not JSON ({e.msg}, line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise GameFileError(source, "", f"nests lists or objects too deep (at most {MAX_DEPTH} levels)") from None
    except _Constant as e:
        raise GameFileError(source, "", f"holds {e}, which is not a number JSON allows") from None
    except ValueError:  # Python's limit on the digits of an int
        raise GameFileError(source, "", f"holds a number with more than {sys.get_int_max_str_digits()} digits") from None
    where = too_deep(data, MAX_DEPTH)
    if where is not None:
        raise GameFileError(source, where, f"nests lists or objects too deep (at most {MAX_DEPTH} levels)")
    return data


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python's json reads them, JSON has none."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def read_game_file(path: str | Path) -> GameFile:
    """Read and check a game file."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameFileError(source, "", "no such file") from None
    except IsADirectoryError:
        raise GameFileError(source, "", "is a directory, not a game file") from None
    except UnicodeDecodeError:
        raise GameFileError(source, "", "is not UTF-8 text; a game file is JSON") from None
    except OSError as e:
        raise GameFileError(source, "", f"cannot be read ({e.strerror or e})") from None
    return read_game_data(parse_json(text, source), source)


def read_game_data(data: Any, source: str) -> GameFile:
    """Check game-file data (already parsed JSON); the actions are checked one by one as
    they are replayed (:func:`read_action`)."""
    if not isinstance(data, dict):
        raise GameFileError(source, "", f"a game file is a JSON object with {', '.join(map(repr, KEYS))}, not {kind(data)}")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise GameFileError(source, at("", unknown[0]), f"a game file has no key {unknown[0]!r} (it has {', '.join(map(repr, KEYS))})")
    for key in ("game", "seats", "actions"):
        if key not in data:
            raise GameFileError(source, key, f"the key {key!r} is missing")
    game = data["game"]
    if not isinstance(game, str) or not game:
        raise GameFileError(source, "game", f"must be a game id (text), not {short(game)}")
    seats = _seats(data["seats"], source)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise GameFileError(source, "options", f"must be an object of option names and values, not {kind(options)}")
    seed = data.get("seed", 0)
    if not is_seed(seed):
        raise GameFileError(source, "seed", f"must be a whole number from 0 to {MAX_SEED}, not {short(seed)}")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise GameFileError(source, "actions", f"must be a list of actions, not {kind(actions)}")
    return GameFile(game, seats, options, seed, actions)


def is_seed(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_SEED


def _seats(raw: Any, source: str) -> list[Seat]:
    if not isinstance(raw, list):
        raise GameFileError(source, "seats", f"must be a list of seats, not {kind(raw)}")
    seats = []
    for i, s in enumerate(raw):
        where = f"seats[{i}]"
        if not isinstance(s, dict):
            raise GameFileError(source, where, f"a seat is an object with 'id', 'faction' and 'name', not {kind(s)}")
        for key in s:
            if key not in ("id", "faction", "name"):
                raise GameFileError(source, at(where, key), "a seat has only 'id', 'faction' and 'name'")
        for key in ("id", "faction", "name"):
            value = s.get(key, "" if key == "name" else None)
            if not isinstance(value, str) or (key != "name" and not value):
                raise GameFileError(source, f"{where}.{key}", f"must be text, not {short(value)}")
        seats.append(Seat(s["id"], s["faction"], s.get("name", "")))
    return seats


def read_action(game: Game[Any], raw: Any, source: str, where: str) -> Action:
    """One action's JSON data → the game's :class:`~rules.core.Action`, checking its kind
    is one the game has and every field has the type the action declares."""
    if not isinstance(raw, dict):
        raise GameFileError(source, where, f"an action is a JSON object with a '$' kind, not {kind(raw)}")
    kinds = {tag_of(t): t for t in game.action_types}
    tag = raw.get("$")
    if not isinstance(tag, str):
        raise GameFileError(source, where, f"an action names its kind under '$' (one of {', '.join(sorted(kinds))})")
    cls = kinds.get(tag)
    if cls is None:
        raise GameFileError(source, at(where, "$"), f"{game.title} has no action {short(tag)} (it has {', '.join(sorted(kinds))})")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in raw:
        if key != "$" and key not in fields:
            raise GameFileError(source, at(where, key), f"a {tag} action has no field {short(key)} (it has {', '.join(fields)})")
    for name, f in fields.items():
        if name not in raw and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise GameFileError(source, at(where, name), f"a {tag} action needs this field")
    # The kernel's typed-input check says what is wrong with a field; the file error adds
    # where in the file it sits.
    try:
        return parse_action(raw)
    except IllegalAction as e:
        bad = misfits(e.action) if isinstance(e.action, Action) else []
        if bad:
            raise GameFileError(source, f"{where}.{bad[0][0]}", bad[0][1]) from None
        raise GameFileError(source, where, " ".join(v.message for v in e.violations)) from None


def save_data(game: Game[Any], seats: list[Seat], options: Mapping[str, Any], seed: int, actions: Iterable[Action]) -> dict[str, Any]:
    """The game-file data :func:`read_game_data` reads back."""
    return {
        "game": game.id,
        "seats": [{"id": s.id, "faction": s.faction, "name": s.name} for s in seats],
        "options": dict(options),
        "seed": seed,
        "actions": [to_data(a) for a in actions],
    }
