"""Per-seat game clocks driven by whose turn it is.

The Table owns one :class:`ClockSet` and calls :meth:`ClockSet.switch_to` whenever the
engine's prompt changes actors; the UI calls :meth:`ClockSet.tick` a few times a second and
shows :meth:`ClockSet.status`. Time comes from an injected monotonic clock (a callable
returning seconds) so tests decide how much time passes:

>>> from companion.clocks import ClockConfig, ClockMode
>>> now = [0.0]
>>> cs = ClockSet(ClockConfig(ClockMode.FISCHER, main=60, increment=5, warning=10),
...               ["a", "b"], clock=lambda: now[0], wall=lambda: 1e9 + now[0])
>>> cs.switch_to("a"); now[0] = 12.0; cs.switch_to("b")
>>> cs.remaining("a"), cs.remaining("b")       # 60 - 12 + 5
(53.0, 60.0)
>>> now[0] = 62.0; [e.message() for e in cs.tick()]
['b: low time, 0:10 left']

Rules the code follows (and the tests check):

* Time is counted in whole microseconds; every running seat is charged exactly the time
  that passed on the injected clock while it ran and the table was not paused.
* Several seats may act at once (simultaneous secret choices): ``switch_to({"a", "b"})``
  runs both clocks; when ``a`` commits the Table calls ``switch_to("b")``, which completes
  ``a``'s move (Fischer increment, Bronstein refund…) while ``b`` keeps thinking.
  In hourglass mode each running seat's time flows to every *other* seat, shared equally
  (microsecond remainders go round-robin), so the sum of all clocks never changes.
* A seat's "move" ends when its clock stops because another seat is to act (or nobody).
  The same seat acting again (``switch_to`` with an unchanged set) continues its turn.
* Undo (``switch_to(seats, undo=True)``): time spent stays spent. The seat that acts
  again resumes the turn that was undone: the bonus its completed move earned (Fischer
  increment, Bronstein refund, byo-yomi period reset) is taken back and its turn's used
  time is restored, so a delay is not granted twice and undo cannot farm increments. A
  seat whose turn is abandoned by the undo gets no bonus and keeps its time used. (The
  Table lets a seat undo a move that passed the turn until the next seat acts: the next
  seat's clock ran meanwhile, and it could think on the board it saw.)
* Events (warning, over time, penalty minutes, byo-yomi periods, turn timer) are detected
  from state flags, so none is lost or doubled however seldom ``tick`` is called; they
  queue until :meth:`tick` hands them out.
* Not thread-safe: call it from the thread that owns the Table.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, NoReturn, Sequence

from ..errors import CompanionError
from .config import MAX_COUNT, MAX_SECONDS, US, ClockConfig, ClockConfigError, ClockMode, OvertimePolicy, short, to_s, to_us
from rules.datafile import at

from .events import ClockEvent, ClockLogEntry, EventKind

DATA_VERSION = 1
HISTORY = 8  # completed moves remembered per seat for undo
MAX_US = 2 * MAX_SECONDS * US
"""The largest time (µs) saved clock data may hold: twice the longest setting, room for
increments, refunds and time over."""
MAX_STAMP_US = 2**62  # clock readings (monotonic or epoch µs) in saved data
MAX_MOVES = 10_000_000


class ClockError(CompanionError, ValueError):
    """A clock request that cannot be honoured (unknown seat, bad adjustment, bad data)."""

    code = "clock-error"


class UnknownSeatError(ClockError):
    code = "unknown-seat"


class ClockAdjustError(ClockError):
    code = "bad-adjustment"


class ClockDataError(ClockError):
    """Saved clock data that cannot be restored (foreign, newer version, inconsistent).
    ``field`` names the place in the data (``state.a.main``), ``source`` where it came from."""

    code = "bad-clock-data"

    def __init__(self, message: str, field: str = "", source: str = "") -> None:
        text = ": ".join(part for part in (source, field, message) if part)
        super().__init__(text)
        self.field, self.source, self.message = field, source, message


@dataclass(frozen=True)
class SeatClock:
    """What a clock face shows for one seat (seconds). ``remaining`` is everything left
    before flag fall (byo-yomi: main + current period + the unused periods; Canadian: main +
    what is left of the block); ``main``, ``period`` and ``periods_left`` split it up;
    ``block_moves`` counts the moves made in the current Canadian block; ``delay_left`` is
    what is left of this turn's simple delay or Bronstein delay; ``turn_remaining`` the
    turn timer's."""

    seat: str
    remaining: float
    main: float
    period: float
    periods_left: int
    block_moves: int
    delay_left: float
    used: float
    turn_used: float
    turn_remaining: float | None
    moves: int
    running: bool
    active: bool
    over: bool
    warned: bool
    penalty_minutes: int
    penalty_points: int  # penalty_minutes x the policy's points per minute


