"""Input routing: physical input events become the action the engine waits for.

:class:`Router` turns (event, :class:`RouteView` of the game, device assignment) into a
:class:`~companion.results.Routed` verdict: an action to submit, a rejection, or
"collecting". It never touches the Table: the Table calls it under its lock
(``table.route(event)``), submits the action, and reports the result once.
Events are ``firmware_bridge.events`` values, read by their field names only (this module
does not import the bridge). What each does:

* ``DieRolled``: dice belong to the table. A die given to nobody (the table's die, of any
  kind: the demo hub's, a Bluetooth die, a hub's) throws for whoever must throw now; when
  several seats must throw (Outrage!'s "decide who starts"), their throws are collected in
  turn, in seat order (:func:`in_turn`). A die given to a seat (the devices panel's "Give
  to") throws for that seat only. A die the engine says is a particular seat's (a
  ``Die.owner`` that is a seat id) is thrown with that seat's own die, or with the table's
  when that seat has none. Several dice of one throw, of any kinds, are collected within
  a roll window (``ROLL_WINDOW_S`` seconds of event time); the Roll is submitted when all
  are in. A crooked die is held: re-roll it, or accept its value with
  ``table.accept_crooked()``.
* ``KeypadValue``: a die value typed in by hand (manual entry), collected like dice; the
  table's keypad enters the throw of the seat chosen with a seat button, else of the seat
  in turn.
* ``TokenPlaced``/``TokenRemoved``: a token on a slot the game's mapping file maps to a
  board entity becomes the mapped action.
* ``ButtonPressed``: a button mapped to an action ("end turn"), to the app's roller, or to a
  seat (selects the seat for the next keypad entry and the secret desk).
* Anything else (device online, motion, battery, held/released buttons) is ignored.

Every rejection is a ``Rejected(code, message)`` and changes nothing. Codes:
``roll-not-awaited``, ``wrong-dice-count``, ``crooked-die``, ``die-wrong-seat``, ``wrong-die-faces``, ``keypad-wrong-seat``, ``slot-unmapped``,
``button-unmapped``, ``ambiguous``, ``illegal`` (the engine refused; message names the
rule). A duplicate event (same boot id, source and counter) is ignored.

A game's mapping file is ``data/mappings.json`` in its engine's package (found through its
plugin: ``rules.plugin(game_id).data_file("mappings.json")``; a game without one maps nothing)::

    {"game": "<game id>",
     "slots":   {"gpio/0": {"entity": "tile:o-docks", "on_place": {"kind": "move", "tile": "o-docks"}}},
     "buttons": {"gpio/end-turn": {"does": "action", "action": {"kind": "decline"}},
                 "gpio/roll": {"does": "roll-for-me"},
                 "gpio/seat-0": {"does": "seat", "seat": 0}}}

Keys are ``<device>/<slot or button>``; ``*/<name>`` matches any device. An action template
names a ``kind`` and some fields; the seat is the one whose turn it is, and the template
must match exactly one legal action (else ``ambiguous`` or the engine's reason).
"""
from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from rules.core import POOL, Action, Die, IllegalAction, Prompt, Roll, RollRequest, Violation
from rules.core.jsondata import to_data

from .errors import CompanionError
from .results import Change, Rejected, RouteResult, Routed, rejected_from

ROLL_WINDOW_S = 4.0
DEDUP_MEMORY = 4096


class MappingError(CompanionError, ValueError):
    """A mapping file that cannot be used."""

    code = "bad-mapping"


