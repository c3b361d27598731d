"""Typed input events: what a physical device told us, as small immutable values.

Every source (a dice hub over serial, the Pi's GPIO header, the simulated hub) turns what
it reads into these events and hands them to whoever listens; ``companion`` routes them to
the game. They carry no game knowledge: a die roll says which die and which face value,
never whose roll it was.

Common to all events:

* ``device``: the name of the device that produced it ("hub1", "gpio", "sim");
* ``t``: host monotonic seconds (``time.monotonic()``) when the event was made, for
  ordering and latency, never wall-clock time;
* ``counter`` (where the device has one): the device's own change or roll counter, so a
  resent or replayed event can be recognised and dropped;
* ``source``: a stable string naming the input, e.g. ``"die:hub1/0"``,
  ``"slot:gpio/3"``, ``"button:gpio/end-turn"``; the journal records it with the action
  the event became.

>>> e = DieRolled(device="hub1", die=0, value=4, outcome="rolled", confidence=0.98,
...               counter=17, boot_id=0x1234ABCD, t=12.5)
>>> e.source
'die:hub1/0'
>>> e.key
(305441741, 'die:hub1/0', 17)
>>> parse_event(e.to_dict()) == e
True
>>> e.to_dict()["type"]
'DieRolled'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Mapping, Union, get_args

from .errors import BridgeError

__all__ = [
    "Event", "EventError", "DeviceOnline", "DeviceOffline", "DieMotion", "DieRolled",
    "ThrowsMissed",
    "TokenPlaced", "TokenRemoved", "ButtonPressed", "ButtonHeld", "ButtonReleased",
    "KeypadValue", "BatteryLevel", "EVENT_TYPES", "parse_event",
    "MOTION_STATES", "ROLL_OUTCOMES",
]

# The hub's roll states (Pixels' vocabulary, see hardware/README.md section 9): these
# three are "the die is moving / not yet known", the other three are results.
MotionState = Literal["unknown", "handling", "rolling"]
RollOutcome = Literal["rolled", "onFace", "crooked"]
MOTION_STATES: tuple[str, ...] = get_args(MotionState)
ROLL_OUTCOMES: tuple[str, ...] = get_args(RollOutcome)


class EventError(BridgeError, ValueError):
    """An event value that cannot be: a bad field, or a logged dict that is not an event.

    >>> parse_event({"type": "Teleported"})
    Traceback (most recent call last):
    ...
    firmware_bridge.events.EventError: unknown event type 'Teleported'
    """


class _EventBase:
    """Behaviour shared by every event class (no fields of its own, so no slots clash)."""

    __slots__ = ()
    _prefix: ClassVar[str] = "device"

    @property
    def source(self) -> str:
        """A stable name for the input this event came from, ``kind:device[/input]``."""
        return "%s:%s" % (self._prefix, self.device)  # type: ignore[attr-defined]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``type`` plus every field (tuples become lists)."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        """The event a ``to_dict`` made. Unknown keys are ignored (a newer version's log
        may add fields); a missing required field raises ``EventError``."""
        if data.get("type", cls.__name__) != cls.__name__:
            raise EventError("expected a %s, got %r" % (cls.__name__, data.get("type")))
        kwargs: dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name in data:
                v = data[f.name]
                kwargs[f.name] = tuple(v) if isinstance(v, list) else v
        try:
            return cls(**kwargs)  # type: ignore[return-value]
        except TypeError as e:  # a required field missing
            raise EventError("%s: %s" % (cls.__name__, e)) from None


def _check_common(e: Any) -> None:
    """The fields every event has: a device name usable in a source string, and a time."""
    if not isinstance(e.device, str) or not e.device or "/" in e.device:
        raise EventError("device must be a non-empty name without '/', got %r" % (e.device,))
    t = e.t
    if not isinstance(t, (int, float)) or isinstance(t, bool) or t != t:  # NaN never orders
        raise EventError("t must be a number of monotonic seconds, got %r" % (t,))


def _check_index(name: str, v: int) -> None:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise EventError("%s must be an int >= 0, got %r" % (name, v))


def _check_counter(v: int | None) -> None:
    if v is not None:
        _check_index("counter", v)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceOnline(_EventBase):
    """A device answered (a hub's IDENT, the GPIO source started, the simulator opened).

    ``kind`` is "hub", "gpio" or "simulated"; the rest is what the device said about
    itself (empty or None where it has nothing to say). A new ``boot_id`` means the
    device restarted and its counters began again.

    >>> DeviceOnline(device="hub1", kind="hub", uid="e66038b7134f2a2b", boot_id=7,
    ...              firmware="0.1.0", protocol="1.0", faces=(6, 6), t=1.0).source
    'device:hub1'
    """

    device: str
    kind: str
    t: float
    uid: str = ""
    boot_id: int | None = None
    firmware: str = ""
    protocol: str = ""
    faces: tuple[int, ...] = ()  # face count of each die the device carries

    def __post_init__(self) -> None:
        _check_common(self)
        if not self.kind:
            raise EventError("DeviceOnline needs a kind")


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceOffline(_EventBase):
    """A device went away. ``reason``: "unplugged", "silent" (no heartbeat for 3 s),
    "closed" (we stopped it), "error: ..." and the like; a short phrase for the status
    bar and the log.

    >>> DeviceOffline(device="hub1", reason="silent", t=9.0).to_dict()
    {'type': 'DeviceOffline', 'device': 'hub1', 'reason': 'silent', 't': 9.0}
    """

    device: str
    reason: str
    t: float

    def __post_init__(self) -> None:
        _check_common(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class DieMotion(_EventBase):
    """A die is moving (``handling``: picked up; ``rolling``: thrown) or its state is
    not known yet (``unknown``). The result comes as a ``DieRolled``.

    >>> DieMotion(device="hub1", die=1, state="rolling", counter=3, t=2.0).source
    'die:hub1/1'
    >>> DieMotion(device="hub1", die=1, state="flying", t=2.0)
    Traceback (most recent call last):
    ...
    firmware_bridge.events.EventError: die state must be one of unknown, handling, rolling; got 'flying'
    """

    _prefix: ClassVar[str] = "die"
    device: str
    die: int
    state: MotionState
    t: float
    counter: int | None = None
    boot_id: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        _check_index("die", self.die)
        _check_counter(self.counter)
        if self.state not in MOTION_STATES:
            raise EventError("die state must be one of %s; got %r"
                             % (", ".join(MOTION_STATES), self.state))

    @property
    def source(self) -> str:
        return "die:%s/%d" % (self.device, self.die)


@dataclass(frozen=True, slots=True, kw_only=True)
class DieRolled(_EventBase):
    """A die came to rest. ``outcome``: "rolled" (a real throw), "onFace" (put down or
    turned by hand, not thrown) or "crooked" (cocked against something; ``value`` is the
    nearest face). ``confidence`` is the cosine between gravity and the face's normal
    (1.0 = perfectly flat). ``(boot_id, source, counter)`` identifies the roll: the same
    key twice is the same roll reported twice.

    >>> DieRolled(device="sim", die=0, value=7, outcome="rolled", confidence=1.0,
    ...           counter=1, t=0.0)
    Traceback (most recent call last):
    ...
    firmware_bridge.events.EventError: a die value is 1..faces (at most 100), got 7 on a d6
    """

    _prefix: ClassVar[str] = "die"
    device: str
    die: int
    value: int
    outcome: RollOutcome
    confidence: float
    counter: int | None
    t: float
    boot_id: int | None = None
    faces: int = 6

    def __post_init__(self) -> None:
        _check_common(self)
        _check_index("die", self.die)
        _check_counter(self.counter)
        if self.outcome not in ROLL_OUTCOMES:
            raise EventError("roll outcome must be one of %s; got %r"
                             % (", ".join(ROLL_OUTCOMES), self.outcome))
        if not isinstance(self.faces, int) or not 2 <= self.faces <= 100:
            raise EventError("faces must be 2..100, got %r" % (self.faces,))
        if not isinstance(self.value, int) or not 1 <= self.value <= self.faces:
            raise EventError("a die value is 1..faces (at most 100), got %r on a d%d"
                             % (self.value, self.faces))
        if not -1.0 <= self.confidence <= 1.0:
            raise EventError("confidence is a cosine in -1..1, got %r" % (self.confidence,))

    @property
    def source(self) -> str:
        return "die:%s/%d" % (self.device, self.die)

    @property
    def key(self) -> tuple[int | None, str, int | None]:
        """``(boot_id, source, counter)``: equal keys are the same physical roll."""
        return (self.boot_id, self.source, self.counter)


@dataclass(frozen=True, slots=True, kw_only=True)
class ThrowsMissed(_EventBase):
    """``count`` throws of a die were made and never reported: more of them happened
    while the host could not hear than the hub's result queue keeps (PROTOCOL.md §2).
    ``counter`` is the roll counter of the result reported after the gap (the throws
    missed are the ``count`` counters before it). Never silent: a game that waited for
    one of those throws has to ask which result stands.

    >>> ThrowsMissed(device="hub1", die=0, count=3, counter=40, t=1.0).source
    'die:hub1/0'
    >>> ThrowsMissed(device="hub1", die=0, count=0, t=1.0)
    Traceback (most recent call last):
    ...
    firmware_bridge.events.EventError: count of throws missed must be an int >= 1, got 0
    """

    _prefix: ClassVar[str] = "die"
    device: str
    die: int
    count: int
    t: float
    counter: int | None = None
    boot_id: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        _check_index("die", self.die)
        _check_counter(self.counter)
        if not isinstance(self.count, int) or isinstance(self.count, bool) or self.count < 1:
            raise EventError("count of throws missed must be an int >= 1, got %r" % (self.count,))

    @property
    def source(self) -> str:
        return "die:%s/%d" % (self.device, self.die)


@dataclass(frozen=True, slots=True, kw_only=True)
class _SlotEvent(_EventBase):
    _prefix: ClassVar[str] = "slot"
    device: str
    slot: int
    t: float
    counter: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        _check_index("slot", self.slot)
        _check_counter(self.counter)

    @property
    def source(self) -> str:
        return "slot:%s/%d" % (self.device, self.slot)


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenPlaced(_SlotEvent):
    """A token (its magnet) arrived on a slot's reed or hall switch.

    >>> TokenPlaced(device="gpio", slot=3, t=4.25).source
    'slot:gpio/3'
    """


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenRemoved(_SlotEvent):
    """A token left a slot.

    >>> TokenRemoved(device="hub1", slot=0, counter=12, t=4.5).counter
    12
    """


@dataclass(frozen=True, slots=True, kw_only=True)
class _ButtonEvent(_EventBase):
    _prefix: ClassVar[str] = "button"
    device: str
    button: str
    t: float
    counter: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        _check_counter(self.counter)
        if not isinstance(self.button, str) or not self.button or "/" in self.button:
            raise EventError("a button name is a non-empty string without '/', got %r"
                             % (self.button,))

    @property
    def source(self) -> str:
        return "button:%s/%s" % (self.device, self.button)


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed(_ButtonEvent):
    """A button went down (debounced). GPIO buttons are named by their role
    ("end-turn", "seat-0"); a hub's button bank by index ("0", "1", ...).

    >>> ButtonPressed(device="gpio", button="end-turn", t=3.0).source
    'button:gpio/end-turn'
    """


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonHeld(_ButtonEvent):
    """A button has stayed down for its hold time (once per press)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonReleased(_ButtonEvent):
    """A button came back up (debounced)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KeypadValue(_EventBase):
    """A value keyed in by hand for a physical die without electronics (1..6 on the
    six-button keypad). ``seat`` is the seat position the keypad belongs to, when it
    belongs to one (None: a shared keypad).

    >>> KeypadValue(device="gpio", value=5, t=1.0).source
    'keypad:gpio'
    >>> KeypadValue(device="gpio", value=5, seat=2, t=1.0).source
    'keypad:gpio/2'
    """

    _prefix: ClassVar[str] = "keypad"
    device: str
    value: int
    t: float
    seat: int | None = None
    counter: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        _check_counter(self.counter)
        if not isinstance(self.value, int) or isinstance(self.value, bool) or self.value < 1:
            raise EventError("a keypad value is an int >= 1, got %r" % (self.value,))
        if self.seat is not None:
            _check_index("seat", self.seat)

    @property
    def source(self) -> str:
        base = "keypad:%s" % self.device
        return base if self.seat is None else "%s/%d" % (base, self.seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class BatteryLevel(_EventBase):
    """A device's battery charge.

    >>> BatteryLevel(device="hub1", percent=80, millivolts=3950, t=5.0).source
    'battery:hub1'
    """

    _prefix: ClassVar[str] = "battery"
    device: str
    percent: int
    t: float
    millivolts: int | None = None

    def __post_init__(self) -> None:
        _check_common(self)
        if not isinstance(self.percent, int) or not 0 <= self.percent <= 100:
            raise EventError("battery percent is 0..100, got %r" % (self.percent,))


Event = Union[DeviceOnline, DeviceOffline, DieMotion, DieRolled, ThrowsMissed, TokenPlaced,
              TokenRemoved, ButtonPressed, ButtonHeld, ButtonReleased, KeypadValue, BatteryLevel]

EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in get_args(Event)}


def parse_event(data: Mapping[str, Any]) -> Event:
    """The event a ``to_dict()`` produced, of whichever type its ``type`` names.

    >>> parse_event({"type": "TokenPlaced", "device": "gpio", "slot": 2, "t": 1.5})
    TokenPlaced(device='gpio', slot=2, t=1.5, counter=None)
    """
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EventError("unknown event type %r" % (name,))
    return cls.from_dict(data)  # type: ignore[attr-defined,no-any-return]
