"""The checked push's fast path (``Tyranny._plainly_legal``) never says "legal" where the
kernel's full check would find a violation: over random games, every legal action and a
batch of near-miss illegal ones (another seat, a stale action, impossible dice, forged
cards, nudged fields) at every ply."""
from __future__ import annotations

from rules.core import Game, Rng
from rules.core.harness import _illegal_candidates
from rules.core.playout import random_playout
from rules.tyranny import GAME


def test_the_fast_path_accepts_only_what_the_full_check_accepts(soak_factor):
    accepted = refused = 0
    for seed in range(40 * soak_factor):
        rng = Rng(10_000 + seed)
        seen: list = []

        def probe(state, action):
            nonlocal accepted, refused
            if state.result is not None:
                return
            legal = list(GAME.legal_actions(state))
            candidates = legal + list(_illegal_candidates(GAME, state, rng, legal, seen, None))
            for a in candidates:
                full = Game.check(GAME, state, a)
                if GAME._plainly_legal(state, a):
                    accepted += 1
                    assert full == (), (state.ply, a, full)
                refused += bool(full)
            seen.append(action)

        random_playout(GAME, seed, max_plies=300, on_step=probe)
    # The fast path is the common case, and many probes were ones the full check refuses.
    print(f"fast path accepted {accepted}, full check refused {refused}")
    assert accepted > 1000 and refused > 1000, (accepted, refused)
