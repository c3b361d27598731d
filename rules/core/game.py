"""The game contract every engine keeps, and the checked-apply machinery around it.

A game is a declarative object: its seats and factions, its options, its action kinds and
a handful of hooks (``setup``, ``ask``, ``violations``, ``execute``, ``candidates``,
``render``). The kernel turns those into the public grammar::

    state = game.new(seats, options, seed)   # a fresh game
    game.prompt(state)                       # who must act, and what is awaited
    game.check(state, action)                # every violation, or ()
    game.push(state, action)                 # checked, in place
    state2 = game.apply(state, action)       # checked, returns a new state
    action in game.legal_actions(state)      # lazy listing
    game.view(state, viewer)                 # PUBLIC or a seat; secrets stripped
    game.outcome(state)                      # None or an Outcome

A rejected action raises :class:`IllegalAction` carrying every violation found and leaves
the state as it was: all checks read the state, and only ``execute`` writes it.
"""
from __future__ import annotations

import copy
import itertools
import operator
import reprlib
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Hashable, Iterable, Iterator, Sequence, TypeVar

from .actions import Action, Draw, Roll, bad_fields, input_check
from .errors import IllegalAction, InvalidSetup, NoPositions, UnknownSource, Violation
from .log import LogEntry, visible_log
from .outcome import Outcome
from .prompt import DrawRequest, Prompt, RollRequest
from .rng import Rng
from .seats import PUBLIC, Seat, parse_seats
from .text import Term, Text, t, tn
from .jsondata import from_data, to_data
from .zones import Deck, next_pile, swap_into


@dataclass(kw_only=True)
class State:
    """Fields every game state has. A game subclasses it (``@dataclass(kw_only=True)``)
    and registers the subclass with ``@serializable``; a subclass that defines
    ``__post_init__`` must call ``super().__post_init__()``.

    ``phase`` names the step of the game's turn structure the state is in (one of the
    game's declared :attr:`Game.declared_steps`); ``sealed`` lists the plies of secret commits not
    yet revealed (the kernel adds them; the game's :meth:`Game.reveal` clears them)."""

    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    rng: Rng
    ply: int = 0
    phase: str = ""
    log: list[LogEntry] = field(default_factory=list)
    result: Outcome | None = None
    sealed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Not fields: derived, so neither serialised nor compared.
        self._seat_ids = frozenset(s.id for s in self.seats)
        # Players' names by seat id, for log lines and messages.
        self._names = _Names({s.id: s.label for s in self.seats})
        # The prompt of ply ``_prompt_ply`` (-1: none yet).
        self._prompt_ply = -1
        self._prompt: Any = None
        # Prompts of steps that declare what they depend on (``@step(depends=...)``), by
        # (phase, those values): reused across plies, for this state's seats and options.
        self._prompts: dict[Any, Any] = {}
        # What the step derived for this ply (``@step(derive=...)``): the ply and phase it
        # was derived at (-1: none) and the value.
        self._derived_ply = -1
        self._derived_phase = ""
        self._derived: Any = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        # Field by field as deepcopy would, but the ply's derived value is shared: it is
        # never written (Game.derived), and may be a read-only mapping, which cannot be copied.
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        mine = new.__dict__
        for k, v in self.__dict__.items():
            mine[k] = v if k == "_derived" else copy.deepcopy(v, memo)
        return new

    def changed(self) -> None:
        """Forget the prompts and derived values cached for this state: call after editing a
        state by hand (tests building a position field by field); actions never need it."""
        self._prompt_ply = -1
        self._prompt = None
        self._derived_ply = -1
        self._derived = None
        self._prompts.clear()

    def seat(self, seat_id: str) -> Seat:
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(seat_id)

    def seat_ids(self) -> list[str]:
        return [s.id for s in self.seats]

    def faction_of(self, seat_id: str) -> str:
        return self.seat(seat_id).faction

    def seat_name(self, seat_id: str) -> str:
        """The seat's player name (its id when none was given; an unknown id is returned
        as it is): for log lines."""
        return self._names[seat_id]

    def note(self, text: "Text | str", seat: str | None = None, to: Sequence[str] | None = None) -> None:
        """Write to the game log; ``to`` limits who may read the entry. ``text`` is a
        :class:`~rules.core.text.Text` (:func:`~rules.core.text.t`), worded in the
        reader's language at display time; a plain string is English for every reader."""
        self.log.append(LogEntry(self.ply, text, seat, None if to is None else tuple(to)))


class _Names(dict[str, str]):
    """Players' names by seat id; an id with no entry stands for itself."""

    def __missing__(self, seat_id: str) -> str:
        return seat_id


S = TypeVar("S", bound=State)

AS_DEFAULT: Any = type("AsDefault", (), {"__repr__": lambda self: "AS_DEFAULT"})()
"""``Option.saved_without`` when a game saved without the option is played under its default."""


