"""RULINGS D-33 (issue 32, item 5): a mission drawn from the table's own deck may be any
mission the drawer cannot rule out, another player's secret missions included (the app then
swaps its guess behind the scenes); only the drawer's own missions and what lies face up
are refused, saying so."""
from __future__ import annotations

from rules.core import PUBLIC, Draw, DrawRequest
from rules.core.playout import random_playout
from rules.dicetopia import GAME
from rules.dicetopia.state import MISSIONS

from ..physical_draws import check_physical_draws


def draw_states(seeds: range, plies: int = 300):
    """States of random games where a seat must draw a mission while others hold some."""
    for seed in seeds:
        found: list = []

        def keep(state, action, found=found):
            p = GAME.prompt(state)
            if (isinstance(p.awaiting, DrawRequest) and p.awaiting.deck == MISSIONS and len(found) < 4
                    and any(len(h) for s, h in state.hands.items() if s not in p.actors)):
                found.append(GAME.copy(state))
        random_playout(GAME, seed, max_plies=plies, on_step=keep)
        yield from found


def ruled_out(s, seat) -> set[str]:
    """What the drawer may see of where the missions are: its own hand, High Stakes
    Gambling's face-up draws, every hand once the end has revealed them."""
    out = set(s.hands[seat].cards) | {c for c in s.gambled.values() if c}
    if s.revealed:
        out |= {c for h in s.hands.values() for c in h.cards}
    return out


def test_every_mission_the_drawer_cannot_rule_out_is_accepted_and_the_verdicts_hide_the_hands():
    states = compared = 0
    for s in draw_states(range(6)):
        seat = next(iter(GAME.prompt(s).actors))
        states += 1
        compared += check_physical_draws(GAME, s, seat, s.t.missions, ruled_out(s, seat), seed=states)
    assert states >= 8 and compared >= 8, (states, compared)


def test_another_players_mission_is_accepted_its_holder_told_privately_and_its_sealed_discard_follows():
    s = next(iter(draw_states(range(3))))
    seat = next(iter(GAME.prompt(s).actors))
    holder = next(o for o in s.order if o != seat and len(s.hands[o]))
    card, top = s.hands[holder].cards[0], s.deck.cards[0]
    s.keeps[holder] = card  # as if sealed as its discard (test shortcut)
    GAME.push(s, Draw(seat, MISSIONS, card, source="card"))
    assert card in s.hands[seat] and top in s.hands[holder] and card not in s.hands[holder]
    assert s.keeps[holder] == top and not list(GAME.problems(s))
    assert any("Check your missions" in e["text"] for e in GAME.view(s, holder)["log"])
    assert not any("Check your missions" in e["text"] for e in GAME.view(s, PUBLIC)["log"] + GAME.view(s, seat)["log"])


def test_the_drawers_own_mission_is_refused_with_a_public_reason():
    s, seat = next((s, seat) for s in draw_states(range(6)) for seat in GAME.prompt(s).actors if len(s.hands[seat]))
    for card in s.hands[seat].cards:
        assert [v.message for v in GAME.check(s, Draw(seat, MISSIONS, card))] == ["That mission is in your hand."]
    assert [v.message for v in GAME.check(s, Draw(seat, MISSIONS, "no-such-mission"))] == ["That is not a mission card."]


def test_a_later_players_entry_of_a_mission_an_earlier_player_kept_or_discarded_is_accepted_and_the_keeping_stands():
    # D-33 with the keeping next to each deal (§3: "They each get to keep two and discard one,
    # without revealing any information to other Players"): Ann has kept two and sealed her
    # discard before Bob enters his cards. Bob's entry of either is accepted, as before her
    # keeping (a refusal, or asking Ann to keep again, would tell Bob where it was); the
    # deck's next mission takes its place in Ann's hand, kept or discarded as the card it
    # replaces was, and Ann alone is told.
    from rules.dicetopia import Keep

    from .helpers import seats

    for which in ("kept", "discarded"):
        s = GAME.new(seats("banxa", "hollows"), {"first": "p1"}, 11)
        GAME.push(s, GAME.sample(s))
        for _ in range(3):
            GAME.push(s, GAME.sample(s, "p1"))
        discard, kept = s.hands["p1"].cards[1], s.hands["p1"].cards[2]
        GAME.push(s, Keep("p1", discard))
        entered = kept if which == "kept" else discard
        top = s.deck.cards[0]
        before = GAME.view(s, "p2")
        assert GAME.check(s, Draw("p2", MISSIONS, entered, source="card")) == ()
        assert GAME.check(s, Draw("p2", MISSIONS, top, source="card")) == ()  # as any card Bob cannot rule out
        GAME.push(s, Draw("p2", MISSIONS, entered, source="card"))
        assert entered in s.hands["p2"] and entered not in s.hands["p1"] and top in s.hands["p1"]
        assert s.keeps["p1"] == (top if which == "discarded" else discard)
        assert not list(GAME.problems(s))
        # Ann is not asked again: her choice stands; Bob sees only his own draw.
        assert sorted(GAME.prompt(s).waits) == ["p2"] and GAME.view(s, PUBLIC)["kept"] == ["p1"]
        assert any("Check your missions" in e["text"] for e in GAME.view(s, "p1")["log"])
        bob = GAME.view(s, "p2")
        assert not any("Check your missions" in e["text"] for e in bob["log"] + GAME.view(s, PUBLIC)["log"])
        assert bob["missions"]["p1"] == before["missions"]["p1"]
        for _ in range(2):
            GAME.push(s, GAME.sample(s, "p2"))
        GAME.push(s, Keep("p2", s.hands["p2"].cards[0]))
        assert s.phase == "deploy" and not list(GAME.problems(s))
        assert len(s.hands["p1"]) == 2 and (top in s.hands["p1"]) == (which == "kept")
        assert (top in s.deck.cards) == (which == "discarded") and discard in (s.deck.cards + s.hands["p2"].cards)
