"""Actions: small frozen values, one class per kind, registered for JSON.

Chance is an input: a die roll or a card draw is an action carrying its result, so a
physical die, the app's own roller and a test all drive the same path. ``source`` says
where an action came from (``"touch"``, ``"die:hub1/0"``, ``"app"``…); it is recorded but
never part of an action's identity, so a roll from a die equals the same roll typed in.
A die's *identity* (which physical die showed the value) is part of a roll: ``ids``.

>>> Roll("cop-1", (4,), source="die:hub1/0") == Roll("cop-1", (4,))
True
>>> Roll("cop-1", (4,)).kind
'roll'
>>> [v.message for v in bad_fields(Roll("cop-1", (4.0,)))]
["Roll's values[0] must be a whole number, not 4.0."]
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, TypeVar

from .errors import IllegalAction, ParseError, Violation
from .jsondata import from_data, serializable, tag_of, to_data

A = TypeVar("A", bound="Action")

BIG = 1 << 31
"""No action field holds a number this large: a bigger int is malformed input."""
MAX_TEXT = 200
"""No action field holds a longer string (ids, names): a longer one is malformed input."""
MAX_ITEMS = 64
"""No action field holds more items (dice, cities…)."""


@dataclass(frozen=True)
class Action:
    """Base of every action: who acts (``seat``) and where the input came from."""

    kind: ClassVar[str] = "action"
    chance: ClassVar[bool] = False
    secret: ClassVar[bool] = False
    # Fields only the acting seat may see until the game is over (a card put face down).
    hidden_fields: ClassVar[tuple[str, ...]] = ()

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
    """Read an action from JSON data produced by ``Action.to_data``. Malformed data (an
    unknown key, a wrong type, ``None``, a float for an int, a huge int…) raises
    :class:`IllegalAction` with a ``bad-action`` violation naming the field.

    >>> parse_action({"$": "core.roll", "seat": "a", "values": [3]})
    Roll(seat='a', source='touch', values=(3,), ids=())
    >>> parse_action({"$": "core.roll", "seat": "a", "values": [3], "luck": 1})
    Traceback (most recent call last):
    rules.core.errors.IllegalAction: A roll has no field 'luck'. [Actions]
    """
    if not isinstance(data, dict) or not isinstance(data.get("$"), str):
        raise IllegalAction([_bad("An action must be a JSON object with a \"$\" type tag.")])
    try:
        value = from_data(data)
    except (ParseError, TypeError, ValueError, RecursionError) as e:
        raise IllegalAction([_bad(f"Not a valid action: {str(e)[:120]}")]) from None
    if not isinstance(value, Action):
        raise IllegalAction([_bad(f"{data['$']!r} is not an action.")])
    names = {f.name for f in dataclasses.fields(value)}
    extra = sorted(k for k in data if k != "$" and k not in names)
    if extra:
        raise IllegalAction([_bad(f"A {value.kind} has no field {extra[0]!r}.")], value)
    problems = bad_fields(value)
    if problems:
        raise IllegalAction(problems, value)
    return value


def bad_fields(action: Action) -> tuple[Violation, ...]:
    """Every field of ``action`` whose value does not fit its declared type: the typed
    input check every boundary runs before a rule is looked at. Each action class gets
    one compiled check (:func:`_compile`); messages are worked out only when it fails."""
    cls = type(action)
    if input_check(cls)(action):
        return ()
    return tuple(_bad(f"{cls.__name__}'s {path} {reason}.") for path, reason in misfits(action))


_CHECKS: dict[type, Callable[[Any], bool]] = {}


def input_check(cls: type) -> Callable[[Any], bool]:
    """The compiled check that says whether every field of a ``cls`` action fits its type
    (made once per class).

    >>> ok = input_check(Roll)
    >>> ok(Roll("a", (3,))), ok(Roll("a", (3.0,)))
    (True, False)
    """
    ok = _CHECKS.get(cls)
    if ok is None:
        ok = _CHECKS[cls] = _compile(cls)
    return ok


def _compile(cls: type) -> Callable[[Any], bool]:
    """One function that says whether every field of a ``cls`` action fits its type: the
    check runs on every action, so it is generated once per class as straight-line guards
    (type tests inline, plain loops over tuples: a generator inside ``all()`` cost twice
    as much, no per-field calls for ints, text and tuples of them; limits as literals and
    builtins as locals)."""
    hints = _field_hints(cls)
    lines: list[str] = []
    env: dict[str, Any] = {}
    # Limits written in as literals and builtins bound as defaults: constants and locals
    # are the cheapest loads there are, and this runs on every action of every game.
    text = f"type({{v}}) is not str or len({{v}}) > {MAX_TEXT}"
    whole = f"type({{v}}) is not int or {{v}} <= {-BIG} or {{v}} >= {BIG}"
    for i, f in enumerate(dataclasses.fields(cls)):
        v = f"v{i}"
        lines.append(f"{v} = a.{f.name}")
        hint = hints.get(f.name, Any)
        args = typing.get_args(hint)
        if f.name == "source":  # provenance, not rules input: any text
            lines.append(f"if type({v}) is not str: return False")
        elif hint is int:
            lines.append(f"if {whole.format(v=v)}: return False")
        elif hint is str:
            lines.append(f"if {text.format(v=v)}: return False")
        elif hint is bool:
            lines.append(f"if type({v}) is not bool: return False")
        elif typing.get_origin(hint) is tuple and args[1:] == (Ellipsis,) and args[0] in (int, str):
            lines.append(f"if type({v}) is not tuple or len({v}) > {MAX_ITEMS}: return False")
            lines.append(f"if {v}:")  # most such tuples are empty (a roll's die ids)
            lines.append(f"    for x in {v}:")
            lines.append(f"        if {(whole if args[0] is int else text).format(v='x')}: return False")
        else:
            env[f"misfit{i}"], env[f"hint{i}"] = _misfit, hint
            lines.append(f"if misfit{i}({v}, hint{i}, '') is not None: return False")
    code = ("def ok(a, type=type, len=len, str=str, int=int, bool=bool, tuple=tuple):\n"
            + "".join(f"    {line}\n" for line in lines) + "    return True\n")
    exec(compile(code, f"<bad_fields {cls.__name__}>", "exec"), env)
    return env["ok"]  # type: ignore[no-any-return]


def misfits(action: Action) -> list[tuple[str, str]]:
    """``(field path, what is wrong)`` for every field of ``action`` that does not fit its
    type, e.g. ``[("values[0]", "must be a whole number, not 1.5")]``: for callers that
    say where the bad value sits (a game file's line, a form's field).

    >>> misfits(Roll("a", (1.5,)))
    [('values[0]', 'must be a whole number, not 1.5')]
    """
    hints = _field_hints(type(action))
    out = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name == "source":
            if type(value) is not str:
                out.append(("source", f"must be text, not {type(value).__name__}"))
            continue
        problem = _misfit(value, hints.get(f.name, Any), f.name)
        if problem is not None:
            path, _, reason = problem.partition(" ")
            out.append((path, reason))
    return out


def _bad(message: str) -> Violation:
    return Violation("bad-action", "Actions", message)


_HINTS: dict[type, dict[str, Any]] = {}


def _field_hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _misfit(value: Any, hint: Any, path: str) -> str | None:
    """Why ``value`` does not fit ``hint`` (``None`` when it does)."""
    if hint is Any:
        return None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is getattr(__import__("types"), "UnionType"):
        args = typing.get_args(hint)
        if any(_misfit(value, a, path) is None for a in args):
            return None
        return f"{path} has the wrong type ({type(value).__name__})"
    if hint is type(None):
        return None if value is None else f"{path} must be empty"
    if hint is bool:
        return None if type(value) is bool else f"{path} must be true or false, not {value!r}"
    if hint is int:
        if type(value) is not int:
            return f"{path} must be a whole number, not {value!r}"
        return None if -BIG < value < BIG else f"{path} is out of range ({value})"
    if hint is str:
        if type(value) is not str:
            return f"{path} must be text, not {type(value).__name__}"
        return None if len(value) <= MAX_TEXT else f"{path} is too long ({len(value)} characters)"
    if origin is tuple:
        if type(value) is not tuple:
            return f"{path} must be a list, not {type(value).__name__}"
        if len(value) > MAX_ITEMS:
            return f"{path} has too many items ({len(value)})"
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            elems = [args[0]] * len(value)
        else:
            if len(args) != len(value):
                return f"{path} must have {len(args)} items, not {len(value)}"
            elems = list(args)
        for i, (v, h) in enumerate(zip(value, elems)):
            p = _misfit(v, h, f"{path}[{i}]")
            if p is not None:
                return p
        return None
    if isinstance(hint, type):
        return None if isinstance(value, hint) else f"{path} must be a {hint.__name__}, not {type(value).__name__}"
    return None


@action("core.roll")
@dataclass(frozen=True)
class Roll(Action):
    """The result of rolling ``len(values)`` dice; ``ids`` (optional, one per value) names
    the die that showed each value, when the request lists dice with identities."""

    chance: ClassVar[bool] = True
    values: tuple[int, ...] = ()
    ids: tuple[str, ...] = ()

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
    # The card goes into a hand in most games: only the drawer sees it until the game
    # shows it (a game whose draws are public overrides ``public_action``).
    hidden_fields: ClassVar[tuple[str, ...]] = ("card",)
    deck: str = ""
    card: str = ""


@dataclass(frozen=True)
class Commit(Action):
    """Base of a secret choice: a game subclasses it with typed fields (``@action`` tags it).
    A commit stays hidden from everyone but its seat until the game reveals it: views,
    logs and histories show only that the seat has chosen."""

    kind: ClassVar[str] = "commit"
    secret: ClassVar[bool] = True


def is_action_type(cls: Any) -> bool:
    try:
        return isinstance(cls, type) and issubclass(cls, Action) and bool(tag_of(cls))
    except KeyError:
        return False
