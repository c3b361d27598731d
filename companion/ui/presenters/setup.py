"""The setup wizard's model, without Kivy: game, seats and names, factions, seat order,
clocks, device assignment and the house-rule options the engine declares (each naming
its RULINGS.md entry). ``check()`` asks the engine itself, so the wizard never starts a
game the rules would refuse.

>>> m = SetupModel.for_game("stepping_stones")
>>> [(s["id"], s["faction"]) for s in m.seats]
[('fox-1', 'fox'), ('hare-1', 'hare')]
>>> m.move(0, 1); m.rename(0, "Ann"); [(s["id"], s["name"]) for s in m.named_seats()]
[('hare-1', 'Ann'), ('fox-1', 'Player 2')]
>>> m.check()
[]

A table the rules refuse is refused in the engine's words (Stepping Stones seats two):

>>> m.set_seat_count(3); m.check()
['Stepping Stones takes 2–2 seats, not 3.']
"""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import InvalidSetup, facts

from ..registry import game_screens
from .dice import live_dice

_RULING_REF = re.compile(r" \(RULINGS [^)]*\)")
STEPS = ("game", "seats", "rules", "position", "clocks", "devices", "start")
STEP_NAMES = {
    "game": "Game", "seats": "Players and seats", "rules": "House rules", "position": "The game so far",
    "clocks": "Clocks", "devices": "Dice and devices", "start": "Start",
}
# The first page's choice: start at the opening, or track a game already under way.
FROM_START, UNDER_WAY = "A new game from the start", "A game already under way"


# The empty value of an option whose value is a seat: nobody named, the app chooses.
APP_CHOOSES = "Let the app choose"


@dataclass
class OptionChoice:
    name: str
    help: str
    ruling: str
    choices: tuple[Any, ...]
    value: Any
    default: Any = None
    labels: tuple[str, ...] = ()  # each choice in players' words (a seat by its player's name)

    def label(self, value: Any) -> str:
        """``value`` as the wizard shows it.

        >>> OptionChoice("first", "", "", ("", "ann-1"), "", "", (APP_CHOOSES, "Ann")).label("ann-1")
        'Ann'
        """
        return self.labels[self.choices.index(value)] if value in self.choices and self.labels else plain_choice(value)


