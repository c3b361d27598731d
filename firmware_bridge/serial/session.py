"""What one hub has told us, across connections and reboots, and the events it becomes.
Pure: frames and host times in, events out, no I/O, no threads (``HubConnection`` does
those), so every rule below is testable frame by frame.

* **Sequence**: each frame's ``seq`` should be the last one + 1 (mod 256). A gap counts
  the missing frames as lost and asks for a resync; a frame numbered behind (a repeat)
  is no loss. After a (re)connect the first frame
  sets the expectation; nothing is counted across the dead time.
* **Reboot**: an IDENT with a new ``boot_id`` (the hub announces itself at boot) means
  its counters and sequence began again: a fresh ``DeviceOnline`` and a resync.
* **Resync**: REQUEST_STATE → REPLAY × k, SNAPSHOT. The hub resends its last 32 roll
  results (REPLAY, in order, with their roll counters) before the snapshot; those we
  have not delivered are delivered in order, so every throw made while unplugged
  arrives. A die whose counter still jumps after the replay had more throws than the
  hub's queue keeps: a ``ThrowsMissed`` with exactly how many, then the result. A live
  result whose counter jumps is held back for the resync it asks for (the replay
  brings the missing ones first; asked again after two heartbeats without a SNAPSHOT,
  should the request or its answer be lost). Token and button bits that differ from what we knew
  become placed/removed/pressed/released events. On the very first resync of a hub,
  what it reports is state, not news: no events.
* **Unknown inputs**: a die, token slot or button index beyond what IDENT announced
  ("die 200" on a two-die hub) is dropped and counted (``unknown_inputs``).
* **Boot settle**: a die's first result of a boot with roll counter 0 is the face it
  settled on at power-up, before anyone touched it: a baseline, not a ``DieRolled``
  (after the u16 counter wraps, 0 follows 65535 and is a roll like any other).
* **De-duplication**: a roll result is delivered once per ``(boot_id, die, roll
  counter)`` (u16 counters compared with wrap-around, plus a memory of each die's last
  1024 delivered counters); a token or button change that the bank's bits already
  showed is dropped.

>>> from firmware_bridge.shared import codec
>>> s = HubSession("hub1")
>>> ident = codec.pack_ident("0.1.0", bytes(8), 5, 31, [6])
>>> [type(e).__name__ for e in s.push(codec.Frame(codec.IDENT, 0, 0xFE, ident), 1.0)]
['DeviceOnline']
>>> s.wants_resync
True
>>> roll = codec.Frame(codec.ROLL_STATE, 1, 0, codec.pack_roll_state(1, 3, 990, 100, 1))
>>> [(e.value, e.counter) for e in s.push(roll, 2.0)]
[(4, 1)]
>>> roll.seq = 2; s.push(roll, 2.1), s.tally.value().duplicates
([], 1)
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Callable

from firmware_bridge import events as E
from firmware_bridge.serial import messages as M
from firmware_bridge.serial.counters import Tally
from firmware_bridge.serial.errors import ProtocolVersionError
from firmware_bridge.shared import codec

__all__ = ["HubSession"]

log = logging.getLogger("firmware_bridge.serial")

_LOG_LEVELS = {1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR}
_HOST_TYPES = frozenset((codec.HELLO, codec.REQUEST_STATE, codec.SET_CONFIG,
                         codec.CALIBRATE_FACE, codec.SET_TELEMETRY, codec.REBOOT, codec.PING))


def _newer(counter: int, than: int) -> int:
    """How far u16 ``counter`` is ahead of ``than`` (0 if not ahead), with wrap-around.

    >>> _newer(5, 3), _newer(3, 5), _newer(1, 65535)
    (2, 0, 2)
    """
    d = (counter - than) & 0xFFFF
    return d if 0 < d < 0x8000 else 0


class _Recent:
    """The last ``size`` roll counters delivered for one die in one boot. "Newer than the
    last" alone is ambiguous across a jump of half the u16 range; a key seen within the
    last ``size`` rolls is never delivered again, whatever the jump."""

    def __init__(self, size: int = 1024) -> None:
        self._order: deque[int] = deque(maxlen=size)
        self._set: set[int] = set()

    def __contains__(self, counter: int) -> bool:
        return counter in self._set

    def add(self, counter: int) -> None:
        if len(self._order) == self._order.maxlen:
            self._set.discard(self._order[0])
        self._order.append(counter)
        self._set.add(counter)


class HubSession:
    """One hub's protocol state. ``push(frame, t)`` returns the events the frame makes;
    afterwards ``wants_resync`` says whether a REQUEST_STATE should go out, and the
    caller clears it with ``resync_sent()``. It adds to ``tally`` (its own unless one is
    given): ``frames_lost``, ``duplicates``, ``rolls_missed``, ``unknown_inputs`` and
    ``frames_bad`` (payloads that made no sense). ``on_ack`` is called with every ``Ack``."""

    def __init__(self, device: str, *, host_major: int = codec.PROTOCOL_MAJOR,
                 on_ack: Callable[[M.Ack], None] | None = None,
                 tally: Tally | None = None) -> None:
        self.device = device
        self.host_major = host_major
        self.on_ack = on_ack
        self.tally = tally if tally is not None else Tally()
        self.ident: M.Ident | None = None
        self.heartbeat: M.Heartbeat | None = None
        self.tokens: int | None = None  # bank bits; None until the hub has said
        self.buttons: int | None = None
        self.wants_resync = False
        self._expect: int | None = None  # next seq; None right after a (re)connect
        self._announced = False  # DeviceOnline sent on this connection
        self._behind = 0  # frames in a row numbered behind the expectation
        self._delivered: dict[tuple[int, int], int] = {}  # (boot, die) -> last result counter
        self._recent: dict[tuple[int, int], _Recent] = {}  # (boot, die) -> counters delivered
        self._boots_seen: set[int] = set()
        self._first_snapshot = True  # no SNAPSHOT handled yet
        self._baselined: set[tuple[int, int]] = set()  # dice whose baseline the first resync set
        # Heartbeats since a live result was held back for a resync whose SNAPSHOT has not
        # come; None when nothing is held. A lost REQUEST_STATE is asked again after two.
        self._held_beats: int | None = None

    # -- connection life -----------------------------------------------------------------

    def connected(self) -> None:
        """A new connection: the sequence restarts from whatever comes first, and the
        first IDENT announces the hub again."""
        self._expect = None
        self._announced = False

    def resync_sent(self) -> None:
        self.wants_resync = False

    @property
    def boot_id(self) -> int | None:
        return None if self.ident is None else self.ident.boot_id

    def faces(self, die: int) -> int:
        """The die's face count from IDENT (6 when IDENT did not list it)."""
        if self.ident is not None and die < len(self.ident.faces) and self.ident.faces[die] >= 2:
            return self.ident.faces[die]
        return 6

    # -- frames --------------------------------------------------------------------------

    def push(self, frame: codec.Frame, t: float) -> list[E.Event]:
        """The events one decoded frame makes (usually zero or one).

        Raises ``ProtocolVersionError`` for an IDENT of another protocol major."""
        kind = frame.type
        if kind in _HOST_TYPES:
            return []  # our own command coming back (a loopback, an echoing terminal)
        if kind == codec.IDENT:
            return self._ident(frame, t)
        self._sequence(frame.seq)
        try:
            if kind == codec.ROLL_STATE:
                return self._roll(frame.src, M.parse_roll_state(frame.payload), t, live=True)
            if kind == codec.REPLAY:
                return self._roll(frame.src, M.parse_roll_state(frame.payload), t, live=False)
            if kind == codec.TOKEN:
                return self._switch(True, M.parse_switch(frame.payload), t)
            if kind == codec.BUTTON:
                return self._switch(False, M.parse_switch(frame.payload), t)
            if kind == codec.SNAPSHOT:
                return self._snapshot(M.parse_snapshot(frame.payload), t)
            if kind == codec.HEARTBEAT:
                self.heartbeat = M.parse_heartbeat(frame.payload)
                if self._held_beats is not None:
                    self._held_beats += 1
                    if self._held_beats >= 2:  # our REQUEST_STATE, or its answer, was lost
                        self._held_beats = 0
                        self.wants_resync = True
            elif kind == codec.ACK:
                ack = M.parse_ack(frame.payload)
                if self.on_ack is not None:
                    self.on_ack(ack)
            elif kind == codec.BATTERY:
                b = M.parse_battery(frame.payload)
                if b.percent is not None:
                    return [E.BatteryLevel(device=self.device, percent=min(100, b.percent),
                                           millivolts=b.millivolts, t=t)]
            elif kind == codec.LOG:
                level, text = M.parse_log(frame.payload)
                log.log(_LOG_LEVELS.get(level, logging.INFO), "%s says: %s", self.device, text)
        except (ValueError, IndexError) as e:  # codec.FrameError (short payload), or an EventError (a bad value)
            self.tally.add("frames_bad")
            log.warning("%s: %s frame dropped: %s", self.device, frame.name(), e)
        return []

    def _sequence(self, seq: int) -> None:
        """Count a forward jump as lost frames. A frame from behind (a resend, a frame
        repeated on the line) is no loss and leaves the expectation alone, unless the
        hub keeps sending from behind: then it restarted its numbering unannounced (a
        lost IDENT), so adopt its numbers and resync."""
        if self._expect is not None and seq != self._expect:
            ahead = (seq - self._expect) & 0xFF
            if ahead >= 0x80:
                self._behind += 1
                if self._behind < 3:
                    return
                self.wants_resync = True
            else:
                self.tally.add("frames_lost", ahead)
                self.wants_resync = True
        self._behind = 0
        self._expect = (seq + 1) & 0xFF

    def _ident(self, frame: codec.Frame, t: float) -> list[E.Event]:
        try:
            ident = M.parse_ident(frame.payload)
        except codec.FrameError:
            if len(frame.payload) >= 1 and frame.payload[0] != self.host_major:
                raise ProtocolVersionError(frame.payload[0], self.host_major) from None
            self.tally.add("frames_bad")
            self._sequence(frame.seq)
            return []
        if ident.major != self.host_major:
            raise ProtocolVersionError(ident.major, self.host_major)
        rebooted = self.ident is not None and ident.boot_id != self.ident.boot_id
        if rebooted or self._expect is None:
            self._expect = (frame.seq + 1) & 0xFF  # a new boot numbers from 0 again
        else:
            self._sequence(frame.seq)
        self.ident = ident
        if self._announced and not rebooted:
            return []  # the answer to a HELLO on a live link: nothing new
        self._announced = True
        self.wants_resync = True
        self._boots_seen.add(ident.boot_id)
        return [E.DeviceOnline(device=self.device, kind="hub", uid=ident.uid.hex(),
                               boot_id=ident.boot_id, firmware=ident.firmware,
                               protocol=ident.protocol, faces=ident.faces, t=t)]

    # -- dice ----------------------------------------------------------------------------

    def _announced_die(self, die: int) -> bool:
        """Whether IDENT announced this die (before any IDENT: taken on trust, the
        resync after IDENT judges again)."""
        if self.ident is None or die < len(self.ident.faces):
            return True
        self.tally.add("unknown_inputs")
        log.warning("%s: die %d dropped: the hub announced %d dice", self.device, die,
                    len(self.ident.faces))
        return False

    def _roll(self, die: int, r: M.RollState | M.DieSnapshot, t: float, live: bool) -> list[E.Event]:
        """``live``: a ROLL_STATE as it happened; else a REPLAY or a SNAPSHOT's die."""
        if not self._announced_die(die):
            return []
        boot = self.boot_id
        if not r.is_result:
            if not live:
                return []
            return [E.DieMotion(device=self.device, die=die, state=M.STATE_NAMES[r.state]
                                if r.state < len(M.STATE_NAMES) else "unknown",  # type: ignore[arg-type]
                                counter=r.counter, boot_id=boot, t=t)]
        if boot is None:
            return []  # a result before IDENT: the resync after IDENT brings it
        last = self._delivered.get((boot, die))
        recent = self._recent.setdefault((boot, die), _Recent())
        if (not live and self._first_snapshot and len(self._boots_seen) <= 1
                and (last is None or (boot, die) in self._baselined)):
            # The first resync of the first boot we met: old rolls, not news; the latest
            # is the baseline the next roll counts from. (A die already heard live
            # counts from what we delivered.)
            self._baselined.add((boot, die))
            if last is None or _newer(r.counter, last):
                self._delivered[(boot, die)] = r.counter
            recent.add(r.counter)
            return []
        missed: list[E.Event] = []
        if last is not None:
            ahead = _newer(r.counter, last)
            if not ahead or r.counter in recent:
                if live:
                    self.tally.add("duplicates")
                return []
            if ahead > 1:
                if live:
                    # Throws in between never reached us: the resync's replay brings
                    # them, this one included, in order.
                    self._hold()
                    return []
                missed.append(E.ThrowsMissed(device=self.device, die=die, count=ahead - 1,
                                             counter=r.counter, boot_id=boot, t=t))
        elif r.counter == 0:
            # Counter 0 in a boot: the face the die settled on at power-up, before any
            # episode (no roll): the baseline the next roll counts from.
            self._delivered[(boot, die)] = r.counter
            recent.add(r.counter)
            return []
        elif live and r.counter > 1 and len(self._boots_seen) > 1:
            # A later boot's first result we hear is not its first throw: the replay
            # brings the ones before it.
            self._hold()
            return []
        faces = self.faces(die)
        rolled = E.DieRolled(device=self.device, die=die, value=r.face + 1,
                             outcome=M.STATE_NAMES[r.state],  # type: ignore[arg-type]
                             confidence=max(-1.0, min(1.0, r.confidence / 1000)),
                             counter=r.counter, boot_id=boot, faces=faces, t=t)
        if missed:
            self.tally.add("rolls_missed", missed[0].count)  # type: ignore[union-attr]
        self._delivered[(boot, die)] = r.counter
        recent.add(r.counter)
        return missed + [rolled]

    def _hold(self) -> None:
        """A live result waits for the replay: ask for it (and again if it does not come)."""
        self.wants_resync = True
        if self._held_beats is None:
            self._held_beats = 0

    def _snapshot(self, snap: M.Snapshot, t: float) -> list[E.Event]:
        self._held_beats = None  # the replay before it brought whatever was held
        out: list[E.Event] = []
        for die, d in enumerate(snap.dice):
            try:
                out += self._roll(die, d, t, live=False)
            except ValueError as e:  # one die's impossible face must not hide the rest
                self.tally.add("frames_bad")
                log.warning("%s: SNAPSHOT die %d ignored: %s", self.device, die, e)
        for tokens, bits in ((True, snap.tokens), (False, snap.buttons)):
            size = self._bank_size(tokens)
            if bits >> size:
                self.tally.add("unknown_inputs")
                bits &= (1 << size) - 1
            out += self._bank_diff(tokens, bits, t, None)
        self._first_snapshot = False
        return out

    # -- tokens and buttons ----------------------------------------------------------------

    def _bank_size(self, tokens: bool) -> int:
        """Inputs IDENT announced in the bank (32, all a u32 holds, before any IDENT)."""
        if self.ident is None:
            return 32
        return self.ident.tokens if tokens else self.ident.buttons

    def _switch(self, tokens: bool, c: M.SwitchChange, t: float) -> list[E.Event]:
        size = self._bank_size(tokens)
        if c.index >= size or c.bits >> size:
            self.tally.add("unknown_inputs")
            log.warning("%s: %s %d dropped: the hub announced %d", self.device,
                        "token slot" if tokens else "button", c.index, size)
            return []
        known = self.tokens if tokens else self.buttons
        if known is not None and bool(known >> c.index & 1) == c.active and known == c.bits:
            self.tally.add("duplicates")  # the snapshot already told us
            return []
        if known is None:
            known = c.bits ^ (1 << c.index)  # only this input is news
        return self._bank_diff(tokens, c.bits, t, c, known)

    def _bank_diff(self, tokens: bool, bits: int, t: float, change: M.SwitchChange | None,
                   known: int | None = None) -> list[E.Event]:
        if known is None:
            known = self.tokens if tokens else self.buttons
        if tokens:
            self.tokens = bits
        else:
            self.buttons = bits
        if known is None:
            return []  # first sight: state, not news
        out: list[E.Event] = []
        diff = known ^ bits
        i = 0
        while diff >> i:
            if diff >> i & 1:
                on = bool(bits >> i & 1)
                counter = change.counter if change is not None and change.index == i else None
                if tokens:
                    cls = E.TokenPlaced if on else E.TokenRemoved
                    out.append(cls(device=self.device, slot=i, counter=counter, t=t))
                else:
                    bcls = E.ButtonPressed if on else E.ButtonReleased
                    out.append(bcls(device=self.device, button=str(i), counter=counter, t=t))
            i += 1
        return out
