"""RULINGS A-30 (issue 32, item 5): each side draws from its own deck, whose remaining cards
its deck list and the cards it has seen tell it (only their order is hidden). Every card
left there is accepted, any other refused in words naming no internal id, and no verdict
differs between hidden states the drawer cannot tell apart."""
from __future__ import annotations

from rules.core import Draw, DrawRequest
from rules.core.playout import random_playout
from rules.against_all_tyrants import GAME

from ..physical_draws import check_physical_draws


def draw_states(seeds: range, plies: int = 300):
    for seed in seeds:
        found: list = []

        def keep(state, action, found=found):
            p = GAME.prompt(state)
            if isinstance(p.awaiting, DrawRequest) and len(found) < 3:
                found.append(GAME.copy(state))
        random_playout(GAME, seed, max_plies=plies, on_step=keep)
        yield from found


def test_every_card_left_in_the_drawers_deck_is_accepted_the_rest_refused_the_same_in_every_hidden_state():
    states = compared = 0
    for s in draw_states(range(6)):
        seat = next(iter(GAME.prompt(s).actors))
        other = next(o for o in s.sides if o != seat)
        mine, theirs = s.sides[seat], s.sides[other]
        # Every card the drawer might name: its own deck's, hand's, discards', and the
        # other side's hand (cards of the other deck).
        universe = mine.deck.cards + mine.hand.cards + mine.discard + theirs.hand.cards + theirs.deck.cards[:5]
        left = set(mine.deck.cards) if mine.deck.cards else set()
        states += 1
        for card in set(universe) - left:
            for v in GAME.check(s, Draw(seat, GAME.prompt(s).waits[seat].deck, card)):
                assert "deck-" not in v.message and seat not in v.message and other not in v.message, v.message
        compared += check_physical_draws(GAME, s, seat, universe, set(universe) - left, seed=states)
    assert states >= 8 and compared >= 8, (states, compared)
