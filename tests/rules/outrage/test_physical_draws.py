"""RULINGS T-01 (issue 32, item 5): a Tower card drawn from the table's own pack may be any
Tower card the drawer cannot rule out: the pack's and those the other players keep "hidden
from other players" (TOWER CARDS). Only its own hand and a burglary's tools, which lie face
up, are refused, saying so; accepting a card the app had in another hand swaps the pack's
next card into that hand and tells its holder alone."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, DrawRequest
from rules.core.playout import random_playout
from rules.outrage import GAME
from rules.outrage.cards import TOWER_CARDS

from ..physical_draws import check_physical_draws


def tower_draws(seeds: range, plies: int = 1500):
    """States of random games where a seat must draw a Tower card while another holds some."""
    for seed in seeds:
        found: list = []

        def keep(state, action, found=found):
            p = GAME.prompt(state)
            for seat in p.seats():
                req = p.waits[seat]
                others = sum(len(h) for s, h in state.hands.items() if s != seat)
                if isinstance(req, DrawRequest) and req.deck == "tower" and others and len(found) < 3:
                    found.append((GAME.copy(state), seat))
        random_playout(GAME, seed, max_plies=plies, on_step=keep)
        yield from found


def seen_elsewhere(s, seat) -> set[str]:
    """What the drawer sees of where Tower cards are: its own hand, and the tools of a
    burglary laid face up. (Weapons laid face down in an attack are put back before anyone
    draws again: none lie there at a draw.)"""
    assert not any(s.laid.values())
    out = set(s.hands[seat].cards)
    for bg in s.burglaries.values():
        out |= set(bg.tools)
    return out


def test_every_tower_card_the_drawer_cannot_rule_out_is_accepted_and_the_verdicts_hide_the_hands():
    states = compared = in_hands = 0
    for s, seat in tower_draws(range(12)):
        states += 1
        in_hands += sum(len(h) for o, h in s.hands.items() if o != seat)
        compared += check_physical_draws(GAME, s, seat, TOWER_CARDS, seen_elsewhere(s, seat), seed=states)
    assert states >= 5 and compared >= 3 and in_hands >= 3, (states, compared, in_hands)


def test_a_card_held_by_another_player_is_accepted_and_only_its_holder_is_told():
    for s, seat in tower_draws(range(12)):
        theirs = [(o, c) for o, h in sorted(s.hands.items()) if o != seat for c in h.cards]
        if not theirs or not s.decks["tower"].cards:
            continue
        holder, card = theirs[0]
        top, size = s.decks["tower"].cards[0], len(s.hands[holder])
        GAME.push(s, Draw(seat, "tower", card, source="card"))
        assert card in s.hands[seat] and card not in s.hands[holder]
        assert top in s.hands[holder] and len(s.hands[holder]) == size
        assert not list(GAME.problems(s))
        assert any("Check your hand" in e["text"] for e in GAME.view(s, holder)["log"])
        assert not any("Check your hand" in e["text"] for e in GAME.view(s, PUBLIC)["log"] + GAME.view(s, seat)["log"])
        return
    raise AssertionError("no Tower card draw found while another player held a card")


def test_a_card_of_the_drawers_own_hand_is_refused_in_its_words():
    for s, seat in tower_draws(range(12)):
        if not s.hands[seat].cards:
            continue
        problems = GAME.check(s, Draw(seat, "tower", s.hands[seat].cards[0], source="card"))
        assert [v.message for v in problems] == ["That card is in your own hand."]
        return
    raise AssertionError("no Tower card draw found while the drawer held a card")
