"""RULINGS L-14: a physical draw accepts every City card the drawer cannot rule out (the
deck, the face-down discards, the other side's hand, for the Dynasty the base) and refuses
only what it can see elsewhere: its own hand, the occupied Cities face up on the map, its
own base, the card an Attack took, a card shown and discarded (issue 32, item 5)."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, DrawRequest
from rules.core.playout import random_playout
from rules.liberation import GAME, Pass

from ..physical_draws import check_physical_draws
from .helpers import D, L, c, hand, start


def ruled_out(s, seat) -> set[str]:
    """What the rulebook lets ``seat`` see of where the City cards are."""
    out = set(s.hands[seat].cards) | set(s.occupied) | {s.taken} - {""}
    if seat == s.liberation:
        out.add(s.base)
    if s.deck.cards:
        out |= set(s.shown)
    return out


def draw_states(seeds: range, plies: int = 200):
    """Mid-game states of random games where a seat must draw in step 1."""
    for seed in seeds:
        found = []

        def keep(state, action, found=found):
            p = GAME.prompt(state)
            if state.phase == "step1" and isinstance(p.awaiting, DrawRequest) and len(found) < 3:
                found.append(GAME.copy(state))
        random_playout(GAME, seed, max_plies=plies, on_step=keep)
        yield from found


def test_the_reported_case_a_card_in_the_other_hand_is_accepted_and_swapped():
    """The game night's case: City A's card in the other player's hand is entered as drawn."""
    s = start(dyn="abd", lib="efg", discard="n", first="a", base="f")  # Dynasty holds b, d
    GAME.push(s, Draw(D, "city", c("c")))
    GAME.push(s, Pass(D))  # step 2: no action; still 3 cards, no step 3
    assert GAME.prompt(s).actors == {L}
    top = s.deck.cards[0]
    GAME.push(s, Draw(L, "city", c("b"), source="card"))  # b was in the Dynasty's hand
    assert c("b") in hand(s, L) and c("b") not in hand(s, D) and top in hand(s, D)
    assert len(hand(s, D)) == 3 and top not in s.deck.cards and not list(GAME.problems(s))
    dyn_log = [e["text"] for e in GAME.view(s, D)["log"]]
    assert any("Check your hand" in t for t in dyn_log)
    assert not any("Check your hand" in e["text"] for e in GAME.view(s, PUBLIC)["log"])
    assert not any("Check your hand" in e["text"] for e in GAME.view(s, L)["log"])


def test_the_base_drawn_by_the_dynasty_is_accepted_and_the_liberation_is_told():
    s = start(dyn="abd", lib="efg", discard="n", first="a", base="f")
    top = s.deck.cards[0]
    GAME.push(s, Draw(D, "city", c("f"), source="card"))
    assert c("f") in hand(s, D) and s.base == top and s.moves[-1].redrawn
    assert not list(GAME.problems(s))
    assert any("your base" in e["text"] for e in GAME.view(s, L)["log"])
    assert not any(top in e["text"] or s.map.name_of(top) in e["text"] for e in GAME.view(s, D)["log"])


def test_own_hand_and_occupied_cities_are_refused_with_public_reasons():
    s = start(dyn="abd", lib="efg", discard="n", first="a", base="f")
    msgs = {x: [v.message for v in GAME.check(s, Draw(D, "city", c(x)))] for x in "ab"}
    assert msgs == {"a": ["That City is occupied: its card lies face up on the map."],
                    "b": ["That card is in your hand."]}


def test_every_unexcluded_card_is_accepted_the_rest_refused_the_same_in_every_hidden_state():
    compared = states = 0
    for s in draw_states(range(12)):
        seat = s.active
        states += 1
        compared += check_physical_draws(GAME, s, seat, s.map.city_ids, ruled_out(s, seat), seed=states)
    assert states >= 12 and compared >= 12
