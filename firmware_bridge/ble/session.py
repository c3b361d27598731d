"""The rules of one BLE die's conversation, pure and tested notification by notification
(the ``HubSession`` of the BLE source): what each message becomes as events, what a
(re)connect's report means, what is a duplicate.

Which messages are rolls (README, "Rulings"):

* a roll is Pixels' ``rolled`` or GoDice's ``S`` after a throw: a ``DieRolled`` with
  outcome "rolled";
* a die at rest but tilted (Pixels ``crooked``, GoDice ``TS``) is a ``DieRolled`` with
  outcome "crooked": the Table holds it and the players re-roll or accept it;
* handling is never a roll: Pixels ``handling`` / ``onFace`` and GoDice ``FS`` (a fake
  roll) and ``MS`` (turned by hand) are ``DieMotion("handling")``; ``rolling`` / ``R`` are
  ``DieMotion("rolling")``.

Neither maker numbers its rolls, so the counter is ours: each result delivered takes the
next one, and ``boot_id`` is a random id of this die's session in this process, so the
``(boot_id, source, counter)`` key of a ``DieRolled`` is never reused. A result is
delivered once per throw: a die that repeats its result (a reconnect's report, a
repeated notification) with no motion in between is a duplicate, counted and dropped.

After every (re)connect the die is asked where it is (Pixels: RequestRollState; GoDice:
the init message, answered with the face it lies on). The first report of a session is
state, not news. A later one is compared with what we knew:

* motion seen before the link dropped (a throw under way) and now a result: that throw's
  result, delivered;
* a Pixel saying ``rolled`` / ``crooked`` on another face than the last: thrown while we
  could not hear, delivered;
* the same face with no motion seen: nothing happened (or a throw landed on the same
  face: undetectable, README "Known limits");
* a GoDice on another face with no motion seen: thrown or turned while away, which the
  die cannot tell us: a ``ThrowsMissed(count=1)``, so the players hear of it;
* a Pixel ``onFace`` on another face: turned by hand while away, a ``DieMotion``.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from typing import Any, Callable

from firmware_bridge import events as E
from firmware_bridge.ble import godice as G
from firmware_bridge.ble import pixels as P
from firmware_bridge.ble.errors import MessageError, WrongDieError, WrongShellError

__all__ = ["BleCounters", "Tally", "DieStatus", "DieTracker", "PixelsSession",
           "GoDiceSession", "Session"]

log = logging.getLogger("firmware_bridge.ble")


@dataclass(frozen=True, slots=True)
class BleCounters:
    """Since the die was added (not per connection):

    * ``notifications``: notifications received; ``bad_messages``: dropped as malformed
      (``bad_reasons`` says why); ``ignored``: well-formed messages we do not use;
    * ``rolls``: ``DieRolled`` delivered; ``duplicates``: results dropped as already
      delivered; ``changed_while_away``: faces found changed at a reconnect;
    * ``connects`` / ``reconnects`` / ``offline``: links made, made again, lost;
    * ``refused``: connections refused (another Pixel id, another API version);
    * ``wrong_shell``: GoDice readings that fit another shell (not delivered);
    * ``callback_errors``: exceptions raised by ``on_event`` (logged).
    """

    notifications: int = 0
    bad_messages: int = 0
    ignored: int = 0
    rolls: int = 0
    duplicates: int = 0
    changed_while_away: int = 0
    connects: int = 0
    reconnects: int = 0
    offline: int = 0
    refused: int = 0
    wrong_shell: int = 0
    callback_errors: int = 0
    bad_reasons: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Tally:
    """The mutable side of ``BleCounters`` (the loop thread adds, any thread reads).

    >>> t = Tally(); t.add("rolls"); t.bad("short"); t.bad("short")
    >>> c = t.value(); c.rolls, c.bad_messages, c.bad_reasons
    (1, 2, (('short', 2),))
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._reasons: dict[str, int] = {}

    def add(self, name: str, n: int = 1) -> None:
        if name not in BleCounters.__dataclass_fields__ or name == "bad_reasons":
            raise KeyError(name)
        with self._lock:
            self._counts[name] = self._counts.get(name, 0) + n

    def bad(self, reason: str) -> None:
        with self._lock:
            self._counts["bad_messages"] = self._counts.get("bad_messages", 0) + 1
            self._reasons[reason] = self._reasons.get(reason, 0) + 1

    def value(self) -> BleCounters:
        with self._lock:
            return BleCounters(**self._counts, bad_reasons=tuple(sorted(self._reasons.items())))


