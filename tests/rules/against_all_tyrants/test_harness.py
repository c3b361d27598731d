"""Random games with the example set through the kernel's invariant harness: cards
conserved across deck, hand, play, discard and Special Forces; tokens within their limits;
escalation within 0–5; hands hidden (the differential secret check swaps hand and deck
cards and compares everything the other seat and the table see)."""
from __future__ import annotations

import os

import pytest

from rules.core import PUBLIC, Rng
from rules.core.harness import InvariantBroken, run_harness
from rules.core.playout import random_playout
from rules.against_all_tyrants import GAME, AgainstAllTyrants


def harness_games(soak_factor: int) -> int:
    """3 games in the suite, 60 with ``--long``; ``AAT_HARNESS_GAMES=2000`` for thousands
    (about half a second a game on an idle core: add ``--timeout=0``, past pytest-timeout's 600 s)."""
    return int(os.environ.get("AAT_HARNESS_GAMES") or 3 * soak_factor)


def test_harness_random_games(soak_factor):
    games = harness_games(soak_factor)
    report = run_harness(GAME, games=games, seed=2026, roundtrip_every=40, illegal_per_step=0.05, differential_rate=0.02)
    print(f"\nAgainst All Tyrants harness: {report}")
    assert report.games == games
    # Games reaching their end are test_random_playouts_keep_every_invariant's to show: since
    # every text of the example set is carried out as written (issue 32), no text deals
    # damage anywhere, and the harness's random decks (the Navy or the Freedom Fighters on
    # either side) rarely finish within its 400 plies.
    assert report.plies > 100 * games
    for code in ("not-your-turn", "bad-action", "card-not-in-deck"):
        assert report.codes.get(code, 0) > 0, code


def test_random_playouts_keep_every_invariant(soak_factor):
    finished = 0
    levels = set()
    for seed in range(6 * soak_factor):
        p = random_playout(GAME, seed, max_plies=500)
        assert list(GAME.problems(p.state)) == []
        assert 0 <= p.state.escalation.level <= 5
        levels.add(p.state.escalation.level)
        finished += p.finished
    assert finished >= 3 * soak_factor and max(levels) >= 1


def test_differential_secret_check_covers_hands(soak_factor):
    report = run_harness(GAME, games=2 * soak_factor, seed=7, illegal_per_step=0.0, differential_rate=0.3, roundtrip_every=100)
    assert report.variants > 40, report


def test_the_differential_check_catches_a_hand_leak_that_names_nothing():
    class Hinting(AgainstAllTyrants):
        def render(self, state, viewer):
            view = super().render(state, viewer)
            other = state.other(viewer) if viewer in state.sides else state.active or state.seat_ids()[0]
            view["hint"] = sum(len(c) for c in state.sides[other].hand.cards) % 3
            return view

    with pytest.raises(InvariantBroken, match="may not see"):
        run_harness(Hinting(), games=2, seed=1, differential_rate=1.0, illegal_per_step=0.0)


def test_the_harness_catches_a_hand_in_the_public_view():
    class Leaky(AgainstAllTyrants):
        def render(self, state, viewer):
            return {**super().render(state, viewer), "peek": list(state.sides[state.seat_ids()[0]].hand.cards)}

    with pytest.raises(InvariantBroken, match="shows secrets"):
        run_harness(Leaky(), games=1, seed=1)


def test_hands_never_reach_the_public_log_or_view():
    checked = 0

    def look(s, action):
        nonlocal checked
        if s.result is not None or s.ply % 7:
            return
        for seat in s.sides:
            hand = set(s.sides[seat].hand.cards)
            for viewer in (PUBLIC, s.other(seat)):
                text = str(GAME.view(s, viewer))
                assert not any(c in text for c in hand)
            checked += bool(hand)

    random_playout(GAME, 3, max_plies=300, on_step=look)
    assert checked > 10


def test_hidden_variants_swap_the_other_hand():
    from .helpers import fresh
    s = fresh()
    changed = {"att": 0, "def": 0}
    for seed in range(40):
        twin = GAME.hidden_variant(s, "att", Rng(seed))
        assert twin.sides["att"].hand.cards == s.sides["att"].hand.cards       # the viewer's own hand stays
        changed["def"] += twin.sides["def"].hand.cards != s.sides["def"].hand.cards
        assert GAME.view(twin, "att") == GAME.view(s, "att")
    assert changed["def"] > 0
