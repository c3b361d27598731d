"""JSON round-trip for the engines' value types.

Dataclasses (or NamedTuples) registered with :func:`serializable` become JSON objects tagged with ``"$"``;
tuples, lists and sets come back as the type their field is annotated with, and dicts
with non-string keys are stored as ``{"$map": [[key, value], ...]}``. A value type made
from plain data (a board from its file) is registered with :func:`stored_as` and stored as
that data, untagged: the field's annotation says how to read it back.

>>> from dataclasses import dataclass
>>> @serializable("doc.Point")
... @dataclass(frozen=True)
... class Point:
...     xy: tuple[int, int]
>>> to_data(Point((1, 2)))
{'$': 'doc.Point', 'xy': [1, 2]}
>>> from_data({'$': 'doc.Point', 'xy': [1, 2]}) == Point((1, 2))
True
"""
from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, Callable, TypeVar

from .errors import ParseError

T = TypeVar("T")

_BY_TAG: dict[str, type] = {}
_TAG_OF: dict[type, str] = {}
_HINTS: dict[type, dict[str, Any]] = {}
_FIELDS: dict[type, tuple[str, ...]] = {}
# Per registered dataclass, its fields marked OPTIONAL: left out of the data while None.
_UNSET: dict[type, frozenset[str]] = {}
OPTIONAL = {"json": "optional"}
"""``field(default=None, metadata=OPTIONAL)``: a field added to a type after data of it was
stored; while it is ``None`` it is left out, so the data of a value that does not use it is
what it was before the field existed (and reads back the same).

>>> from dataclasses import dataclass, field
>>> @serializable("doc.Note")
... @dataclass(frozen=True)
... class Note:
...     text: str
...     words: object = field(default=None, metadata=OPTIONAL)
>>> to_data(Note("hi")), to_data(Note("hi", 3))
({'$': 'doc.Note', 'text': 'hi'}, {'$': 'doc.Note', 'text': 'hi', 'words': 3})
"""
_LOADER_OF: dict[Any, Callable[[Any], Any] | None] = {}
_DUMP: dict[type, Callable[[Any], Any]] = {}
_LOAD: dict[type, Callable[[Any], Any]] = {}


def serializable(tag: str) -> Callable[[type[T]], type[T]]:
    """Register a dataclass or a NamedTuple under a globally unique ``tag`` for
    :func:`to_data`; its fields (a dataclass's ``init`` fields) are its data."""

    def register(cls: type[T]) -> type[T]:
        if tag in _BY_TAG and _BY_TAG[tag] is not cls:
            raise ValueError(f"serial tag {tag!r} is already taken by {_BY_TAG[tag]!r}")
        if not (dataclasses.is_dataclass(cls) or issubclass(cls, tuple) and hasattr(cls, "_fields")):
            raise TypeError(f"@serializable registers a dataclass or a NamedTuple, not {cls!r}")
        _BY_TAG[tag] = cls
        _TAG_OF[cls] = tag
        if dataclasses.is_dataclass(cls):
            optional = frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("json") == "optional")
            if optional:
                _UNSET[cls] = optional
        return cls

    return register


def stored_as(cls: type[T], dump: Callable[[T], Any], load: Callable[[Any], T]) -> None:
    """Store values of ``cls`` as the plain data ``dump`` gives (no ``"$"`` tag), and read a
    field annotated ``cls`` back with ``load``. For immutable values built from data, such
    as a board from its board file: a state holds the parsed value, its JSON the data.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Span:
    ...     lo: int
    ...     hi: int
    >>> stored_as(Span, lambda s: [s.lo, s.hi], lambda d: Span(*d))
    >>> @serializable("doc.Shelf")
    ... @dataclass
    ... class Shelf:
    ...     span: Span
    >>> to_data(Shelf(Span(1, 4)))
    {'$': 'doc.Shelf', 'span': [1, 4]}
    >>> from_data([1, 4], Span)      # what reading a Shelf does with its ``span`` field
    Span(lo=1, hi=4)
    """
    _DUMP[cls] = dump
    _LOAD[cls] = load
    _LOADER_OF.clear()  # a hint looked up before may name this type


def tag_of(cls: type) -> str:
    return _TAG_OF[cls]