@dataclass(frozen=True, slots=True)
class DieStatus:
    """What the devices panel shows about a die (a snapshot; ``BleDiceSource.status``).

    ``die_type`` is a Pixel's own ("d20") or a GoDice's shell ("D6", set by the user);
    ``battery_low`` is the die's own "low" or a level at or under 15 %; ``warning`` is a
    sentence for the players (a wrong shell, a refused die, a die not advertising)."""

    device: str
    kind: str
    address: str
    online: bool = False
    name: str = ""
    uid: str = ""
    die_type: str = ""
    faces: int = 6
    firmware: str = ""
    battery: int | None = None
    charging: bool = False
    battery_low: bool = False
    color: str = ""
    value: int | None = None
    label: str = ""
    state: str = "unknown"
    warning: str = ""


class DieTracker:
    """Result and de-duplication rules shared by both makers (see the module doc).

    >>> tr = DieTracker("px1", faces=6, tally=Tally(), boot_id=7)
    >>> tr.report("rolled", 3, 1.0, t=0.0)          # the first report: state, not news
    []
    >>> [type(e).__name__ for e in tr.motion("rolling", 1.0) + tr.result("rolled", 5, 1.0, 2.0)]
    ['DieMotion', 'DieRolled']
    >>> tr.result("rolled", 5, 1.0, 2.5)             # the same again, no motion: a duplicate
    []
    >>> tr.report("rolled", 5, 1.0, t=9.0)           # a reconnect on the same face
    []
    >>> [(e.value, e.counter) for e in tr.report("rolled", 2, 1.0, t=9.5)]   # thrown while away
    [(2, 2)]
    """

    def __init__(self, device: str, faces: int, tally: Tally, boot_id: int | None = None) -> None:
        self.device = device
        self.faces = faces
        self.tally = tally
        self.boot_id = boot_id if boot_id is not None else random.getrandbits(31)
        self.counter = 0
        self.last: tuple[str, int] | None = None  # (outcome, value) of the last known result
        self.moved = False  # motion seen since that result
        self.state = "unknown"

    def motion(self, state: str, t: float) -> list[E.Event]:
        self.state = state
        if state in ("handling", "rolling"):
            self.moved = True
        return [E.DieMotion(device=self.device, die=0, state=state,  # type: ignore[arg-type]
                            boot_id=self.boot_id, t=t)]

    def handled(self, value: int, t: float) -> list[E.Event]:
        """At rest after handling (Pixels onFace, GoDice FS/MS): not a roll."""
        out = self.motion("handling", t)
        self.last, self.moved = ("onFace", value), False
        return out

    def result(self, outcome: str, value: int, confidence: float, t: float) -> list[E.Event]:
        if not self.moved and self.last == (outcome, value):
            self.tally.add("duplicates")
            return []
        return self._deliver(outcome, value, confidence, t)

    def _deliver(self, outcome: str, value: int, confidence: float, t: float) -> list[E.Event]:
        self.counter += 1
        self.last, self.moved, self.state = (outcome, value), False, outcome
        self.tally.add("rolls")
        return [E.DieRolled(device=self.device, die=0, value=value,
                            outcome=outcome,  # type: ignore[arg-type]
                            confidence=max(-1.0, min(1.0, confidence)), counter=self.counter,
                            boot_id=self.boot_id, faces=self.faces, t=t)]

    def report(self, state: str, value: int, confidence: float, t: float,
               die_knows_roll: bool = True) -> list[E.Event]:
        """Where the die is, as it says after a (re)connect. ``state``: a Pixels roll state,
        or "atRest" (GoDice: the face it lies on, with no word on how it got there);
        ``die_knows_roll``: whether "rolled" is the die's own verdict (Pixels)."""
        if state in ("handling", "rolling", "unknown"):
            return self.motion(state, t) if self.last is not None or state != "unknown" else []
        if self.last is None:  # the first report: the baseline
            self.last, self.state = ("onFace" if state == "atRest" else state, value), state
            return []
        if state == "onFace":  # the die itself says: not thrown
            if value != self.last[1]:
                self.tally.add("changed_while_away")
                return self.handled(value, t)
            self.moved = False
            return []
        thrown = state in ("rolled", "crooked") and die_knows_roll
        if self.moved:
            outcome = "crooked" if state == "crooked" else "rolled"
            return self._deliver(outcome, value, confidence, t)
        if value == self.last[1]:
            if thrown:
                self.tally.add("duplicates")
            return []
        self.tally.add("changed_while_away")
        if thrown:
            return self._deliver(state, value, confidence, t)
        self.last, self.moved = ("onFace", value), False
        log.info("%s: another face (%d) after a reconnect: thrown or turned while away", self.device, value)
        return [E.ThrowsMissed(device=self.device, die=0, count=1, boot_id=self.boot_id, t=t)]