@dataclass(frozen=True)
class Option:
    """A setup option, usually a house rule documented in the game's RULINGS.md."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    ruling: str = ""  # the RULINGS.md entry it implements
    # The value a game journaled before this option existed was played under (its
    # options were resolved without it); AS_DEFAULT: the option's default.
    saved_without: Any = field(default_factory=lambda: AS_DEFAULT)

    def check(self, value: Any) -> Violation | None:
        if self.choices and value not in self.choices:
            return Violation(
                "bad-option",
                "Setup",
                t("Option {name} must be one of {choices}, not {value}.", name=repr(self.name),
                  choices=", ".join(map(repr, self.choices)), value=reprlib.repr(value)),
            )
        if not self.choices and type(value) is not type(self.default):
            return Violation(
                "bad-option",
                "Setup",
                t("Option {name} takes a {kind}, not {value}.", name=repr(self.name), kind=type(self.default).__name__,
                  value=reprlib.repr(value)),
            )
        return None


Depends = tuple[str, ...] | Callable[[Any], Hashable] | None
"""What a step's prompt depends on: state attribute names, or a function of the state."""

Derive = str | Callable[[Any], Any] | None
"""What a step works out once per ply for its prompt, its checks and its effect: the name
of a game method taking the state, or a function of the state."""


@dataclass(frozen=True)
class Step:
    """One step of a game's turn structure: its ``name`` (the state's ``phase``), whether
    the seats' clocks run during it (``timed``: setup steps such as dealing are not), the
    rulebook section it follows (``rule``, cited when an action comes at the wrong step),
    what its prompt depends on (``depends``, see :func:`step`) and what it works out once
    per ply (``derive``, see :meth:`Game.derived`)."""

    name: str
    timed: bool = True
    rule: str = ""
    depends: Depends = None
    derive: Derive = None

    def key(self) -> Callable[[Any], Hashable] | None:
        """The function of a state that, with the phase, decides this step's prompt, or
        ``None`` when the step declares nothing (its prompt is then built every ply)."""
        dep = self.depends
        if dep is None:
            return None
        if callable(dep):
            return dep
        if isinstance(dep, str) or not all(isinstance(d, str) and d for d in dep):
            raise TypeError(f"step {self.name!r}: depends must be a tuple of state attribute names, or a function of the state")
        # Nothing declared but the step itself: the phase (always the same here) is the key.
        return operator.attrgetter(*dep) if dep else operator.attrgetter("phase")


def step(name: str, *, timed: bool = True, rule: str = "", depends: Depends = None,
         derive: Derive = None) -> Callable[[Callable[..., Prompt]], Callable[..., Prompt]]:
    """Declare a method as the prompt of step ``name``: ``@step("move")`` on
    ``def ask_move(self, state) -> Prompt``. The kernel's :meth:`Game.ask` calls the
    method of the state's ``phase``.

    ``depends`` (optional) says what the prompt depends on besides the state's seats and
    options, which never change: a tuple of state attribute names (dotted paths such as
    ``"deck.reshuffles"`` allowed; their values must be hashable), or a function of the
    state returning a hashable key. The kernel then builds the step's prompt once per
    distinct key and reuses it on later plies, instead of calling the method on every
    ply: ``@step("move", depends=("actor",))`` when the prompt only names the acting
    seat. Declaring too little is a bug the harness finds (it compares the reused prompt
    with a fresh one at every step); declaring nothing is always correct.

    ``derive`` (optional) names what the step works out that its prompt, the game's checks
    and its effect all need (the squares a move may reach): a game method's name or a
    function of the state. :meth:`Game.derived` then works it out once per ply (once per
    ``depends`` key, when the step declares one) instead of three times.
    """

    spec = Step(name, timed, rule, depends, derive)
    spec.key()  # a malformed declaration fails here, where the game is defined
    if derive is not None and not (callable(derive) or (isinstance(derive, str) and derive)):
        raise TypeError(f"step {name!r}: derive must be a game method's name or a function of the state")

    def mark(fn: Callable[..., Prompt]) -> Callable[..., Prompt]:
        fn.__step__ = spec  # type: ignore[attr-defined]
        return fn

    return mark


