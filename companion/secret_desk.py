"""Secret input on one shared screen: seat by seat, hidden until all have chosen.

When the engine waits for a :class:`~rules.core.SecretRequest`, the :class:`SecretDesk`
asks each seat in turn (the UI shows "pass the device to <seat>, others look away", then a
privacy gate). Behind the gate the seat sees its private view and its choices; its
:meth:`SecretDesk.commit` goes to the engine as a ``Commit`` and into the journal, but the
public view, the public log and exports only say *that* it chose. When the last seat has
chosen, the engine reveals every choice together.

What the shared screen shows (:meth:`SecretDesk.public`) never holds a choice before the
reveal; :meth:`SecretDesk.behind_gate` is for the gate only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Commit, IllegalAction, SecretRequest, Violation

from .visibility import HIDDEN


class SecretError(ValueError):
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

    def _request(self) -> SecretRequest | None:
        aw = self.table.prompt.awaiting
        return aw if isinstance(aw, SecretRequest) else None

    @property
    def is_open(self) -> bool:
        """Does the game wait for secret choices now?"""
        return self._request() is not None

    def status(self) -> SecretStatus | None:
        """The round's public state, or None when no secret choice is awaited."""
        req = self._request()
        if req is None:
            return None
        order = [s["id"] for s in self.table.seats]
        seats = tuple(s for s in order if s in req.seats)
        committed = tuple(s for s in seats if s in req.committed)
        pending = tuple(s for s in seats if s not in req.committed)
        focus = self.table.router.focus_seat
        nxt = focus if focus in pending else (pending[0] if pending else None)
        return SecretStatus(req.purpose, seats, committed, pending, nxt)

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

    def choices(self, seat: str) -> list[str]:
        """The choices ``seat`` may commit now (behind the gate only)."""
        with self.table._lock:
            return [a.choice for a in self.table.legal_actions() if isinstance(a, Commit) and a.seat == seat]

    def behind_gate(self, seat: str) -> dict[str, Any]:
        """Everything ``seat`` may see to choose: its private view and its choices."""
        if seat not in self.pending:
            raise NotYourSecret(f"{seat} has no secret choice to make now.")
        return {"seat": seat, "view": self.table.private_view(seat), "choices": self.choices(seat)}

    def commit(self, seat: str, choice: str, source: str = "touch") -> Any:
        """``seat``'s secret choice: journaled, hidden from the public until all chose.
        Raises :class:`NotYourSecret` if ``seat`` need not choose, or the engine's
        IllegalAction (whose message never repeats the choice) for a choice not allowed."""
        if seat not in self.pending:
            raise NotYourSecret(f"{seat} has no secret choice to make now.")
        try:
            return self.table.submit(Commit(seat, choice), source=source)
        except IllegalAction as e:
            # The refusal may be shown on the shared screen: it must not repeat the choice.
            clean = [Violation(v.code, v.rule, v.message.replace(choice, HIDDEN) if choice else v.message) for v in e.violations]
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
