"""Every refusal says why (issue 31): at random states of random games, each seat the
prompt waits for tries every action kind the engine defines that the prompt does not offer
it, and the refusal must carry a reason in the game's terms, never only the kernel's
generic "The game is waiting for …; a … is not allowed now."

The reasons are the rulebook's: when a kind is allowed ("an attack is announced at the
beginning of a turn", "a Raven card is taken on an unmarked square of the Inner Ward") and
what stands in the way now (not accredited, no coin, no such card in the hand).
"""
from __future__ import annotations

import os
import random

import pytest

from rules.core import Action, Draw, Rng, Roll
from rules.outrage import GAME
from rules.outrage.actions import (
    Abandon, Arm, Attack, Burgle, Challenge, Change, Choose, Decline, Escape, Give, MoveTo, Play, Split, Surrender,
)
from rules.outrage import sections
from rules.outrage.state import OutrageState

from .helpers import give, started

GENERIC = "not-awaited"
"""The kernel's code for "The game is waiting for …; a … is not allowed now."."""

HEADINGS = {getattr(sections, n) for n in dir(sections) if n.startswith("R_")}
"""The rulebook's section headings a refusal may cite."""

GAMES = int(os.environ.get("TC_REFUSAL_GAMES", "6"))
"""Random games played (about half a second each); more with TC_REFUSAL_GAMES."""


def tries(state: OutrageState, seat: str) -> list[Action]:
    """One action of every kind the engine defines, as ``seat`` might try it now (its own
    cards where a card is named, another player where one is)."""
    hand = state.hands[seat].cards
    other = next(s for s in state.order.order if s != seat)
    card = hand[0] if hand else "pardon-1"
    pack = state.decks["tower"].cards
    made = [
        Roll(seat, (3, 4)), Draw(seat, "tower", pack[0] if pack else "mace-1"), MoveTo(seat, state.pos[seat]),
        Split(seat, other, 3), Choose(seat, "stay"), Play(seat, card), Decline(seat), Change(seat, (card,)),
        Burgle(seat, (card,)), Abandon(seat), Attack(seat, other), Arm(seat, ()), Surrender(seat, ()),
        Challenge(seat), Escape(seat), Give(seat),
    ]
    assert {type(a) for a in made} == set(GAME.action_types), "a new action kind needs a try here"
    return made


def unexplained(state: OutrageState) -> list[tuple[str, str, str]]:
    """Each refusal, of a kind not on offer to a seat the prompt waits for, whose only
    reason is the kernel's generic sentence: (phase, kind, the refusal)."""
    prompt = GAME.prompt(state)
    found = []
    for seat in prompt.seats():
        accepted = prompt.of(seat).accepted
        for action in tries(state, seat):
            if action.kind in accepted:
                continue
            problems = GAME.check(state, action)
            assert problems, f"{action} was accepted though {action.kind!r} is not on offer"
            reasons = [v for v in problems if v.code != GENERIC]
            if not reasons:
                found.append((state.phase, action.kind, f"{action} -> {problems[0].message}"))
            for v in reasons:
                # In the game's terms: a rulebook section, and players by name, never a seat id.
                assert v.rule in HEADINGS, v
                assert not any(s in v.message.split() for s in state.pos), v
    return found


@pytest.mark.parametrize("game_seed", range(GAMES))
def test_every_refusal_in_random_play_says_why(game_seed):
    rng = random.Random(game_seed)
    seats, options = GAME.random_setup(Rng(game_seed))
    state = GAME.new(seats, options, seed=game_seed)
    missing: dict[str, str] = {}
    for _ply in range(400):
        if GAME.outcome(state) is not None:
            break
        if rng.random() < 0.5:
            for phase, kind, refusal in unexplained(state):
                missing.setdefault(f"{kind} in phase {phase!r}", refusal)
        GAME.push(state, rng.choice(list(GAME.legal_actions(state))))
    assert not missing, "\n".join(f"{k}: {v}" for k, v in sorted(missing.items()))


@pytest.mark.parametrize("action, words", [
    (Attack("p1", "p2"), "accredited"),
    (Escape("p1"), "Cradle Tower"),
    (Abandon("p1"), "burglary"),
    (Burgle("p1", ("file-1",)), "facing"),
    (Challenge("p1"), "surrender"),
    (Give("p1"), "Swap"),
    (Arm("p1", ()), "attack"),
])
def test_a_turns_start_names_the_rule(action, words):
    # The book's own conditions, at the start of an unaccredited player's first turn.
    state = started(2)
    give(state, "p1", "file-1")
    messages = " ".join(v.message for v in GAME.check(state, action))
    assert words in messages, messages


def test_a_card_the_moment_does_not_take_is_named():
    # At Queen's House only a Tower Pass accredits (ACCREDITATION): another card is refused
    # by name, to its holder.
    state = started(2)
    give(state, "p1", "pardon-1")
    state.pos["p1"] = GAME.board().places["queens_house"]
    state.phase = "accredit"
    state.changed()
    problems = GAME.check(state, Play("p1", "pardon-1"))
    assert any("Tower Pass" in v.message for v in problems), problems
