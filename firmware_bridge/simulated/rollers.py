"""How the simulated hub decides what a virtual die shows: the ``Roller`` protocol and
its plain implementations.

A roller answers one question, "die ``die`` (a d``faces``) was thrown: what does the hub
report?", as a ``RollOutcome``. ``RandomRoller`` draws a fair face, ``ScriptedRoller``
plays a fixed list (for tests and demos that need known results), and
``firmware_bridge.simulated.physics.PhysicsRoller`` throws a virtual accelerometer die
through the firmware's own roll detector.

>>> import random
>>> RandomRoller().roll(0, 6, random.Random(1), face=4)
RollOutcome(state='rolled', face_index=4, confidence=1000, settle_ms=300)
>>> r = ScriptedRoller([2, RollOutcome("crooked", 5, 870)])
>>> [r.roll(0, 6, random.Random(0)).face_index for _ in range(2)], r.remaining()
([2, 5], 0)
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Protocol, Union

from firmware_bridge.errors import BridgeError

# The results a throw can end in (the detector's settled states, Pixels' names).
RESULT_STATES = ("rolled", "onFace", "crooked")


class RollerError(BridgeError, ValueError):
    """A roll that cannot be made: a face out of range, an exhausted script."""


@dataclass(frozen=True)
class RollOutcome:
    """What the hub reports for one throw: a settled ``state`` (one of RESULT_STATES),
    the face index (never a face value: the host maps index to value), the confidence
    (dot product with the face normal x 1000) and how long after the die came down the
    result was declared (``settle_ms``)."""

    state: str
    face_index: int
    confidence: int = 1000
    settle_ms: int = 300

    def __post_init__(self) -> None:
        if self.state not in RESULT_STATES:
            raise RollerError("roll state %r is not a result (one of %s)"
                              % (self.state, ", ".join(RESULT_STATES)))
        if self.face_index < 0:
            raise RollerError("face index %d is negative" % self.face_index)
        if not -1000 <= self.confidence <= 1000:
            raise RollerError("confidence %d is outside -1000..1000" % self.confidence)


class Roller(Protocol):
    """Decides the outcome of a throw. ``face`` forces the face index that ends up;
    ``crooked`` lands the die leaning (state ``crooked``). ``rng`` is the hub's seeded
    generator, so a seeded hub rolls the same sequence every run."""

    def roll(self, die: int, faces: int, rng: random.Random, face: int | None = None,
             crooked: bool = False) -> RollOutcome: ...


def _check_face(face: int, faces: int) -> None:
    if not 0 <= face < faces:
        raise RollerError("face index %d out of range for a d%d" % (face, faces))


class RandomRoller:
    """A fair die: every face index equally likely. A crooked landing reports a
    confidence between cos 30° and cos 40° (what a die leaning on a wall reads)."""

    def __init__(self, settle_ms: int = 300) -> None:
        self.settle_ms = settle_ms

    def roll(self, die: int, faces: int, rng: random.Random, face: int | None = None,
             crooked: bool = False) -> RollOutcome:
        target = rng.randrange(faces) if face is None else face
        _check_face(target, faces)
        if crooked:
            return RollOutcome("crooked", target, rng.randint(766, 866), self.settle_ms)
        return RollOutcome("rolled", target, 1000, self.settle_ms)


ScriptItem = Union[int, RollOutcome]


class ScriptedRoller:
    """Plays a script: each item is a face index (a clean roll) or a whole RollOutcome,
    used in order whatever the die. When the script runs out, ``then`` rolls (a
    RandomRoller by default); with ``then=None`` an exhausted script raises RollerError.
    A forced ``face`` or ``crooked`` in a call wins over the script and consumes nothing."""

    def __init__(self, script: Iterable[ScriptItem] = (), then: Roller | None = RandomRoller(),
                 settle_ms: int = 300) -> None:
        self._script: deque[ScriptItem] = deque(script)
        self.then = then
        self.settle_ms = settle_ms

    def push(self, item: ScriptItem) -> None:
        """Append one more scripted result."""
        self._script.append(item)

    def remaining(self) -> int:
        return len(self._script)

    def roll(self, die: int, faces: int, rng: random.Random, face: int | None = None,
             crooked: bool = False) -> RollOutcome:
        if face is not None or crooked:
            fallback = self.then or RandomRoller(self.settle_ms)
            return fallback.roll(die, faces, rng, face, crooked)
        if not self._script:
            if self.then is None:
                raise RollerError("the roll script is exhausted")
            return self.then.roll(die, faces, rng)
        item = self._script.popleft()
        if isinstance(item, RollOutcome):
            _check_face(item.face_index, faces)
            return item
        _check_face(item, faces)
        return RollOutcome("rolled", item, 1000, self.settle_ms)