def load_mapping(game_id: str, folder: Path | None = None) -> dict[str, Any]:
    """The game's mapping file (``folder/<game>.json`` when a folder is given, else its
    plugin's ``data/mappings.json``), or an empty mapping when the game has none."""
    path = folder / f"{game_id}.json" if folder is not None else _plugin_mapping(game_id)
    if path is None or not path.exists():
        return {"game": game_id, "slots": {}, "buttons": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise MappingError(f"{path}: {e}") from None
    return check_mapping(data, game_id, str(path))


def _plugin_mapping(game_id: str) -> Path | None:
    from rules.core.errors import UnknownGame
    from rules.registry import plugin

    try:
        return plugin(game_id).data_file("mappings.json")
    except UnknownGame:
        return None


def check_mapping(data: Any, game_id: str, where: str = "mapping") -> dict[str, Any]:
    """Validate a mapping's shape; returns it."""
    if not isinstance(data, dict) or data.get("game") != game_id:
        raise MappingError(f"{where}: not a mapping for {game_id!r}")
    for section in ("slots", "buttons"):
        if not isinstance(data.setdefault(section, {}), dict):
            raise MappingError(f"{where}: {section!r} must be an object")
    for name, m in data["slots"].items():
        if not isinstance(m, dict) or not isinstance(m.get("on_place"), dict) or "kind" not in m["on_place"]:
            raise MappingError(f"{where}: slot {name!r} needs an on_place action template with a kind")
    for section in ("slots", "buttons"):
        for name, m in data[section].items():
            # "says": what the devices panel tells the players the input does.
            if isinstance(m, dict) and not isinstance(m.get("says", ""), str):
                raise MappingError(f"{where}: {section[:-1]} {name!r}: 'says' is a sentence for the players")
    for name, m in data["buttons"].items():
        does = m.get("does") if isinstance(m, dict) else None
        if does not in ("action", "roll-for-me", "seat", "undo"):
            raise MappingError(f"{where}: button {name!r}: 'does' is action, roll-for-me, seat or undo")
        if does == "action" and not (isinstance(m.get("action"), dict) and "kind" in m["action"]):
            raise MappingError(f"{where}: button {name!r} needs an action template with a kind")
        if does == "seat" and not isinstance(m.get("seat"), int):
            raise MappingError(f"{where}: button {name!r} needs a seat position")
    return data


@dataclass
class _Window:
    """Dice of one throw coming in: the seat, the first event's time, (source, value)s."""

    seat: str
    t0: float
    dice: list[tuple[str, int]] = field(default_factory=list)


def in_turn(rollers: Iterable[str], seats: Iterable[str], collecting: str | None = None) -> tuple[str, ...]:
    """The seats that must throw now, in the order the table's dice go to them: the seat
    whose throw is being collected first, then the others in seat order. A die given to
    nobody (the table's die) throws for the first; when several seats must throw (who
    starts), their throws are collected one after another.

    >>> in_turn({"c", "a"}, ("a", "b", "c")), in_turn({"c", "a"}, ("a", "b", "c"), collecting="c")
    (('a', 'c'), ('c', 'a'))
    """
    waiting = set(rollers)
    order = [s for s in seats if s in waiting] + sorted(waiting.difference(seats))
    if collecting in waiting:
        order.remove(collecting)
        order.insert(0, collecting)
    return tuple(order)


@dataclass(frozen=True)
class RouteView:
    """What the router may know of the game when an event arrives: the prompt, the seats
    (ids in order, with the players' names), the game's title, and read-only questions
    about actions. The Table makes one per event; the router never touches the Table."""

    prompt: Prompt
    seats: tuple[str, ...]
    names: Mapping[str, str]
    title: str
    ply: int
    over: bool
    legal_of_kind: Callable[[str], Iterable[Action]]
    check: Callable[[Action], tuple[Violation, ...]]
    action_types: tuple[type, ...]
    sample: Callable[[], Action | None]
    undo_refusal: Callable[[], Any]


class Router:
    """Routes events for one Table: (event, what the game awaits, the seats, the device
    assignment) → an action to submit, a rejection, or "collecting". It keeps only what
    spans events (the dice of one roll window, a crooked die, the seat in focus, the
    events already seen); the Table calls it under its lock and submits what it returns."""

    def __init__(self, devices: Mapping[str, str], mapping: Mapping[str, Any]) -> None:
        self.devices = dict(devices)
        self.mapping = mapping
        # The throws being collected, by seat: when several seats throw at once (who
        # starts), a die given to one seat never spoils another's half-collected throw.
        self.windows: dict[str, _Window] = {}
        self.crooked: tuple[str, Any] | None = None  # (seat, event)
        self.focus_seat: str | None = None
        self._seen: OrderedDict[tuple[Any, ...], None] = OrderedDict()

    # --------------------------------------------------------------- entry point
    def route(self, event: Any, view: RouteView) -> Routed:
        self.view = view
        name = type(event).__name__
        key = self._dedup_key(event)
        if key is not None and key in self._seen:
            return Routed(RouteResult(ignored=f"duplicate: {event.source} already reported event {event.counter}"))
        handler = {
            "DieRolled": self._die, "KeypadValue": self._keypad, "TokenPlaced": self._token_placed,
            "TokenRemoved": self._token_removed, "ButtonPressed": self._button,
        }.get(name)
        if handler is None:
            return Routed(RouteResult(ignored=f"{name} is not game input"))
        if key is not None:
            self._seen[key] = None
            while len(self._seen) > DEDUP_MEMORY:
                self._seen.popitem(last=False)
        return handler(event)

    @property
    def window(self) -> _Window | None:
        """The throw being collected that began first (``None`` when none is): the one in
        turn, which the table's next die completes."""
        return min(self.windows.values(), key=lambda w: w.t0, default=None)

    def clear(self) -> None:
        self.windows.clear()
        self.crooked = None

    def settled(self, seat: str) -> None:
        """``seat``'s throw was entered another way (a face tapped, the app's roller): the
        dice collected for it so far belong to no throw any more."""
        self.windows.pop(seat, None)

    def crooked_action(self, view: RouteView) -> Roll | None:
        """The Roll that accepts the held crooked die's value (as the only or last die),
        or ``None`` when there is none or its roll is no longer awaited."""
        self.view = view
        if self.crooked is None:
            return None
        seat, ev = self.crooked
        req = self._roll_request(seat)
        if req is None:
            self.crooked = None
            return None
        w = self.windows.get(seat)
        dice = list(w.dice) if w is not None else []
        dice.append((ev.source, ev.value))
        return Roll(seat, tuple(v for _, v in dice), source=",".join(s for s, _ in dice))

    # --------------------------------------------------------------- dice
    @staticmethod
    def _dedup_key(event: Any) -> tuple[Any, ...] | None:
        counter = getattr(event, "counter", None)
        if counter is None:
            return None
        return (type(event).__name__, getattr(event, "boot_id", None), event.source, counter)

    def _rollers(self) -> dict[str, RollRequest]:
        """The seats awaiting a roll now, each with its request."""
        return dict(self.view.prompt.awaiting_of_type(RollRequest))  # type: ignore[arg-type]

    def _roll_request(self, seat: str) -> RollRequest | None:
        return self._rollers().get(seat)

    def _in_turn(self, rollers: Mapping[str, RollRequest]) -> tuple[str, ...]:
        """The seats that must throw, the one the table's dice throw for first."""
        collecting = self.window.seat if self.window is not None else None
        return in_turn(rollers, self.view.seats, collecting)

    def _next_die(self, seat: str, req: RollRequest) -> Die:
        """The die of ``req`` the next value fills (the dice come in in the request's order)."""
        w = self.windows.get(seat)
        return req.dice[min(len(w.dice) if w is not None else 0, req.count - 1)]

    def _owner(self, seat: str, spec: Die) -> str | None:
        """The seat the engine says ``spec`` belongs to, or ``None`` for a die the table
        shares (``POOL``) or one it leaves to the thrower (``""``)."""
        if spec.owner in ("", POOL) or spec.owner not in self.view.seats:
            return None
        return spec.owner

    def _has_own_dice(self, seat: str) -> bool:
        return any(src.startswith("die:") and s == seat for src, s in self.devices.items())

    def _die(self, ev: Any) -> Routed:
        rollers = self._rollers()
        if not rollers:
            return self._reject("roll-not-awaited", f"A die rolled {ev.value}, but no roll is awaited now.")
        given = self.devices.get(ev.source)
        order = self._in_turn(rollers)
        if given is not None:
            if given not in rollers:
                return self._reject("die-wrong-seat", f"That die is {self._name(given)}'s, but it is {self._who(order)}'s throw.")
            seat = given
        else:
            seat = order[0]  # the table's die: it throws for whoever must throw now, in turn
        req = rollers[seat]
        spec = self._next_die(seat, req)
        owner = self._owner(seat, spec)
        # The engine says this die is a particular seat's: only that seat's own die
        # throws it, or the table's die when that seat has none of its own.
        if owner is not None and (given not in (None, owner) or (given is None and self._has_own_dice(owner))):
            return self._reject("die-wrong-seat", f"This throw ({req.purpose}) takes {self._name(owner)}'s own die.")
        if getattr(ev, "faces", spec.sides) != spec.sides:
            return self._reject("wrong-die-faces", f"That die is a d{ev.faces}; this roll ({req.purpose}) takes a {spec}.")
        if ev.outcome == "crooked":
            self.crooked = (seat, ev)
            return self._reject("crooked-die", f"The die landed cocked (nearest face {ev.value}): re-roll it, or accept the {ev.value}.")
        if self.crooked is not None and self.crooked[1].source == ev.source:
            self.crooked = None  # the cocked die was re-rolled
        return self._collect(seat, ev.source, ev.value, ev.t, req)

    def _keypad(self, ev: Any) -> Routed:
        rollers = self._rollers()
        if not rollers:
            return self._reject("roll-not-awaited", f"{ev.value} was keyed in, but no roll is awaited now.")
        order = self._in_turn(rollers)
        seat = self.devices.get(ev.source)
        if seat is None and ev.seat is not None:
            ids = list(self.view.seats)
            seat = ids[ev.seat] if ev.seat < len(ids) else None
            if seat is None:
                return self._reject("keypad-wrong-seat", f"That keypad is for player {ev.seat + 1}, and this table has {len(ids)} players.")
        if seat is None:
            # The table's keypad: the seat chosen with a seat button, else whoever must
            # throw now, in turn.
            seat = self.focus_seat if self.focus_seat in rollers else order[0]
        if seat not in rollers:
            return self._reject("keypad-wrong-seat", f"That keypad is {self._name(seat)}'s, but it is {self._who(order)}'s throw.")
        req = rollers[seat]
        spec = self._next_die(seat, req)
        if not spec.can_show(ev.value):
            return self._reject("illegal", f"A {spec} cannot show {ev.value}.")
        return self._collect(seat, ev.source, ev.value, ev.t, req)

    def _collect(self, seat: str, source: str, value: int, t: float, req: RollRequest) -> Routed:
        for other in [s for s in self.windows if s not in self._rollers()]:
            del self.windows[other]  # that seat's throw is no longer awaited: its partial dice are moot
        w = self.windows.get(seat)
        if w is not None and t - w.t0 > ROLL_WINDOW_S:
            del self.windows[seat]
            return self._reject(
                "wrong-dice-count",
                f"Only {len(w.dice)} of {req.count} dice came to rest within {ROLL_WINDOW_S:g} s; "
                f"this roll ({req.purpose}) takes {req.count} dice thrown together. Throw them all again.")
        if w is None:
            w = self.windows[seat] = _Window(seat, t)
        if any(s == source for s, _ in w.dice) and not source.startswith("keypad:"):
            del self.windows[seat]
            return self._reject(
                "wrong-dice-count",
                f"The same die came to rest twice before the other dice of this throw came in; "
                f"this roll ({req.purpose}) takes {req.count} different dice thrown together. Throw them again.")
        w.dice.append((source, value))
        if len(w.dice) < req.count:
            return Routed(RouteResult(collecting=tuple(v for _, v in w.dice)))
        del self.windows[seat]
        roll = Roll(seat, tuple(v for _, v in w.dice), source=",".join(dict.fromkeys(s for s, _ in w.dice)))
        return self._submit(roll)

    # --------------------------------------------------------------- tokens and buttons
    def _lookup(self, section: str, device: str, name: Any) -> Mapping[str, Any] | None:
        table = self.mapping.get(section, {})
        return table.get(f"{device}/{name}") or table.get(f"*/{name}")

    def _token_placed(self, ev: Any) -> Routed:
        m = self._lookup("slots", ev.device, ev.slot)
        if m is None:
            return self._reject("slot-unmapped", f"Slot {ev.slot + 1} on {ev.device} is not mapped to anything on the {self.view.title} board.")
        return self._template(m["on_place"], f"token on slot {ev.slot + 1}", ev.source)

    def _token_removed(self, ev: Any) -> Routed:
        m = self._lookup("slots", ev.device, ev.slot)
        if m is None:
            return self._reject("slot-unmapped", f"Slot {ev.slot + 1} on {ev.device} is not mapped to anything on the {self.view.title} board.")
        if "on_remove" in m:
            return self._template(m["on_remove"], f"token off slot {ev.slot + 1}", ev.source)
        return Routed(RouteResult(ignored=f"token lifted from slot {ev.slot + 1} ({m.get('entity', ev.source)})"))

    def _button(self, ev: Any) -> Routed:
        m = self._lookup("buttons", ev.device, ev.button)
        if m is None:
            return self._reject("button-unmapped", f"Button {ev.button!r} on {ev.device} does nothing in {self.view.title}.")
        does = m["does"]
        if does == "seat":
            ids = list(self.view.seats)
            if not 0 <= m["seat"] < len(ids):
                return self._reject("button-unmapped", f"Button {ev.button!r} is for seat position {m['seat']}, and this table has {len(ids)} seats.")
            self.focus_seat = ids[m["seat"]]
            return Routed(RouteResult(ignored=f"{self.focus_seat} selected"), changes=(Change("secret", self.view.ply, self.focus_seat),))
        if does == "roll-for-me":
            action = self.view.sample() if not self.view.over else None
            if action is None:
                return self._reject("roll-not-awaited", f"Nobody needs to roll or draw now.")
            return self._submit(action, "app")
        if does == "undo":
            r = self.view.undo_refusal()
            if r is not None:
                return self._reject(r.code, f"Undo refused: {r.reason}.")
            return Routed(RouteResult(ignored="undo requested: confirm on the screen"))
        return self._template(m["action"], f"{ev.button} button", ev.source)

    def _template(self, template: Mapping[str, Any], what: str, source: str) -> Routed:
        """The one legal action matching ``template`` for the seat(s) to act."""
        kind = template["kind"]
        fields = {k: v for k, v in template.items() if k != "kind"}
        prompt = self.view.prompt
        matches = []
        # Only the template's kind is listed: routing never enumerates chance results.
        for a in self.view.legal_of_kind(kind):
            data = to_data(a)
            if all(_same(data.get(k), v) for k, v in fields.items()):
                matches.append(a)
        if len(matches) == 1:
            return self._submit(matches[0], source)
        if len(matches) > 1:
            return self._reject("ambiguous", f"The {what} fits {len(matches)} different {kind} actions now; choose on the screen.")
        # Nothing legal matches: let the engine say which rule forbids it.
        cls = next((c for c in self.view.action_types if c.kind == kind), None)
        seat = prompt.seats()[0] if prompt.actors else self.view.seats[0]
        if cls is not None:
            try:
                action = cls(seat, **{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
            except TypeError:
                action = None
            if action is not None:
                problems = self.view.check(action)
                if problems:
                    r = rejected_from(IllegalAction(problems, action))
                    return self._reject("illegal", f"The {what} means {kind}: {r.message}", r.rule)
        return self._reject("illegal", f"The {what} means {kind}, which is not possible now ({prompt}).")

    # --------------------------------------------------------------- helpers
    def _submit(self, action: Action, source: str | None = None) -> Routed:
        return Routed(action=action, source=source or action.source)

    def _reject(self, code: str, message: str, rule: str = "") -> Routed:
        return Routed(RouteResult(rejected=Rejected(code, message, rule)))

    def _name(self, seat: str) -> str:
        return self.view.names.get(seat, seat)

    def _who(self, actors: Any) -> str:
        """The seats to act, by name, in seat order."""
        return " or ".join(self._name(s) for s in in_turn(actors, self.view.seats)) or "nobody"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return list(a or []) == list(b or [])
    return a == b
