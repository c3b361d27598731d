"""The link's health as numbers: a frozen ``Counters`` value, read at any time with
``HubConnection.counters()`` (the connection keeps a private tally under a lock).

>>> c = Counters(frames_good=10, frames_bad=2)
>>> c.frames_good, c.reconnects
(10, 0)
>>> c.as_dict()["frames_bad"]
2
>>> print(c.line())
good 10  bad 2  lost 0  reconnects 0  resyncs 0  duplicates 0
"""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, fields

__all__ = ["Counters", "Tally"]


@dataclass(frozen=True, slots=True)
class Counters:
    """Since the connection was made (not per reconnect):

    * ``frames_good``: frames that decoded (CRC right, known protocol major);
    * ``frames_bad``: what the decoder threw away: CRC or COBS failures, truncated or
      oversize frames, REPL text, frames of an unknown major;
    * ``frames_lost``: frames the hub sent that never arrived, from gaps in its sequence
      numbers (unknowable across a reconnect, so not counted there);
    * ``reconnects``: handshakes that succeeded after the first;
    * ``resyncs``: REQUEST_STATE → SNAPSHOT rounds (after every handshake, a sequence gap
      or a reboot);
    * ``duplicates``: roll results dropped because their (boot id, die, roll counter)
      had been delivered already, plus token/button changes already known from a
      snapshot;
    * ``rolls_missed``: throws that were never reported: more happened while we could
      not hear than the hub's result queue keeps (the roll counter jumped by more than
      one after the replay); each gap is also a ``ThrowsMissed`` event;
    * ``unknown_inputs``: frames about a die, token slot or button the hub's IDENT did
      not announce ("die 200" on a two-die hub), dropped;
    * ``offline``: times the link went down (unplugged, silent, error);
    * ``callback_errors``: exceptions raised by the ``on_event`` callback (logged).
    """

    frames_good: int = 0
    frames_bad: int = 0
    frames_lost: int = 0
    reconnects: int = 0
    resyncs: int = 0
    duplicates: int = 0
    rolls_missed: int = 0
    unknown_inputs: int = 0
    offline: int = 0
    callback_errors: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    def line(self) -> str:
        """One status-bar line with the six counters people ask about, and the throws
        missed and unknown inputs when there were any.

        >>> Counters(frames_good=5, rolls_missed=2).line()
        'good 5  bad 0  lost 0  reconnects 0  resyncs 0  duplicates 0  rolls missed 2'
        """
        text = ("good %d  bad %d  lost %d  reconnects %d  resyncs %d  duplicates %d"
                % (self.frames_good, self.frames_bad, self.frames_lost, self.reconnects,
                   self.resyncs, self.duplicates))
        if self.rolls_missed:
            text += "  rolls missed %d" % self.rolls_missed
        if self.unknown_inputs:
            text += "  unknown inputs %d" % self.unknown_inputs
        return text


_NAMES = frozenset(f.name for f in fields(Counters))


class Tally:
    """The mutable side: the reader thread adds, any thread takes a ``Counters`` copy.

    >>> t = Tally(); t.add("frames_good", 3); t.add("resyncs")
    >>> t.value()
    Counters(frames_good=3, frames_bad=0, frames_lost=0, reconnects=0, resyncs=1, duplicates=0, rolls_missed=0, unknown_inputs=0, offline=0, callback_errors=0)
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = dict.fromkeys(_NAMES, 0)

    def add(self, name: str, n: int = 1) -> None:
        if name not in _NAMES:
            raise KeyError(name)
        with self._lock:
            self._counts[name] += n

    def value(self) -> Counters:
        with self._lock:
            return Counters(**self._counts)
