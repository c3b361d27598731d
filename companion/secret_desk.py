"""Secret input on one shared screen: seat by seat, hidden until all have chosen.

When the engine waits for a :class:`~rules.core.CommitRequest`, the :class:`SecretDesk`
asks each seat in turn (the UI shows "pass the device to <seat>, others look away", then a
privacy gate). Behind the gate the seat sees its private view and its choices; its
:meth:`SecretDesk.commit` goes to the engine as the game's commit action and into the journal, but the
public view, the public log and exports only say *that* it chose. When the last seat has
chosen, the engine reveals every choice together.

What the shared screen shows (:meth:`SecretDesk.public`) never holds a choice before the
reveal; :meth:`SecretDesk.behind_gate` is for the gate only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Action, CommitRequest, IllegalAction, Violation

from .errors import CompanionError


class SecretError(CompanionError, ValueError):
    code = "secret-error"


class NotYourSecret(SecretError):
    """A commit for a seat that need not (or no longer may) choose."""

    code = "not-pending"


@dataclass(frozen=True)
class SecretStatus:
    """Public state of a round: the purpose, who must choose, who has, whose turn at the
    device it is. Never a choice."""

    purpose: str
    seats: tuple[str, ...]
    committed: tuple[str, ...]
    pending: tuple[str, ...]
    next_seat: str | None


class SecretDesk:
    """The secret rounds of one Table (called under the Table's lock through the Table)."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def status(self) -> SecretStatus | None:
        """The round's public state, or None when no secret choice is awaited: the seats
        awaiting a :class:`~rules.core.CommitRequest`, and those whose commits are sealed
        (the engine's ``sealed`` plies, never a guess from the journal's last rows)."""
        with self.table._lock:
            prompt = self.table.prompt
            asked = dict(prompt.awaiting_of_type(CommitRequest))
            if not asked:
                return None
            sealed = set(self.table.state.sealed)
            done = {e.seat for e in self.table._line if e.ply in sealed}
        order = [s["id"] for s in self.table.seats]
        seats = tuple(s for s in order if s in asked or s in done)
        committed = tuple(s for s in seats if s in done and s not in asked)
        pending = tuple(s for s in seats if s in asked)
        purpose = next(iter(asked.values())).purpose  # type: ignore[union-attr]
        focus = self.table.router.focus_seat
        nxt = focus if focus in pending else (pending[0] if pending else None)
        return SecretStatus(purpose, seats, committed, pending, nxt)

    @property
    def is_open(self) -> bool:
        """Does the game wait for secret choices now?"""
        return self.status() is not None

    @property
    def pending(self) -> tuple[str, ...]:
        st = self.status()
        return () if st is None else st.pending

    def public(self) -> dict[str, Any]:
        """For the shared screen: who must still choose, never what anyone chose."""
        st = self.status()
        if st is None:
            return {"open": False}
        return {"open": True, "purpose": st.purpose, "committed": list(st.committed),
                "pending": list(st.pending), "next": st.next_seat}

    def choices(self, seat: str) -> list[Action]:
        """The secret actions ``seat`` may commit now, "pass" included (behind the gate only)."""
        with self.table._lock:
            prompt = self.table.prompt
            awaiting = prompt.of(seat)
            if not isinstance(awaiting, CommitRequest):
                return []
            kinds = set(awaiting.accepted)
            return [a for a in self.table.legal_actions() if a.seat == seat and a.kind in kinds]

    def behind_gate(self, seat: str) -> dict[str, Any]:
        """Everything ``seat`` may see to choose: its private view and its choices."""
        if seat not in self.pending:
            raise NotYourSecret(f"{seat} has no secret choice to make now.")
        return {"seat": seat, "view": self.table.private_view(seat), "choices": self.choices(seat)}

    def commit(self, seat: str, choice: Action, source: str = "touch") -> Any:
        """``seat``'s secret choice (a commit action, or the pass its request allows):
        journaled, hidden from the public until the game reveals it. Raises
        :class:`NotYourSecret` if ``seat`` need not choose, or the engine's IllegalAction
        for a choice not allowed; that refusal names the rule only, never the choice, as
        it may be shown on the shared screen."""
        if seat not in self.pending or choice.seat != seat:
            raise NotYourSecret(f"{self.table.seat_name(seat)} has no secret choice to make now.")
        try:
            return self.table.submit(choice, source=source)
        except IllegalAction as e:
            clean = [Violation(v.code, v.rule, f"That choice is not allowed ({v.rule}).") for v in e.violations]
            raise IllegalAction(clean, None) from None

    @property
    def revealed(self) -> dict[str, Any] | None:
        """The choices of the last completed round as the public view shows them after the
        reveal (the engine decides what a reveal shows), or None."""
        view = self.table.view()
        for key in ("round", "secret", "secrets"):
            r = view.get(key)
            if isinstance(r, dict) and r.get("revealed"):
                return r["revealed"]
        return None
