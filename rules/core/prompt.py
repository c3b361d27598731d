"""Prompts: who must act now, and what the engine waits for from each of them.

A :class:`Prompt` maps every seat that must act to its own *awaiting*: a
:class:`Decision` between action kinds, a :class:`RollRequest` that lists each die, a
:class:`DrawRequest`, a :class:`CommitRequest` (a secret, simultaneous choice), or
nothing (the seat is not in the prompt). Seats may await different things at the same
moment, as in OpenSpiel's simultaneous nodes and boardgame.io's stages.

Every awaiting can carry ``also`` (other kinds allowed now, shown to everyone) and
``private`` (kinds allowed because of something only that seat knows, such as a card in
a face-down hand: shown to that seat only). :meth:`Prompt.public` strips ``private``, so
the shared screen never learns what a hidden card decides.

>>> p = Prompt.single("cop-1", RollRequest.of(1, 6, "move", private=("play",)))
>>> p.accepts("cop-1", "roll"), p.accepts("cop-1", "play"), p.accepts("crim-1", "roll")
(True, True, False)
>>> p.public().of("cop-1").accepted
('roll',)
>>> str(p)
'cop-1: roll 1d6 to move'
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
from dataclasses import dataclass, field, replace
from typing import Container, Iterator, Mapping

from .jsondata import serializable

class _Interned(type):
    """Metaclass of the prompt's value types: equal arguments give the very same object.
    A prompt is rebuilt after every action, mostly from the same few requests, and a
    frozen dataclass costs microseconds to make; a look-up costs a fraction of that, so
    every game's prompts get cheap without a cache of their own.

    The look-up is ``functools.lru_cache`` around ``type.__call__``: its key (the class, the
    arguments, the keywords) is built and hashed in C, a third of what the same table
    kept in Python cost (measured: 7,600 → 2,900 instructions for a request made with
    keywords, 3,100 → 1,600 positionally). An unhashable argument (a list) raises the
    ``TypeError`` the value's own hash would raise."""

    __call__ = functools.lru_cache(maxsize=4096)(type.__call__)  # type: ignore[assignment]


def _same(self: object, memo: object = None) -> object:
    """``copy``/``deepcopy`` of an immutable prompt value: the value itself (a state's
    cached prompts are copied with it, and a copy would only cost time)."""
    return self


POOL = "pool"
"""The owner of a die that belongs to the table rather than to a seat (a shared pool)."""


@serializable("core.Die")
@dataclass(frozen=True, slots=True)
class Die(metaclass=_Interned):
    """One die of a roll: its ``owner`` (a seat id, :data:`POOL`, or ``""`` for the seat
    the request is made to), its ``sides`` or custom ``faces``, and an optional identity
    (``id``: "red", "hub1/0") a hardware source can fill and a Roll must then match.

    >>> Die(sides=6).values, Die(faces=(0, 1, 1, 2, 2, 3)).values
    ((1, 2, 3, 4, 5, 6), (0, 1, 1, 2, 2, 3))
    """

    sides: int = 6
    owner: str = ""
    faces: tuple[int, ...] = ()
    id: str = ""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.sides, self.owner, self.faces, self.id)))

    def __hash__(self) -> int:  # made once: dice are looked up on every prompt
        return self._hash

    @property
    def values(self) -> tuple[int, ...]:
        """The faces this die can show, in face order (repeats allowed)."""
        return self.faces or tuple(range(1, self.sides + 1))

    def can_show(self, value: int) -> bool:
        if self.faces:
            return value in self.faces
        return 1 <= value <= self.sides

    def __str__(self) -> str:
        core = f"d{self.sides}" if not self.faces else "d[" + ",".join(map(str, self.faces)) + "]"
        return f"{self.id} {core}" if self.id else core


@dataclass(frozen=True, slots=True)
class _Awaiting(metaclass=_Interned):
    also: tuple[str, ...] = field(default=(), kw_only=True)
    private: tuple[str, ...] = field(default=(), kw_only=True)
    # Every action kind this seat may take now: derived once, read on every check.
    accepted: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)
    _hash: int = field(init=False, repr=False, compare=False, hash=False)
    # The prompts in which one seat awaits this alone, by seat (see Prompt.single).
    _singles: dict[str, "Prompt"] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepted", self.kinds + self.also + self.private)
        object.__setattr__(self, "_hash", hash((type(self).__name__, self._key())))
        object.__setattr__(self, "_singles", {})

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.init)

    def __hash__(self) -> int:  # made once: requests are looked up on every prompt
        return self._hash

    @property
    def kinds(self) -> tuple[str, ...]:
        return ()

    @property
    def shown(self) -> tuple[str, ...]:
        """The kinds everyone may know are allowed (``private`` left out)."""
        return self.kinds + self.also

    def public(self) -> "_Awaiting":
        return replace(self, private=()) if self.private else self


