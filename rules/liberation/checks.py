"""What each Liberation action must satisfy, and why a kind is not on offer: the rules of
the two turns (STEP 1-3) and the Glossary, each stated once.

:func:`violations` checks an action of a kind the seat may take now (the City must be
adjacent, the card in the hand, the cost paid); :func:`explain` says why a kind is not on
offer at all (only the Dynasty attacks; a card is drawn in step 1). Both read only, and
say nothing of the other side's hidden cards: a message names only the Cities the action
itself names.

>>> from rules.liberation import GAME
>>> s = GAME.new(GAME.default_seats(), {"balance": 1}, seed=3)
>>> [v.message for v in explain(s, "liberation-2", "attack")]
['Only the Dynasty attacks: it names a City to attack (Glossary: Attack).']
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from rules.core import Action, Violation

from .actions import AskReferee, Attack, Discard, Evade, FirstCity, Mission, Occupy, PlaceBase, Sabotage, Unexploit
from .missions import Mission as MissionSpec
from .rulebook import (
    R_ATTACK, R_COSTS, R_D2, R_DMISSION, R_EVADE, R_EXPLOIT, R_LMISSION, R_MISSIONS, R_OCCUPY, R_SABOTAGE, R_SETUP,
    R_STEP1, R_STEP3, R_UNEXPLOIT,
)
from .state import HAND_LIMIT, LiberationState


def violations(state: LiberationState, action: Action) -> Iterable[Violation]:
    """The rules ``action`` breaks, for a kind its seat may take now. A Draw's card is the
    kernel's to check against the deck; a Pass or a Claim breaks no rule."""
    check = _RULES.get(type(action))
    return check(state, action) if check is not None else ()


def _card_rules(state: LiberationState, action: FirstCity | PlaceBase) -> Iterator[Violation]:
    if action.card not in state.hands[action.seat]:
        yield Violation("not-in-hand", R_SETUP, f"{_q(action.card)} is not a card in your hand.")


def _unexploit_rules(state: LiberationState, action: Unexploit) -> Iterator[Violation]:
    if action.city not in state.exploited:
        yield Violation("not-exploited", R_UNEXPLOIT, f"{_q(action.city)} is not an exploited City of yours.")


def _occupy_rules(state: LiberationState, action: Occupy) -> Iterator[Violation]:
    m = state.map
    yield from _exploitable(state, action.exploit, R_OCCUPY)
    if action.card not in state.hands[action.seat]:
        yield Violation("not-in-hand", R_OCCUPY, f"You can only occupy a City card from your hand; {_q(action.card)} is not in it.")
    elif action.exploit in m and not m.adjacent(action.exploit, action.card):
        yield Violation("not-adjacent", R_OCCUPY, f"{_q(action.card)} is not adjacent to {_q(action.exploit)}, the City you exploit.")


def _attack_rules(state: LiberationState, action: Attack) -> Iterator[Violation]:
    m = state.map
    yield from _exploitable(state, action.exploit, R_ATTACK)
    if action.city not in m:
        yield Violation("unknown-city", R_ATTACK, f"There is no City {_q(action.city)} on the map.")
    elif action.exploit in m and not m.adjacent(action.exploit, action.city):
        yield Violation("not-adjacent", R_ATTACK, f"You can only attack a City adjacent to the one you exploit; {_q(action.city)} is not adjacent to {_q(action.exploit)}.")


def _evade_rules(state: LiberationState, action: Evade) -> Iterator[Violation]:
    m = state.map
    if action.to not in m:
        yield Violation("unknown-city", R_EVADE, f"There is no City {_q(action.to)} on the map.")
        return
    if action.to != state.base and action.to not in state.hands[action.seat]:
        yield Violation("not-in-hand", R_EVADE, f"Your new base must be a card from your hand (or the base itself); {_q(action.to)} is not.")
    if action.to != state.base and not m.adjacent(state.base, action.to):
        # Said without naming the current base: the harness and the Dynasty's
        # screen must never see it.
        yield Violation("evade-too-far", R_EVADE, f"Your new base must be the same City or one adjacent (one line) to your current base; {_q(action.to)} is not.")


