"""The privacy gate's state machine, without Kivy.

Hidden information on one shared screen: pass the device to seat X, everyone else looks
away, X holds a button for ``hold_s`` seconds to reveal, and the secret hides itself after
``auto_hide_s`` (or when X taps Hide). Nothing secret exists before the hold completes: the
widget asks its builder for the content only when :meth:`GateModel.tick` reports
``"open"``, and throws the content away on ``"closed"``.

>>> g = GateModel(hold_s=1.0, auto_hide_s=10.0)
>>> g.request("crim-1", "Bob (◆ Criminals)"); g.phase
'waiting'
>>> g.press(0.0); g.tick(0.5), round(g.progress, 2)
(None, 0.5)
>>> g.release(0.6); g.phase, g.progress          # let go too early: nothing shown
('waiting', 0.0)
>>> g.press(0.7); g.tick(1.2); g.release(1.8)     # held 1.1 s, no tick saw it end
'open'
>>> g.hide()
'closed'
>>> g.request("crim-1", "Bob (◆ Criminals)")
>>> g.press(1.0); g.tick(2.0), g.phase
('open', 'open')
>>> g.tick(11.9), g.tick(12.0), g.phase
(None, 'closed', 'idle')

The gate never closes under a player who is still reading: every touch while it is open
starts the countdown again, and "more time" adds another ``auto_hide_s``:

>>> g.request("crim-1", "Bob"); g.press(0.0); g.tick(1.0)
'open'
>>> g.touched(9.0); g.seconds_left(9.0)
10.0
>>> g.more_time(10.0); g.seconds_left(10.0)
19.0
>>> g.tick(28.9), g.tick(29.0)
(None, 'closed')
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class GateModel:
    hold_s: float = 1.2
    auto_hide_s: float = 20.0
    phase: str = "idle"  # idle → waiting → holding → open → idle
    seat: str = ""
    who: str = ""  # how the seat is named on the gate ("Bob (◆ Criminals)")
    progress: float = 0.0
    _pressed_at: float | None = field(default=None, repr=False)
    _hide_at: float = 0.0  # when an open gate hides itself

    def request(self, seat: str, who: str) -> None:
        """Ask for ``seat``: the gate shows "pass the device to <who>"."""
        self.phase, self.seat, self.who, self.progress, self._pressed_at = "waiting", seat, who, 0.0, None

    def press(self, now: float) -> None:
        if self.phase == "waiting":
            self.phase, self._pressed_at = "holding", now

    def release(self, now: float) -> str | None:
        """Let go. Early: nothing shown. After a full hold the gate opens even if no
        :meth:`tick` saw the hold complete (the frames ran late on a busy device just
        before the finger lifted): returns ``"open"`` then, like :meth:`tick`."""
        if self.phase == "holding":
            if self.tick(now) == "open":
                return "open"
            self.phase, self.progress, self._pressed_at = "waiting", 0.0, None
        return None

    def hide(self) -> str | None:
        """Hide at once (the Hide button, leaving the screen). Returns ``"closed"`` if
        something was shown."""
        was_open = self.phase == "open"
        self.phase, self.seat, self.who, self.progress, self._pressed_at = "idle", "", "", 0.0, None
        return "closed" if was_open else None

    def cancel(self) -> None:
        self.hide()

    def seconds_left(self, now: float) -> float:
        return max(0.0, self._hide_at - now) if self.phase == "open" else 0.0

    def touched(self, now: float) -> None:
        """The player touched the open secret (scrolling, reading): a full countdown again."""
        if self.phase == "open":
            self._hide_at = max(self._hide_at, now + self.auto_hide_s)

    def more_time(self, now: float) -> None:
        """"More time": another ``auto_hide_s`` on top of what is left."""
        if self.phase == "open":
            self._hide_at = max(self._hide_at, now) + self.auto_hide_s

    def tick(self, now: float) -> str | None:
        """Advance; returns ``"open"`` once when the hold completes, ``"closed"`` once when
        the open secret hides itself."""
        if self.phase == "holding" and self._pressed_at is not None:
            self.progress = min(1.0, (now - self._pressed_at) / self.hold_s)
            if self.progress >= 1.0:
                self.phase, self._hide_at = "open", now + self.auto_hide_s
                return "open"
        elif self.phase == "open" and now >= self._hide_at:
            self.hide()
            return "closed"
        return None


@dataclass(frozen=True)
class GatePick:
    """Several items chosen together behind the gate, then one confirm (a mulligan of any
    number of cards). ``items``: ``(key, words)`` in the order shown; ``options``: every
    selection the rules accept, as the set of its keys and the action that makes it, taken
    from the engine's legal actions (the page never builds an action of its own). Labels
    take ``{n}`` (how many are chosen), ``{s}`` ("s" unless one) and ``{total}``; ``none``
    is the confirm's label with nothing chosen ("Keep all five")."""

    items: tuple[tuple[str, str], ...]
    options: tuple[tuple[frozenset[str], object], ...]
    confirm: str = "Confirm {n}"
    none: str = "Confirm none"
    counting: str = "{n} of {total} chosen"


@dataclass
class PickState:
    """The live state of one :class:`GatePick` on screen, without Kivy.

    >>> pick = GatePick((("a#1", "Ace"), ("b#1", "Bee"), ("c#1", "Cee")),
    ...                 tuple((frozenset(k), "discard " + "+".join(sorted(k))) for k in ([], ["a#1"], ["a#1", "c#1"])),
    ...                 confirm="Discard {n} card{s}", none="Keep them all", counting="{n} of {total} to discard")
    >>> st = PickState(pick)
    >>> st.count_line(), st.confirm_label(), st.action()
    ('0 of 3 to discard', 'Keep them all', 'discard ')
    >>> st.toggle("c#1"), st.toggle("a#1"), st.chosen
    (True, True, ['a#1', 'c#1'])
    >>> st.count_line(), st.confirm_label(), st.action()
    ('2 of 3 to discard', 'Discard 2 cards', 'discard a#1+c#1')
    >>> st.toggle("c#1"), st.confirm_label(), st.toggle("b#1"), st.can_confirm()
    (False, 'Discard 1 card', True, False)
    >>> st.count_line()
    '2 of 3 to discard · not a choice the rules allow'
    """

    pick: GatePick
    chosen: list[str] = field(default_factory=list)

    def toggle(self, key: str) -> bool:
        """Choose ``key``, or un-choose it if it was chosen; returns whether it is chosen now."""
        if key in self.chosen:
            self.chosen.remove(key)
            return False
        order = [k for k, _ in self.pick.items]
        self.chosen = sorted([*self.chosen, key], key=order.index)
        return True

    def is_chosen(self, key: str) -> bool:
        return key in self.chosen

    def _fill(self, text: str) -> str:
        n = len(self.chosen)
        return text.format(n=n, s="" if n == 1 else "s", total=len(self.pick.items))

    def action(self) -> object | None:
        """The action the chosen set makes, or None if the rules offer no such choice."""
        chosen = frozenset(self.chosen)
        return next((a for keys, a in self.pick.options if keys == chosen), None)

    def can_confirm(self) -> bool:
        return self.action() is not None

    def confirm_label(self) -> str:
        return self._fill(self.pick.confirm if self.chosen else self.pick.none)

    def count_line(self) -> str:
        line = self._fill(self.pick.counting)
        return line if self.can_confirm() else f"{line} · not a choice the rules allow"