def to_data(obj: Any) -> Any:
    """Turn a value into plain JSON data (dicts, lists, str, int, float, bool, None)."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    cls = type(obj)
    tag = _TAG_OF.get(cls)
    if tag is not None:
        out: dict[str, Any] = {"$": tag}
        unset = _UNSET.get(cls)
        for name in _fields(cls):
            value = getattr(obj, name)
            if unset is None or name not in unset or value is not None:
                out[name] = to_data(value)
        return out
    dump = _DUMP.get(cls)
    if dump is not None:
        return dump(obj)
    if cls is list or cls is tuple:
        return [to_data(v) for v in obj]
    if cls is dict:
        if all(type(k) is str and not k.startswith("$") for k in obj):
            return {k: to_data(v) for k, v in obj.items()}
        return {"$map": [[to_data(k), to_data(v)] for k, v in obj.items()]}
    if cls is set or cls is frozenset:
        return {"$set": sorted((to_data(v) for v in obj), key=json.dumps)}
    raise TypeError(f"cannot serialise {cls.__name__}: register it with @serializable")


def from_data(data: Any, hint: Any = None) -> Any:
    """Inverse of :func:`to_data`; ``hint`` is the annotation the value is stored under."""
    if _LOAD and hint is not None:
        load = _loader(hint)
        if load is not None:
            return load(data)
    if isinstance(data, dict):
        tag = data.get("$")
        if tag is not None:
            cls = _BY_TAG.get(tag)
            if cls is None:
                raise ParseError(f"unknown type tag {tag!r}")
            hints = _hints(cls)
            kwargs = {}
            for name in _fields(cls):
                if name in data:
                    kwargs[name] = from_data(data[name], hints.get(name))
            try:
                return cls(**kwargs)
            except TypeError as e:
                raise ParseError(f"bad {tag}: {e}") from None
        if "$map" in data:
            kh, vh = _args(hint, 2)
            return {_hashable(from_data(k, kh)): from_data(v, vh) for k, v in data["$map"]}
        if "$set" in data:
            (eh,) = _args(hint, 1)
            items = [_hashable(from_data(v, eh)) for v in data["$set"]]
            return set(items) if _origin(hint) is set else frozenset(items)
        _, vh = _args(hint, 2)
        return {k: from_data(v, vh) for k, v in data.items()}
    if isinstance(data, list):
        origin = _origin(hint)
        args = typing.get_args(hint) if hint is not None else ()
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(from_data(v, args[0]) for v in data)
            if args:
                return tuple(from_data(v, h) for v, h in zip(data, args))
            return tuple(from_data(v) for v in data)
        (eh,) = _args(hint, 1)
        return [from_data(v, eh) for v in data]
    return data


def dumps(obj: Any) -> str:
    """Compact, key-sorted JSON text of a value."""
    return json.dumps(to_data(obj), separators=(",", ":"), sort_keys=True)


def loads(text: str) -> Any:
    try:
        return from_data(json.loads(text))
    except json.JSONDecodeError as e:
        raise ParseError(f"not JSON: {e}") from None


def _loader(hint: Any) -> Callable[[Any], Any] | None:
    """The :func:`stored_as` reader of the type ``hint`` names, if any (looked up once per
    hint: reading a state asks for every field)."""
    try:
        return _LOADER_OF[hint]
    except KeyError:
        load = _LOADER_OF[hint] = _LOAD.get(_origin(hint))
        return load
    except TypeError:  # an unhashable annotation object
        return _LOAD.get(_origin(hint))


def _fields(cls: type) -> tuple[str, ...]:
    """The names of a registered type's data fields: a dataclass's ``init`` fields (a
    derived field, ``init=False``, is not data), a NamedTuple's fields."""
    names = _FIELDS.get(cls)
    if names is None:
        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        else:
            names = tuple(cls._fields)  # type: ignore[attr-defined]
        _FIELDS[cls] = names
    return names


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _origin(hint: Any) -> Any:
    if hint is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            if arg is not type(None):
                return _origin(arg)
    return origin or hint


def _args(hint: Any, n: int) -> tuple[Any, ...]:
    if hint is not None and typing.get_origin(hint) in (typing.Union, types.UnionType):
        hint = next((a for a in typing.get_args(hint) if a is not type(None)), None)
    args = typing.get_args(hint) if hint is not None else ()
    if len(args) == n:
        return args
    if n == 1 and len(args) == 2 and args[1] is Ellipsis:
        return (args[0],)
    return (None,) * n


def _hashable(v: Any) -> Any:
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v
