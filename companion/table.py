"""The Table: one game in progress, and the only way anything changes it.

A Table joins a rules engine, the journal, the clocks, the input router and the secret
desk. Every accepted action is checked by the engine, **committed to the journal**, and
only then reported (the return value, then the subscribers). Undo follows the table's
policy: a seat may take back its own actions until the next player's first action, never
past a throw, a card drawn or a secret revealed (see :mod:`companion.undo`).

Threading: the app makes every change on one thread, its input pump's (bridge events and
the screen's taps, in order; see companion/ui/pump.py), and reads from the UI thread; a
screen checks a tap first with :meth:`Table.check`, which changes nothing. A lock guards
every method, so a call from another thread cannot interleave with a change.
Subscribers are called on the thread that made the change, after the lock is released.

>>> from companion import Journal, Table
>>> t = Table.create(Journal.open(":memory:"), game_id="stepping_stones",
...                  seats=[{"id": "fox-1", "faction": "fox"}, {"id": "hare-1", "faction": "hare"}], seed=3)
>>> t.prompt.awaiting.accepted[:1], t.ply
(('roll',), 0)
>>> t.roll_for_me().ply, t.ply
(0, 1)
>>> t.prompt.awaiting.accepted
('leap', 'gather')
"""
from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time as _time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import rules
from rules.core import PUBLIC, Action, IllegalAction, Outcome, Prompt, Roll, Violation
from rules.core.jsondata import from_data, to_data
from rules.core.text import english
from rules.core.actions import parse_action

from .errors import CompanionError
from .results import Accepted, Change, Rejected, RouteResult, Routed, RoutedInput, rejected_from
from .journal import IN_FORCE, UNDONE, ActionRow, Journal, JournalError
from .record import ActionRecord, GameRecord
from .undo import UndoRefused, undo_refusal
from .visibility import describe, public_data

log = logging.getLogger("companion.table")


@dataclass(frozen=True)
class LogLine:
    """A line of the game log as ``viewer`` may read it. ``undone`` lines are actions that
    were taken back (kept, struck through, for disputes). ``time``: epoch seconds.
    ``text`` is the English line; ``words``, when the engine wrote the line as structure,
    the :class:`~rules.core.text.Text` a screen words in its own language."""

    ply: int
    text: str
    seat: str | None
    undone: bool
    time: float | None
    words: Any = None


class TableError(CompanionError, ValueError):
    code = "table-error"


class NothingToRoll(TableError):
    """The app's roller was asked for a roll or a draw nobody is waiting for."""

    code = "roll-not-awaited"


class TableClosed(TableError):
    code = "table-closed"


@dataclass(slots=True)
class _Entry:
    seq: int
    ply: int
    seat: str | None
    kind: str
    action_json: str
    source: str
    time: float
    undone: int
    barrier: str | None
    chance: bool
    _action: Action | None = None

    @property
    def action(self) -> Action:  # parsed on first use: most of a long history is never parsed
        if self._action is None:
            self._action = parse_action(json.loads(self.action_json))
        return self._action

    @classmethod
    def of(cls, r: ActionRow, chance_kinds: set[str]) -> "_Entry":
        return cls(r.seq, r.ply, r.seat, r.kind, r.action, r.source, r.time, r.undone, r.barrier, r.kind in chance_kinds)


def plain_outcome(outcome: Any) -> dict[str, Any] | None:
    """The engine's Outcome as plain JSON data (no serial tags)."""
    if outcome is None:
        return None
    return {
        "winner": outcome.winner,
        "reason": outcome.reason,
        "scores": {k: {"total": s.total, "breakdown": dict(s.breakdown)} for k, s in outcome.scores.items()},
        "winning_seats": list(outcome.winning_seats),
    }


def _turn_of(state: Any, tracked: Mapping[str, Any]) -> int | None:
    order = getattr(state, "order", None)
    turn = getattr(order, "turn", None)
    if isinstance(turn, int):
        return turn
    t = tracked.get("turn")
    return t if isinstance(t, int) else None