@serializable("core.Decision")
@dataclass(frozen=True, slots=True)
class Decision(_Awaiting):
    """A choice between action kinds (``choices``), e.g. move or capture."""

    choices: tuple[str, ...] = ()
    note: str = ""

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.choices

    def describe(self) -> str:
        what = " or ".join(self.shown) or "nothing"
        return f"{what} ({self.note})" if self.note else what


@serializable("core.RollRequest")
@dataclass(frozen=True, slots=True)
class RollRequest(_Awaiting):
    """A roll of the listed ``dice`` for ``purpose``; ``also`` lists other kinds allowed
    before the roll (cards that change it, for instance)."""

    dice: tuple[Die, ...] = ()
    purpose: str = ""
    # What a well-formed roll of these dice is, worked out once per (interned) request:
    # ``(rolls, ids)`` when every die can show the same faces and either every die has an
    # identity (a roll must name exactly ``ids``) or none has (``ids`` is ``()``: a roll
    # names none, or one per die, any). ``rolls`` holds every well-formed tuple of values
    # for a few dice (one hash look-up checks a roll) and stands for them for many (a
    # city of 30 dice: a count and one C loop). The kernel's check accepts a roll of the
    # shape without looking at each die; ``None`` for dice that differ (checked die by die).
    shape: tuple[Container[tuple[int, ...]], tuple[str, ...]] | None = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        dice = self.dice
        shape = None
        if dice:
            faces = frozenset(dice[0].values)
            ids = tuple(d.id for d in dice)
            if all(frozenset(d.values) == faces for d in dice[1:]) and (all(ids) or not any(ids)):
                n = len(dice)
                rolls: Container[tuple[int, ...]] = (
                    frozenset(itertools.product(faces, repeat=n)) if len(faces) ** n <= _LISTED else _Rolls(n, faces))
                shape = (rolls, ids if ids[0] else ())
        object.__setattr__(self, "shape", shape)
        _Awaiting.__post_init__(self)

    def fits(self, values: tuple[int, ...], ids: tuple[str, ...]) -> bool | None:
        """Whether a roll of these whole-number ``values`` (naming ``ids``) fits this
        request, by its precomputed :attr:`shape`; ``None`` when the dice differ (only a
        die-by-die check can tell). The kernel's check asks it first.

        >>> r = RollRequest((Die(6, id="red"), Die(6, id="blue")), "attack")
        >>> r.fits((3, 6), ("red", "blue")), r.fits((3, 7), ("red", "blue")), r.fits((3, 6), ())
        (True, False, False)
        >>> RollRequest.of(2, 6, "move").fits((1, 2), ("any", "ids"))
        True
        """
        if self.shape is None:
            return None
        rolls, named = self.shape
        return values in rolls and (ids == named if named else not ids or len(ids) == len(values))

    @classmethod
    def of(cls, count: int, sides: int, purpose: str, *, owner: str = "", also: tuple[str, ...] = (),
           private: tuple[str, ...] = ()) -> "RollRequest":
        """``count`` alike dice: ``RollRequest.of(2, 6, "move")`` is 2d6. Requests are
        immutable values, so the kernel hands out one per distinct request."""
        # Positional arguments: the cache's key is then the arguments' own tuple (keyword
        # arguments would make it build one, slower than this call).
        return _alike(cls, count, sides, purpose, owner, also, private)

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("roll",)

    @property
    def count(self) -> int:
        return len(self.dice)

    @property
    def sides(self) -> int:
        """The sides of the dice when they are all alike (else the largest)."""
        return max((d.sides for d in self.dice), default=0)

    @property
    def uniform(self) -> bool:
        return len({(d.sides, d.faces) for d in self.dice}) <= 1

    def notation(self) -> str:
        """``2d6``, or the dice listed one by one when they differ."""
        if self.uniform and self.dice and not self.dice[0].faces and not any(d.id for d in self.dice):
            return f"{len(self.dice)}d{self.dice[0].sides}"
        return " + ".join(str(d) for d in self.dice)

    def describe(self) -> str:
        return f"a roll of {self.notation()} ({self.purpose})"


_LISTED = 216
"""The most value tuples a request's shape lists (3d6): a few dice are checked by one look-up."""


class _Rolls:
    """Every tuple of ``n`` values each in ``faces``, unlisted (too many to list)."""

    __slots__ = ("n", "faces")

    def __init__(self, n: int, faces: frozenset[int]) -> None:
        self.n, self.faces = n, faces

    def __contains__(self, values: object) -> bool:
        return len(values) == self.n and self.faces.issuperset(values)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=1024)
def _alike(cls: type, count: int, sides: int, purpose: str, owner: str, also: tuple[str, ...],
           private: tuple[str, ...]) -> RollRequest:
    return cls(dice=(Die(sides, owner),) * count, purpose=purpose, also=also, private=private)


@serializable("core.DrawRequest")
@dataclass(frozen=True, slots=True)
class DrawRequest(_Awaiting):
    """A card drawn from ``deck`` (the app's top card or the physical card's identity)."""

    deck: str = ""
    purpose: str = ""

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("draw",)

    def describe(self) -> str:
        return f"a card from the {self.deck} deck"