@dataclass
class _Seat:
    main: int
    period: int
    periods_left: int
    used: int = 0
    turn_used: int = 0
    moves: int = 0
    block_moves: int = 0  # Canadian: moves made in the current block
    # (turn_used, bonus, period_before, block_moves_before) per recent completed move, for undo
    history: list[tuple[int, int, int, int]] = field(default_factory=list)
    warned: bool = False
    over: bool = False
    penalty_minutes: int = 0
    reported_periods: int = 0
    turn_over: bool = False
    cursor: int = 0  # hourglass: where this seat's next odd microsecond goes

    _FIELDS = (
        "main", "period", "periods_left", "used", "turn_used", "moves", "warned", "over",
        "penalty_minutes", "reported_periods", "turn_over", "cursor", "block_moves",
    )

    def to_data(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self._FIELDS}
        d["history"] = [list(h) for h in self.history]
        return d


class ClockSet:
    """The clocks of every seat at one table. See the module docstring for the rules."""

    def __init__(
        self,
        config: ClockConfig,
        seats: Sequence[str],
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        order = tuple(seats)
        if not order:
            raise ClockError("a clock set needs at least one seat")
        if len(set(order)) != len(order):
            raise ClockError("seat ids must be distinct")
        if config.mode is ClockMode.HOURGLASS and len(order) < 2:
            raise ClockError("an hourglass needs at least two seats: time flows to the others")
        self._config = config
        self._order = order
        self._clock = clock
        self._wall = wall
        self._seats: dict[str, _Seat] = {}
        for name in order:
            s = _Seat(main=config.main_us, period=config.period_us, periods_left=config.periods)
            s.reported_periods = s.periods_left
            self._seats[name] = s
        for s in self._seats.values():
            # Start "already below" where a setting begins under the threshold: a warning
            # is for a crossing, not for the starting position.
            rem = self._remaining_us(s)
            s.warned = config.warning_us is not None and rem <= config.warning_us
            s.over = self._timed and rem <= 0
        self._active: frozenset[str] = frozenset()
        self._paused = False
        self._last = self._now_us()
        self._pending: list[ClockEvent] = []
        self._log: list[ClockLogEntry] = []
        self._restored_gap = 0.0

    def __repr__(self) -> str:
        state = "paused" if self._paused else "running " + ",".join(sorted(self._active)) if self._active else "idle"
        return f"<ClockSet {self._config.describe()}; {state}>"

    # --- reading --------------------------------------------------------------------------
    @property
    def config(self) -> ClockConfig:
        return self._config

    @property
    def seats(self) -> tuple[str, ...]:
        return self._order

    @property
    def active(self) -> frozenset[str]:
        """The seats whose turn it is (their clocks run unless the table is paused)."""
        return self._active

    @property
    def running(self) -> frozenset[str]:
        """The seats whose clocks are running right now: empty while paused."""
        return frozenset() if self._paused else self._active

    @property
    def is_paused(self) -> bool:
        return self._paused

    @property
    def log(self) -> tuple[ClockLogEntry, ...]:
        """Admin adjustments and downtime charged on restore, oldest first."""
        return tuple(self._log)

    @property
    def restored_gap(self) -> float:
        """Seconds of downtime charged to each running seat by the last restore (0 if none)."""
        return self._restored_gap

    def remaining(self, seat: str) -> float:
        """Seconds left before ``seat``'s flag falls (negative once over time; ``inf`` when
        untimed). For byo-yomi: main time + current period + the unused periods."""
        s = self._seat(seat)
        self._sync(detect=False)
        if not self._timed:
            return math.inf
        return to_s(self._remaining_us(s))

    def used(self, seat: str) -> float:
        """Seconds ``seat``'s clock has run in this game (all modes, including untimed)."""
        s = self._seat(seat)
        self._sync(detect=False)
        return to_s(s.used)

    def penalty_points(self, seat: str) -> int:
        """Penalty points ``seat`` has incurred (penalty policy: points per started minute
        over time; 0 under any other policy)."""
        self._sync(detect=True)  # count the minutes up to now, as a tick would
        return self.status(seat).penalty_points

    def turn_remaining(self, seat: str | None = None) -> float | None:
        """The turn timer: seconds left in ``seat``'s current turn (default: the active seat
        closest to running out). ``None`` when there is no turn timer or nobody is to act."""
        limit = self._config.turn_limit_us
        s = None if seat is None else self._seat(seat)
        self._sync(detect=False)
        if limit is None:
            return None
        if s is not None:
            return to_s(limit - s.turn_used) if seat in self._active else None
        if not self._active:
            return None
        return to_s(min(limit - self._seats[n].turn_used for n in self._active))

    def status(self, seat: str) -> SeatClock:
        """Everything a clock face for ``seat`` shows."""
        s = self._seat(seat)
        self._sync(detect=False)
        cfg = self._config
        delay_left = 0
        if seat in self._active and cfg.mode in (ClockMode.SIMPLE_DELAY, ClockMode.BRONSTEIN):
            delay_left = max(0, cfg.delay_us - s.turn_used)
        limit = cfg.turn_limit_us
        turn_rem = None if limit is None or seat not in self._active else to_s(limit - s.turn_used)
        return SeatClock(
            seat=seat,
            remaining=to_s(self._remaining_us(s)) if self._timed else math.inf,
            main=to_s(s.main),
            period=to_s(s.period),
            periods_left=s.periods_left,
            block_moves=s.block_moves,
            delay_left=to_s(delay_left),
            used=to_s(s.used),
            turn_used=to_s(s.turn_used),
            turn_remaining=turn_rem,
            moves=s.moves,
            running=seat in self.running,
            active=seat in self._active,
            over=s.over,
            warned=s.warned,
            penalty_minutes=s.penalty_minutes,
            penalty_points=s.penalty_minutes * cfg.penalty_per_minute,
        )

    # --- driving --------------------------------------------------------------------------
    def tick(self) -> list[ClockEvent]:
        """Bring every clock up to now and hand out the events since the last tick."""
        self._sync()
        out, self._pending = self._pending, []
        return out

    def switch_to(self, seats: str | Iterable[str] | None, *, undo: bool = False) -> None:
        """The seats now to act (``None`` or empty: nobody, e.g. the game is over).

        Seats that stop acting complete their move (Fischer increment, Bronstein refund,
        byo-yomi period reset); seats that start acting start a turn; seats in both keep
        their turn going. With ``undo=True`` (the Table undid an action) seats that stop get
        no bonus and seats that start resume their last completed move, whose bonus is
        taken back (time spent stays spent)."""
        new = self._seat_set(seats)
        self._sync()
        old = self._active
        for name in self._order:
            s = self._seats[name]
            if name in old and name not in new:
                if undo:
                    s.turn_used = 0
                    s.turn_over = False
                else:
                    self._complete_move(s)
        for name in self._order:
            if name in new and name not in old:
                s = self._seats[name]
                if undo and s.history:
                    self._resume_move(s)
                else:
                    s.turn_used = 0
                    s.turn_over = False
        self._active = new
        self._detect()

    def lost_on_time(self, seat: str) -> None:
        """The game ended when ``seat``'s flag fell (the Table's loss on time): every clock
        stops, and nobody's turn counts as a completed move (it earns no increment, refund
        or fresh period: a lost Fischer seat showed 0:03 after the end). The fallen clock
        stops at the fall, 0:00, not at the fraction of a second past it that passed before
        the fall was seen (in hourglass mode that overrun already flowed to the others, so
        it stays, to keep the sum of all clocks)."""
        s = self._seat(seat)
        self.switch_to(None, undo=True)  # undo's stop: no move completed, time spent stays spent
        over = self._remaining_us(s) if self._timed else 0
        if over < 0 and self._config.mode is not ClockMode.HOURGLASS:
            if self._config.mode in (ClockMode.BYO_YOMI, ClockMode.CANADIAN) and s.main <= 0:
                s.period -= over  # the last period (or block) is what ran out
            else:
                s.main -= over

    def pause(self) -> None:
        """Stop every clock (and the turn timer). Pausing a paused table does nothing."""
        self._sync()
        self._paused = True

    def resume(self) -> None:
        """Restart the clocks of the active seats. Resuming a running table does nothing."""
        self._sync()
        self._paused = False

    def adjust(self, seat: str, delta: float, reason: str = "") -> None:
        """Admin time: give ``seat`` ``delta`` seconds (negative: take them). Logged in
        :attr:`log` and reported as an ``ADJUSTED`` event. Byo-yomi: time given goes to the
        main time; time taken comes from the main time, then the current period (a period
        emptied this way counts as used)."""
        s = self._seat(seat)
        if not self._timed:
            raise ClockAdjustError("untimed clocks have no time to adjust")
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not math.isfinite(delta):
            raise ClockAdjustError(f"a time adjustment is a finite number of seconds, not {delta!r}")
        d = to_us(delta)
        if d == 0:
            raise ClockAdjustError("a time adjustment of 0 seconds changes nothing")
        self._sync()
        if d > 0 or self._config.mode not in (ClockMode.BYO_YOMI, ClockMode.CANADIAN):
            s.main += d
        elif self._config.mode is ClockMode.BYO_YOMI:
            self._drain_byoyomi(s, -d)
        else:
            self._drain_canadian(s, -d)
        self._log.append(ClockLogEntry("adjusted", seat, to_s(d), self._wall(), reason))
        self._pending.append(ClockEvent(EventKind.ADJUSTED, seat, to_s(self._remaining_us(s)), delta=to_s(d)))
        self._detect()

    # --- persistence ----------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """A JSON-ready snapshot for the journal: the clocks brought up to now (events stay
        queued for the next :meth:`tick`), and that moment recorded twice: on the monotonic
        clock (valid only in this process) and as wall-clock time (survives a restart or a
        reboot)."""
        self._sync(detect=False)
        mono_now = self._now_us()
        wall_now = to_us(self._wall())
        return {
            "version": DATA_VERSION,
            "config": self._config.to_data(),
            "seats": list(self._order),
            "active": [n for n in self._order if n in self._active],
            "paused": self._paused,
            "anchor": {"mono_us": self._last, "wall_us": wall_now - (mono_now - self._last)},
            "state": {n: self._seats[n].to_data() for n in self._order},
            "pending": [e.to_data() for e in self._pending],
            "log": [e.to_data() for e in self._log],
        }

    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        anchor: str = "wall",
        source: str = "clock data",
    ) -> ClockSet:
        """Rebuild clocks saved by :meth:`to_data`.

        ``anchor="wall"`` (after a crash or restart; the default): the monotonic clock of
        the old process means nothing now, so the wall-clock time since the snapshot is
        charged to the seats that were running (nothing if paused). The restore never gives
        time back: the time between the last journal write and the crash, and the downtime
        until this restore, count as thinking time; it is logged (``"restored"``) and shown
        as a ``RESTORED`` event so an admin can give it back with :meth:`adjust`. If the wall
        clock went backwards, nothing is charged; at most ``MAX_US`` (two years) is.

        ``anchor="monotonic"`` (same process, same ``clock``): continue exactly as if the
        snapshot had never been taken.

        Data that cannot be restored is a :class:`ClockDataError` naming ``source`` and the
        field (``state.a.main``); every number is checked against the limits a real game
        stays within, so damaged data can neither crash nor stall the restore."""
        if anchor not in ("wall", "monotonic"):
            raise ClockDataError(f"anchor must be 'wall' or 'monotonic', not {short(anchor)}")
        read = _Reader(source)
        data = read.mapping(data, "(top)")
        read.keys(data, "(top)", ("version", "config", "seats", "active", "paused", "anchor", "state", "pending", "log"))
        if data["version"] != DATA_VERSION:
            read.fail("version", f"is {short(data['version'])}; this app reads version {DATA_VERSION}")
        try:
            config = ClockConfig.from_data(data["config"], source)
        except ClockConfigError as e:
            inner = e.field.removeprefix("(top)")  # "" or "['x']": already joins onto a path
            read.fail(f"config{inner}" if inner != e.field else f"config.{e.field}", e.message)
        seats = read.listing(data["seats"], "seats")
        for i, n in enumerate(seats):
            read.text(n, f"seats[{i}]")
        try:
            self = cls(config, seats, clock=clock, wall=wall)
        except ClockError as e:
            read.fail("seats", str(e))
        state = read.mapping(data["state"], "state")
        if set(state) != set(self._order):
            read.fail("state", f"has clocks for {short(sorted(map(str, state)))}, not the seats {short(list(self._order))}")
        self._seats = {n: _read_seat(read, state[n], at("state", n), config, len(self._order)) for n in self._order}
        active = read.listing(data["active"], "active")
        for i, n in enumerate(active):
            if not isinstance(n, str) or n not in self._order:
                read.fail(f"active[{i}]", f"{short(n)} is not one of the seats {short(list(self._order))}")
        self._active = frozenset(active)
        self._paused = read.flag(data["paused"], "paused")
        self._pending = [_read_event(read, e, f"pending[{i}]", self._order) for i, e in enumerate(read.listing(data["pending"], "pending"))]
        self._log = [_read_log_entry(read, e, f"log[{i}]", self._order) for i, e in enumerate(read.listing(data["log"], "log"))]
        anchor_data = read.mapping(data["anchor"], "anchor")
        read.keys(anchor_data, "anchor", ("mono_us", "wall_us"))
        mono_us = read.whole(anchor_data["mono_us"], "anchor.mono_us", -MAX_STAMP_US, MAX_STAMP_US)
        wall_us = read.whole(anchor_data["wall_us"], "anchor.wall_us", 0, MAX_STAMP_US)
        if anchor == "monotonic":
            self._last = mono_us
            return self
        self._last = self._now_us()
        # A downtime longer than any clock can hold is damaged data (or a game left for
        # years): charging it whole would queue an event per minute over, without end.
        gap = min(to_us(wall()) - wall_us, MAX_US)
        if gap > 0 and self.running:
            self._consume(self.running, gap)
            self._restored_gap = to_s(gap)
            stamp = wall()
            for n in self._order:
                if n in self.running:
                    s = self._seats[n]
                    self._log.append(ClockLogEntry(
                        "restored", n, -to_s(gap), stamp,
                        "charged for the time between the last save and the restart"))
                    self._pending.append(ClockEvent(
                        EventKind.RESTORED, n, to_s(self._remaining_us(s)) if self._timed else math.inf,
                        delta=-to_s(gap)))
        return self

    # --- internals ------------------------------------------------------------------------
    @property
    def _timed(self) -> bool:
        return self._config.mode is not ClockMode.UNTIMED

    def _now_us(self) -> int:
        return to_us(self._clock())

    def _seat(self, seat: str) -> _Seat:
        try:
            return self._seats[seat]
        except (KeyError, TypeError):
            raise UnknownSeatError(f"no seat {seat!r} at this table; seats: {', '.join(self._order)}") from None

    def _seat_set(self, seats: str | Iterable[str] | None) -> frozenset[str]:
        if seats is None:
            return frozenset()
        if isinstance(seats, str):
            seats = (seats,)
        out = frozenset(seats)
        for n in out:
            self._seat(n)
        return out

    def _remaining_us(self, s: _Seat) -> int:
        if self._config.mode is ClockMode.BYO_YOMI:
            if s.periods_left == 0:
                return s.period  # the last period's overrun (≤ 0)
            return s.main + s.period + (s.periods_left - 1) * self._config.period_us
        if self._config.mode is ClockMode.CANADIAN:
            return s.main + s.period
        return s.main

    def _sync(self, *, detect: bool = True) -> None:
        now = self._now_us()
        dt = now - self._last
        self._last = now
        # A clock that goes backwards never gives time back; it only moves the anchor.
        if dt > 0 and not self._paused and self._active:
            self._consume(self._active, dt)
        if detect:
            self._detect()

    def _consume(self, running: Iterable[str], dt: int) -> None:
        cfg = self._config
        mode = cfg.mode
        for name in [n for n in self._order if n in running]:
            s = self._seats[name]
            before = s.turn_used
            s.used += dt
            s.turn_used += dt
            if mode is ClockMode.UNTIMED:
                continue
            if mode is ClockMode.SIMPLE_DELAY:
                s.main -= max(0, dt - max(0, cfg.delay_us - before))
            elif mode is ClockMode.BYO_YOMI:
                self._drain_byoyomi(s, dt)
            elif mode is ClockMode.CANADIAN:
                self._drain_canadian(s, dt)
            else:
                s.main -= dt
                if mode is ClockMode.HOURGLASS:
                    self._give_away(name, s, dt)

    def _drain_byoyomi(self, s: _Seat, amount: int) -> None:
        take = min(amount, max(0, s.main))
        s.main -= take
        rest = amount - take
        P = self._config.period_us
        while rest > 0:
            if s.periods_left == 0:
                s.period -= rest
                return
            if rest < s.period:
                s.period -= rest
                return
            rest -= s.period
            s.periods_left -= 1
            s.period = P if s.periods_left > 0 else 0

    def _drain_canadian(self, s: _Seat, amount: int) -> None:
        take = min(amount, max(0, s.main))
        s.main -= take
        s.period -= amount - take  # the block's time; below 0 the flag has fallen

    def _give_away(self, donor: str, s: _Seat, dt: int) -> None:
        # Hand the microseconds out one by one round-robin (in bulk): the result does not
        # depend on how often the clocks are updated.
        others = [n for n in self._order if n != donor]
        k = len(others)
        q, r = divmod(dt, k)
        for i, n in enumerate(others):
            extra = 1 if (i - s.cursor) % k < r else 0
            self._seats[n].main += q + extra
        s.cursor = (s.cursor + r) % k

    def _complete_move(self, s: _Seat) -> None:
        cfg = self._config
        bonus = 0
        if cfg.mode is ClockMode.FISCHER:
            bonus = cfg.increment_us
        elif cfg.mode is ClockMode.BRONSTEIN:
            bonus = min(s.turn_used, cfg.delay_us)
        s.main += bonus
        period_before, block_before = s.period, s.block_moves
        if cfg.mode is ClockMode.BYO_YOMI and s.periods_left > 0:
            s.period = cfg.period_us  # a move made inside a period keeps that period
        if cfg.mode is ClockMode.CANADIAN and s.main <= 0 and s.period > 0:
            # Only moves made once the main time is gone count towards the block; the
            # block's last move brings a fresh block.
            s.block_moves += 1
            if s.block_moves >= cfg.period_moves:
                s.block_moves = 0
                s.period = cfg.period_us
        s.moves += 1
        s.history.append((s.turn_used, bonus, period_before, block_before))
        del s.history[:-HISTORY]
        s.turn_used = 0
        s.turn_over = False

    def _resume_move(self, s: _Seat) -> None:
        turn_used, bonus, period_before, block_before = s.history.pop()
        s.main -= bonus
        mode = self._config.mode
        if (mode is ClockMode.BYO_YOMI and s.periods_left > 0) or mode is ClockMode.CANADIAN:
            s.period = period_before
            s.block_moves = block_before
        s.moves -= 1
        s.turn_used = turn_used
        limit = self._config.turn_limit_us
        s.turn_over = limit is not None and turn_used >= limit

    def _detect(self) -> None:
        cfg = self._config
        warn = cfg.warning_us
        limit = cfg.turn_limit_us
        for name in self._order:
            s = self._seats[name]
            if self._timed:
                rem = self._remaining_us(s)
                while s.reported_periods > s.periods_left:
                    s.reported_periods -= 1
                    self._pending.append(ClockEvent(
                        EventKind.PERIOD_USED, name, to_s(rem), periods_left=s.reported_periods))
                if warn is not None:
                    below = rem <= warn
                    if below and not s.warned:
                        self._pending.append(ClockEvent(EventKind.WARNING, name, to_s(rem)))
                    s.warned = below
                over = rem <= 0
                if over and not s.over:
                    self._pending.append(ClockEvent(
                        EventKind.OVER_TIME, name, to_s(rem), consequence=cfg.overtime))
                s.over = over
                if over and cfg.overtime is OvertimePolicy.PENALTY:
                    # Per started minute, counted on the deepest overrun reached: a seat
                    # that climbs back (increment, admin) and falls again is not charged twice.
                    minutes = max(1, -(rem // (60 * US)))
                    while s.penalty_minutes < minutes:
                        s.penalty_minutes += 1
                        self._pending.append(ClockEvent(
                            EventKind.PENALTY, name, to_s(rem),
                            minute=s.penalty_minutes, points=cfg.penalty_per_minute))
            if limit is not None and name in self._active and not s.turn_over and s.turn_used >= limit:
                s.turn_over = True
                self._pending.append(ClockEvent(EventKind.TURN_OVER, name, to_s(limit - s.turn_used)))


class _Reader:
    """Checks for saved clock data: each returns the value if it has the right type and
    range, else raises :class:`ClockDataError` naming the source and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field: str, message: str) -> NoReturn:
        raise ClockDataError(message, field, self.source)

    def mapping(self, value: Any, field: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(field, f"must be an object, not {short(value)}")
        return value

    def keys(self, value: Mapping[str, Any], field: str, names: Sequence[str], optional: Sequence[str] = ()) -> None:
        for k in names:
            if k not in value:
                self.fail(field, f"is missing {k!r}")
        for k in value:
            if k not in names and k not in optional:
                self.fail(at(field if field != "(top)" else "", str(k)), "is not a key of saved clocks")

    def listing(self, value: Any, field: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(field, f"must be a list, not {short(value)}")
        return value

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str):
            self.fail(field, f"must be text, not {short(value)}")
        return value

    def flag(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            self.fail(field, f"must be true or false, not {short(value)}")
        return value

    def whole(self, value: Any, field: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(field, f"must be a whole number from {low} to {high}, not {short(value)}")
        return value

    def number(self, value: Any, field: str, *, infinite: bool = False) -> float:
        ok = not isinstance(value, bool) and isinstance(value, (int, float))
        if ok and isinstance(value, float):
            ok = math.isfinite(value) or (infinite and not math.isnan(value))
        if ok and not isinstance(value, float):
            ok = abs(value) <= 2**62
        if not ok:
            self.fail(field, f"must be a {'' if infinite else 'finite '}number, not {short(value)}")
        return float(value)


def _read_seat(read: _Reader, d: Any, field: str, config: ClockConfig, seats: int) -> _Seat:
    d = read.mapping(d, field)
    read.keys(d, field, (*_Seat._FIELDS, "history"))
    us = lambda k: read.whole(d[k], f"{field}.{k}", -MAX_US, MAX_US)  # noqa: E731
    count = lambda k, high: read.whole(d[k], f"{field}.{k}", 0, high)  # noqa: E731
    periods_left = count("periods_left", config.periods)
    kw: dict[str, Any] = {
        "main": us("main"), "period": us("period"), "periods_left": periods_left,
        "used": read.whole(d["used"], f"{field}.used", 0, MAX_US), "turn_used": read.whole(d["turn_used"], f"{field}.turn_used", 0, MAX_US),
        "moves": count("moves", MAX_MOVES), "penalty_minutes": count("penalty_minutes", MAX_US // (60 * US)),
        "reported_periods": read.whole(d["reported_periods"], f"{field}.reported_periods", periods_left, config.periods),
        "cursor": count("cursor", max(0, seats - 2)), "block_moves": count("block_moves", MAX_COUNT),
    }
    for k in ("warned", "over", "turn_over"):
        kw[k] = read.flag(d[k], f"{field}.{k}")
    history = []
    entries = read.listing(d["history"], f"{field}.history")
    if len(entries) > HISTORY:
        read.fail(f"{field}.history", f"holds {len(entries)} moves; at most {HISTORY} are kept")
    for i, h in enumerate(entries):
        where = f"{field}.history[{i}]"
        if not isinstance(h, list) or len(h) != 4:
            read.fail(where, f"must be four whole numbers, not {short(h)}")
        turn_used, bonus, period_before, block_before = (read.whole(x, f"{where}[{j}]", -MAX_US, MAX_US) for j, x in enumerate(h))
        history.append((turn_used, bonus, period_before, block_before))
    return _Seat(history=history, **kw)


_EVENT_KEYS = ("kind", "seat", "remaining", "consequence", "minute", "points", "periods_left", "delta")


def _read_event(read: _Reader, d: Any, field: str, seats: Sequence[str]) -> ClockEvent:
    d = read.mapping(d, field)
    read.keys(d, field, ("kind", "seat", "remaining"), _EVENT_KEYS)
    kinds = [k.value for k in EventKind]
    if d["kind"] not in kinds:
        read.fail(f"{field}.kind", f"{short(d['kind'])} is not one of {', '.join(kinds)}")
    if d["seat"] not in seats:
        read.fail(f"{field}.seat", f"{short(d['seat'])} is not one of the seats")
    read.number(d["remaining"], f"{field}.remaining", infinite=True)
    consequence = d.get("consequence")
    if consequence is not None and consequence not in [p.value for p in OvertimePolicy]:
        read.fail(f"{field}.consequence", f"{short(consequence)} is not an over-time policy")
    read.whole(d.get("minute", 0), f"{field}.minute", 0, MAX_US // (60 * US))
    read.whole(d.get("points", 0), f"{field}.points", -2**62, 2**62)
    if d.get("periods_left") is not None:
        read.whole(d["periods_left"], f"{field}.periods_left", 0, MAX_COUNT)
    read.number(d.get("delta", 0.0), f"{field}.delta")
    return ClockEvent.from_data(d)


def _read_log_entry(read: _Reader, d: Any, field: str, seats: Sequence[str]) -> ClockLogEntry:
    d = read.mapping(d, field)
    read.keys(d, field, ("kind", "seat", "delta", "wall"), ("reason",))
    if d["kind"] not in ("adjusted", "restored"):
        read.fail(f"{field}.kind", f"{short(d['kind'])} is not 'adjusted' or 'restored'")
    if d["seat"] not in seats:
        read.fail(f"{field}.seat", f"{short(d['seat'])} is not one of the seats")
    read.number(d["delta"], f"{field}.delta")
    read.number(d["wall"], f"{field}.wall")
    read.text(d.get("reason", ""), f"{field}.reason")
    return ClockLogEntry.from_data(d)
