"""The dice tray's model, without Kivy: live state of each physical die, what roll the
game waits for, manual entry and the app's own roller as fallbacks, and "re-roll or
accept" for a crooked die.

>>> from types import SimpleNamespace as NS
>>> from rules.core import Prompt, RollRequest
>>> m = DiceModel()
>>> m.set_awaiting(Prompt.single("cop-1", RollRequest.of(1, 6, "move")), "Ann")
>>> m.awaiting_text
'Ann: roll 1d6 to move'
>>> m.on_motion(NS(source="die:hub1/0", state="rolling")); m.dice["die:hub1/0"].label
'↻ rolling…'
>>> m.on_reading(NS(source="die:hub1/0", value=4)); m.dice["die:hub1/0"].label
'4 · checking…'
>>> m.on_rolled(NS(source="die:hub1/0", value=4, outcome="crooked", confidence=0.81),
...             NS(accepted=None, rejected=NS(code="crooked-die", message="The die is cocked."), ignored=None))
>>> m.dice["die:hub1/0"].label, m.crooked is not None
('⚠ 4? crooked — re-roll or accept', True)

A die entered by hand is held for a few seconds before it is submitted, so a mistyped
face can be changed (once submitted, a chance result cannot be undone):

>>> m.hold(m.manual(4), now=10.0); m.pending_text(now=10.2, grace=3.0)
'4 — committing in 3 s, tap to change'
>>> m.hold(m.manual(5), now=11.0); m.pending.values, m.due(now=13.9, grace=3.0), m.due(now=14.0, grace=3.0)
((5,), False, True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from rules import Roll
from rules.core.prompt import RollRequest

from ...routing import in_turn

BLE_KINDS = ("pixels", "godice")


def die_name(source: str, kind: str = "", owner: str = "", alone: bool = True, own_name: str = "") -> str:
    """What players call a physical die: its owner's, the demo's, a Bluetooth die's own
    name (a Pixel's, as its owner named it in the Pixels app; a GoDice by its colour), or
    the n-th of a hub (counted from 1), never its address.

    >>> die_name("die:sim/0", "simulated"), die_name("die:hub1/2", "hub"), die_name("die:hub1/0", "hub", "Ann")
    ('the demo die', 'hub1 die 3', "Ann's die")
    >>> die_name("die:sim/1", "simulated", alone=False)
    'demo die 2'
    >>> die_name("die:pixels-a1b2c3/0", "pixels", own_name="Red d20"), die_name("die:godice-0a1b2c/0", "godice", own_name="blue")
    ('the Pixel “Red d20”', 'the blue GoDice')
    >>> die_name("die:pixels-a1b2c3/0", "pixels", "Ann", own_name="Red d20")
    "Ann's Pixel “Red d20”"
    """
    device, _, index = source.partition(":")[2].partition("/")
    n = int(index) + 1 if index.isdigit() else 1
    if kind in BLE_KINDS:
        if kind == "pixels":
            what = f"Pixel “{own_name}”" if own_name else "Pixel"
        else:
            what = f"{own_name} GoDice" if own_name else "GoDice"
        return f"{owner}'s {what}" if owner else f"the {what}"
    if owner:
        return f"{owner}'s die"
    if kind == "simulated":
        return "the demo die" if alone else f"demo die {n}"
    return f"{device} die {n}"


@dataclass(frozen=True)
class LiveDie:
    """A physical die the app hears now: its ``source`` ("die:hub1/0"), what players call
    it, and the seat it is given to ("" for none)."""

    source: str
    name: str
    seat: str = ""
    kind: str = ""  # the device's kind ("hub", "simulated", "pixels", "godice")


def live_dice(devices: Any, given: dict[str, str], seat_name: Any = None, online_only: bool = True) -> tuple[LiveDie, ...]:
    """The dice the app hears now, from the devices panel's model (``devices``), named for
    players, with the seat each is given to in the open game (``given``: source → seat).
    ``online_only=False``: every die the app knows, heard now or not (the setup wizard's
    devices step, which gives dice to seats before the game starts).

    >>> from types import SimpleNamespace as NS
    >>> devs = NS(devices={"pixels-a1": NS(device="pixels-a1", online=True, kind="pixels", dice={0}),
    ...                    "hub1": NS(device="hub1", online=False, kind="hub", dice={0})},
    ...           links={}, statuses={"pixels-a1": NS(name="Red d20", color="")})
    >>> [(d.source, d.name, d.seat) for d in live_dice(devs, {"die:pixels-a1/0": "c1"}, lambda s: "Ann")]
    [('die:pixels-a1/0', "Ann's Pixel “Red d20”", 'c1')]
    >>> [d.name for d in live_dice(devs, {}, online_only=False)]
    ['the Pixel “Red d20”', 'hub1 die 1']
    """
    out = []
    for d in devices.devices.values():
        if (online_only and not d.online) or d.kind not in ("hub", "simulated") + BLE_KINDS:
            continue
        kind = "simulated" if getattr(devices.links.get(d.device), "simulated", False) else d.kind
        status = getattr(devices, "statuses", {}).get(d.device)
        own = ""
        if status is not None:
            own = status.name if d.kind == "pixels" else status.color
        for i in sorted(d.dice):
            source = f"die:{d.device}/{i}"
            seat = given.get(source, "")
            owner = seat_name(seat) if seat and seat_name is not None else ""
            out.append(LiveDie(source, die_name(source, kind, owner, alone=len(d.dice) == 1, own_name=own), seat, d.kind))
    return tuple(out)


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


STATE_TEXT = {
    "unknown": "· waiting", "handling": "✋ picked up", "rolling": "↻ rolling…",
}
TURNED_TEXT = "✋ turned by hand to {value}: not a roll"


@dataclass
class DieState:
    source: str
    state: str = "unknown"  # unknown handling rolling checking rolled crooked rejected offline
    value: int | None = None
    note: str = ""

    @property
    def label(self) -> str:
        if self.state in STATE_TEXT:
            return STATE_TEXT[self.state]
        if self.state == "checking":
            return f"{self.value} · checking…"
        if self.state == "rolled":
            return f"✔ {self.value}"
        if self.state == "crooked":
            return f"⚠ {self.value}? crooked — re-roll or accept"
        if self.state == "rejected":
            return f"✖ {self.value} not used"
        if self.state == "offline":
            return "○ offline"
        if self.state == "turned":
            return TURNED_TEXT.format(value=self.value)
        return self.state



@dataclass
class DiceModel:
    awaiting_text: str = ""
    seat: str = ""
    dice_count: int = 0
    sides: int = 6
    dice: dict[str, DieState] = field(default_factory=dict)
    crooked: Any = None  # the DieRolled event of a cocked die, until re-rolled or accepted
    last: str = ""  # the latest roll as a sentence, for the tray's status line
    last_ok: bool = True
    entry: list[int] = field(default_factory=list)  # manual entry for several dice
    readings_seen: int = 0  # physical readings shown so far (the latency benchmark counts them)
    rolls_seen: int = 0  # physical results routed and shown so far (so does the benchmark)
    pending: Roll | None = None  # a roll entered by hand, not yet submitted (see hold)
    pending_since: float = 0.0
    notice: str = ""  # throws a hub lost while it could not be heard (ThrowsMissed), in words
    notice_since: float = 0.0
    live: tuple[LiveDie, ...] = ()  # the physical dice heard now (set_live)
    _asked: tuple[Any, ...] = ()
    _missed: dict[str, int] = field(default_factory=dict)  # throws lost per die, since the notice

    def set_awaiting(self, prompt: Any, who: str = "", seats: tuple[str, ...] = (),
                     who_of: Callable[[str], str] | None = None) -> None:
        """From the Table's prompt: is a roll awaited, by whom, of how many dice? When
        several seats must throw (who starts), the table's dice throw for them in turn, in
        seat order (``seats``), as the router routes them (companion.routing.in_turn); the
        line names whose throw it is and who follows (``who_of``: a seat's name). The
        same request again (the screen redraws on every Table change, a clock's too)
        keeps a half-entered or held roll.

        >>> from rules.core import Prompt, RollRequest
        >>> m = DiceModel()
        >>> m.set_awaiting(Prompt.each(["b", "a"], RollRequest.of(2, 6, "decide who starts")), seats=("a", "b"),
        ...                who_of={"a": "Ann", "b": "Bob"}.get)
        >>> m.seat, m.awaiting_text
        ('a', 'Ann: roll 2d6 to decide who starts (then Bob)')
        """
        rolls = dict(prompt.awaiting_of_type(RollRequest)) if prompt is not None else {}
        if rolls:
            order = in_turn(rolls, seats)
            self.seat = order[0]
            aw = rolls[self.seat]
            name = who_of or (lambda s: who if s == self.seat and who else s)
            self.dice_count, self.sides = aw.count, aw.sides
            then = f" (then {_join([name(s) for s in order[1:]])})" if len(order) > 1 else ""
            self.awaiting_text = f"{name(self.seat)}: roll {aw.notation()} to {aw.purpose}{then}"
            asked: tuple[Any, ...] = (self.seat, aw.dice, aw.purpose)
        else:
            self.seat, self.dice_count, self.awaiting_text = "", 0, ""
            self.crooked = None
            asked = ()
        if asked != self._asked or not asked:
            self.entry, self.pending = [], None
        self._asked = asked

    def set_live(self, live: tuple[LiveDie, ...]) -> None:
        """The physical dice the app hears now, with their names (from the devices)."""
        self.live = live

    def name_of(self, source: str) -> str:
        for d in self.live:
            if d.source == source:
                return d.name
        return die_name(source)

    def kind_of(self, source: str) -> str:
        for d in self.live:
            if d.source == source:
                return d.kind
        return ""

    @property
    def guide(self) -> str:
        """What the table should do now, in words: which input is live (a die that reads
        itself, manual entry, the app's roller).

        >>> from rules.core import Prompt, RollRequest
        >>> m = DiceModel()
        >>> m.set_awaiting(Prompt.single("cop-1", RollRequest.of(1, 6, "move")), "Ann")
        >>> m.guide
        'Roll your own die and tap its face, or let the app roll.'
        >>> m.set_live((LiveDie("die:sim/0", "the demo die"),)); m.guide
        'Roll the demo die (the app reads it), or tap your own die’s face.'
        >>> m.set_live((LiveDie("die:hub1/0", "Bob's die", "crim-2"),)); m.guide
        'Roll your own die and tap its face, or let the app roll.'
        """
        if not self.is_awaiting:
            return ""
        # As the router decides: the seat's own dice and the table's (given to nobody).
        usable = [d for d in self.live if d.seat == self.seat] + [d for d in self.live if not d.seat]
        if not usable:
            return "Roll your own die and tap its face, or let the app roll." if self.dice_count == 1 else \
                f"Roll your own {self.dice_count} dice and tap their faces, or let the app roll."
        names = [d.name for d in usable[:self.dice_count]]
        return f"Roll {_join(names)} (the app reads {'it' if len(names) == 1 else 'them'}), or tap your own die’s face."

    def hold(self, roll: Roll | None, now: float) -> None:
        """Hold a roll entered by hand (``None``: the entry is not complete yet)."""
        if roll is not None:
            self.pending, self.pending_since = roll, now

    def due(self, now: float, grace: float) -> bool:
        """Whether the held roll's time to be changed is over."""
        return self.pending is not None and now - self.pending_since >= grace

    def take_pending(self) -> Roll | None:
        roll, self.pending = self.pending, None
        return roll

    def pending_text(self, now: float, grace: float) -> str:
        if self.pending is None:
            return ""
        left = max(1, math.ceil(grace - (now - self.pending_since)))
        return f"{' + '.join(map(str, self.pending.values))} — committing in {left} s, tap to change"

    @property
    def entry_text(self) -> str:
        """The faces tapped so far of a throw of several dice, and what to tap next.

        >>> from rules.core import Prompt, RollRequest
        >>> m = DiceModel(); m.set_awaiting(Prompt.single("a", RollRequest.of(2, 6, "move")), "Ann")
        >>> m.manual(6); m.entry_text
        '✎ 6 entered: tap the other die’s face'
        """
        if not self.entry or self.pending is not None:
            return ""
        left = self.dice_count - len(self.entry)
        nxt = "the other die’s face" if left == 1 and self.dice_count == 2 else (
            "the last die’s face" if left == 1 else f"the next of {left} dice")
        return f"✎ {' + '.join(map(str, self.entry))} entered: tap {nxt}"

    def status_samples(self, grace: float) -> tuple[str, ...]:
        """The longest lines the status line shows while faces are entered by hand (what
        the tray reserves room for, so the faces never move under a finger).

        >>> from rules.core import Prompt, RollRequest
        >>> m = DiceModel(); m.set_awaiting(Prompt.single("a", RollRequest.of(2, 6, "move")), "Ann")
        >>> m.status_samples(3.0)
        ('✎ 6 + 6 — committing in 3 s, tap to change', '✎ 6 entered: tap the other die’s face')
        """
        if not self.is_awaiting:
            return ()
        top = max(self.sides, 1)
        held = " + ".join([str(top)] * self.dice_count)
        entered = " + ".join([str(top)] * max(self.dice_count - 1, 1))
        left = "the other die’s face" if self.dice_count == 2 else (
            "the last die’s face" if self.dice_count < 3 else f"the next of {self.dice_count - 1} dice")
        return (f"✎ {held} — committing in {math.ceil(grace)} s, tap to change", f"✎ {entered} entered: tap {left}")

    @property
    def is_awaiting(self) -> bool:
        return self.dice_count > 0

    def _die(self, source: str) -> DieState:
        d = self.dice.get(source)
        if d is None:
            d = self.dice[source] = DieState(source)
        return d

    def on_motion(self, event: Any, at_rest_on: int | None = None) -> None:
        """A die moves. ``at_rest_on``: the face a Bluetooth die says it now lies on after
        being handled (a GoDice turned by hand, a Pixel put down): shown as turned by hand,
        never as a roll.

        >>> from types import SimpleNamespace as NS
        >>> m = DiceModel()
        >>> m.on_motion(NS(source="die:godice-a/0", state="handling"), at_rest_on=4); m.dice["die:godice-a/0"].label
        '✋ turned by hand to 4: not a roll'
        """
        d = self._die(event.source)
        if event.state == "handling" and at_rest_on is not None:
            d.state, d.value, d.note = "turned", at_rest_on, ""
            return
        d.state, d.note = event.state, ""

    def on_reading(self, event: Any) -> None:
        """A physical die came to rest: its value, shown while the Table checks and journals
        it (the roll is not applied until :meth:`on_rolled`)."""
        d = self._die(event.source)
        d.state, d.value, d.note = "checking", event.value, ""
        self.readings_seen += 1

    def on_missed(self, event: Any, now: float) -> None:
        """A hub says ``event.count`` throws of a die were made while nobody could hear it
        (unplugged, the app closed) and are gone for good (firmware_bridge ThrowsMissed).
        Never silent: the players are told, in words, what to do about it. Several gaps
        add up until the notice is cleared.

        >>> from types import SimpleNamespace as NS
        >>> m = DiceModel()
        >>> m.on_missed(NS(source="die:hub1/0", count=3), now=5.0); m.notice
        '⚠ Hub1 die 1: 3 throws made while the hub was out of reach were lost. If one of them was the roll the game needed, enter it by hand.'
        >>> m.on_missed(NS(source="die:hub1/0", count=1), now=6.0); m.notice.split(":")[1]
        ' 4 throws made while the hub was out of reach were lost. If one of them was the roll the game needed, enter it by hand.'
        """
        self._die(event.source)
        before = self._missed.get(event.source, 0) if self.notice else 0
        count = self._missed[event.source] = before + event.count
        if self.kind_of(event.source) in BLE_KINDS or event.source.partition(":")[2].startswith(BLE_KINDS):
            # A Bluetooth die cannot count what it missed: it lies on another face than when
            # it went out of reach (thrown or turned, it cannot say).
            self.notice = (f"⚠ {_cap(self.name_of(event.source))} lies on another face than when it went out of "
                           f"reach: it was thrown or turned while the app could not hear it. If that was the "
                           f"roll the game needed, enter it by hand.")
            self.notice_since = now
            return
        self.notice = (f"⚠ {_cap(self.name_of(event.source))}: {count} throw{'s' if count != 1 else ''} made while the hub was out "
                       f"of reach {'were' if count != 1 else 'was'} lost. If one of them was the roll the game "
                       f"needed, enter it by hand.")
        self.notice_since = now

    def clear_notice(self) -> None:
        self.notice = ""
        self._missed.clear()

    def on_online(self, device: str) -> None:
        """The device is heard again: its dice wait for their next move, no longer "offline".

        >>> m = DiceModel(); m.on_offline("hub1"); m.on_online("hub1"); m.dice
        {}
        >>> _ = m._die("die:hub1/0"); m.on_offline("hub1"); m.on_online("hub1"); m.dice["die:hub1/0"].label
        '· waiting'
        """
        for d in self.dice.values():
            if d.source.startswith(f"die:{device}/") and d.state == "offline":
                d.state = "unknown"

    def on_offline(self, device: str) -> None:
        for d in self.dice.values():
            if d.source.startswith(f"die:{device}/"):
                d.state = "offline"

    def on_rolled(self, event: Any, result: Any) -> None:
        """A physical die came to rest and the Table routed it (``result``: RouteResult).
        One die of a throw of several is in, not "ignored":

        >>> from types import SimpleNamespace as NS
        >>> from rules.core import Prompt, RollRequest
        >>> m = DiceModel(); m.set_awaiting(Prompt.single("a", RollRequest.of(2, 6, "move")), "Ann")
        >>> m.set_live((LiveDie("die:sim/0", "the demo die"),))
        >>> m.on_rolled(NS(source="die:sim/0", value=4), NS(accepted=None, rejected=None, ignored=None, collecting=(4,)))
        >>> m.last
        '✔ The demo die rolled 4: 1 of 2 dice in, throw the rest now'
        """
        d = self._die(event.source)
        d.value = event.value
        name = _cap(self.name_of(event.source))
        self.rolls_seen += 1
        self.pending = None  # a real die has spoken: a face tapped before it is void
        rejected = getattr(result, "rejected", None)
        if rejected is not None and rejected.code == "crooked-die":
            d.state, d.note = "crooked", rejected.message
            self.crooked = event
            self.last, self.last_ok = f"⚠ {name} leans on {event.value}: re-roll, or accept it.", False
        elif rejected is not None:
            d.state, d.note = "rejected", rejected.message
            self.last, self.last_ok = f"✖ {name} rolled {event.value}: {rejected.message}", False
        elif getattr(result, "accepted", None) is not None:
            d.state, d.note = "rolled", ""
            self.crooked = None
            self.last, self.last_ok = f"✔ {name} rolled {event.value}", True
        elif getattr(result, "collecting", ()):
            # One die of a throw of several: say how many are in and that the rest follow.
            d.state, d.note = "rolled", ""
            got = len(result.collecting)
            self.last, self.last_ok = (f"✔ {name} rolled {event.value}: {got} of {self.dice_count or got + 1} dice in, "
                                       f"throw the rest now", True)
        else:
            d.state = "rolled"
            self.last, self.last_ok = f"· {name} rolled {event.value} ({getattr(result, 'ignored', '') or 'not used'})", True

    def accept_action(self) -> Roll | None:
        """The roll to submit when the table accepts a crooked die's value."""
        if self.crooked is None or not self.seat:
            return None
        return Roll(self.seat, (self.crooked.value,), source=self.crooked.source)

    def manual(self, value: int) -> Roll | None:
        """A face tapped in the manual entry: the Roll once every die has a value. A tap
        while a roll is held starts the entry again (it changes the held roll)."""
        if not self.is_awaiting or not 1 <= value <= self.sides:
            return None
        if self.pending is not None:
            self.pending, self.entry = None, []
        self.entry.append(value)
        if len(self.entry) < self.dice_count:
            return None
        values, self.entry = tuple(self.entry), []
        return Roll(self.seat, values, source="touch")

    def note_applied(self, values: tuple[int, ...], how: str) -> None:
        self.crooked = None
        self.pending = None
        self.last, self.last_ok = f"✔ {how}: {' + '.join(map(str, values))}", True


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