def _sabotage_rules(state: LiberationState, action: Sabotage) -> Iterator[Violation]:
    m = state.map
    if action.city not in m:
        yield Violation("unknown-city", R_SABOTAGE, f"There is no City {_q(action.city)} on the map.")
    elif not any(m.adjacent(action.city, c) for c in (*state.hands[action.seat].cards, state.base)):
        yield Violation("out-of-reach", R_SABOTAGE, f"You can only sabotage a City adjacent to a card in your hand or to your base; {_q(action.city)} is not.")


def _discard_rules(state: LiberationState, action: Discard) -> Iterator[Violation]:
    if action.card not in state.hands[action.seat]:
        yield Violation("not-in-hand", R_STEP3, f"{_q(action.card)} is not a card in your hand.")


def _exploitable(state: LiberationState, city: str, rule: str) -> Iterator[Violation]:
    if city not in state.occupied:
        yield Violation("not-occupied", rule, f"You can only exploit a City you occupy; {_q(city)} is not one.")
    elif city in state.exploited:
        yield Violation("already-exploited", R_EXPLOIT, f"{_q(city)} is already exploited: unexploit it first.")


def _mission_rules(state: LiberationState, action: Mission) -> Iterator[Violation]:
    seat = action.seat
    side = state.side(seat)
    hand = state.hands[seat]
    rule = R_DMISSION if side == "dynasty" else R_LMISSION
    if action.occupied:
        if side != "dynasty":
            yield Violation("cannot-exploit", rule, "The Liberation never occupies Cities, so it performs missions only from its hand.")
            return
        yield from _exploitable(state, action.card, R_D2 + ": Exploit a City — Mission")
    elif action.card not in hand:
        yield Violation("not-in-hand", rule, f"Reveal a card from your hand to perform its mission; {_q(action.card)} is not in it.")
    if action.card not in state.map:
        return
    spec = _mission_of(state, action.card, side)
    if spec.cost != "discard" and action.pay_card:
        yield Violation("no-such-cost", R_COSTS, f"{spec.name} does not cost a discard; leave the cost card empty.")
    if spec.cost != "exploit" and action.pay_city:
        yield Violation("no-such-cost", R_COSTS, f"{spec.name} does not cost an exploited City; leave the cost City empty.")
    if spec.cost == "discard":
        if not action.pay_card:
            yield Violation("cost-unpaid", R_COSTS, f"{spec.name} costs 1 other card from your hand, discarded first.")
        elif action.pay_card == action.card and not action.occupied:
            yield Violation("cost-not-other", R_COSTS, "The cost is 1 *other* card: not the mission's own card.")
        elif action.pay_card not in hand:
            yield Violation("cost-not-in-hand", R_COSTS, f"{_q(action.pay_card)} is not a card in your hand to pay with.")
    elif spec.cost == "exploit":
        if not action.pay_city:
            yield Violation("cost-unpaid", R_COSTS, f"{spec.name} costs exploiting 1 other City you occupy.")
        elif action.pay_city == action.card and action.occupied:
            yield Violation("cost-not-other", R_COSTS, "The cost is exploiting 1 *other* City: not the one whose mission you perform.")
        else:
            for v in _exploitable(state, action.pay_city, R_COSTS):
                yield Violation("cost-" + v.code, R_COSTS, v.message)


def _ask_rules(state: LiberationState, action: AskReferee) -> Iterator[Violation]:
    spec = _mission_of(state, state.asking, state.side(action.seat))
    q = spec.question
    assert q is not None  # the phase is "ask" only for missions with a question
    m = state.map
    if q.kind == "base-within":
        if action.cities:
            yield Violation("bad-question", R_MISSIONS, f"{spec.name} asks about one City and a number of steps, not a list of Cities.")
        if action.city not in m:
            yield Violation("unknown-city", R_MISSIONS, f"There is no City {_q(action.city)} on the map.")
        if not 1 <= action.steps <= q.max_steps:
            yield Violation("bad-steps", R_MISSIONS, f"{spec.name} asks about 1 to {q.max_steps} steps, not {action.steps}.")
        return
    if action.city or action.steps:
        yield Violation("bad-question", R_MISSIONS, f"{spec.name} asks about a list of Cities, not one City and a number of steps.")
    if not 1 <= len(action.cities) <= q.max_cities:
        yield Violation("bad-city-count", R_MISSIONS, f"{spec.name} names 1 to {q.max_cities} Cities, not {len(action.cities)}.")
    if len(set(action.cities)) != len(action.cities):
        yield Violation("repeated-city", R_MISSIONS, "Name each City once.")
    for c in action.cities:
        if c not in m:
            yield Violation("unknown-city", R_MISSIONS, f"There is no City {_q(c)} on the map.")


