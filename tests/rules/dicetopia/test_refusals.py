"""Every refusal says why, in Dicetopia's terms (issue 31, "Every refusal says why").

At random states of random games, every seat the prompt names tries every action kind the
engine defines that its prompt does not offer: the refusal must give a reason besides the
kernel's generic sentence ("The game is waiting for …; a … is not allowed now."), name
players by name (never a seat id), and cite the rulebook section it comes from."""
from __future__ import annotations

import json
from importlib import resources

import pytest

from rules.core import Action, Draw, Roll, Rng
from rules.core.playout import random_playout
from rules.dicetopia import GAME, DicetopiaDataError, Reroll, Rig, SaveTurn
from rules.dicetopia.tables import KINDS, parse_moments

from ..refusal_probe import GENERIC, generic, refusals
from .helpers import started

def attempt(cls: type[Action], seat: str) -> Action:
    """An action of kind ``cls`` by ``seat``, with its fields' defaults (a roll of one die,
    a mission drawn): its kind is what is refused."""
    if cls is Roll:
        return Roll(seat, (3,))
    if cls is Draw:
        return Draw(seat, "missions", "replica")
    return cls(seat)


def random_refusals(games: int, every: int = 3):
    """The refusals met at every ``every``-th state of ``games`` random games, with the seats."""
    for seed in range(games):
        seen: list[tuple[str, str, tuple]] = []
        rng = Rng(seed)
        table, options = GAME.random_setup(rng)

        def look(state, action) -> None:
            if state.result is None and rng.below(every) == 0:
                seen.extend(refusals(GAME, state, attempt))

        random_playout(GAME, seed, max_plies=400, seats=table, options=options, on_step=look)
        yield table, seen


def test_every_refusal_over_random_play_says_why_in_the_games_terms(soak_factor):
    phases: set[str] = set()
    kinds: set[str] = set()
    for table, seen in random_refusals(8 * soak_factor):
        ids = {s.id for s in table}
        for phase, kind, found in seen:
            assert found, f"{kind} in {phase} was accepted though not offered"
            assert not all(generic(v) for v in found), f"{kind} in {phase}: only {found[0].message!r}"
            for v in found:
                assert v.rule, v
                words = set(v.message.replace(",", " ").replace("'", " ").replace(":", " ").split())
                assert not words & ids, f"a seat id in {v.message!r}"
            phases.add(phase)
            kinds.add(kind)
    # Random play reaches the turn, its reactions and the end, and tries every kind.
    assert {"keep", "deploy", "act", "react", "reroll"} <= phases, phases
    assert kinds == set(KINDS), set(KINDS) - kinds


def test_a_neighbourhood_action_tried_on_a_turns_first_step_names_the_neighbourhood_it_belongs_to():
    s = started("ewo", "hollows")
    found = GAME.check(s, Reroll("p1", "gugu", 0))
    assert [v.code for v in found] == ["not-awaited", "not-now"]
    assert generic(found[0]) and GENERIC.fullmatch(found[0].message)  # the kernel's sentence, as the test knows it
    assert found[1].message.startswith("Ann: a reroll is The Gugu Airforce's action")
    assert found[1].rule == "§5 Neighbourhood Actions: The Gugu Airforce"


def test_an_ability_says_first_whose_it_is_and_a_seat_not_acting_is_told_whose_turn_it_is():
    s = started("ewo", "bingmai")
    # Not Ann's faction: that is the reason, not the moment.
    assert [v.code for v in GAME.check(s, SaveTurn("p1"))] == ["not-awaited", "not-your-ability"]
    # Bob's own Rigging during Ann's turn: Bob is told it is Ann's turn.
    found = GAME.check(s, Rig("p2", "gugu", "p1"))
    assert [v.code for v in found] == ["not-your-turn", "not-awaited"]
    assert found[0].message == "It is Ann's turn to act, not Bob's."


def test_every_action_kind_has_its_moment_and_a_missing_one_is_named():
    data = json.loads(resources.files("rules.dicetopia").joinpath("data", "moments.json").read_text(encoding="utf-8"))
    assert set(data["moments"]) == set(KINDS) == {cls.kind for cls in GAME.action_types}
    del data["moments"]["rig"]
    data["moments"]["dance"] = {"rule": "§4", "when": "never"}
    with pytest.raises(DicetopiaDataError, match=r"moments.dance: is not an action kind.*no entry for the action kind 'rig'"):
        parse_moments(data, "ours.json")