class Table:
    """One game in progress. Build it with :meth:`create` or :meth:`resume`."""

    def __init__(self, journal: Journal, key: str, *, clock: Callable[[], float] = _time.monotonic,
                 wall: Callable[[], float] = _time.time, mapping: Mapping[str, Any] | None = None) -> None:
        row = journal.game(key)
        journal.claim(key)  # one writer per game: GameInUse when another window has it
        try:
            self._open(journal, key, row, clock, wall, mapping)
        except BaseException:
            journal.release(key)
            raise

    def _open(self, journal: Journal, key: str, row: Any, clock: Callable[[], float], wall: Callable[[], float],
              mapping: Mapping[str, Any] | None) -> None:
        self.journal = journal
        self.key = key
        self.game_id = row.game_id
        self.game = rules.load(row.game_id)
        self._seats: list[dict[str, Any]] = row.seats  # as journaled at the start: see ``seats``
        self._seats_now: tuple[tuple[str, ...], list[dict[str, Any]]] = ((), row.seats)
        # Saved before an option existed: the value such a game was played under.
        self.options = self.game.saved_options(row.options)
        self.seed = row.seed
        # A game joined in progress starts from this position (its private part included:
        # never shown; see public_position), not from the opening.
        self.position: dict[str, Any] | None = row.position
        self.started = row.started
        self.finished = row.finished
        self.devices: dict[str, str] = dict(row.devices)
        self._clock = clock
        self._wall = wall
        self._lock = threading.RLock()
        self._subs: list[Callable[[Change], None]] = []
        self._closed = False
        self._version = 0  # bumped by every change of the history (for the log cache)
        self._log_cache: tuple[Any, list[LogLine]] | None = None  # ((version, viewer), lines)
        self._tracked0 = row.tracked0
        self._chance_kinds = {c.kind for c in self.game.action_types if getattr(c, "chance", False)}
        self._writes_structure: bool | None = None  # see _log_in_english
        # Resume reads only what rebuilding the state needs (the newest snapshot and the
        # actions after it); the full history loads on first use (log, undo, export).
        count, low, high = journal.line_extent(key)
        if count < 0 or (count and (low, high) != (0, count - 1)):
            raise JournalError("This game cannot be resumed: the journal's line of play has gaps (two windows "
                               "once played it at the same time).")
        self._loaded = False
        self._entries_: list[_Entry] = []
        self._line_: list[_Entry] = []
        self._redo_: list[_Entry] = []
        snap = journal.latest_snapshot(key, count)
        tail = journal.actions(key, in_force_only=True, from_ply=snap[0] if snap else 0)
        self._state = self._build(snap, [_Entry.of(r, self._chance_kinds).action for r in tail])
        # A loss on time is the Table's verdict, not the engine's: kept beside the state.
        self._forfeit: Any = None
        if row.outcome is not None and self._state.result is None:
            self._forfeit = Outcome(row.outcome.get("winner"), row.outcome.get("reason", ""), {},
                                    tuple(row.outcome.get("winning_seats") or ()))
        self.clocks = None
        if row.clock_config is not None:
            from .clocks import ClockConfig, ClockSet

            if row.clock_state is not None:
                self.clocks = ClockSet.from_data(row.clock_state, clock=clock, wall=wall)
            else:
                self.clocks = ClockSet(ClockConfig.from_data(row.clock_config), [s["id"] for s in self.seats], clock=clock, wall=wall)
                self.clocks.switch_to(self.clocked_seats(self._state))
        from .routing import Router, load_mapping
        from .secret_desk import SecretDesk

        self.router = Router(self.devices, load_mapping(self.game_id) if mapping is None else mapping)
        self.secrets = SecretDesk(self)

    # ------------------------------------------------------------------ history in memory
    def _load(self) -> None:
        entries = [_Entry.of(r, self._chance_kinds) for r in self.journal.actions(self.key)]
        self._entries_ = entries
        self._line_ = sorted((e for e in entries if e.undone == IN_FORCE), key=lambda e: e.ply)
        self._redo_ = sorted((e for e in entries if e.undone == UNDONE), key=lambda e: -e.ply)
        self._loaded = True

    @property
    def _entries(self) -> list[_Entry]:
        """Every journaled action of the game, in order of arrival."""
        if not self._loaded:
            self._load()
        return self._entries_

    @property
    def _line(self) -> list[_Entry]:
        """The line of play: the actions in force, by ply."""
        if not self._loaded:
            self._load()
        return self._line_

    @property
    def _redo(self) -> list[_Entry]:
        """Undone actions that may be redone, the next one last."""
        if not self._loaded:
            self._load()
        return self._redo_

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def create(cls, journal: Journal, *, game_id: str, seats: Iterable[Mapping[str, Any]], options: Mapping[str, Any] | None = None,
               seed: int | None = None, clocks: Any = None, devices: Mapping[str, str] | None = None,
               clock: Callable[[], float] = _time.monotonic, wall: Callable[[], float] = _time.time,
               mapping: Mapping[str, Any] | None = None, position: Mapping[str, Any] | None = None) -> "Table":
        """Start a new game: the engine checks the setup (raises its InvalidSetup, a
        ValueError, naming every problem), the journal stores it, then the Table opens.

        ``position``: join a game already under way (the engine's position, see
        :mod:`companion.positions`); it is journaled with the game, so resume, replay, undo
        to ply 0 and exports start from it. A position the engine refuses raises
        :class:`companion.positions.PositionRefused` (an InvalidSetup) whose problems name
        each field in the players' words.

        ``devices`` assigns input sources to seats: ``{"die:hub1/0": "cop-1",
        "keypad:gpio/0": "cop-1"}`` (a key without a ``kind:`` prefix means a die). With no
        die assigned at all, any die rolls for the seat that must roll. ``clocks``: a
        :class:`companion.clocks.ClockConfig` (or its ``to_data()``), or None."""
        game = rules.load(game_id)
        seat_list = [{"id": str(s["id"]), "faction": str(s["faction"]), "name": str(s.get("name") or "")} for s in seats]
        if seed is None:
            import secrets as _secrets

            seed = _secrets.randbelow(1 << 31)
        stored_position = None
        if position is not None:
            from rules import InvalidSetup

            from .positions import PositionRefused, names_for, problems_of

            stored_position = json.loads(json.dumps(position))  # plain JSON, the caller's dict left alone
            try:
                state = game.new(seat_list, dict(options or {}), seed, position=stored_position)
            except InvalidSetup as e:
                if not any(v.code == "bad-position" for v in e.violations):
                    raise  # the seats or options, not the position: the engine's own words
                problems = problems_of(game_id, seat_list, dict(options or {}), e.violations)
                raise PositionRefused(e.violations, problems, names_for(game_id, seat_list, dict(options or {}))) from None
        else:
            state = game.new(seat_list, dict(options or {}), seed)
        ids = {s["id"] for s in seat_list}
        devs = {}
        for src, seat in dict(devices or {}).items():
            if seat not in ids:
                raise TableError(f"device {src!r} is assigned to {seat!r}, which is not a seat at this table")
            devs[src if ":" in src else f"die:{src}"] = seat
        clock_config = None
        if clocks is not None:
            from .clocks import ClockConfig, ClockSet

            config = ClockConfig.from_data(clocks) if isinstance(clocks, Mapping) else clocks
            ClockSet(config, list(ids))  # checks the clocks fit these seats before anything is stored
            clock_config = config.to_data()
        tracked0 = dict(game.tracked(state))
        key = journal.create_game(game_id=game_id, seats=seat_list, options=state.options, seed=seed, started=wall(),
                                  devices=devs, clock_config=clock_config, tracked0=tracked0, position=stored_position)
        table = cls(journal, key, clock=clock, wall=wall, mapping=mapping)
        if table.clocks is not None:
            journal.set_clock_state(key, table.clocks.to_data())
        return table

    @classmethod
    def resume(cls, journal: Journal, key: str, *, clock: Callable[[], float] = _time.monotonic,
               wall: Callable[[], float] = _time.time, mapping: Mapping[str, Any] | None = None) -> "Table":
        """Reopen a game from the journal: the newest snapshot plus the actions after it;
        the clocks are charged for the time the app was down (see ClockSet.from_data)."""
        return cls(journal, key, clock=clock, wall=wall, mapping=mapping)

    def close(self) -> None:
        """Journal the clocks and stop notifying. The journal stays open (it is shared)."""
        with self._lock:
            if self._closed:
                return
            if self.clocks is not None:
                try:
                    self.journal.set_clock_state(self.key, self.clocks.to_data())
                except Exception:  # a closed journal: the last action's clock state stands
                    pass
            self._closed = True
            self._subs.clear()
            self.journal.release(self.key)

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> Any:
        """The engine state. Holds secrets: never display it; use :meth:`view`."""
        return self._state

    # The reads below take the lock too: a change mutates the engine state in place
    # (push_unchecked) and sets _forfeit/_state in several steps, so a read from another
    # thread without the lock could see a half-applied action (a prompt or outcome of no
    # state the game was ever in, or an engine error from a list changing under it).
    @property
    def ply(self) -> int:
        with self._lock:
            return self._state.ply

    @property
    def prompt(self) -> Prompt:
        with self._lock:
            if self._forfeit is not None:
                return Prompt.game_over()
            return self.game.prompt(self._state)

    @property
    def outcome(self) -> Any:
        """The engine's outcome, or the loss on time the clocks decided."""
        with self._lock:
            return self._forfeit if self._forfeit is not None else self.game.outcome(self._state)

    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def version(self) -> int:
        """A number bumped by every change of the game (an action, an undo, a redo, a game
        lost on time): what was read from the Table under one number is current while it
        stays the same."""
        return self._version

    def view(self, viewer: str = PUBLIC) -> dict[str, Any]:
        """The engine's view for ``viewer``; the shared screen uses PUBLIC (no secrets)."""
        with self._lock:
            v = self.game.view(self._state, viewer)
            if self._forfeit is not None:
                v["outcome"] = to_data(self._forfeit)
                v["prompt"] = {"actors": [], "waits": {}, "text": "game over", "over": True}
            return v

    def private_view(self, seat: str) -> dict[str, Any]:
        """One seat's view, with its own secrets: show it only behind the privacy gate."""
        if seat == PUBLIC or seat not in {s["id"] for s in self.seats}:
            raise KeyError(f"{seat!r} is not a seat at this table")
        with self._lock:
            return self.game.view(self._state, seat)

    def legal_actions(self) -> Any:
        """The engine's lazy listing (nothing once the game was lost on time). It reads
        the live state as it is iterated: from a thread other than the UI thread, list
        it under ``table._lock``."""
        with self._lock:
            if self._forfeit is not None:
                return ()
            return self.game.legal_actions(self._state)

    def irreversible(self, action: Action) -> str | None:
        """Why ``action`` could never be undone once applied (the engine's undo barrier:
        it reveals a card, an Attack's result…), or ``None``; public words, nothing
        applied. A screen asks for confirmation before such a tap."""
        with self._lock:
            if self.outcome is not None or self.game.check(self._state, action):
                return None  # refused anyway: the refusal says why
            return self.game.undo_barrier(self._state, action)

    def check(self, action: Action, *, wait: bool = True) -> bool:
        """Check ``action`` as :meth:`submit` will, changing nothing: raises the engine's
        IllegalAction (every violation with its rule), or TableClosed, when it would be
        refused now; True when it passes. A screen checks a tap at once with it, so a
        refusal shows at once, and leaves the commit to the input pump's thread.

        ``wait=False``: when another thread holds the Table (a commit under way), return
        False at once, unchecked, instead of waiting for it: the submit checks the action
        against the state it meets anyway.

        >>> import dataclasses
        >>> from companion import Journal, Table
        >>> t = Table.create(Journal.open(":memory:"), game_id="stepping_stones",
        ...                  seats=[{"id": "fox-1", "faction": "fox"}, {"id": "hare-1", "faction": "hare"}], seed=3)
        >>> roll = t.game.sample(t.state)
        >>> t.check(roll), t.ply
        (True, 0)
        >>> t.check(dataclasses.replace(roll, seat="hare-1"))
        Traceback (most recent call last):
            ...
        rules.core.errors.IllegalAction: ...
        """
        if not self._lock.acquire(blocking=wait):
            return False
        try:
            self._check_open()
            self._check_not_forfeited(action)
            problems = self.game.check(self._state, action)
            if problems:
                raise IllegalAction(problems, action)
            return True
        finally:
            self._lock.release()

    def check_undo(self, seat: str | None = None, *, wait: bool = True) -> bool:
        """Whether :meth:`undo` would take the last action back now, as :meth:`check` for an
        action: raises :class:`UndoRefused` (or TableClosed) when the policy forbids it;
        ``wait=False`` returns False, unchecked, while another thread holds the Table."""
        if not self._lock.acquire(blocking=wait):
            return False
        try:
            self._check_open()
            refusal = undo_refusal(self, seat)
            if refusal is not None:
                raise refusal
            return True
        finally:
            self._lock.release()

    def hidden(self, viewer: str = PUBLIC) -> set[str]:
        """Strings ``viewer`` may not see now (the engine's secrets)."""
        with self._lock:
            return {s for s in self.game.secrets(self._state, viewer) if s}

    # ------------------------------------------------------------------ changing
    def submit(self, action: Action, source: str | None = None) -> Accepted:
        """Check ``action`` with the engine, journal it, apply it, then tell subscribers.
        Raises the engine's IllegalAction (a ValueError, every violation with its rule) and
        changes nothing when the action is illegal."""
        with self._lock:
            acc, changes = self._submit(action, source)
        self._notify(changes)
        return acc

    def _submit(self, action: Action, source: str | None) -> tuple[Accepted, list[Change]]:
        self._check_open()
        self._check_not_forfeited(action)
        if not self._loaded:
            self._load()  # before the journal changes: memory must mirror it exactly
        src = source or action.source or "touch"
        if action.source != src:
            action = dataclasses.replace(action, source=src)
        state = self._state
        problems = self.game.check(state, action)
        if problems:
            raise IllegalAction(problems, action)
        barrier = self.game.undo_barrier(state, action)
        ply = state.ply
        clocks_before = self.clocks.to_data() if self.clocks is not None else None
        log_before = len(state.log)
        self.game.push_unchecked(state, action)
        try:
            changes = self._after_push(action)
            tracked = dict(self.game.tracked(state))
            outcome = plain_outcome(self.game.outcome(state))
            now = self._wall()
            snapshot = json.dumps(self.game.state_to_data(state)) if (ply + 1) % self.journal.snapshot_every == 0 else None
            action_json = json.dumps(to_data(action))
            seq = self.journal.append(
                self.key, ply=ply, seat=action.seat, kind=action.kind, action=action_json, source=src, time=now,
                barrier=barrier, turn=_turn_of(state, tracked), tracked=tracked,
                clocks=self.clocks.to_data() if self.clocks is not None else None, snapshot=snapshot,
                finished=now if outcome is not None else None, outcome=self._with_seats(outcome))
        except BaseException:
            self._rollback(clocks_before)
            raise
        # Committed: now (and only now) the Table's own bookkeeping and the world may know.
        if isinstance(action, Roll):
            self.router.settled(action.seat)
        for e in self._redo:
            e.undone = 2
        self._redo.clear()
        entry = _Entry(seq, ply, action.seat, action.kind, action_json, src, now, IN_FORCE, barrier, action.chance, action)
        self._entries.append(entry)
        self._line.append(entry)
        self._version += 1
        if outcome is not None:
            self.finished = now
        events = tuple(english(e.text) for e in state.log[log_before:] if e.to is None)
        changes.insert(0, Change("action", self.ply))
        if outcome is not None:
            changes.append(Change("over", self.ply, outcome))
        return Accepted(ply, action, events, seq), changes

    def _with_seats(self, outcome: dict[str, Any] | None) -> dict[str, Any] | None:
        """The outcome as journaled: with the seats as the game ended (``seats``), so the
        library and the statistics name the factions played, not the ones the game was
        created with (a game may deal factions during its setup)."""
        return None if outcome is None else dict(outcome, seats=[dict(s) for s in self.seats])

    def _after_push(self, action: Action) -> list[Change]:
        changes: list[Change] = []
        if self.clocks is not None:
            self.clocks.switch_to(self.clocked_seats(self._state))
        if action.secret:
            changes.append(Change("secret", self.ply + 1))
        return changes

    def _rollback(self, clocks_before: dict[str, Any] | None) -> None:
        """The journal refused a change: put memory back to what the journal holds."""
        self._state = self._state_at(len(self._line))
        if clocks_before is not None:
            from .clocks import ClockSet

            self.clocks = ClockSet.from_data(clocks_before, clock=self._clock, wall=self._wall, anchor="monotonic")

    def roll_for_me(self, seat: str | None = None) -> Accepted:
        """The app's own roller (or deck) for the roll or draw the game waits for."""
        with self._lock:
            self._check_open()
            self._check_not_forfeited(None)
            action = self.game.sample(self._state)
            if action is None or not action.chance:
                raise NothingToRoll(f"Nobody needs to roll or draw now ({self.prompt}).")
            if seat is not None and seat != action.seat:
                if seat not in self.prompt.actors:
                    raise NothingToRoll(f"{seat} is not the one to roll or draw now ({self.prompt}).")
                action = dataclasses.replace(action, seat=seat)
            acc, changes = self._submit(action, "app")
        self._notify(changes)
        return acc

    # ------------------------------------------------------------------ undo / redo
    def undo_reason(self, seat: str | None = None) -> str | None:
        """Why ``seat`` (default: whoever made the last action) may not undo now, or None."""
        with self._lock:
            r = undo_refusal(self, seat)
        return None if r is None else r.reason

    def can_undo(self, seat: str | None = None) -> bool:
        return self.undo_reason(seat) is None

    def undo(self, seat: str | None = None) -> Accepted:
        """Take back the last action. Raises :class:`UndoRefused` (code + reason) when the
        policy forbids it. The action stays in the journal, marked undone. Whose turn it
        is comes back with the state: undoing a move that passed the turn gives the turn,
        and the running clock, back to the seat that made it."""
        with self._lock:
            self._check_open()
            if not self._loaded:
                self._load()
            refusal = undo_refusal(self, seat)
            if refusal is not None:
                raise refusal
            entry = self._line[-1]
            new_state = self._state_at(entry.ply)
            clocks_before = self.clocks.to_data() if self.clocks is not None else None
            if self.clocks is not None:
                self.clocks.switch_to(self.clocked_seats(new_state), undo=True)
            try:
                self.journal.mark_undone(self.key, entry.seq, clocks=self.clocks.to_data() if self.clocks is not None else None)
            except BaseException:
                self._rollback(clocks_before)
                raise
            entry.undone = UNDONE
            self._line.pop()
            self._redo.append(entry)
            self._state = new_state
            self._version += 1
            acc = Accepted(entry.ply, entry.action, (), entry.seq)
            changes = [Change("undo", self.ply)]
        self._notify(changes)
        return acc

    def can_redo(self) -> bool:
        with self._lock:
            return bool(self._redo) and not self._closed and self.game.is_legal(self._state, self._redo[-1].action)

    def redo(self) -> Accepted:
        """Put back the last undone action (only while nothing else was done since)."""
        with self._lock:
            self._check_open()
            self._check_not_forfeited(None)
            if not self._loaded:
                self._load()
            if not self._redo:
                raise UndoRefused("nothing-to-redo", "there is nothing to redo")
            entry = self._redo[-1]
            action = entry.action
            problems = self.game.check(self._state, action)
            if problems:
                raise IllegalAction(problems, action)
            clocks_before = self.clocks.to_data() if self.clocks is not None else None
            self.game.push_unchecked(self._state, action)
            try:
                changes = self._after_push(action)
                outcome = plain_outcome(self.game.outcome(self._state))
                now = self._wall()
                self.journal.mark_redone(self.key, entry.seq, clocks=self.clocks.to_data() if self.clocks is not None else None,
                                         finished=now if outcome is not None else None, outcome=self._with_seats(outcome))
            except BaseException:
                self._rollback(clocks_before)
                raise
            self._redo.pop()
            entry.undone = IN_FORCE
            self._line.append(entry)
            self._version += 1
            if outcome is not None:
                self.finished = now
                changes.append(Change("over", self.ply, outcome))
            changes.insert(0, Change("redo", self.ply))
            acc = Accepted(entry.ply, action, (), entry.seq)
        self._notify(changes)
        return acc

    # ------------------------------------------------------------------ input routing
    def assign_devices(self, assigned: Mapping[str, str | None]) -> None:
        """Give input sources to seats mid-game (``{"die:pixels-1/0": "cop-1"}``; ``None``
        makes a source anyone's again) and journal the table's whole assignment, so a
        resumed game routes them the same way. Raises :class:`TableError` for a seat this
        table does not have, changing nothing. Any thread."""
        ids = {s["id"] for s in self.seats}
        for src, seat in assigned.items():
            if seat is not None and seat not in ids:
                raise TableError(f"device {src!r} cannot go to {seat!r}, which is not a seat at this table")
        with self._lock:
            self._check_open()
            devices = dict(self.devices)
            for src, seat in assigned.items():
                key = src if ":" in src else f"die:{src}"
                if seat is None:
                    devices.pop(key, None)
                else:
                    devices[key] = seat
            self.journal.set_devices(self.key, devices)  # first: a refused write changes nothing
            self.devices.clear()
            self.devices.update(devices)
            self.router.devices = dict(devices)

    def route(self, event: Any) -> RouteResult:
        """Turn a firmware_bridge event into the action the game waits for (see
        :mod:`companion.routing`). Any thread (the app routes on its input pump's thread)."""
        with self._lock:
            self._check_open()
            routed = self.router.route(event, self._route_view())
            changes = list(routed.changes)
            result = routed.result
            if routed.action is not None:
                try:
                    acc, done = self._submit(routed.action, routed.source)
                except IllegalAction as e:
                    r = rejected_from(e)
                    result = RouteResult(rejected=Rejected("illegal", r.message, r.rule))
                except JournalError as e:  # not saved, nothing changed: refused like any misfit input
                    log.warning("journal: %s (%s)", e, getattr(e, "sqlite_error", ""))
                    result = RouteResult(rejected=Rejected(e.code, str(e)))
                else:
                    self.router.crooked = None
                    result = RouteResult(accepted=acc)
                    changes.extend(done)
            assert result is not None
            # Last, after the changes the input caused: a screen refreshes, then shows the result.
            changes.append(Change("routed", self.ply, RoutedInput(event, result)))
        self._notify(changes)
        return result

    def _route_view(self) -> Any:
        from .routing import RouteView

        state = self._state
        return RouteView(
            prompt=self.prompt, seats=tuple(s["id"] for s in self.seats),
            names={s["id"]: self.seat_name(s["id"]) for s in self.seats}, title=self.game.title,
            ply=state.ply, over=self.outcome is not None,
            legal_of_kind=lambda kind: self.game.legal_actions(state).of_kind(kind) if self._forfeit is None else (),
            check=lambda action: self.game.check(state, action), action_types=tuple(self.game.action_types),
            sample=lambda: self.game.sample(state), undo_refusal=lambda: undo_refusal(self, None))

    def accept_crooked(self) -> Accepted:
        """Accept the value of the last crooked die instead of re-rolling it."""
        with self._lock:
            self._check_open()
            action = self.router.crooked_action(self._route_view())
            if action is None:
                raise TableError("there is no crooked die whose roll is awaited")
            acc, changes = self._submit(action, action.source)
            self.router.clear()
        self._notify(changes)
        return acc

    # ------------------------------------------------------------------ clocks
    def tick(self, wait: bool = True) -> list[Any]:
        """Advance the clocks (call a few times a second); returns the clock events
        (warnings, over time…) and tells subscribers. An over-time event whose consequence
        is a loss ends the game: the seat's faction loses on time (journaled). Penalty
        points are totalled per seat (:meth:`time_penalties`), not taken off the game.

        ``wait=False``: if another thread holds the Table (an action being committed),
        return ``[]`` at once instead of waiting; the clocks run on wall time, so the next
        tick catches up. The UI's periodic tick uses it, so a slow commit never stalls it."""
        from .clocks import EventKind, OvertimePolicy

        changes: list[Change] = []
        if not self._lock.acquire(blocking=wait):
            return []
        try:
            if self.clocks is None or self._closed:
                return []
            events = self.clocks.tick()
            if events:
                changes.append(Change("clock", self.ply, tuple(events)))
            for e in events:
                if e.kind is EventKind.OVER_TIME and e.consequence is OvertimePolicy.LOSS and not self.is_over():
                    changes.append(self._lose_on_time(e.seat))
        finally:
            self._lock.release()
        self._notify(changes)
        return events

    def _lose_on_time(self, seat: str) -> Change:
        faction = next(s["faction"] for s in self.seats if s["id"] == seat)
        others = [s for s in self.seats if s["faction"] != faction]
        factions = sorted({s["faction"] for s in others})
        # The reason is read by players (end screen, history, exports): the player's name.
        outcome = Outcome(factions[0] if len(factions) == 1 else None, f"{self.seat_name(seat)} ran out of time", {},
                          tuple(s["id"] for s in others))
        now = self._wall()
        self.clocks.lost_on_time(seat)
        self.journal.set_result(self.key, finished=now, outcome=self._with_seats(plain_outcome(outcome)),
                                clocks=self.clocks.to_data())
        self._forfeit, self.finished = outcome, now
        self._version += 1
        return Change("over", self.ply, plain_outcome(outcome))

    def _check_not_forfeited(self, action: Any) -> None:
        if self._forfeit is not None:
            raise IllegalAction([Violation("game-over", "Clocks", f"The game is over: {self._forfeit.reason}.")], action)

    def time_penalties(self) -> dict[str, int]:
        """Penalty points per seat under the clocks' penalty policy (seats with none left
        out). They are kept beside the game, not taken off it: Tyranny and Liberation are
        won by conditions, not points, so the table settles what a penalty costs (the end
        screen and the clock faces show them)."""
        with self._lock:
            if self.clocks is None:
                return {}
            points = {s: self.clocks.penalty_points(s) for s in self.clocks.seats}
        return {s: p for s, p in points.items() if p}

    def pause(self) -> None:
        """Pause every clock (journaled)."""
        self._clock_op(lambda c: c.pause())

    def resume_clocks(self) -> None:
        """Resume the clocks after :meth:`pause` (journaled)."""
        self._clock_op(lambda c: c.resume())

    def adjust_clock(self, seat: str, delta: float, reason: str = "") -> None:
        """Admin time: give (``delta`` > 0) or take seconds from ``seat`` (journaled)."""
        self._clock_op(lambda c: c.adjust(seat, delta, reason))

    def _clock_op(self, op: Callable[[Any], None]) -> None:
        with self._lock:
            self._check_open()
            if self.clocks is None:
                raise TableError("this game has no clocks")
            op(self.clocks)
            self.journal.set_clock_state(self.key, self.clocks.to_data())
        self._notify([Change("clock", self.ply)])

    # ------------------------------------------------------------------ history
    def log(self, viewer: str = PUBLIC) -> list[LogLine]:
        """The game log as ``viewer`` may read it: the engine's log lines for the line of
        play, with undone actions kept in place and flagged."""
        with self._lock:
            # The UI asks on every refresh: rebuild only when the history changed.
            stamp = (self._version, viewer)
            if self._log_cache is not None and self._log_cache[0] == stamp:
                return list(self._log_cache[1])
            entries = self.game.view(self._state, viewer)["log"]
            times = {e.ply: e.time for e in self._line}
            # An undone action happened before whatever now stands at its ply.
            undone = sorted((e for e in self._entries if e.undone != IN_FORCE), key=lambda e: (e.ply, e.seq))
            lines: list[LogLine] = []
            ui = 0
            for e in entries:
                while ui < len(undone) and undone[ui].ply <= e["ply"]:
                    lines.append(self._undone_line(undone[ui], viewer))
                    ui += 1
                words = from_data(e["words"]) if "words" in e else None
                lines.append(LogLine(e["ply"], e["text"], e["seat"], False, times.get(e["ply"]), words))
            lines.extend(self._undone_line(u, viewer) for u in undone[ui:])
            self._log_cache = (stamp, lines)
            return list(lines)

    def _undone_line(self, e: _Entry, viewer: str) -> LogLine:
        data = public_data(self._public_action(e, viewer, undone=True))
        return LogLine(e.ply, "undone — " + describe(e.kind, self.seat_name(e.seat) if e.seat else None, data), e.seat, True, e.time)

    def _public_action(self, e: _Entry, viewer: str, *, undone: bool) -> dict[str, Any]:
        """What ``viewer`` may see of a journaled action: the engine decides, field by
        field (``Game.public_action``). An undone secret commit was never revealed."""
        if undone and e.action.secret and viewer != e.seat:
            return {"$": "", "seat": e.seat, "sealed": True}
        return self.game.public_action(self._state, e.action, viewer, e.ply)

    def history(self, viewer: str = PUBLIC) -> list[ActionRecord]:
        """Every journaled action (undone ones included) as ``viewer`` may see them."""
        with self._lock:
            out = []
            for e in sorted(self._entries, key=lambda e: e.seq):
                undone = e.undone != IN_FORCE
                data = public_data(self._public_action(e, viewer, undone=undone))
                out.append(ActionRecord(ply=e.ply, seat=e.seat, kind=e.kind, data=data, source=e.source,
                                        time=e.time, undone=undone))
            return out

    @property
    def seats(self) -> list[dict[str, Any]]:
        """The seats (``{"id", "faction", "name"}``), each with the faction the engine now
        records for it (``Seat.faction``): a game may deal factions during its setup
        (Dicetopia's faction cards), and the strips, the end screen and the exports name
        the dealt one. A seat whose faction is not dealt yet keeps the one it started with."""
        factions = tuple(s.faction for s in self._state.seats)
        if factions != self._seats_now[0]:
            now = {s.id: s.faction for s in self._state.seats}
            self._seats_now = (factions, [dict(s, faction=now.get(s["id"]) or s["faction"]) for s in self._seats])
        return self._seats_now[1]

    def seat_name(self, seat: str) -> str:
        """The player's name for ``seat`` (the seat id when none was given)."""
        for s in self.seats:
            if s["id"] == seat:
                return s.get("name") or seat
        return seat

    def clocked_seats(self, state: Any = None) -> frozenset[str]:
        """The seats whose clocks run in ``state``: the acting seats, unless the game's
        step is untimed (setup: dealing, placing)."""
        state = self._state if state is None else state
        if state.result is not None or not self.game.is_timed(state):
            return frozenset()
        return self.game.prompt(state).actors

    def tracked_history(self) -> list[dict[str, Any]]:
        """Tracked values after setup and after every action in force:
        ``[{"ply", "turn", "values"}]``."""
        with self._lock:
            turn0 = _turn_of(self._start(), self._tracked0)
            first = {"ply": 0, "turn": 1 if turn0 is None else turn0, "values": dict(self._tracked0)}
            out = [first]
            for ply, turn, values in self.journal.tracked(self.key):
                out.append({"ply": ply + 1, "turn": turn if turn is not None else ply + 1, "values": values})
            return out

    def record(self) -> GameRecord:
        """The public record exports are made from."""
        with self._lock:
            return GameRecord(game_id=self.game_id, key=self.key, seats=[dict(s) for s in self.seats],
                              options=dict(self.options), seed=self.seed, started=self.started,
                              finished=self.finished, actions=self.history(),
                              outcome=plain_outcome(self.outcome), tracked=self.tracked_history(),
                              position=self.public_position)

    def export_json(self) -> str:
        from .export import export_json

        return export_json(self.record())

    def export_csv(self) -> str:
        from .export import export_csv

        return export_csv(self.record())

    def bgstats_link(self, **kw: Any) -> str:
        """The BG Stats link of a finished game (raises GameNotFinished otherwise)."""
        from .export import bgstats_link

        return bgstats_link(self.record(), **kw)

    # ------------------------------------------------------------------ notifications
    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback(change)`` after every change; returns the unsubscribe function."""
        with self._lock:
            self._subs.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subs:
                    self._subs.remove(callback)

        return unsubscribe

    def _notify(self, changes: list[Change]) -> None:
        if not changes:
            return
        with self._lock:
            subs = list(self._subs)
        for change in changes:
            for cb in subs:
                cb(change)

    # ------------------------------------------------------------------ internals
    def _check_open(self) -> None:
        if self._closed:
            raise TableClosed(f"the table of game {self.key} is closed")

    def _state_at(self, ply: int) -> Any:
        """The state after the first ``ply`` actions of the line of play: the newest
        snapshot at or before it, then the journaled actions after it, each checked."""
        snap = self.journal.latest_snapshot(self.key, ply)
        start = snap[0] if snap else 0
        return self._build(snap, [e.action for e in self._line[start:ply]])

    def _start(self) -> Any:
        """The state before the first action: the opening, or the position the game was
        joined at (the engine deals a joined game's unknown cards from the seed, so this is
        the same state every time)."""
        return self.game.new(self._seats, self.options, self.seed, position=self.position)

    @property
    def public_position(self) -> dict[str, Any] | None:
        """The position a joined game started from, without its private part (None for a
        game that began at the opening): what a shared screen or an export may show."""
        from .positions import public_position

        return public_position(self.position)

    def _build(self, snap: tuple[int, str] | None, actions: list[Action]) -> Any:
        if snap is not None:
            state = self.game.state_from_data(json.loads(snap[1]))
            if self._log_in_english(state):
                # A snapshot is a cache of the line of play: one saved before this game's
                # log lines were structure holds them as English strings, which no other
                # language can word. Rebuild its plies from the seed instead (once: the
                # next snapshot is written as structure).
                before = [e.action for e in (_Entry.of(r, self._chance_kinds) for r in
                                             self.journal.actions(self.key, in_force_only=True)) if e.ply < snap[0]]
                state = self._start()
                actions = before + actions
        else:
            state = self._start()
        for a in actions:
            self.game.push(state, a)
        return state

    def _log_in_english(self, state: Any) -> bool:
        """Whether ``state`` (read from a snapshot) logs English strings where the engine
        now writes sentences as structure (its opening's log does)."""
        log = getattr(state, "log", None)
        if not log or not any(type(e.text) is str for e in log):
            return False
        if self._writes_structure is None:
            self._writes_structure = any(type(e.text) is not str for e in self._start().log)
        return self._writes_structure