@dataclass
class SetupModel:
    game_id: str
    seats: list[dict[str, str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    clock: str = ""  # a preset name from companion.clocks.presets(), "" = no clocks
    devices: dict[str, str] = field(default_factory=dict)  # die source ("hub1/0") → seat id
    die_names: dict[str, str] = field(default_factory=dict)  # die source → what players call it (known_dice)
    seed: int | None = None
    step: int = 0
    joining: bool = False  # a game already under way: the "position" step asks where it stands
    # Why a game's own setup widgets (its SETUP hook) cannot give the engine a playable
    # choice, in players' words (Liberation's map cards laid out into no playable map):
    # reported by check() like the engine's, so Start stays off.
    blockers: list[str] = field(default_factory=list)
    _form: Any = field(default=None, repr=False)
    _form_key: str = field(default="", repr=False)

    @classmethod
    def for_game(cls, game_id: str) -> "SetupModel":
        m = cls(game_id)
        m.set_seat_count(m.game.min_seats)
        m.options = {o.name: o.default for o in m.game.options if o.choices}
        return m

    @property
    def game(self) -> Any:
        return rules.load(self.game_id)

    # ------------------------------------------------------------- steps

    def steps(self) -> tuple[str, ...]:
        """The wizard's pages: "position" only for a game already under way."""
        return tuple(s for s in STEPS if s != "position" or self.joining)

    def step_title(self, i: int) -> str:
        name = self.steps()[i]
        return f"{i + 1} · {STEP_NAMES[name]}"

    def can_join(self) -> bool:
        """Whether the wizard can take this game "already under way": the engine starts
        from a position *and* the form has fields for it (the game's ``position_form.json``,
        in its UI package); without them the players could enter nothing.

        >>> SetupModel.for_game("stepping_stones").can_join()
        True
        """
        from companion.positions import has_positions

        from .position_form import form_specs

        return has_positions(self.game_id) and bool(form_specs().get(self.game_id))

    def position_form(self) -> Any:
        """The form of the position being entered (``presenters.position_form``), made
        afresh from the engine's default when the seats or the options change (the
        players' names and the map it asks about)."""
        from .position_form import PositionForm

        key = json_key(self.named_seats(), self.options)
        if self._form is None or key != self._form_key:
            self._form = PositionForm(self.game_id, self.named_seats(), dict(self.options))
            self._form_key = key
        return self._form

    def position(self) -> dict[str, Any] | None:
        """The position to start from (with its private part), or None from the opening."""
        return self.position_form().to_position() if self.joining else None

    @staticmethod
    def games() -> list[tuple[str, str]]:
        """(id, title) of every game the table can play: an engine in the catalogue *and*
        a table screen (a game whose engine is still being built has no screen yet, and
        the wizard does not offer it).

        >>> ("stepping_stones", "Stepping Stones") in SetupModel.games()
        True
        """
        screens = game_screens()
        return [(g.id, g.title) for g in rules.catalog() if g.id in screens]

    # ------------------------------------------------------------- seats

    def seat_counts(self) -> list[int]:
        """The seat counts the engine accepts (its own ``check_setup`` decides: the wizard
        keeps no copy of any game's seat rules).

        >>> SetupModel.for_game("stepping_stones").seat_counts()
        [2]
        """
        return facts.seat_counts(self.game_id, self._rules_options())

    def _rules_options(self, **changed: Any) -> dict[str, Any]:
        """The house rules chosen among the wizard's choices (with ``changed``): what the
        engine is asked seat counts under. Options naming a seat are left out (the engine is
        asked on seats of its own), and so are those holding data (a map being entered)."""
        offered = {o.name: o.value for o in self.option_choices() if o.name not in seat_options(self.game_id)}
        return {**offered, **changed}

    def seat_count_notes(self) -> list[str]:
        """Why a seat count in the game's range is not offered, in the engine's words (none
        for a game that takes every count in its range); a sentence said of several counts
        is said once."""
        # Players read these: the engine's ruling reference ("(RULINGS S-02)") is for referees.
        refusals = sorted(facts.seat_refusals(self.game_id, self._rules_options()).items())
        return list(dict.fromkeys(_RULING_REF.sub("", why) for _, why in refusals))

    def seat_count_options(self) -> list[OptionChoice]:
        """The house rules that change which seat counts the engine accepts (a table that
        brings its own pieces seats more players): the wizard offers them beside the seat
        choice. Found by asking the engine under each of their values; none is named here.

        >>> [o.name for o in SetupModel.for_game("stepping_stones").seat_count_options()]
        []
        """
        counts = self.seat_counts()
        return [o for o in self.option_choices() if o.name not in seat_options(self.game_id)
                and any(facts.seat_counts(self.game_id, self._rules_options(**{o.name: c})) != counts
                        for c in o.choices if c != o.value)]

    def set_seat_count(self, n: int) -> None:
        old = self.seats
        factions = self.game.factions or ("player",)
        seats = []
        count: dict[str, int] = {}
        for i, f in zip(range(n), itertools.cycle(factions)):
            count[f] = count.get(f, 0) + 1
            name = old[i]["name"] if i < len(old) else ""
            seats.append({"id": f"{f}-{count[f]}", "faction": f, "name": name})
        self.seats = seats
        self._renumber()

    def rename(self, i: int, name: str) -> None:
        self.seats[i]["name"] = name.strip()[:24]

    def set_faction(self, i: int, faction: str) -> None:
        if faction not in self.game.factions:
            raise ValueError(f"{faction!r} is not a faction of {self.game.title}")
        self.seats[i]["faction"] = faction
        self._renumber()

    def move(self, i: int, delta: int) -> None:
        """Move seat ``i`` earlier (-1) or later (+1) in the turn order."""
        j = i + delta
        if 0 <= j < len(self.seats):
            self.seats[i], self.seats[j] = self.seats[j], self.seats[i]
            self._renumber()

    def _renumber(self) -> None:
        # Seat ids follow faction and order ("cops-1", "criminals-1"…): stable, readable in logs.
        old = [s["id"] for s in self.seats]
        count: dict[str, int] = {}
        for s in self.seats:
            count[s["faction"]] = count.get(s["faction"], 0) + 1
            s["id"] = f"{s['faction']}-{count[s['faction']]}"
        # An option naming a seat follows that seat to its new id; a seat gone, back to the default.
        moved = {o: s["id"] for o, s in zip(old, self.seats)}
        for o in self.game.options:
            if o.name in self.options and o.name in seat_options(self.game_id):
                value = self.options[o.name]
                self.options[o.name] = moved.get(value, value if value in moved.values() else o.default)

    def named_seats(self) -> list[dict[str, str]]:
        """Seats with a name for everyone (an empty name becomes "Player N")."""
        return [dict(s, name=s["name"] or f"Player {i + 1}") for i, s in enumerate(self.seats)]

    # ----------------------------------------------------------- options

    def option_choices(self) -> list[OptionChoice]:
        """The options the wizard offers: each one with declared choices, each yes/no one
        (a boolean), and each one whose value is a seat (``seat_options``), offered by the
        players' names. Options holding data (a map, a card set) are set elsewhere."""
        names = {s["id"]: s["name"] for s in self.named_seats()}
        out = []
        for o in self.game.options:
            if o.choices:
                choices, labels = tuple(o.choices), tuple(plain_choice(c) for c in o.choices)
            elif type(o.default) is bool:
                choices, labels = (False, True), ("No", "Yes")
            elif o.name in seat_options(self.game_id):
                choices, labels = (o.default, *names), (APP_CHOOSES, *names.values())
            else:
                continue
            out.append(OptionChoice(o.name, o.help, o.ruling, choices, self.options.get(o.name, o.default), o.default, labels))
        return out

    def set_option(self, name: str, value: Any) -> None:
        offered = {o.name: o for o in self.option_choices()}
        opt = offered.get(name) or {o.name: o for o in self.game.options}[name]
        if opt.choices and value not in opt.choices:
            raise ValueError(f"option {name} takes one of {opt.choices}")
        self.options[name] = value
        counts = self.seat_counts()
        if counts and len(self.seats) not in counts:
            # The rule now seats fewer (the table's own pieces taken back): the largest table it allows.
            self.set_seat_count(max((n for n in counts if n < len(self.seats)), default=counts[0]))

    # ------------------------------------------------------------ clocks

    @staticmethod
    def clock_presets() -> list[tuple[str, str]]:
        """(preset name, what it means in plain words); ("", …) is no clocks."""
        from companion.clocks import presets

        return [("", "No clocks: play at your own pace")] + [(name, explain_clock(cfg)) for name, cfg in presets().items()]

    def clock_config(self) -> Any:
        if not self.clock:
            return None
        from companion.clocks import presets

        return presets()[self.clock]

    # ----------------------------------------------------------- devices

    def known_dice(self, devices: Any) -> list[tuple[str, str]]:
        """Every die the devices panel knows (``devices``: its model), as (source, name):
        the source the wizard gives to a seat ("pixels-de4000/0") and what players call
        it, named as the dice tray names it (``presenters/dice.py`` ``live_dice``: a
        Bluetooth die by its own name or colour, a hub's die by its number), never its
        address. The names are kept for the start page's summary.

        >>> from types import SimpleNamespace as NS
        >>> devs = NS(devices={"godice-02": NS(device="godice-02", online=True, kind="godice", dice={0})},
        ...           links={}, statuses={"godice-02": NS(name="GoDice_02_K_v04", color="blue")})
        >>> SetupModel("stepping_stones").known_dice(devs)
        [('godice-02/0', 'The blue GoDice')]
        """
        if devices is None:
            return []
        out = []
        for d in live_dice(devices, {}, online_only=False):
            source = d.source.removeprefix("die:")
            name = d.name[:1].upper() + d.name[1:]
            self.die_names[source] = name
            out.append((source, name))
        return out

    def assign(self, die: str, seat: str) -> None:
        """Give the die ``die`` to ``seat`` ("" = any seat may roll it)."""
        if seat:
            self.devices[die] = seat
        else:
            self.devices.pop(die, None)

    # ------------------------------------------------------------- check

    def check(self) -> list[str]:
        """Every reason the engine would refuse this setup (empty: ready to start)."""
        try:
            self.game.new(self.named_seats(), dict(self.options), seed=0)
        except InvalidSetup as e:
            return list(self.blockers) + [v.message for v in e.violations]
        if self.blockers:
            return list(self.blockers)
        if self.joining:
            # The engine checks the position too; secrets are never quoted here.
            return self.position_form().problem_lines()
        return []

    def summary(self) -> list[str]:
        """The start page's lines, in players' words (names, not seat ids; no option ids or
        ruling codes)."""
        factions = facts.factions(self.game_id)  # "Bingmai Gamblers", not "bingmai"
        lines = [f"{self.game.title}: " + ", ".join(
            f"{s['name']} ({factions[s['faction']].name if s['faction'] in factions else s['faction']})"
            for s in self.named_seats())]
        if self.joining:
            lines.append("A game already under way, joined where it stands:")
            lines.extend("  " + line for line in self.position_form().summary())
        for o in self.option_choices():
            lines.append(f"{o.help} → {o.label(o.value)}")
        lines.append("Clocks: " + (self.clock or "none"))
        names = {s["id"]: s["name"] for s in self.named_seats()}
        if self.devices:
            lines.append("Dice: " + ", ".join(f"{self.die_names.get(d, d)} → {names.get(s, s)}"
                                              for d, s in sorted(self.devices.items())))
        else:
            lines.append("Dice: any die may roll for whoever the game waits for")
        return lines


@functools.cache
def seat_options(game_id: str) -> frozenset[str]:
    """The options whose value is one of the seats (Dicetopia's first player), asked of the
    engine's own ``check_setup`` as ``facts.seat_counts`` asks it about seat counts: a text
    option without choices that the engine accepts set to each of its default seats' ids
    and refuses set to anything else. The wizard keeps no list of them."""
    from rules.core.seats import parse_seats

    game = rules.load(game_id)
    seats = parse_seats(game.default_seats())
    defaults = game.resolve_options({})

    def refusals(name: str, value: str) -> set[str]:
        return {v.message for v in game.check_setup(seats, dict(defaults, **{name: value}))}

    found = set()
    for o in game.options:
        if o.choices or not isinstance(o.default, str):
            continue
        base = refusals(o.name, o.default)
        if all(refusals(o.name, s.id) <= base for s in seats) and refusals(o.name, "\u2063not a seat") - base:
            found.add(o.name)
    return frozenset(found)


def json_key(*values: Any) -> str:
    import json

    return json.dumps(values, sort_keys=True, default=str)


def explain_clock(cfg: Any) -> str:
    """A clock preset in plain words, for the wizard.

    >>> from companion.clocks import presets
    >>> p = presets()
    >>> explain_clock(p["Blitz 5+3"])
    'Fischer: 5:00 each, +3 s after each move. Out of time loses.'
    >>> explain_clock(p["Byo-yomi 10 min + 5 × 30 s"])
    'Byo-yomi: 10:00 each, then 5 periods of 0:30; a move inside a period keeps it. Out of time loses.'
    >>> explain_clock(p["Turn timer 2:00 only"])
    'No game clock; each turn at most 2:00.'
    """
    from companion.clocks import format_time

    mode = cfg.mode.value
    main = format_time(cfg.main)
    said = {
        "untimed": "No game clock",
        "sudden-death": f"Sudden death: {main} each for the whole game",
        "fischer": f"Fischer: {main} each, +{cfg.increment:g} s after each move",
        "bronstein": f"Bronstein: {main} each; each move gets back the time it took, up to {cfg.delay:g} s",
        "simple-delay": f"Delay: {main} each; the clock waits {cfg.delay:g} s before it starts each turn",
        "hourglass": f"Hourglass: {main} each; the time you use is added to the others",
        "byo-yomi": f"Byo-yomi: {main} each, then {cfg.periods} periods of {format_time(cfg.period)}; a move inside a period keeps it",
        "canadian": f"Canadian: {main} each, then {cfg.period_moves} moves in every {format_time(cfg.period)}",
    }.get(mode, cfg.describe())
    if cfg.turn_limit is not None:
        said += f"; each turn at most {format_time(cfg.turn_limit)}"
    if mode != "untimed":
        said += {"loss": ". Out of time loses", "none": ". Out of time: play on",
                 "penalty": f". {cfg.penalty_per_minute} penalty point{'s' if cfg.penalty_per_minute != 1 else ''} per minute over"
                 }.get(cfg.overtime.value, "")
    return said + "."


def plain_choice(value: Any) -> str:
    """An option's value as the wizard shows it.

    >>> plain_choice("criminals-gain"), plain_choice("up-to"), plain_choice(3)
    ('Criminals gain', 'Up to', '3')
    """
    text = str(value).replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]
