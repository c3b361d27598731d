"""Thousands of random games through the kernel's invariant harness, with the
hidden-information audit (audit.py) after every action, and the Evade history checked."""
from __future__ import annotations

import pytest

from rules.core import PUBLIC, Rng
from rules.core.harness import InvariantBroken, run_harness
from rules.core.playout import random_playout
from rules.liberation import GAME, Evade, Liberation

from .audit import Audited, AuditedRandomMaps, Leak, offer_illegal, random_map


def test_harness_random_games(soak_factor):
    games = 120 * soak_factor  # ×20 with --long
    game = AuditedRandomMaps(counterfactual_every=4)
    # Light settings keep this within about a minute on two cores: a full JSON
    # round-trip every 50 plies and illegal actions at 2% of steps; the audit itself
    # runs after every action. test_harness_full_strength runs everything at every step.
    report = run_harness(game, games=games, seed=2026, roundtrip_every=50, illegal_per_step=0.02, extra_illegal=offer_illegal,
                         differential_rate=0.002)
    print(f"\nLiberation harness: {report}\n  evades played: {game.evades}, steps audited: {game.steps}")
    assert report.games == games
    assert report.finished >= 0.95 * games             # random games reach an outcome
    assert report.winners.get("dynasty", 0) > 0.1 * games and report.winners.get("liberation", 0) > 0.1 * games
    for code in ("evade-too-far", "not-adjacent", "out-of-reach", "cost-unpaid", "cost-not-other", "cannot-exploit"):
        assert report.codes.get(code, 0) > 0, code
    assert game.evades > games                          # many Evades were audited


def test_harness_full_strength(soak_factor):
    report = run_harness(AuditedRandomMaps(), games=20 * soak_factor, seed=99, extra_illegal=offer_illegal)
    assert report.games == 20 * soak_factor and report.rejected > 1000
    assert report.codes.get("evade-too-far", 0) > 0


def test_every_recorded_evade_respected_adjacency(soak_factor):
    moved = stayed = 0
    for seed in range(400 * soak_factor):
        options = {"map": random_map(Rng(seed))} if seed % 2 else {}
        p = random_playout(GAME, seed, max_plies=400, options=options)
        s = p.state
        m = s.map
        evades = [a for a in p.actions if isinstance(a, Evade)]
        assert len(s.moves) == 1 + len(evades)
        for before, after in zip(s.moves, s.moves[1:]):
            assert after.from_city == before.to_city
            assert after.from_city == after.to_city or m.adjacent(after.from_city, after.to_city)
            moved += after.from_city != after.to_city
            stayed += after.from_city == after.to_city
        if s.result is not None:
            audit = GAME.view(s, PUBLIC)["audit"]
            assert all(x["legal"] for x in audit["base_history"])
            assert [x["to"] for x in audit["base_history"]] == [mv.to_city for mv in s.moves]
    assert moved > 100 and stayed > 10


# --------------------------------------------------- the checks can fail


def test_differential_secret_check(soak_factor):
    """Two states that differ only in hidden cards (deck, face-down discards, the other
    side's hand) look the same to whoever may not see them, and judge its actions alike."""
    report = run_harness(GAME, games=8 * soak_factor, seed=5, illegal_per_step=0.0, differential_rate=0.5)
    assert report.variants > 150, report


def test_the_differential_check_catches_a_hand_leak_that_names_nothing():
    class Hinting(Liberation):
        def render(self, state, viewer):
            view = super().render(state, viewer)
            other = state.other(viewer) if viewer in state.hands else state.liberation
            view["hint"] = sum(ord(c[-1]) for c in state.hands[other].cards) % 2
            return view

    with pytest.raises(InvariantBroken, match="may not see"):
        run_harness(Hinting(), games=5, seed=1, differential_rate=1.0)


def test_harness_catches_a_base_shown_in_public():
    class Leaky(Liberation):
        def render(self, state, viewer):
            return {**super().render(state, viewer), "where": state.base}

    with pytest.raises(InvariantBroken, match="shows secrets"):
        run_harness(Leaky(), games=3, seed=1)


def test_harness_catches_a_rejection_that_names_the_base():
    class Chatty(Liberation):
        def violations(self, state, action, prompt):
            for v in super().violations(state, action, prompt):
                yield type(v)(v.code, v.rule, v.message + f" (the base is at {state.base})")

    with pytest.raises(InvariantBroken, match="reveals"):
        run_harness(Chatty(), games=5, seed=1)


def test_audit_catches_an_evade_named_in_public():
    class Loud(Audited):
        def _evade(self, state, action):
            super()._evade(state, action)
            state.note(f"The base is now at {state.name(action.to)}.")

    with pytest.raises(Leak, match="public log"):
        run_harness(Loud(), games=20, seed=1, roundtrip_every=10**6, illegal_per_step=0)


def test_audit_catches_an_engine_that_allows_long_evades():
    class Sloppy(Audited):
        def violations(self, state, action, prompt):
            return (v for v in super().violations(state, action, prompt) if v.code != "evade-too-far")

        def evade_options(self, state):   # and offers every card in hand
            return sorted({state.base, *state.hands[state.liberation].cards}) if state.base else []

    with pytest.raises(Leak, match="not along a line"):
        run_harness(Sloppy(), games=40, seed=1, roundtrip_every=10**6, illegal_per_step=0)


def test_audit_catches_a_view_that_depends_on_the_base():
    class Tell(Audited):
        def render(self, state, viewer):
            view = super().render(state, viewer)
            view["deck"] += state.base.endswith(("a", "c", "e", "g", "i", "k", "m")) if state.base else 0
            return view

    with pytest.raises(Leak, match="depends on which card is the base"):
        run_harness(Tell(), games=5, seed=1, roundtrip_every=10**6, illegal_per_step=0)
