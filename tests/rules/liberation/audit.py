"""Per-step hidden-information checks, run after every action of the random games.

* Every public log entry names only Cities its action named in public (an Evade, a draw
  or a discard names none), by id or by name.
* The public view and the Dynasty's view, outside the log, never contain the base's id
  or name, unless a recent public event named that City.
* Counterfactuals: swapping the base with a card in the Liberation's hand, or a card in
  the Liberation's hand with one in the deck, changes neither the public view nor the
  Dynasty's view (so nothing in them depends on where the base or those cards are).
* Every Evade respected adjacency (same City, or one line away).
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from rules.core import PUBLIC, Action
from rules.liberation import (
    AskReferee, Attack, Claim, Evade, FirstCity, Liberation, LiberationState, Mission, Occupy, Sabotage, Unexploit,
)


class Leak(AssertionError):
    pass


def named_in_public(action: Action, taken_before: str) -> set[str]:
    """City ids ``action`` names in public."""
    if isinstance(action, Attack):
        return {action.exploit, action.city}
    if isinstance(action, Occupy):
        return {action.exploit, action.card}
    if isinstance(action, (FirstCity,)):
        return {action.card}
    if isinstance(action, Unexploit):
        return {action.city}
    if isinstance(action, Claim):
        return {taken_before}
    if isinstance(action, Sabotage):
        return {action.city}
    if isinstance(action, Mission):
        return {action.card, action.pay_city} - {""}  # the cost card goes face down
    if isinstance(action, AskReferee):
        return set(action.cities) | ({action.city} if action.city else set())
    return set()


def check_step(game: Liberation, state: LiberationState, action: Action, log_before: int, taken_before: str, moves_before: int) -> None:
    m = state.map
    allowed = named_in_public(action, taken_before)
    for entry in state.log[log_before:]:
        if entry.to is not None:
            continue
        for city in m.city_ids:
            if city in allowed:
                continue
            if city in entry.text or m.name_of(city) in entry.text:
                raise Leak(f"ply {state.ply}: public log {entry.text!r} names {city}, which {action} did not name")
    for mv in state.moves[max(moves_before, 1):]:
        if not mv.redrawn and mv.from_city != mv.to_city and not m.adjacent(mv.from_city, mv.to_city):
            raise Leak(f"ply {state.ply}: Evade {mv.from_city} -> {mv.to_city} is not along a line")
    if isinstance(action, Evade) and len(state.moves) != moves_before + 1:
        raise Leak(f"ply {state.ply}: an Evade was not recorded in the hidden history")
    if state.result is not None or not state.base:
        return
    base_strings = {state.base, m.name_of(state.base)}
    shown = set()
    for e in state.events[-6:]:
        shown |= e.named()
    if state.base not in shown:
        prompt = str(game.prompt(state))
        for viewer in (PUBLIC, state.dynasty):
            view = game.render(state, viewer)   # the view without the kernel's log part
            view.pop("events")
            text = json.dumps(view) + prompt
            for s in base_strings:
                if s in text:
                    raise Leak(f"ply {state.ply}: the {viewer} view shows the base ({s})")


def check_counterfactuals(game: Liberation, state: LiberationState) -> None:
    if state.result is not None or not state.base:
        return
    lib = state.hands[state.liberation].cards
    if not lib:
        return
    before = [game.render(state, PUBLIC), game.render(state, state.dynasty)]
    # the base and a card in the Liberation's hand trade places
    state.base, lib[0] = lib[0], state.base
    try:
        after = [game.render(state, PUBLIC), game.render(state, state.dynasty)]
    finally:
        state.base, lib[0] = lib[0], state.base
    if after != before:
        raise Leak(f"ply {state.ply}: the public or Dynasty view depends on which card is the base")
    if state.deck.cards:
        deck = state.deck.cards
        deck[0], lib[0] = lib[0], deck[0]
        try:
            after = [game.render(state, PUBLIC), game.render(state, state.dynasty)]
        finally:
            deck[0], lib[0] = lib[0], deck[0]
        if after != before:
            raise Leak(f"ply {state.ply}: the public or Dynasty view depends on the Liberation's hand")


class Audited(Liberation):
    """The real engine, with the hidden-information checks run after every action
    (``counterfactual_every``: how often the costlier counterfactual check runs)."""

    def __init__(self, counterfactual_every: int = 1) -> None:
        super().__init__()
        self.counterfactual_every = counterfactual_every
        self.steps = 0
        self.evades = 0
        self.replaying = False

    def replay(self, *args: Any, **kw: Any) -> LiberationState:
        # The harness replays each finished game to compare states: those steps were
        # already audited the first time.
        self.replaying = True
        try:
            return super().replay(*args, **kw)
        finally:
            self.replaying = False

    def push_unchecked(self, state: LiberationState, action: Action) -> None:
        log_before, taken, moves = len(state.log), state.taken, len(state.moves)
        super().push_unchecked(state, action)
        if self.replaying:
            return
        self.steps += 1
        self.evades += isinstance(action, Evade)
        check_step(self, state, action, log_before, taken, moves)
        if self.steps % self.counterfactual_every == 0:
            check_counterfactuals(self, state)


def offer_illegal(state: LiberationState, rng: Any, legal: list[Action]) -> Iterable[Action]:
    """Up to four of :func:`illegal_candidates`, chosen at random (each rejection costs
    the harness two full JSON dumps of the state)."""
    pool = list(illegal_candidates(state, rng))
    rng.shuffle(pool)
    return pool[:4]


def illegal_candidates(state: LiberationState, rng: Any) -> Iterable[Action]:
    """Illegal actions the harness mixes in: Evades to Cities off the base's lines (they
    must be rejected as too far), out-of-reach Sabotages, Attacks and Occupies, and
    missions with their cost unpaid or wrongly paid. (Legal ones are skipped.)"""
    if state.result is not None or not state.active:
        return
    m = state.map
    seat = state.active
    if state.phase == "step2" and seat == state.liberation:
        for card in state.hands[seat].cards:
            if card != state.base and not m.adjacent(state.base, card):
                yield Evade(seat, card)
        far = [x for x in m.city_ids if x != state.base and not m.adjacent(state.base, x)]
        if far:
            yield Evade(seat, rng.choice(far))
        reach = set()
        for x in (*state.hands[seat].cards, state.base):
            reach |= m.neighbours(x)
        out = [x for x in m.city_ids if x not in reach]
        if out:
            yield Sabotage(seat, rng.choice(out))
    if state.phase == "step2":
        # Missions with their cost left unpaid or paid with the mission card itself, and
        # a Liberation mission "from an occupied City".
        for card in state.hands[seat].cards[:2]:
            yield Mission(seat, card)
            yield Mission(seat, card, pay_card=card)
            if seat == state.liberation:
                yield Mission(seat, card, occupied=True)
    if state.phase == "step2" and seat == state.dynasty:
        for ex in state.occupied:
            far = [x for x in m.city_ids if x != ex and not m.adjacent(ex, x)]
            yield Attack(seat, ex, rng.choice(far))
            for card in state.hands[seat].cards:
                if not m.adjacent(ex, card):
                    yield Occupy(seat, ex, card)


def random_map(rng: Any) -> dict[str, Any]:
    """A random playable map (a random tree plus a few extra lines, categories shuffled),
    so the random games also run on maps other than the placeholder."""
    from rules.liberation import CATEGORIES, City, dump_map, make_map

    cats = list(CATEGORIES) + [rng.choice(list(CATEGORIES)) for _ in range(14 - len(CATEGORIES))]
    rng.shuffle(cats)
    ids = [f"site-{i:02d}" for i in range(1, 15)]
    cities = [City(i, f"Site {n} ({CATEGORIES[k]})", k) for n, (i, k) in enumerate(zip(ids, cats), 1)]
    order = list(ids)
    rng.shuffle(order)
    lines = {tuple(sorted((order[i], order[rng.below(i)]))) for i in range(1, 14)}
    for _ in range(rng.randint(0, 10)):
        a, b = rng.choice(ids), rng.choice(ids)
        if a != b:
            lines.add(tuple(sorted((a, b))))
    return dump_map(make_map(f"random-{rng.below(10**6)}", "A random test map", cities, sorted(lines)))


class AuditedRandomMaps(Audited):
    """:class:`Audited`, with every other random game on a random map."""

    def random_setup(self, rng: Any) -> tuple[list[Any], dict[str, Any]]:
        seats, options = super().random_setup(rng)
        if rng.below(2):
            options = {**options, "map": random_map(rng)}
        return seats, options
