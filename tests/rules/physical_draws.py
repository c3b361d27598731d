"""The three checks every game's physical draw must pass (issue 32, item 5): a card the
drawer cannot rule out from what it may see is accepted and leaves a consistent state; a
card publicly elsewhere is refused with a reason that names no hidden fact; and no verdict
differs between two hidden states the drawer cannot tell apart (the harness's
differential secret idea, ``Game.hidden_variant``)."""
from __future__ import annotations

from typing import Any, Iterable

from rules.core import Draw, DrawRequest, Game, Rng, State


def verdicts(game: Game[Any], state: State, seat: str, deck: str, cards: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Each card's verdict as the drawer would read it: the violations' codes and messages."""
    return {c: [(v.code, v.message) for v in game.check(state, Draw(seat, deck, c, source="card"))] for c in cards}


def check_physical_draws(game: Game[Any], state: State, seat: str, universe: Iterable[str],
                         publicly_elsewhere: set[str], *, seed: int = 0, variants: int = 6) -> int:
    """Assert (a), (b) and (c) for ``seat``'s awaited draw; ``universe`` is every card of the
    deck's kind, ``publicly_elsewhere`` those the rulebook lets the drawer see elsewhere
    (worked out by the test from the rules, not by the engine). Returns how many hidden
    variants were compared."""
    req = game.prompt(state).waits[seat]
    assert isinstance(req, DrawRequest), req
    universe = list(dict.fromkeys(universe))
    got = verdicts(game, state, seat, req.deck, universe)
    accepted = {c for c, v in got.items() if not v}
    # (a) every card the drawer cannot rule out is accepted, and exactly those are offered
    assert accepted == set(universe) - publicly_elsewhere, (sorted(accepted ^ (set(universe) - publicly_elsewhere)))
    assert set(game.drawable(state, seat, req.deck)) == accepted
    for c in accepted:
        after = game.apply(state, Draw(seat, req.deck, c, source="card"))
        assert not list(game.problems(after)), (c, list(game.problems(after)))
    # (b) a publicly-elsewhere card is refused, naming nothing the drawer may not know
    hidden = set(game.secrets(state, seat))
    for c in publicly_elsewhere & set(universe):
        assert got[c], c
        for _, message in got[c]:
            assert not [h for h in hidden if h in message], (c, message)
    # (c) the same verdicts in every hidden state the drawer cannot tell apart
    rng, compared = Rng(seed), 0
    for _ in range(variants):
        twin = game.hidden_variant(state, seat, rng)
        if twin is None:
            continue
        compared += 1
        assert verdicts(game, twin, seat, req.deck, universe) == got
    return compared