def _mission_of(state: LiberationState, card: str, side: str) -> MissionSpec:
    return state.missions.mission(state.map.category_of(card), side)


def _q(city: str) -> str:
    """A City as an error message names it: by the id the action itself carries (a
    message never names a City the action did not, so it cannot leak one)."""
    return repr(city)


_RULES: dict[type[Action], Callable[[LiberationState, Any], Iterable[Violation]]] = {
    FirstCity: _card_rules, PlaceBase: _card_rules, Unexploit: _unexploit_rules, Occupy: _occupy_rules,
    Attack: _attack_rules, Mission: _mission_rules, AskReferee: _ask_rules, Evade: _evade_rules,
    Sabotage: _sabotage_rules, Discard: _discard_rules,
}
"""The rule check of each action class that has one."""


# ------------------------------------------------------------------ not on offer

ONLY: dict[str, tuple[str, str, str]] = {
    # kind: (the side that may take it, the rulebook section, what the rulebook says)
    "first_city": ("dynasty", R_SETUP, "The Dynasty places one of their cards face up: the first City they occupy."),
    "place_base": ("liberation", R_SETUP, "The Liberation places one of their cards face down: their secret base."),
    "occupy": ("dynasty", R_OCCUPY, "The Liberation never occupies Cities (Glossary: Occupy)."),
    "attack": ("dynasty", R_ATTACK, "Only the Dynasty attacks: it names a City to attack (Glossary: Attack)."),
    "claim": ("dynasty", R_ATTACK, "Only the Dynasty takes a card by attacking, to occupy or discard it."),
    "unexploit": ("dynasty", R_UNEXPLOIT, "Only the Dynasty exploits and unexploits Cities: the Liberation occupies none."),
    "evade": ("liberation", R_EVADE, "Only the Liberation evades: it moves its secret base."),
    "sabotage": ("liberation", R_SABOTAGE, "Only the Liberation sabotages (Glossary: Sabotage)."),
}

WHEN: dict[str, tuple[str, str]] = {
    # kind: (the rulebook section, when the kind comes in a turn)
    "draw": (R_STEP1, "A card is drawn in step 1 of a turn (\"You may draw a card\"), or at setup."),
    "pass": (R_D2, "Only steps 1 and 2 may be passed: the discard down to 3 cards, an attacked card to occupy "
                   "or discard, a mission's question and setup cannot."),
    "unexploit": (R_UNEXPLOIT, "A City is unexploited in step 1, or as the action of step 2."),
    "occupy": (R_D2, "Exploiting a City to occupy is the action of step 2 (\"You may take one Action\")."),
    "attack": (R_D2, "Exploiting a City to attack is the action of step 2 (\"You may take one Action\")."),
    "mission": (R_D2, "A mission is the action of step 2 (\"You may take one Action\")."),
    "evade": (R_EVADE, "Evading is the action of step 2 (\"You may take one Action\")."),
    "sabotage": (R_SABOTAGE, "Sabotage is the action of step 2 (\"You may take one Action\")."),
    "claim": (R_ATTACK, "An attacked card is occupied or discarded just after the Attack that took it."),
    "ask": (R_MISSIONS, "The referee is asked only by a mission with a question, just after it is performed."),
    "discard": (R_STEP3, f"Step 3 discards down to {HAND_LIMIT} cards, and only while you hold more."),
    "first_city": (R_SETUP, "The first City is placed at setup, once each player has drawn 3 cards."),
    "place_base": (R_SETUP, "The secret base is placed at setup, after the Dynasty's first City."),
}


def explain(state: LiberationState, seat: str, kind: str) -> Iterator[Violation]:
    """Why ``seat``, which must act now, may not take ``kind``: the side the kind belongs
    to, or when it comes in a turn."""
    only = ONLY.get(kind)
    if only is not None and only[0] != state.side(seat):
        yield Violation(f"{only[0]}-only", only[1], only[2])
        return
    if kind == "draw" and state.phase == "step1" and not (state.deck.cards or state.deck.discard):
        yield Violation("nothing-to-draw", R_STEP1, "There is no card to draw: the deck and the discard pile are empty.")
        return
    when = WHEN.get(kind)
    if when is not None:
        yield Violation(f"not-now-{kind}", when[0], when[1])