@serializable("core.CommitRequest")
@dataclass(frozen=True, slots=True)
class CommitRequest(_Awaiting):
    """A secret choice (an action of kind ``kind``, a :class:`~rules.core.actions.Commit`
    subclass) from this seat; seats committing together are revealed together. ``also``
    is typically ``("pass",)`` for "commit or pass"."""

    kind: str = "commit"
    purpose: str = ""

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind,)

    def describe(self) -> str:
        return f"a secret choice ({self.purpose})"


Awaiting = Decision | RollRequest | DrawRequest | CommitRequest

# A frozen dataclass gets a generated __hash__ over its fields unless it defines its own
# in its body; the subclasses would hash every field (and every die) on each prompt look-up.
for _cls in (Decision, RollRequest, DrawRequest, CommitRequest):
    _cls.__hash__ = _Awaiting.__hash__  # type: ignore[method-assign]


@serializable("core.Prompt")
@dataclass(frozen=True, slots=True)
class Prompt:
    """Who must act (``waits``: seat → what it awaits), and whether the game is over."""

    waits: Mapping[str, Awaiting] = field(default_factory=dict)
    over: bool = False
    # The seats that must act: read by every check of most games, so made once.
    actors: frozenset[str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "actors", frozenset(self.waits))

    @classmethod
    def single(cls, seat: str, awaiting: Awaiting) -> "Prompt":
        """``seat`` alone must act. The same (seat, awaiting) gives the same prompt object:
        prompts are values, never changed once made."""
        # Kept on the (interned) awaiting itself: a look-up by seat id, no key to build
        # and no request to hash.
        made = awaiting._singles
        p = made.get(seat)
        if p is None:
            if len(made) >= 64:
                made.clear()
            p = made[seat] = cls({seat: awaiting})
        return p

    @classmethod
    def each(cls, seats: "tuple[str, ...] | list[str] | frozenset[str]", awaiting: Awaiting) -> "Prompt":
        """The same awaiting for several seats (a simultaneous commit, say)."""
        return cls({s: awaiting for s in sorted(seats)})

    @classmethod
    def game_over(cls) -> "Prompt":
        return cls({}, True)

    def seats(self) -> list[str]:
        """The seats that must act, in a stable order."""
        return sorted(self.waits)

    def of(self, seat: str) -> Awaiting | None:
        """What ``seat`` awaits now, or ``None``."""
        return self.waits.get(seat)

    def accepts(self, seat: str, kind: str) -> bool:
        a = self.waits.get(seat)
        return a is not None and kind in a.accepted

    def awaiting_of_type(self, cls: type) -> Iterator[tuple[str, Awaiting]]:
        """``(seat, awaiting)`` for every seat awaiting a ``cls`` (RollRequest…)."""
        for seat in sorted(self.waits):
            a = self.waits[seat]
            if isinstance(a, cls):
                yield seat, a

    @property
    def awaiting(self) -> Awaiting | None:
        """The one thing every acting seat awaits, when they all await the same (the common
        turn-based case); ``None`` when nobody acts or seats await different things —
        then read :meth:`of` per seat."""
        values = list(self.waits.values())
        if values and all(v == values[0] for v in values[1:]):
            return values[0]
        return None

    def public(self) -> "Prompt":
        """The prompt as the shared screen may show it: no ``private`` kinds."""
        if not any(a.private for a in self.waits.values()):
            return self
        return Prompt({s: a.public() for s, a in self.waits.items()}, self.over)  # type: ignore[misc]

    def __str__(self) -> str:
        if self.over:
            return "game over"
        if not self.waits:
            return "nobody: nothing awaited"
        groups: dict[Awaiting, list[str]] = {}
        for seat in sorted(self.waits):
            groups.setdefault(self.waits[seat].public(), []).append(seat)  # type: ignore[arg-type]
        return "; ".join(f"{', '.join(seats)}: {_what(a)}" for a, seats in groups.items())


for _cls in (Die, Decision, RollRequest, DrawRequest, CommitRequest, Prompt):
    _cls.__copy__ = _cls.__deepcopy__ = _same  # type: ignore[attr-defined]


def _what(a: Awaiting) -> str:
    if isinstance(a, RollRequest):
        extra = f" (or {' / '.join(a.also)})" if a.also else ""
        return f"roll {a.notation()} to {a.purpose}{extra}"
    if isinstance(a, DrawRequest):
        extra = f" (or {' / '.join(a.also)})" if a.also else ""
        return f"draw from {a.deck} ({a.purpose}){extra}"
    if isinstance(a, CommitRequest):
        extra = f" (or {' / '.join(a.also)})" if a.also else ""
        return f"choose secretly: {a.purpose}{extra}"
    return "choose: " + " / ".join(a.shown) + (f" ({a.note})" if a.note else "")
