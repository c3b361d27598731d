"""Every refusal a player can meet says why, in the game's terms (issue 31).

The kernel alone can only say "The game is waiting for …; a pay is not allowed now"
(``not-awaited``): true, but no reason. A player who tries something at the table wants
the rule that stops it ("paying to escape costs 200 influence; the criminals have 150").
So, over random play of every game, at sampled states, each seat that must act tries an
action of every kind the game has (a real action of that kind, seen earlier in random
play, now in this seat's name):

* a kind its prompt does not offer must be refused with at least one violation of the
  game's own (its ``explain``), not only the kernel's ``not-awaited``;
* a kind that is offered but refused (the wrong tile, the wrong dice) must likewise carry
  a reason beyond ``not-awaited``.

The seats that are not asked to act are refused with "It is Ann's turn to act, not
Bob's" (``not-your-turn``), which is the reason; they are not probed here.
"""
from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from typing import Any

import pytest

import rules
from rules.core import Action, Game, IllegalAction, Rng
from rules.core.playout import choose

GENERIC = frozenset({"not-awaited"})
"""The kernel's code for "… is not allowed now": says what is awaited, not why."""


_GAMES = ["tyranny", "liberation", "outrage", "dicetopia", "against_all_tyrants"]


def _random_games(game: Game[Any], seed: int, games: int, plies: int, on_state: Any) -> None:
    """Play ``games`` random games of at most ``plies`` actions, calling
    ``on_state(state, legal)`` before each action (the state must not be changed)."""
    for g in range(games):
        rng = Rng(seed + g)
        seats, options = game.random_setup(rng)
        state = game.new(seats, options, seed + g)
        for _ in range(plies):
            if state.result is not None:
                break
            legal = list(game.legal_actions(state))
            on_state(state, legal)
            game.push(state, choose(rng, legal))


def _pool(game: Game[Any], seed: int, games: int, plies: int) -> dict[type[Action], list[Action]]:
    """Real actions of each class, as random play lists them legal somewhere: what a seat
    would try (a tile, a card, a range it has seen used)."""
    pool: dict[type[Action], list[Action]] = defaultdict(list)

    def keep(state: Any, legal: list[Action]) -> None:
        for a in legal:
            kept = pool[type(a)]
            if len(kept) < 12 and a not in kept:
                kept.append(a)

    _random_games(game, seed, games, plies, keep)
    return pool


def refusals_without_a_reason(game: Game[Any], *, seed: int = 0, games: int = 4, plies: int = 250,
                              every: int = 3) -> tuple[int, Counter[str], list[str]]:
    """Probe ``games`` random games at every ``every``-th state: (refusals probed, the
    unexplained ones by "step: kind", an example of each)."""
    pool = _pool(game, seed + 1000, games, plies)
    probed = 0
    bare: Counter[str] = Counter()
    examples: dict[str, str] = {}
    pick = Rng(seed)

    def probe(state: Any, legal: list[Action]) -> None:
        nonlocal probed
        if state.ply % every:
            return
        prompt = game.prompt(state)
        for seat in prompt.seats():
            for cls in game.action_types:
                tried = pool.get(cls)
                if not tried:
                    continue
                action = dataclasses.replace(pick.choice(tried), seat=seat)
                found = game.check(state, action)
                if not found:
                    continue
                probed += 1
                if all(v.code in GENERIC for v in found):
                    where = f"{state.phase}: {action.kind}"
                    bare[where] += 1
                    examples.setdefault(where, f"{action} at ply {state.ply}: {' / '.join(v.message for v in found)}")

    _random_games(game, seed, games, plies, probe)
    return probed, bare, [examples[k] for k in sorted(bare)]


@pytest.mark.parametrize("game_id", _GAMES)
def test_no_refusal_carries_only_the_kernels_sentence(game_id: str, soak_factor: int) -> None:
    game = rules.load(game_id)
    probed, bare, examples = refusals_without_a_reason(game, games=4 * soak_factor)
    assert probed > 300, f"{game_id}: only {probed} refusals probed"
    assert not bare, (f"{game_id}: {sum(bare.values())} of {probed} refusals say only what is awaited, not why "
                      f"(by step and kind: {dict(bare)}); for example:\n  " + "\n  ".join(examples))


def test_the_probe_finds_a_bare_refusal() -> None:
    """The check can fail: a game whose ``explain`` says nothing is caught at once."""
    from rules.tyranny import GAME, Tyranny

    class Silent(Tyranny):
        def explain(self, state: Any, action: Action, prompt: Any) -> Any:
            return ()

    probed, bare, examples = refusals_without_a_reason(Silent(), games=1, plies=60)
    assert probed and bare and examples
    assert GAME.id == Silent.id  # the same rules, only the explanations left out


def test_a_criminal_with_150_influence_is_told_paying_costs_200() -> None:
    """Tyranny, Escaping capture: "the captured player must pay 200 Influence Points or
    roll a 6". With 150 the payment is refused with the cost and the purse, not with
    "a pay is not allowed now" (the rules README's own example of ``explain``)."""
    from rules.tyranny import GAME, PayEscape

    start = GAME.new([("crim-1", "criminals"), ("cop-1", "cops")], {}, 1)
    p = GAME.position(start)
    p["influence"] = 150
    p["pieces"]["crim-1"]["custody"] = True
    p["pieces"]["crim-1"]["escape_on"] = [6]
    p["pieces"]["crim-1"]["tile"] = GAME.position(start)["pieces"]["cop-1"]["tile"]
    state = GAME.new([("crim-1", "criminals"), ("cop-1", "cops")], {}, 1, position=p)
    assert GAME.prompt(state).awaiting.purpose == "escape"
    assert "pay" not in GAME.prompt(state).awaiting.accepted
    with pytest.raises(IllegalAction) as refused:
        GAME.push(state, PayEscape("crim-1"))
    reasons = [v for v in refused.value.violations if v.code not in GENERIC]
    assert reasons, refused.value.violations
    assert any("200" in v.message and "150" in v.message for v in reasons), reasons
    assert all(v.rule == "Gameplay: Escaping capture" for v in reasons), reasons
