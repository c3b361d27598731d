"""Every refusal says why, in Against All Tyrants' terms (issue 31, "Every refusal says why").

At random states of random games, the seat the prompt names tries every action kind the
engine defines that its prompt does not offer: the refusal must give a reason besides the
kernel's generic sentence ("The game is waiting for …; a … is not allowed now."), name
players by name (never a seat id) and cite a rulebook section or ruling."""
from __future__ import annotations

import json

import pytest

from rules.core import Action, Draw, Rng
from rules.core.playout import random_playout
from rules.against_all_tyrants import GAME, Attack, Damage, EndPhase, Play
from rules.against_all_tyrants.cards import DATA
from rules.against_all_tyrants.refusals import KINDS, parse_moments
from rules.datafile import DataFileError

from ..refusal_probe import GENERIC, generic, refusals
from .helpers import ATT, DEF, fresh

def attempt(cls: type[Action], seat: str) -> Action:
    """An action of kind ``cls`` by ``seat`` with its fields' defaults (a card drawn from
    the seat's own deck): its kind is what is refused."""
    if cls is Draw:
        return Draw(seat, f"deck-{seat}", "A:no-such-card#1")
    return cls(seat)


def test_every_refusal_over_random_play_says_why_in_the_games_terms(soak_factor):
    phases: set[str] = set()
    kinds: set[str] = set()
    codes: set[str] = set()
    for seed in range(3 * soak_factor):
        rng = Rng(seed)
        table, options = GAME.random_setup(rng)
        seen: list[tuple[str, str, tuple]] = []

        def look(state, action) -> None:
            # Every state of setup (a few plies), a quarter of the turns' states.
            if state.result is None and (state.turn == 0 or rng.below(4) == 0):
                seen.extend(refusals(GAME, state, attempt))

        random_playout(GAME, seed, max_plies=500, seats=table, options=options, on_step=look)
        ids = {s.id for s in table}
        for phase, kind, found in seen:
            assert found, f"{kind} in {phase} was accepted though not offered"
            assert not all(generic(v) for v in found), f"{kind} in {phase}: only {found[0].message!r}"
            for v in found:
                assert v.rule, v
                words = set(v.message.replace(",", " ").replace("'", " ").replace(":", " ").split())
                assert not words & ids, f"a seat id in {v.message!r}"
                codes.add(v.code)
            phases.add(phase)
            kinds.add(kind)
    assert {"deal", "mulligan", "draw", "deploy", "combat", "end"} <= phases, phases
    assert kinds == set(KINDS), set(KINDS) - kinds
    # Something being resolved is named as what comes first; otherwise the kind's moment.
    assert {"resolve-first", "not-now", "must-draw", "not-combat"} <= codes, codes


def test_the_draw_comes_first_and_a_text_being_resolved_comes_before_anything_else():
    s = fresh()
    assert s.phase == "draw" and s.active == DEF
    found = GAME.check(s, Play(DEF, s.sides[DEF].hand.cards[0], "planetside"))
    assert [v.code for v in found] == ["not-awaited", "must-draw"]
    assert GENERIC.fullmatch(found[0].message)  # the kernel's sentence, as the test knows it
    assert found[1].message == "Bob draws 1 card at the start of the turn before anything else."
    # Phase 1's plays: a text tried there is refused with the moment of texts.
    GAME.push(s, GAME.sample(s))
    found = GAME.check(s, Damage(DEF, "x", 1))
    assert [v.code for v in found] == ["not-awaited", "not-now"]
    assert found[1].message.startswith("Bob: damage is dealt by an attack in phase 2")


def test_a_seat_not_acting_is_told_whose_turn_it_is():
    s = fresh()
    found = GAME.check(s, EndPhase(ATT))
    assert found[0].code == "not-your-turn" and found[0].message == "It is Bob's turn to act, not Ann's."


def test_every_action_kind_has_its_moment_and_a_missing_one_is_named():
    data = json.loads((DATA / "moments.json").read_text(encoding="utf-8"))
    assert set(data["moments"]) == set(KINDS) == {cls.kind for cls in GAME.action_types}
    del data["moments"]["attack"]
    data["moments"]["dance"] = {"rule": "5.2.6", "when": "never"}
    with pytest.raises(DataFileError, match=r"moments.dance: is not an action kind.*no entry for the action kind 'attack'"):
        parse_moments(data, "ours.json")


def test_an_attack_outside_phase_two_says_units_act_in_phase_two():
    s = fresh()
    GAME.push(s, GAME.sample(s))  # the turn's draw: phase 1's plays
    found = GAME.check(s, Attack(DEF, "x", "y"))
    assert [v.code for v in found] == ["not-awaited", "not-combat"]