class _Session:
    kind = ""

    def __init__(self, device: str, address: str, tally: Tally | None = None) -> None:
        self.device = device
        self.address = address
        self.tally = tally if tally is not None else Tally()
        self.status = DieStatus(device=device, kind=self.kind, address=address)
        self.tracker = DieTracker(device, 6, self.tally)
        self.awaiting_report = False
        self.online = False
        self.on_change: Callable[[DieStatus], Any] | None = None  # the source's status hook

    def _set(self, **kw: Any) -> None:
        new = replace(self.status, **kw)
        if new != self.status:
            self.status = new
            if self.on_change is not None:
                self.on_change(new)

    def _battery(self, percent: int, charging: bool, low: bool, t: float) -> list[E.Event]:
        """The die's level as it says it in the status (a Pixel may say more than 100 %,
        as pixels-js shows it); the event's level is a percentage (events.BatteryLevel),
        so it carries at most 100."""
        self._set(battery=percent, charging=charging, battery_low=low)
        return [E.BatteryLevel(device=self.device, percent=min(percent, 100), t=t)]

    def _shown(self, value: int, label: str, state: str) -> None:
        self._set(value=value, label=label, state=state)

    def went_offline(self) -> None:
        self.online = False
        self.awaiting_report = False
        self._set(online=False)


class PixelsSession(_Session):
    """A Pixel's conversation. ``pixel_id``: the die this link is for (None: the first that
    answers, pinned from then on)."""

    kind = "pixels"

    def __init__(self, device: str, address: str, tally: Tally | None = None,
                 pixel_id: int | None = None) -> None:
        super().__init__(device, address, tally)
        self.pixel_id = pixel_id
        self.identity: P.Identity | None = None

    def connected(self) -> None:
        """A new link: nothing is known until the IAmADie."""
        self.awaiting_report = False

    def push(self, data: bytes | bytearray, t: float) -> list[E.Event]:
        """One notification → events. A malformed one is counted and dropped; an IAmADie
        from another die or API raises (``WrongDieError``, ``PixelsApiVersionError``) so the
        link refuses it."""
        self.tally.add("notifications")
        try:
            msg = P.parse_message(data)
            if isinstance(msg, P.Identity):
                return self._identity(msg, t)
            if isinstance(msg, P.RollState):
                return self._roll(msg, t)
        except MessageError as e:
            self.tally.bad(e.reason)
            log.info("%s: dropped a notification: %s", self.device, e)
            return []
        if isinstance(msg, P.Battery):
            low = msg.state == "low" or (msg.percent <= P.LOW_BATTERY_PERCENT and not msg.charging)
            return self._battery(msg.percent, msg.charging, low, t)
        self.tally.add("ignored")
        return []

    def _identity(self, i: P.Identity, t: float) -> list[E.Event]:
        if self.pixel_id is None:
            self.pixel_id = i.pixel_id
        elif i.pixel_id != self.pixel_id:
            raise WrongDieError(self.address, "Pixel %s" % i.uid, "Pixel %08x" % self.pixel_id)
        P.check_api(i)
        self.identity = i
        self.tracker.faces = i.faces
        firmware = (datetime.fromtimestamp(i.build_timestamp, timezone.utc).strftime("%Y-%m-%d")
                    if i.build_timestamp else "")
        protocol = "pixels %x.%x%s" % (i.api_version >> 8, i.api_version & 0xFF,
                                       " (legacy)" if i.legacy else "")
        self._set(online=True, uid=i.uid, die_type=i.die_type, faces=i.faces, firmware=firmware,
                  name=i.name or self.status.name, warning="")
        if self.online:
            return []  # an IAmADie again on a live link: nothing new
        self.online = True
        self.awaiting_report = True  # the link sends RequestRollState next
        out: list[E.Event] = [E.DeviceOnline(device=self.device, kind="pixels", uid=i.uid,
                                             firmware=firmware, protocol=protocol,
                                             faces=(i.faces,), t=t)]
        charging = i.battery_state in ("charging", "done")
        low = i.battery_state == "low" or (i.battery_percent <= P.LOW_BATTERY_PERCENT and not charging)
        return out + self._battery(i.battery_percent, charging, low, t)

    def _roll(self, r: P.RollState, t: float) -> list[E.Event]:
        i = self.identity
        if i is None:
            self.tally.add("ignored")  # before the IAmADie: the report after it covers it
            return []
        state = P.flat_crooked_fix(i.led_count, i.build_timestamp, r.state)
        tr = self.tracker
        if state in ("handling", "rolling", "unknown"):
            self._set(state=state)
            if self.awaiting_report:
                self.awaiting_report = False
                return tr.report(state, 0, 0.0, t)
            return tr.motion(state, t)
        value = P.face_value(i.die_type, r.face_index, i.build_timestamp)
        self._shown(value, P.face_label(i.die_type, value), state)
        # Pixels do not say how crooked a die is: 1.0 for a flat landing, 0.0 otherwise.
        confidence = 1.0 if state != "crooked" else 0.0
        if self.awaiting_report:
            self.awaiting_report = False
            return tr.report(state, value, confidence, t)
        if state == "onFace":
            return tr.handled(value, t)
        return tr.result(state, value, confidence, t)


