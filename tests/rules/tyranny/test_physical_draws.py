"""RULINGS C-16 (issue 32, item 5): a card drawn from the table's own deck may be any card
of that deck the drawer cannot rule out: the deck's and those kept face down in the other
seats' hands. Only its own hand and the face-up discard pile are refused, saying so."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, DrawRequest
from rules.core.playout import random_playout
from rules.tyranny import GAME
from rules.tyranny.cards import DECKS

from ..physical_draws import check_physical_draws


def draw_states(seeds: range, plies: int = 400):
    """States of random games where a seat must draw, with some cards kept in hands."""
    for seed in seeds:
        found: list = []

        def keep(state, action, found=found):
            p = GAME.prompt(state)
            if isinstance(p.awaiting, DrawRequest) and sum(len(h) for h in state.hands.values()) and len(found) < 3:
                found.append(GAME.copy(state))
        random_playout(GAME, seed, max_plies=plies, on_step=keep)
        yield from found


def ruled_out(s, seat, deck) -> set[str]:
    """What the drawer may see of where this deck's cards are: its hand, the face-up discards
    (unless drawing would reshuffle them)."""
    out = set(s.hands[seat].cards)
    if s.decks[deck].cards:
        out |= set(s.decks[deck].discard)
    return out


def test_every_card_the_drawer_cannot_rule_out_is_accepted_and_the_verdicts_hide_the_hands():
    states = compared = in_hands = 0
    for s in draw_states(range(16)):
        seat, deck = s.actor, GAME.prompt(s).awaiting.deck
        states += 1
        in_hands += sum(1 for o, h in s.hands.items() if o != seat for c in h.cards if c in DECKS[deck])
        compared += check_physical_draws(GAME, s, seat, DECKS[deck], ruled_out(s, seat, deck), seed=states)
    assert states >= 10 and compared >= 5 and in_hands >= 3, (states, compared, in_hands)


def test_a_card_kept_in_another_hand_is_accepted_its_holder_told_privately():
    for s in draw_states(range(16)):
        seat, deck = s.actor, GAME.prompt(s).awaiting.deck
        theirs = [(o, c) for o, h in sorted(s.hands.items()) if o != seat for c in h.cards if c in DECKS[deck]]
        if not theirs or not s.decks[deck].cards:
            continue
        holder, card = theirs[0]
        top, size = s.decks[deck].cards[0], len(s.hands[holder])
        GAME.push(s, Draw(seat, deck, card, source="card"))
        assert card not in s.hands[holder] and top in s.hands[holder] and len(s.hands[holder]) == size
        assert not list(GAME.problems(s))
        assert any("Check your hand" in e["text"] for e in GAME.view(s, holder)["log"])
        assert not any("Check your hand" in e["text"] for e in GAME.view(s, PUBLIC)["log"] + GAME.view(s, seat)["log"])
        return
    raise AssertionError("no draw found while another seat kept a card of the deck")


def test_the_drawers_own_card_and_the_discards_are_refused_with_public_reasons():
    seen = set()
    for s in draw_states(range(24)):
        seat, deck = s.actor, GAME.prompt(s).awaiting.deck
        for card in s.hands[seat].cards:
            if card in DECKS[deck]:
                assert [v.message for v in GAME.check(s, Draw(seat, deck, card))] == ["You keep that card in your hand."]
                seen.add("hand")
        if s.decks[deck].cards and s.decks[deck].discard:
            msg = [v.message for v in GAME.check(s, Draw(seat, deck, s.decks[deck].discard[0]))]
            assert msg == [f"That card is face up in the {deck.title()} discard pile."]
            seen.add("discard")
    assert seen == {"hand", "discard"}
