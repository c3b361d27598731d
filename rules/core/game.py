"""The game contract every engine keeps, and the checked-apply machinery around it.

A game is a declarative object: its seats and factions, its options, its action kinds and
a handful of hooks (``setup``, ``ask``, ``violations``, ``execute``, ``candidates``,
``render``). The kernel turns those into the public grammar::

    state = game.new(seats, options, seed)   # a fresh game
    game.prompt(state)                       # who must act, and what is awaited
    game.check(state, action)                # every violation, or ()
    game.push(state, action)                 # checked, in place (fast path)
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
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Iterable, Iterator, Sequence, TypeVar

from .actions import Action, Commit, Draw, Roll
from .errors import IllegalAction, InvalidSetup, Violation
from .log import LogEntry, visible_log
from .outcome import Outcome
from .prompt import Decision, DrawRequest, GameOver, Prompt, RollRequest, SecretRequest
from .rng import Rng
from .seats import PUBLIC, Seat, parse_seats
from .serial import from_data, to_data
from .zones import Deck


@dataclass(kw_only=True)
class State:
    """Fields every game state has. A game subclasses it (``@dataclass(kw_only=True)``)
    and registers the subclass with ``@serializable``; a subclass that defines
    ``__post_init__`` must call ``super().__post_init__()``."""

    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    rng: Rng
    ply: int = 0
    log: list[LogEntry] = field(default_factory=list)
    result: Outcome | None = None

    def __post_init__(self) -> None:
        # Not a field: derived, so it is neither serialised nor compared.
        self._seat_ids = frozenset(s.id for s in self.seats)

    def seat(self, seat_id: str) -> Seat:
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(seat_id)

    def seat_ids(self) -> list[str]:
        return [s.id for s in self.seats]

    def faction_of(self, seat_id: str) -> str:
        return self.seat(seat_id).faction

    def note(self, text: str, seat: str | None = None, to: Sequence[str] | None = None) -> None:
        """Write to the game log; ``to`` limits who may read the entry."""
        self.log.append(LogEntry(self.ply, text, seat, tuple(to) if to is not None else None))


S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class Option:
    """A setup option, usually a house rule documented in the game's RULINGS.md."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    ruling: str = ""  # the RULINGS.md entry it implements

    def check(self, value: Any) -> Violation | None:
        if self.choices and value not in self.choices:
            return Violation(
                "bad-option",
                "Setup",
                f"Option {self.name!r} must be one of {', '.join(map(repr, self.choices))}, not {value!r}.",
            )
        if not self.choices and type(value) is not type(self.default):
            return Violation(
                "bad-option",
                "Setup",
                f"Option {self.name!r} takes a {type(self.default).__name__}, not {value!r}.",
            )
        return None


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

    def __init__(self) -> None:
        self._types = frozenset(self.action_types)

    # ------------------------------------------------------------------ hooks

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng, seed: int) -> S:
        """Make the initial state. ``seats`` and ``options`` are already validated."""
        raise NotImplementedError

    def check_setup(self, seats: list[Seat], options: dict[str, Any]) -> Iterable[Violation]:
        """Game-specific setup checks (factions, seat order…)."""
        return ()

    def ask(self, state: S) -> Prompt:
        """Who must act and what is awaited, for a game that is not over."""
        raise NotImplementedError

    def violations(self, state: S, action: Action, prompt: Prompt) -> Iterable[Violation]:
        """Game rules broken by ``action``. Called only for an accepted kind from a known
        seat; must not write to ``state``."""
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
        """Strings ``viewer`` must never see (hidden card ids, the secret base…)."""
        return ()

    def tracked(self, state: S) -> dict[str, int]:
        """Public values worth charting and exporting turn by turn (influence, escalation,
        scores, deck count…). Must never include a secret."""
        return {}

    def undo_barrier(self, state: S, action: Action) -> str | None:
        """Why ``action`` (about to be applied to ``state``) may never be undone, or
        ``None``. Undo never crosses a chance result that was shown or a revealed secret
        (Board Game Arena's policy); games add their own reveals."""
        if isinstance(action, Roll):
            return "the dice were rolled and everyone saw the result"
        if isinstance(action, Draw):
            return "a card was drawn"
        if isinstance(action, Commit):
            return "a secret choice was made"
        return None

    def problems(self, state: S) -> Iterable[str]:
        """Broken invariants (cards not conserved, a track out of bounds…): for tests."""
        return ()

    def default_seats(self) -> list[Seat]:
        """The seats a quick game starts with: the fewest the game allows, factions alternating."""
        return [Seat(f"{f}-{i}", f) for i, f in zip(range(1, self.min_seats + 1), itertools.cycle(self.factions))]

    def random_setup(self, rng: Rng) -> tuple[list[Seat], dict[str, Any]]:
        """Seats and options for a random game, for the playout harness."""
        return self.default_seats(), {}

    def deck(self, state: S, name: str) -> Deck:
        """The deck a draw request names; by default ``state.decks[name]``."""
        return state.decks[name]  # type: ignore[attr-defined]

    # ------------------------------------------------------------- public API

    def new(self, seats: Iterable[Seat | dict[str, Any] | tuple[str, str]], options: dict[str, Any] | None = None, seed: int = 0) -> S:
        """Start a game. Raises :class:`InvalidSetup` naming every problem."""
        seat_list = parse_seats(seats)
        opts = self.resolve_options(options or {})
        problems: list[Violation] = []
        if not self.min_seats <= len(seat_list) <= self.max_seats:
            problems.append(
                Violation(
                    "seat-count",
                    "Setup",
                    f"{self.title} takes {self.min_seats}–{self.max_seats} seats, not {len(seat_list)}.",
                )
            )
        for s in seat_list:
            if self.factions and s.faction not in self.factions:
                problems.append(
                    Violation("unknown-faction", "Setup", f"{s.faction!r} is not a faction of {self.title} ({', '.join(self.factions)}).")
                )
        if not problems:
            problems.extend(self.check_setup(seat_list, opts))
        if problems:
            raise InvalidSetup(problems)
        return self.setup(seat_list, opts, Rng(seed), seed)

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        known = {o.name: o for o in self.options}
        problems = [
            Violation("unknown-option", "Setup", f"{self.title} has no option {k!r}.") for k in options if k not in known
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
        if state.result is not None:
            return Prompt(frozenset(), GameOver())
        return self.ask(state)

    def check(self, state: S, action: Action) -> tuple[Violation, ...]:
        """Every rule ``action`` breaks in ``state``; empty when it is legal."""
        if state.result is not None:
            return (Violation("game-over", "Winning", f"The game is over: {state.result.reason}."),)
        if type(action) not in self._types:
            return (Violation("unknown-action", "—", f"{self.title} has no action {type(action).__name__!r}."),)
        found: list[Violation] = []
        if action.seat not in state._seat_ids:
            return (Violation("unknown-seat", "Setup", f"There is no seat {action.seat!r} at this table."),)
        prompt = self.ask(state)
        if action.seat not in prompt.actors:
            who = " or ".join(sorted(prompt.actors))
            found.append(
                Violation("not-your-turn", self.turn_rule, f"It is {who}'s turn to act, not {action.seat}'s.")
            )
        kind = action.kind
        awaiting = prompt.awaiting
        if kind not in awaiting.accepted:
            found.append(
                Violation("not-awaited", self.turn_rule, f"The game is waiting for {_describe(awaiting)}; {_a(kind)} is not allowed now.")
            )
            return tuple(found)
        if action.chance:
            if isinstance(awaiting, RollRequest):
                if len(action.values) != awaiting.dice or not all(1 <= v <= awaiting.sides for v in action.values):  # type: ignore[attr-defined]
                    found.extend(self._check_roll(action, awaiting))  # type: ignore[arg-type]
            elif isinstance(awaiting, DrawRequest):
                found.extend(self._check_draw(state, action, awaiting))  # type: ignore[arg-type]
        elif isinstance(action, Commit) and isinstance(awaiting, SecretRequest):
            if action.seat in awaiting.committed:
                found.append(Violation("already-committed", self.turn_rule, f"{action.seat} has already made a secret choice."))
        found.extend(self.violations(state, action, prompt))
        return tuple(found) if found else ()

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
        state.note(f"Game over: {outcome.reason}.")

    def view(self, state: S, viewer: str = PUBLIC) -> dict[str, Any]:
        """What ``viewer`` (a seat id, or :data:`PUBLIC`) may see, as JSON data."""
        if viewer != PUBLIC and viewer not in state.seat_ids():
            raise KeyError(f"unknown viewer {viewer!r}")
        prompt = self.prompt(state)
        return {
            "game": self.id,
            "viewer": viewer,
            "ply": state.ply,
            "seats": [{"id": s.id, "faction": s.faction, "name": s.label} for s in state.seats],
            "prompt": {"actors": sorted(prompt.actors), "awaiting": to_data(prompt.awaiting), "text": str(prompt)},
            "outcome": to_data(state.result),
            "log": visible_log(state.log, viewer),
            **self.render(state, viewer),
        }

    def sample(self, state: S) -> Action | None:
        """The app's own roller and deck: a chance action for the current prompt, drawn
        from a generator derived from the state's (the state itself is not changed)."""
        prompt = self.prompt(state)
        awaiting = prompt.awaiting
        if not prompt.actors:
            return None
        seat = sorted(prompt.actors)[0]
        rng = state.rng.fork()
        if isinstance(awaiting, RollRequest):
            return Roll(seat, tuple(rng.randint(1, awaiting.sides) for _ in range(awaiting.dice)), source="app")
        if isinstance(awaiting, DrawRequest):
            deck = self.deck(state, awaiting.deck)
            if deck.cards:
                return Draw(seat, awaiting.deck, deck.cards[0], source="app")
            if deck.discard and deck.auto_reshuffle:
                pile = list(deck.discard)
                rng.shuffle(pile)
                return Draw(seat, awaiting.deck, pile[0], source="app")
        return None

    def state_to_data(self, state: S) -> Any:
        return to_data(state)

    def state_from_data(self, data: Any) -> S:
        return from_data(data)

    # ------------------------------------------------------------- internals

    def _check_roll(self, action: Roll, req: RollRequest) -> Iterator[Violation]:
        if len(action.values) != req.dice:
            yield Violation(
                "wrong-dice-count", self.dice_rule, f"This roll ({req.purpose}) takes {req.dice} {'die' if req.dice == 1 else 'dice'}, not {len(action.values)}."
            )
        for v in action.values:
            if not 1 <= v <= req.sides:
                yield Violation("face-out-of-range", self.dice_rule, f"A {req.sides}-sided die cannot show {v}.")

    def _check_draw(self, state: S, action: Draw, req: DrawRequest) -> Iterator[Violation]:
        if action.deck != req.deck:
            yield Violation("wrong-deck", self.cards_rule, f"The card must come from the {req.deck} deck, not {action.deck!r}.")
            return
        deck = self.deck(state, req.deck)
        if not deck.can_draw(action.card):
            yield Violation("card-not-in-deck", self.cards_rule, f"That card is not in the {req.deck} deck.")

    def _chance_candidates(self, state: S, prompt: Prompt) -> Iterator[Action]:
        awaiting = prompt.awaiting
        for seat in sorted(prompt.actors):
            if isinstance(awaiting, RollRequest):
                for values in itertools.product(range(1, awaiting.sides + 1), repeat=awaiting.dice):
                    yield Roll(seat, values)
            elif isinstance(awaiting, DrawRequest):
                deck = self.deck(state, awaiting.deck)
                pile = deck.cards if deck.cards else (deck.discard if deck.auto_reshuffle else [])
                for card in dict.fromkeys(pile):
                    yield Draw(seat, awaiting.deck, card)


class LegalActions(Generic[S]):
    """The legal actions of a state, listed lazily; ``in`` checks one without listing."""

    def __init__(self, game: Game[S], state: S) -> None:
        self.game = game
        self.state = state

    def __iter__(self) -> Iterator[Action]:
        game, state = self.game, self.state
        if state.result is not None:
            return
        prompt = game.ask(state)
        for a in itertools.chain(game._chance_candidates(state, prompt), game.candidates(state, prompt)):
            if not game.check(state, a):
                yield a

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self.game.is_legal(self.state, action)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in itertools.islice(self, 8))}{', …' if self.count() > 8 else ''})>"


def _describe(awaiting: object) -> str:
    if isinstance(awaiting, RollRequest):
        return f"a roll of {awaiting.dice}d{awaiting.sides} ({awaiting.purpose})"
    if isinstance(awaiting, DrawRequest):
        return f"a card from the {awaiting.deck} deck"
    if isinstance(awaiting, SecretRequest):
        return f"secret choices ({awaiting.purpose})"
    if isinstance(awaiting, Decision):
        return " or ".join(awaiting.kinds) or "nothing"
    return "nothing (the game is over)"


def _a(kind: str) -> str:
    return ("an " if kind[:1] in "aeiou" else "a ") + kind