class GoDiceSession(_Session):
    """A GoDice's conversation, its face read on ``shell`` (the user's choice)."""

    kind = "godice"

    def __init__(self, device: str, address: str, shell: str = "D6",
                 tally: Tally | None = None, name: str = "") -> None:
        super().__init__(device, address, tally)
        self.shell = shell
        self.tracker.faces = G.shell_faces(shell)
        self._set(die_type=shell, faces=self.tracker.faces, name=name,
                  uid=address.replace(":", "").lower())

    def set_shell(self, shell: str) -> None:
        self.tracker.faces = G.shell_faces(shell)  # raises ValueError for a bad name
        self.shell = shell
        self._set(die_type=shell, faces=self.tracker.faces, warning="")

    def connected(self, t: float) -> list[E.Event]:
        """Subscribed: online; the link sends the init message, whose ``S`` is the report."""
        self.online = True
        self.awaiting_report = True
        self._set(online=True, warning="")
        return [E.DeviceOnline(device=self.device, kind="godice", uid=self.status.uid,
                               protocol="godice", faces=(self.tracker.faces,), t=t)]

    def report_missing(self) -> None:
        """No face came after the init message: the next stable result is live again."""
        self.awaiting_report = False

    def push(self, data: bytes | bytearray, t: float) -> list[E.Event]:
        self.tally.add("notifications")
        try:
            msg = G.parse_message(data)
        except MessageError as e:
            self.tally.bad(e.reason)
            log.info("%s: dropped a notification: %s", self.device, e)
            return []
        tr = self.tracker
        if isinstance(msg, G.Rolling):
            self._set(state="rolling")
            return tr.motion("rolling", t)
        if isinstance(msg, G.Stable):
            return self._stable(msg, t)
        if isinstance(msg, G.Battery):
            return self._battery(msg.percent, self.status.charging,
                                 msg.percent <= G.LOW_BATTERY_PERCENT and not self.status.charging, t)
        if isinstance(msg, G.Charging):
            self._set(charging=msg.charging,
                      battery_low=bool(self.status.battery_low and not msg.charging))
            return []
        if isinstance(msg, G.Color):
            self._set(color=msg.name)
            return []
        self.tally.add("ignored")
        return []

    def _stable(self, msg: G.Stable, t: float) -> list[E.Event]:
        reading = G.read_face(self.shell, msg.xyz)
        tr = self.tracker
        if reading.looks_like is not None and msg.kind != "TS":  # a tilt fits no shell
            # Not delivered: a value read on the wrong shell's table is not the die's face.
            self.tally.add("wrong_shell")
            err = WrongShellError(self.device, self.shell, reading.looks_like)
            self._set(warning=str(err), state="unknown")
            log.warning("%s", err)
            self.awaiting_report = False
            return tr.motion("unknown", t)
        if self.status.warning.startswith("GoDice"):
            self._set(warning="")
        self._shown(reading.value, reading.label, {"S": "rolled", "TS": "crooked"}.get(msg.kind, "onFace"))
        if self.awaiting_report:
            self.awaiting_report = False
            return tr.report("atRest" if msg.kind != "TS" else "crooked", reading.value,
                             reading.confidence, t, die_knows_roll=False)
        if msg.kind == "S":
            return tr.result("rolled", reading.value, reading.confidence, t)
        if msg.kind == "TS":
            return tr.result("crooked", reading.value, reading.confidence, t)
        return tr.handled(reading.value, t)  # FS: a fake roll; MS: turned by hand


Session = PixelsSession | GoDiceSession
