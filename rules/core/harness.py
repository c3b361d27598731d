"""The invariant harness every game's tests run.

It plays many random legal games with random illegal actions mixed in and, after every
step, checks the contract of ``rules/core``:

* a rejected action raises :class:`IllegalAction` with at least one complete violation
  (code, rule, message) and leaves the state exactly as it was;
* every listed legal action is accepted; ``in`` agrees with the listing;
* a prompt the kernel reuses across plies (a step's ``depends``) equals a fresh one, and
  so does a step's derived value (``@step(derive=...)``) as :meth:`Game.derived` keeps it;
* the state and the action round-trip through JSON;
* replaying the action list from the setup reproduces the state;
* no secret appears in the public view, in another seat's view, or in a rejection message;
* every :class:`Track` and :class:`Escalation` stays within bounds, and the game's own
  invariants (``Game.problems``: cards conserved…) hold.

A game's tests run it on the game's engine; on any broken invariant it raises
:class:`InvariantBroken`, else it reports what it played (the same report for the same seed):

>>> from rules import load
>>> report = run_harness(load("stepping_stones"), games=10, seed=1)
>>> report.games, report.finished, sorted(report.winners)
(10, 10, ['fox', 'hare'])
>>> report.rejected > 0, "not-your-turn" in report.codes
(True, True)
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from .actions import Action, Draw, Roll, parse_action
from .errors import IllegalAction
from .game import Game, State
from .playout import choose
from .rng import Rng
from .seats import PUBLIC
from .jsondata import dumps, from_data, to_data
from .tracks import Escalation, Track


class InvariantBroken(AssertionError):
    """The harness found a state or action that breaks the engine contract."""


@dataclass
class HarnessReport:
    games: int = 0
    finished: int = 0
    plies: int = 0
    rejected: int = 0
    variants: int = 0  # hidden variants compared by the differential secret check
    codes: dict[str, int] = field(default_factory=dict)
    winners: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        return (
            f"{self.games} games ({self.finished} finished), {self.plies} plies, "
            f"{self.rejected} illegal actions rejected; winners {self.winners}; codes {self.codes}"
        )


IllegalMaker = Callable[[State, Rng, list[Action]], Iterable[Action]]


def run_harness(
    game: Game[Any],
    *,
    games: int,
    seed: int = 0,
    max_plies: int = 400,
    illegal_per_step: float = 0.5,
    roundtrip_every: int = 1,
    extra_illegal: IllegalMaker | None = None,
    differential_rate: float = 0.05,
) -> HarnessReport:
    """Play ``games`` random games and check every invariant; raise on the first break."""
    report = HarnessReport()
    for g in range(games):
        _one_game(game, seed + g, max_plies, illegal_per_step, roundtrip_every, extra_illegal, report, differential_rate)
    return report


def _one_game(
    game: Game[Any],
    seed: int,
    max_plies: int,
    illegal_rate: float,
    roundtrip_every: int,
    extra_illegal: IllegalMaker | None,
    report: HarnessReport,
    differential_rate: float = 0.25,
) -> None:
    rng = Rng(seed * 7919 + 1)
    seats, options = game.random_setup(rng)
    state = game.new(seats, options, seed)
    actions: list[Action] = []
    seen: list[Action] = []
    where = f"{game.id} seed={seed}"
    _check_state(game, state, f"{where} ply=0")
    for _ in range(max_plies):
        if state.result is not None:
            break
        prompt, fresh = game.prompt(state), game.fresh_prompt(state)
        if not prompt.actors <= state._seat_ids:  # check() trusts a seat the prompt names
            raise InvariantBroken(f"{where}: the prompt at ply {state.ply} ({prompt}) awaits a seat not at the table")
        if prompt != fresh:
            raise InvariantBroken(f"{where}: the prompt reused at ply {state.ply} ({prompt}) is not the one step "
                                  f"{state.phase!r} builds now ({fresh}): its @step(depends=...) leaves something out")
        derived, fresh_derived = game.derived(state), game.fresh_derived(state)
        if derived != fresh_derived:
            raise InvariantBroken(f"{where}: the value step {state.phase!r} derived, kept at ply {state.ply} ({derived!r:.200}), is "
                                  f"not what it derives now ({fresh_derived!r:.200}): something changed it, or its "
                                  f"@step(depends=...) leaves out what it reads")
        legal = list(game.legal_actions(state))
        if not legal:
            raise InvariantBroken(f"{where}: no legal action at ply {state.ply} ({game.prompt(state)})")
        # Illegal actions mixed in: each must be rejected and change nothing.
        if rng.below(1000) < illegal_rate * 1000:
            for bad in _illegal_candidates(game, state, rng, legal, seen, extra_illegal):
                if game.is_legal(state, bad):
                    continue
                _check_rejected(game, state, bad, f"{where} ply={state.ply}", report)
        if rng.below(1000) < differential_rate * 1000:
            _check_differential(game, state, rng, legal, f"{where} ply={state.ply}", report)
        action = choose(rng, legal)
        if action not in game.legal_actions(state):
            raise InvariantBroken(f"{where}: listed action {action} is not `in` legal_actions")
        back = parse_action(json.loads(json.dumps(to_data(action))))
        if back != action or type(back) is not type(action):
            raise InvariantBroken(f"{where}: action {action} does not round-trip through JSON ({back})")
        try:
            game.push(state, action)
        except IllegalAction as e:
            raise InvariantBroken(f"{where}: listed legal action {action} was rejected: {e}") from None
        if derived != fresh_derived:  # equal before the push
            raise InvariantBroken(f"{where}: applying {action} changed the value its step derived for the "
                                  f"ply: a derived value is read, never written")
        actions.append(action)
        seen.append(action)
        report.plies += 1
        if state.ply % roundtrip_every == 0 or state.result is not None:
            _check_state(game, state, f"{where} ply={state.ply} after {action}")
    replayed = game.replay(seats, options, seed, actions)
    if dumps(replayed) != dumps(state):
        raise InvariantBroken(f"{where}: replaying {len(actions)} actions does not reproduce the state")
    report.games += 1
    if state.result is not None:
        report.finished += 1
        key = str(state.result.winner)
        report.winners[key] = report.winners.get(key, 0) + 1


def _check_differential(game: Game[Any], state: State, rng: Rng, legal: list[Action], where: str,
                        report: HarnessReport) -> None:
    """Two states that differ only in what a viewer may not see must look the same to it:
    the same view (its prompt and log included), and for its own actions the same
    verdicts and the same rejection messages. No string matching: a card named like a
    seat, or two cards with one name, cannot fool it."""
    for viewer in [PUBLIC, *state.seat_ids()]:
        twin = game.hidden_variant(state, viewer, rng)
        if twin is None:
            continue
        report.variants += 1
        if game.view(state, viewer) != game.view(twin, viewer):
            a, b = game.view(state, viewer), game.view(twin, viewer)
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            raise InvariantBroken(f"{where}: what {viewer} sees depends on what it may not see (view keys {keys})")
        if viewer == PUBLIC:
            continue
        mine = [a for a in legal if a.seat == viewer]
        probes = mine + [bad for bad in _illegal_candidates(game, state, rng, mine or legal, [], None)
                         if isinstance(bad.seat, str) and bad.seat == viewer][:12]
        for action in probes:
            if action.chance:
                continue  # a drawn card names itself: that it was in the deck is no leak
            got = [(v.code, v.message) for v in game.check(state, action)]
            other = [(v.code, v.message) for v in game.check(twin, action)]
            if got != other:
                raise InvariantBroken(f"{where}: {viewer}'s {action} is judged by what {viewer} may not see: {got} vs {other}")


def _check_state(game: Game[Any], state: State, where: str) -> None:
    text = dumps(state)
    back = from_data(json.loads(text))
    if back != state or dumps(back) != text:
        raise InvariantBroken(f"{where}: state does not round-trip through JSON")
    for problem in _bounds(state):
        raise InvariantBroken(f"{where}: {problem}")
    for problem in game.problems(state):
        raise InvariantBroken(f"{where}: {problem}")
    for viewer in [PUBLIC, *state.seat_ids()]:
        hidden = set(game.secrets(state, viewer))
        if not hidden:
            continue
        leaked = hidden.intersection(strings_in(game.view(state, viewer)))
        if leaked:
            raise InvariantBroken(f"{where}: view for {viewer} shows secrets {sorted(leaked)}")


def _check_rejected(game: Game[Any], state: State, bad: Action, where: str, report: HarnessReport) -> None:
    before = dumps(state)
    try:
        game.push(state, bad)
    except IllegalAction as e:
        if not e.violations or not all(v.code and v.rule and v.message for v in e.violations):
            raise InvariantBroken(f"{where}: rejection of {bad} has an incomplete violation: {e.violations}")
        if any(v.code == "bad-action" for v in e.violations):
            report.codes["bad-action"] = report.codes.get("bad-action", 0) + 1
            report.rejected += 1
            if dumps(state) != before:
                raise InvariantBroken(f"{where}: malformed action {bad!r} changed the state")
            return
        own = set(strings_in(to_data(bad)))
        hidden = set(game.secrets(state, PUBLIC)) - own
        for v in e.violations:
            leaked = [s for s in hidden if s in v.message]
            if leaked:
                raise InvariantBroken(f"{where}: rejection message {v.message!r} reveals {leaked}")
            report.codes[v.code] = report.codes.get(v.code, 0) + 1
        report.rejected += 1
    else:
        raise InvariantBroken(f"{where}: illegal action {bad} was accepted")
    if dumps(state) != before:
        raise InvariantBroken(f"{where}: rejected action {bad} changed the state")


def _illegal_candidates(
    game: Game[Any], state: State, rng: Rng, legal: list[Action], seen: list[Action], extra: IllegalMaker | None
) -> Iterator[Action]:
    seats = state.seat_ids()
    base = rng.choice(legal)
    # Someone else acting.
    yield dataclasses.replace(base, seat=rng.choice(seats))
    # A stale action from earlier in the game.
    if seen:
        yield rng.choice(seen)
    # Chance results that cannot be.
    if isinstance(base, Roll):
        yield dataclasses.replace(base, values=base.values + (1,))
        yield dataclasses.replace(base, values=tuple(v + 6 * (1 + rng.below(3)) for v in base.values))
        yield dataclasses.replace(base, values=(0,) * len(base.values))
    if isinstance(base, Draw):
        yield dataclasses.replace(base, card=base.card + "-forged")
    # Numeric and string fields nudged.
    for f in dataclasses.fields(base):
        value = getattr(base, f.name)
        if f.name in ("seat", "source"):
            continue
        if type(value) is int:
            yield dataclasses.replace(base, **{f.name: value + rng.randint(-7, 7)})
        elif type(value) is str and value:
            yield dataclasses.replace(base, **{f.name: value[::-1] + "?"})
    # Malformed input, as a hostile client or a corrupt file would send it: a field (the
    # seat too) with a wrong type, None, a float, a huge int (typed-input fuzzing). Two a
    # step, drawn at random: over a run every field meets every kind of junk.
    names = [f.name for f in dataclasses.fields(base) if f.name != "source"]
    junk = (None, 1.5, 1 << 40, ["x"], {"k": 1}, "x" * 500, "yes", True)
    for _ in range(2):
        name = rng.choice(names)
        value = getattr(base, name)
        bad: Any = rng.choice(junk)
        if type(value) is tuple and value and type(value[0]) is int and rng.below(2):
            bad = (float(value[0]),) + value[1:]
        if type(bad) is not type(value):
            yield _forged(base, name, bad)
    if extra is not None:
        yield from extra(state, rng, legal)


def _forged(action: Action, name: str, value: Any) -> Action:
    """``action`` with field ``name`` set to ``value`` whatever its type (frozen
    dataclasses type nothing at run time, so malformed input can be built like this)."""
    forged = dataclasses.replace(action)
    object.__setattr__(forged, name, value)
    return forged


def _bounds(obj: Any, path: str = "state") -> Iterator[str]:
    if isinstance(obj, (Track, Escalation)):
        if not obj.in_bounds():
            yield f"{path} is out of bounds: {obj}"
        return
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            if isinstance(v, (list, dict)) or dataclasses.is_dataclass(v):
                yield from _bounds(v, f"{path}.{f.name}")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (Track, Escalation)) or dataclasses.is_dataclass(v) or isinstance(v, (list, dict)):
                yield from _bounds(v, f"{path}[{k!r}]")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if dataclasses.is_dataclass(v):
                yield from _bounds(v, f"{path}[{i}]")


def strings_in(data: Any) -> Iterator[str]:
    """Every string in ``data`` (dict keys included, dataclass fields walked): what a
    leak check compares hidden values with.

    >>> sorted(set(strings_in({"hand": ["gamble-03", 5], "seat": "crim-1"})))
    ['crim-1', 'gamble-03', 'hand', 'seat']
    """
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(data, (list, tuple, set, frozenset)):
        for v in data:
            yield from strings_in(v)
    elif dataclasses.is_dataclass(data) and not isinstance(data, type):
        for f in dataclasses.fields(data):
            yield from strings_in(getattr(data, f.name))