class Game(Generic[S]):
    """Base of every engine. Subclasses fill in the class attributes and the hooks."""

    id: ClassVar[str]
    title: ClassVar[str]
    rulebook: ClassVar[str] = ""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    factions: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    action_types: ClassVar[tuple[type[Action], ...]] = ()
    # Rulebook sections the kernel cites in its own violations.
    turn_rule: ClassVar[str] = "Turn order"
    dice_rule: ClassVar[str] = "Contents"
    cards_rule: ClassVar[str] = "Contents"
    # The steps declared with @step, by name (filled in per subclass).
    declared_steps: ClassVar[dict[str, Step]] = {}
    _step_methods: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        steps: dict[str, Step] = {}
        methods: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                spec = getattr(fn, "__step__", None)
                if isinstance(spec, Step):
                    steps[spec.name] = spec
                    methods[spec.name] = attr
        cls.declared_steps = steps
        cls._step_methods = methods

    def __init__(self) -> None:
        self._types = frozenset(self.action_types)
        # Each action class's compiled typed-input check, looked up once per check.
        self._input_ok = {c: input_check(c) for c in self.action_types}
        self._asks = {name: getattr(self, attr) for name, attr in self._step_methods.items()}
        # The key functions of steps that declare what their prompt depends on.
        self._prompt_keys = {name: k for name, spec in self.declared_steps.items() if (k := spec.key()) is not None}
        # Each step's derive function (a function of the state), for steps that declare one.
        self._derive_of = {name: getattr(self, f) if isinstance(f, str) else f
                          for name, spec in self.declared_steps.items() if (f := spec.derive) is not None}
        # A game that overrides ask() gets it called on every ply; otherwise the kernel
        # looks the step up itself (and reuses prompts whose step declares ``depends``).
        self._own_ask = type(self).ask is not Game.ask

    # ------------------------------------------------------------------ hooks

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> S:
        """Make the initial state. ``seats`` and ``options`` are already validated."""
        raise NotImplementedError

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterable[Violation]:
        """Game-specific setup checks (factions, seat order…)."""
        return ()

    def ask(self, state: S) -> Prompt:
        """Who must act and what each awaits, for a game that is not over. By default the
        prompt of the state's step (a method declared with :func:`step`)."""
        fn = self._asks.get(state.phase)
        if fn is None:
            raise AssertionError(f"{self.id}: no step is declared for phase {state.phase!r}")
        return fn(state)

    def violations(self, state: S, action: Action, prompt: Prompt) -> Iterable[Violation]:
        """Game rules broken by ``action``. Called only for a kind the acting seat awaits,
        with well-typed fields; must not write to ``state``."""
        return ()

    def explain(self, state: S, action: Action, prompt: Prompt) -> Iterable[Violation]:
        """Why ``action``'s kind is not on offer now, in the game's terms ("paying to
        escape costs 200 influence; you have 150"), for an action the seat may not take.
        Must never reveal another seat's secret. By default nothing beyond the kernel's
        "not awaited"."""
        return ()

    def execute(self, state: S, action: Action) -> None:
        """Apply a legal action to ``state`` in place."""
        raise NotImplementedError

    def candidates(self, state: S, prompt: Prompt) -> Iterable[Action]:
        """Actions that may be legal now, other than rolls and draws (which the kernel
        lists). The kernel keeps only those that pass :meth:`check`."""
        return ()

    def render(self, state: S, viewer: str) -> dict[str, Any]:
        """The game-specific part of a view, with ``viewer``'s secrets only."""
        return {}

    def secrets(self, state: S, viewer: str) -> Iterable[str]:
        """Strings ``viewer`` must never see (hidden card ids, the secret base…): the
        harness's leak check, never a redaction mechanism."""
        return ()

    def public_action(self, state: S, action: Action, viewer: str = PUBLIC, ply: int | None = None) -> dict[str, Any]:
        """What ``viewer`` may see of ``action`` (journaled at ``ply``) in ``state``, as
        JSON data. By default: a secret commit still sealed shows only who committed; an
        action's ``hidden_fields`` (e.g. the card a Draw put in a hand) are left out for
        every viewer but the acting seat until the game is over."""
        data = to_data(action)
        if viewer == action.seat or state.result is not None:
            return data
        if action.secret and (ply is None or ply in state.sealed):
            return {"$": data["$"], "seat": action.seat, "sealed": True}
        for name in getattr(action, "hidden_fields", ()):
            data.pop(name, None)
        return data

    def hidden_variant(self, state: S, viewer: str, rng: Rng) -> S | None:
        """A copy of ``state`` that differs only in something ``viewer`` may not see (a
        hidden card swapped with another, a sealed choice changed), or ``None`` when
        nothing is hidden from ``viewer`` now. The harness's differential secret check
        compares what ``viewer`` sees of both: any difference is a leak, whatever the
        strings involved. :func:`swap_hidden` does the usual swap."""
        return None

    def tracked(self, state: S) -> dict[str, int]:
        """Public values worth charting and exporting turn by turn (influence, escalation,
        scores, deck count…). Must never include a secret."""
        return {}

    def undo_barrier(self, state: S, action: Action) -> str | None:
        """Why ``action`` (about to be applied to ``state``) may never be undone, or
        ``None``. Undo never crosses a chance result that was shown (a throw seen is never
        re-rolled, a card drawn is never put back) or a revealed secret; games add their
        own reveals."""
        if isinstance(action, Roll):
            return "the dice were rolled and everyone saw the result"
        if isinstance(action, Draw):
            return "a card was drawn"
        if action.secret:
            return "a secret choice was made"
        return None

    def position(self, state: S) -> dict[str, Any]:
        """The game's public position: plain JSON (no ``$`` tags) holding only what the
        table sees on the physical board and what the players tell the app; hidden cards
        are counts. It describes the start of the current seat's turn, a step the kernel
        resumes from. Raises :class:`NoPositions` if the game has none, or if ``state`` is
        not at a turn's start."""
        raise NoPositions(f"{self.title} has no positions.")

    def from_position(self, seats: list[Seat], options: dict[str, Any], position: dict[str, Any], rng: Rng, seed: int) -> S:
        """Make the state ``position`` describes (seats and options already validated).
        Raises :class:`InvalidSetup` with one :class:`Violation` per problem, each naming
        the field path (``pieces.cop-1.tile: no tile 'x'``)."""
        raise NoPositions(f"{self.title} cannot start from a position.")

    def problems(self, state: S) -> Iterable[str]:
        """Broken invariants (cards not conserved, a track out of bounds…): for tests."""
        return ()

    # What players call the game's pieces: the app's join form and its messages ask the
    # game, and no shared code knows a game's board or cards (rules/README.md "Writing a game").
    # The choice sources whose items follow the position being entered (a card's tokens
    # exist while it is in play): a form asks them anew after every change.
    live_sources: ClassVar[frozenset[str]] = frozenset()

    def names(self, options: dict[str, Any]) -> dict[str, str]:
        """id → the name players use, for everything a player may name (squares, cities,
        cards, prisons), read from the game's data for these options (a table's own board)."""
        return {}

    def choices(self, source: str, options: dict[str, Any], seats: Sequence[Any],
                position: Any = None) -> list[tuple[Any, str]]:
        """What a position form offers for ``source``: ``[(value, words)]``. ``seats`` are
        the seats as mappings (``id``, ``faction``, ``name``); ``position`` the position being
        entered, the form's own questions under ``"ask"`` (for the :attr:`live_sources`). Every
        game knows "seats" (by name) and "faces" (a six-sided die's); raises
        :class:`UnknownSource` for a source the game does not offer.

        >>> from rules.core.game import Game
        >>> Game.choices(Game(), "faces", {}, [])[-1], Game.choices(Game(), "seats", {}, [{"id": "a", "name": "Ann"}])
        ((6, '6'), [('a', 'Ann')])
        """
        if source == "seats":
            return [(s["id"], s.get("name") or s["id"]) for s in seats]
        if source == "faces":
            return [(n, str(n)) for n in range(1, 7)]
        raise UnknownSource(f"{getattr(self, 'title', type(self).__name__)} offers no choices called {source!r}.")

    def default_seats(self) -> list[Seat]:
        """The seats a quick game starts with: the fewest the game allows, factions alternating."""
        return [Seat(f"{f}-{i}", f) for i, f in zip(range(1, self.min_seats + 1), itertools.cycle(self.factions))]

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        """Seats and options for a random game, for the playout harness."""
        return self.default_seats(), {}

    def deck(self, state: S, name: str) -> Deck:
        """The deck a draw request names; by default ``state.decks[name]``."""
        return state.decks[name]  # type: ignore[attr-defined]

    def is_timed(self, state: S) -> bool:
        """Whether the seats' clocks run in this state's step (setup steps are untimed)."""
        spec = self.declared_steps.get(state.phase)
        return spec.timed if spec is not None else True

    # ------------------------------------------------------------- public API

    def new(
        self,
        seats: Iterable[Seat | dict[str, Any] | tuple[str, str]],
        options: dict[str, Any] | None = None,
        seed: int = 0,
        position: dict[str, Any] | None = None,
    ) -> S:
        """Start a game, from the opening or from ``position`` (see :meth:`position`).
        Raises :class:`InvalidSetup` naming every problem, :class:`NoPositions` if the
        game has no positions."""
        seat_list = parse_seats(seats)
        opts = self.resolve_options(options or {})
        problems: list[Violation] = []
        if not self.min_seats <= len(seat_list) <= self.max_seats:
            problems.append(
                Violation(
                    "seat-count",
                    "Setup",
                    t("{game} takes {low}–{high} seats, not {n}.", game=Term(self.title), low=self.min_seats, high=self.max_seats, n=len(seat_list)),
                )
            )
        for s in seat_list:
            if self.factions and s.faction not in self.factions:
                problems.append(
                    Violation("unknown-faction", "Setup", t("{faction} is not a faction of {game} ({factions}).", faction=repr(s.faction),
                                                           game=Term(self.title), factions=", ".join(self.factions)))
                )
        if not problems:
            problems.extend(self.check_setup(seat_list, opts))
        if problems:
            raise InvalidSetup(problems)
        if position is not None:
            if not isinstance(position, dict):
                raise InvalidSetup([Violation("bad-position", "Setup", t("position: must be a JSON object."))])
            return self.from_position(seat_list, opts, position, Rng(seed), seed)
        return self.setup(seat_list, opts, Rng(seed), seed)

    def saved_options(self, stored: dict[str, Any]) -> dict[str, Any]:
        """The options of a game journaled earlier: those it was saved with, and for each
        option added since, the value such a game was played under (``saved_without``).

        >>> from rules.core.game import Game, Option
        >>> class G(Game):
        ...     options = (Option("a", 1), Option("b", False, saved_without=True))
        >>> G().saved_options({"a": 2})
        {'a': 2, 'b': True}
        """
        out = dict(stored)
        for o in self.options:
            if o.name not in out:
                out[o.name] = o.default if o.saved_without is AS_DEFAULT else o.saved_without
        return out

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise InvalidSetup([Violation("bad-option", "Setup", t("Options must be a JSON object of name → value."))])
        known = {o.name: o for o in self.options}
        problems = [
            Violation("unknown-option", "Setup", t("{game} has no option {option}.", game=Term(self.title), option=repr(k))) for k in options if k not in known
        ]
        resolved = {}
        for o in self.options:
            value = options.get(o.name, o.default)
            bad = o.check(value)
            if bad:
                problems.append(bad)
            resolved[o.name] = value
        if problems:
            raise InvalidSetup(problems)
        return resolved

    def prompt(self, state: S) -> Prompt:
        """Who must act and what each awaits. Cached per ply: a prompt is built once per
        position however often it is read (check, listing, views); a step that declares
        what its prompt depends on (``@step(depends=...)``) has it reused across plies,
        so no game needs a fast path of its own."""
        if state._prompt_ply == state.ply:
            return state._prompt  # type: ignore[no-any-return]
        if state.result is not None:
            p = Prompt.game_over()
        elif self._own_ask:
            p = self.ask(state)
        else:
            phase = state.phase
            fn = self._asks.get(phase)
            if fn is None:
                p = self.ask(state)  # says which phase has no step
            else:
                p = self._per_step(state, phase, fn, "prompt")
        state._prompt_ply = state.ply
        state._prompt = p
        return p

    def _per_step(self, state: S, phase: str, fn: Callable[[S], Any], what: str) -> Any:
        """``fn(state)``, the step's prompt or derived value (``what``): worked out anew, or,
        for a step that declares what it depends on (``@step(depends=...)``), once per
        distinct key and then reused on later plies of the same game (kept in the state,
        at most 256 of them)."""
        key = self._prompt_keys.get(phase)
        if key is None:
            return fn(state)
        k = (phase, key(state), what)
        memo = state._prompts
        if k in memo:
            return memo[k]
        if len(memo) >= 256:
            memo.clear()
        value = memo[k] = fn(state)
        return value

    def derived(self, state: S) -> Any:
        """What the state's step works out once per ply for its prompt, the game's checks
        and its effect (``@step(derive=...)``): the squares a move may reach, say, read by
        the prompt (is a move possible?), by ``violations`` (is this square one of them?)
        and by ``execute`` (its route) without working them out three times.

        Worked out on the first call of a ply and kept until the ply moves on (for a step
        that declares ``depends``, kept per key and reused on later plies, as its prompt
        is). Like the prompt of the ply, the value describes the state as the action
        found it: an effect reads it before it writes to the state, and nobody changes it
        (the harness compares it with :meth:`fresh_derived` at every step). ``None`` for a
        step that declares none."""
        phase = state.phase
        if state._derived_ply == state.ply and state._derived_phase == phase:
            return state._derived
        fn = self._derive_of.get(phase)
        if fn is None:
            return None
        value = self._per_step(state, phase, fn, "derived")
        state._derived_ply = state.ply
        state._derived_phase = phase
        state._derived = value
        return value

    def fresh_derived(self, state: S) -> Any:
        """The step's derived value worked out anew, nothing cached or reused: what
        :meth:`derived` must always equal (the harness compares them at every step)."""
        fn = self._derive_of.get(state.phase)
        return None if fn is None else fn(state)

    def fresh_prompt(self, state: S) -> Prompt:
        """The prompt built anew, no cache or reuse involved: what :meth:`prompt` must
        always equal (the harness compares them at every step)."""
        return Prompt.game_over() if state.result is not None else self.ask(state)

    def check(self, state: S, action: Action) -> tuple[Violation, ...]:
        """Every rule ``action`` breaks in ``state``; empty when it is legal. Malformed
        input (a wrong type, ``None``, a float die face, a huge int) is a ``bad-action``
        violation naming the field, found before any rule is looked at."""
        if state.result is not None:
            return (Violation("game-over", "Winning", t("The game is over: {reason}.", reason=state.result.words or state.result.reason)),)
        cls = type(action)
        ok = self._input_ok.get(cls)
        if ok is None:
            name = cls.__name__ if isinstance(action, Action) else repr(action)[:60]
            return (Violation("unknown-action", "Actions", t("{game} has no action {action}.", game=Term(self.title), action=repr(name))),)
        if not ok(action):
            bad = bad_fields(action)
            if bad:
                return bad
        prompt = self.prompt(state)
        awaiting = prompt.waits.get(action.seat)
        if awaiting is None or action.kind not in awaiting.accepted:
            return self._refusal(state, action, prompt, awaiting)
        # The seat may take this kind now: the dice and the card are checked against what
        # was asked for, then the game's own rules.
        if isinstance(action, Roll) and isinstance(awaiting, RollRequest):
            # A roll of the request's shape needs no die-by-die look (RollRequest.fits);
            # any other goes die by die, which finds the violations in their order.
            if not awaiting.fits(action.values, action.ids):
                problems = tuple(self._check_roll(action, awaiting))
                if problems:
                    return problems
        elif isinstance(action, Draw) and isinstance(awaiting, DrawRequest):
            problems = tuple(self.check_draw(state, action, awaiting))
            if problems:
                return problems
        return tuple(self.violations(state, action, prompt))

    def _refusal(self, state: S, action: Action, prompt: Prompt, awaiting: Any) -> tuple[Violation, ...]:
        """Every violation of an action whose seat may not act now, or not with its kind."""
        seat, kind = action.seat, action.kind
        if seat not in state._seat_ids:
            return (Violation("unknown-seat", "Setup", t("There is no seat {seat} at this table.", seat=repr(seat))),)
        found: list[Violation] = []
        if awaiting is None:
            found.append(Violation("not-your-turn", self._rule(state), t("It is {actor}'s turn to act, not {seat}'s.",
                                                                                   actor=self._who(state, prompt), seat=state.seat_name(seat))))
            # Every violation is reported: measured against what the acting seats await
            # (in public), the action may be wrong in more ways than its timing.
            awaiting = prompt.awaiting
            if awaiting is None:
                found.extend(self.explain(state, action, prompt))
                return tuple(found)
            awaiting = awaiting.public()
        if kind not in awaiting.accepted:
            found.append(Violation("not-awaited", self._rule(state), t("The game is waiting for {awaiting}; {kind} is not allowed now.",
                                                                              awaiting=awaiting.public().describe(), kind=_a(kind))))
            found.extend(self.explain(state, action, prompt))
            return tuple(found)
        if isinstance(awaiting, RollRequest) and isinstance(action, Roll):
            found.extend(self._check_roll(action, awaiting))
        elif isinstance(awaiting, DrawRequest) and isinstance(action, Draw):
            found.extend(self.check_draw(state, action, awaiting))
        # Not the seat's turn: its own rules are not checked, since checking an action
        # against another seat's position could reveal that seat's secrets.
        found.extend(self.explain(state, action, prompt))
        return tuple(found)

    def is_legal(self, state: S, action: Action) -> bool:
        return not self.check(state, action)

    def push(self, state: S, action: Action) -> None:
        """Apply ``action`` to ``state`` in place, after checking it."""
        problems = self.check(state, action)
        if problems:
            raise IllegalAction(problems, action)
        self.push_unchecked(state, action)

    def push_unchecked(self, state: S, action: Action) -> None:
        """Apply without checking: for simulations that only play listed legal actions."""
        if action.secret:
            state.sealed.append(state.ply)
        if type(action) is Draw:
            self.reconcile_draw(state, action)
        self.execute(state, action)
        if action.chance:
            state.rng.advance()
        state.ply += 1

    def apply(self, state: S, action: Action) -> S:
        """A new state with ``action`` applied; ``state`` itself is never changed."""
        problems = self.check(state, action)
        if problems:
            raise IllegalAction(problems, action)
        new = self.copy(state)
        self.push_unchecked(new, action)
        return new

    def copy(self, state: S) -> S:
        return copy.deepcopy(state)

    def legal_actions(self, state: S) -> "LegalActions[S]":
        return LegalActions(self, state)

    def replay(self, seats: Iterable[Seat | dict[str, Any] | tuple[str, str]], options: dict[str, Any] | None, seed: int, actions: Iterable[Action]) -> S:
        """Rebuild a game from its save file: setup, seed and the accepted actions."""
        state = self.new(seats, options, seed)
        for a in actions:
            self.push(state, a)
        return state

    def outcome(self, state: S) -> Outcome | None:
        return state.result

    def finish(self, state: S, outcome: Outcome) -> None:
        state.result = outcome
        state.sealed.clear()
        if outcome.words is not None:
            state.note(t("Game over: {reason}.", reason=outcome.words))
        else:
            # A game that gives its reason only in English (not converted yet) keeps a log
            # of plain strings, as its own lines are.
            state.note(f"Game over: {outcome.reason}.")

    def reveal(self, state: S) -> None:
        """The sealed commits are revealed: the game calls it when a secret round opens."""
        state.sealed.clear()

    def view(self, state: S, viewer: str = PUBLIC) -> dict[str, Any]:
        """What ``viewer`` (a seat id, or :data:`PUBLIC`) may see, as JSON data. The prompt
        in it is the public one, plus the viewer's own private kinds."""
        if viewer != PUBLIC and viewer not in state._seat_ids:
            raise KeyError(f"unknown viewer {viewer!r}")
        prompt = self.prompt(state)
        shown = prompt.public()
        if viewer in prompt.waits and shown is not prompt:
            shown = Prompt({**shown.waits, viewer: prompt.waits[viewer]}, prompt.over)
        return {
            "game": self.id,
            "viewer": viewer,
            "ply": state.ply,
            "seats": [{"id": s.id, "faction": s.faction, "name": s.label} for s in state.seats],
            "prompt": {"actors": shown.seats(), "waits": {s: to_data(a) for s, a in shown.waits.items()},
                       "text": str(prompt.public()), "over": prompt.over},
            "outcome": to_data(state.result),
            "log": visible_log(state.log, viewer),
            **self.render(state, viewer),
        }

    def sample(self, state: S, seat: str | None = None) -> Action | None:
        """The app's own roller and deck: a chance action for ``seat`` (by default the
        first seat awaiting a roll or a draw), drawn from a generator derived from the
        state's (the state itself is not changed)."""
        prompt = self.prompt(state)
        seats = [seat] if seat is not None else prompt.seats()
        rng = state.rng.fork()
        for s in seats:
            awaiting = prompt.waits.get(s)
            if isinstance(awaiting, RollRequest):
                values = tuple(d.values[rng.below(len(d.values))] for d in awaiting.dice)
                ids = tuple(d.id for d in awaiting.dice) if any(d.id for d in awaiting.dice) else ()
                return Roll(s, values, ids, source="app")
            if isinstance(awaiting, DrawRequest):
                deck = self.deck(state, awaiting.deck)
                if deck.cards:
                    return Draw(s, awaiting.deck, deck.cards[0], source="app")
                if deck.discard and deck.auto_reshuffle:
                    pile = list(deck.discard)
                    rng.shuffle(pile)
                    return Draw(s, awaiting.deck, pile[0], source="app")
        return None

    def state_to_data(self, state: S) -> Any:
        return to_data(state)

    def state_from_data(self, data: Any) -> S:
        return from_data(data)

    # ------------------------------------------------------------- internals

    def _rule(self, state: S) -> str:
        spec = self.declared_steps.get(state.phase)
        return spec.rule if spec is not None and spec.rule else self.turn_rule

    def _who(self, state: S, prompt: Prompt) -> Text | str:
        names = [state.seat_name(s) for s in prompt.seats()]
        if not names:
            return t("nobody")
        who: Text | str = names[-1]
        for name in reversed(names[:-1]):
            who = t("{first} or {rest}", first=name, rest=who)
        return who

    def _check_roll(self, action: Roll, req: RollRequest) -> Iterator[Violation]:
        dice = req.dice
        if len(action.values) != len(dice):
            n = len(dice)
            yield Violation(
                "wrong-dice-count", self.dice_rule, tn("This roll ({purpose}) takes {n} die, not {got}.", "This roll ({purpose}) takes {n} dice, not {got}.", "n",
                                     purpose=req.purpose, n=n, got=len(action.values))
            )
            if req.uniform and dice:
                for v in action.values:
                    if not dice[0].can_show(v):
                        yield Violation("face-out-of-range", self.dice_rule, t("A {die} cannot show {face}.", die=str(dice[0]), face=v))
            return
        if action.ids and len(action.ids) != len(dice):
            yield Violation("wrong-dice-count", self.dice_rule, t("This roll names {ids} dice for {n} values.", ids=len(action.ids), n=len(action.values)))
            return
        for i, (d, v) in enumerate(zip(dice, action.values)):
            if not d.can_show(v):
                yield Violation("face-out-of-range", self.dice_rule, t("A {die} cannot show {face}.", die=str(d), face=v))
            if d.id and (not action.ids or action.ids[i] != d.id):
                yield Violation("wrong-die", self.dice_rule, t("Die {i} of this roll must be the {die} die.", i=i + 1, die=d.id))

    def check_draw(self, state: S, action: Draw, req: DrawRequest) -> Iterator[Violation]:
        """Hook: what is wrong with ``action``, a card drawn for ``req`` (the wrong deck, a
        card not in it). A game widens it where its rules let a player name a card the
        deck does not list (Liberation's stand-ins for unseen cards, ruling L-14) and
        calls ``super()`` for the rest."""
        if action.deck != req.deck:
            yield Violation("wrong-deck", self.cards_rule, t("The card must come from the {deck} deck, not {got}.", deck=req.deck, got=repr(action.deck)))
            return
        if self.deck(state, req.deck).can_draw(action.card):
            return  # the deck's own next card, which :meth:`drawable` always lists first
        if action.card not in self.drawable(state, action.seat, req.deck):
            yield Violation("card-not-in-deck", self.cards_rule, self.not_drawable(state, action.seat, req.deck, action.card))

    def unseen_zones(self, state: S, seat: str, deck: str) -> list[list[str]]:
        """Hook: the places besides ``deck`` whose cards ``seat`` cannot see (another
        seat's hand, face-down discards), as the lists that hold them. A physical draw
        may name any of their cards, since the drawer cannot rule it out, and refusing it
        would tell the drawer where it is not; :meth:`reconcile_draw` then swaps it with
        the deck's next card. By default none: only the deck's own cards are drawable."""
        return []

    def drawable(self, state: S, seat: str, deck: str) -> list[str]:
        """Every card ``seat`` may say it drew from ``deck``, without repeats: exactly what
        :meth:`check_draw` accepts, and what an entry page offers. The deck's cards (or its
        discards, when drawing would reshuffle them), then those of :meth:`unseen_zones`
        while the deck has a card to take their place."""
        pile = next_pile(self.deck(state, deck))
        out = dict.fromkeys(pile)
        if pile:
            for zone in self.unseen_zones(state, seat, deck):
                out.update(dict.fromkeys(zone))
        return list(out)

    def not_drawable(self, state: S, seat: str, deck: str, card: str) -> Text | str:
        """Hook: why ``seat`` cannot have drawn ``card``, naming only what ``seat`` may see
        (a game with :meth:`unseen_zones` says where the card publicly is)."""
        return t("That card is not in the {deck} deck.", deck=deck)

    def reconcile_draw(self, state: S, action: Draw) -> str | None:
        """Before a draw is carried out: when its card is in one of the drawer's
        :meth:`unseen_zones`, swap it with the deck's next card (the engine's guess at
        the hidden cards was wrong, the table's physical card is right). Returns the card
        that took the drawn card's place, if any. Cards are conserved, none is in two places."""
        deck = self.deck(state, action.deck)
        if deck.can_draw(action.card):
            return None
        return swap_into(next_pile(deck), self.unseen_zones(state, action.seat, action.deck), action.card)

    def chance_candidates(self, state: S, prompt: Prompt) -> Iterator[Action]:
        """Hook: the rolls and draws ``legal_actions`` lists, lazily (an 8d6 roll is never
        built as a list). By default every face combination and every card of the deck
        (not the :meth:`drawable` cards of other zones). A game overrides it when its
        chance results are too many to list (Dicetopia's city of 30 dice, each with its
        colour: a few sampled rolls stand for them); ``check`` decides legality either way."""
        for seat in prompt.seats():
            awaiting = prompt.waits[seat]
            if isinstance(awaiting, RollRequest):
                ids = tuple(d.id for d in awaiting.dice) if any(d.id for d in awaiting.dice) else ()
                faces = [tuple(dict.fromkeys(d.values)) for d in awaiting.dice]
                for values in itertools.product(*faces):
                    yield Roll(seat, values, ids)
            elif isinstance(awaiting, DrawRequest):
                # The cards an honest table draws: the deck's. A card of the drawer's
                # unseen zones is accepted too (check_draw) but not listed, so that a
                # playout is a game a table plays, not a string of corrected entries.
                for card in dict.fromkeys(next_pile(self.deck(state, awaiting.deck))):
                    yield Draw(seat, awaiting.deck, card)


def swap_hidden(piles: Sequence[list[Any]], rng: Rng) -> bool:
    """Swap two different cards between (or within) ``piles``, lists every one of which
    the viewer cannot see (a deck, another seat's hand): the mechanics of a
    :meth:`Game.hidden_variant`. Returns whether a swap was possible."""
    spots = [(p, i) for p in piles for i in range(len(p))]
    if len(spots) < 2:
        return False
    for _ in range(8):
        (p1, i1), (p2, i2) = rng.choice(spots), rng.choice(spots)
        if p1[i1] != p2[i2]:
            p1[i1], p2[i2] = p2[i2], p1[i1]
            return True
    return False


class LegalActions(Generic[S]):
    """The legal actions of a state, listed lazily; ``in`` checks one without listing."""

    def __init__(self, game: Game[S], state: S) -> None:
        self.game = game
        self.state = state

    def __iter__(self) -> Iterator[Action]:
        game, state = self.game, self.state
        if state.result is not None:
            return
        prompt = game.prompt(state)
        for a in itertools.chain(game.chance_candidates(state, prompt), game.candidates(state, prompt)):
            if not game.check(state, a):
                yield a

    def of_kind(self, *kinds: str) -> Iterator[Action]:
        """The legal actions of the given kinds only (chance candidates are not listed
        unless asked for: an 8d6 roll has 1.7 million)."""
        game, state = self.game, self.state
        if state.result is not None:
            return
        prompt = game.prompt(state)
        source: Iterable[Action] = game.candidates(state, prompt)
        if "roll" in kinds or "draw" in kinds:
            source = itertools.chain(game.chance_candidates(state, prompt), source)
        for a in source:
            if a.kind in kinds and not game.check(state, a):
                yield a

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self.game.is_legal(self.state, action)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in itertools.islice(self, 8))}{', …' if self.count() > 8 else ''})>"


def _a(kind: str) -> str:
    return ("an " if kind[:1] in "aeiou" else "a ") + kind
