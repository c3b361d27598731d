from __future__ import annotations

import json

import pytest

import rules
from rules.core import (
    PUBLIC, Commit, Deck, Draw, Escalation, IllegalAction, InvalidSetup, Rng, Roll,
    Seat, Streak, Track, TurnOrder, dumps, from_data, loads, parse_action, to_data,
)
from rules.core.harness import InvariantBroken, run_harness

from .minigames import ACTS, DOUBLES, DUEL, RAID, Pick, Stop

SEATS = [Seat("a", "red", "Ann"), Seat("b", "blue", "Bob")]


def test_doubles_roll_again_and_three_doubles_lose_the_turn():
    s = DOUBLES.new(SEATS, seed=3)
    DOUBLES.push(s, Roll("a", (2, 2)))
    assert DOUBLES.prompt(s).awaiting.purpose == "roll again after a double"
    DOUBLES.push(s, Roll("a", (3, 3)))
    DOUBLES.push(s, Roll("a", (1, 1)))      # third double: turn over
    assert s.order.current == "b" and s.doubles == 0
    DOUBLES.push(s, Roll("b", (1, 2)))
    assert s.score["b"].value == 3 and s.order.current == "a"


def test_checked_apply_reports_every_violation_and_changes_nothing():
    s = DOUBLES.new(SEATS, seed=3)
    before = dumps(s)
    with pytest.raises(IllegalAction) as e:
        DOUBLES.push(s, Roll("b", (9,)))
    assert e.value.codes == ("not-your-turn", "wrong-dice-count", "face-out-of-range")
    assert all(v.rule and v.message for v in e.value.violations)
    assert isinstance(e.value, ValueError)
    assert dumps(s) == before


def test_apply_is_functional_and_push_is_in_place():
    s = DOUBLES.new(SEATS, seed=3)
    s2 = DOUBLES.apply(s, Roll("a", (1, 2)))
    assert s.ply == 0 and s2.ply == 1 and s2.order.current == "b"


def test_not_awaited_kind_is_rejected():
    s = DOUBLES.new(SEATS)
    with pytest.raises(IllegalAction) as e:
        DOUBLES.push(s, Stop("a"))
    assert e.value.codes == ("not-awaited",)
    assert "2d6" in e.value.violations[0].message


def test_legal_actions_are_lazy_and_support_in():
    s = DOUBLES.new(SEATS)
    legal = DOUBLES.legal_actions(s)
    assert Roll("a", (6, 6)) in legal and Roll("b", (6, 6)) not in legal
    assert legal.count() == 36
    assert Roll("a", (1, 1), source="die:hub/0") in legal   # the source is not identity


def test_secret_commits_are_revealed_together():
    s = DUEL.new(SEATS)
    DUEL.push(s, Pick("a", "three"))
    assert "three" not in json.dumps(DUEL.view(s, PUBLIC))
    assert "three" not in json.dumps(DUEL.view(s, "b"))
    assert DUEL.view(s, "a")["round"]["mine"] == "three"
    assert DUEL.prompt(s).actors == {"b"}
    with pytest.raises(IllegalAction) as e:
        DUEL.push(s, Pick("a", "one"))
    assert "already-committed" in e.value.codes
    DUEL.push(s, Pick("b", "two"))
    assert s.wins == {"a": 1, "b": 0} and s.history == [{"a": 3, "b": 2}]


def test_reshuffles_count_acts_and_the_third_ends_the_game():
    s = ACTS.new(SEATS, seed=5)
    while s.result is None:
        action = ACTS.sample(s) or next(iter(ACTS.legal_actions(s)))
        ACTS.push(s, action)
    assert s.decks["main"].reshuffles == 2
    assert s.result.reason == "the third reshuffle"


def test_physical_draw_names_the_card():
    s = ACTS.new(SEATS, seed=5)
    bottom = s.decks["main"].cards[-1]
    ACTS.push(s, Draw("a", "main", bottom, source="touch"))
    assert s.hands["a"].cards == [bottom]
    with pytest.raises(IllegalAction) as e:
        ACTS.apply(ACTS.new(SEATS, seed=5), Draw("a", "main", "nope"))
    assert e.value.codes == ("card-not-in-deck",)


def test_escalation_incidents_and_levels():
    e = Escalation()
    assert e.add_incidents(3) == 0 and e.add_incidents(1) == 1
    assert (e.level, e.incidents) == (1, 0)
    e.add_incidents(100)
    assert e.level == 5 and e.in_bounds()


def test_track_bounds_history_and_streak():
    t = Track("influence", 500, lo=0)
    t.add(600); t.mark(1); t.add(-2000); t.mark(2); t.add(5); t.mark(2)
    assert t.history == [(1, 1100), (2, 5)]
    s = Streak(3)
    for holds in (True, True, False, True, True, True):
        s.update(holds)
    assert s.met and s.remaining == 0


def test_turn_order_skips_missed_turns():
    o = TurnOrder(["c1", "k1", "c2", "k2"])
    o.skip("k1", 2)
    assert o.advance() == ["k1"] and o.current == "c2"
    o.advance(); o.advance()
    assert o.current == "c1" and o.round == 2
    assert o.advance() == ["k1"] and o.current == "c2"


def test_deck_reshuffle_counts():
    d = Deck("x", ["a"], ["b", "c"])
    rng = Rng(1)
    d.draw(rng)
    assert d.needs_reshuffle and d.can_draw("b") and not d.can_draw("a")
    d.draw(rng)
    assert d.reshuffles == 1 and len(d) == 1


def test_state_and_actions_round_trip():
    s = DUEL.new(SEATS)
    DUEL.push(s, Pick("a", "two"))
    assert loads(dumps(s)) == s
    a = Roll("a", (3, 4), source="die:hub/1")
    back = parse_action(json.loads(json.dumps(to_data(a))))
    assert back == a and back.source == "die:hub/1" and isinstance(back.values, tuple)
    assert from_data(to_data({1: "x"})) == {1: "x"}


def test_setup_is_validated():
    with pytest.raises(InvalidSetup) as e:
        DOUBLES.new([Seat("a", "green")])
    assert {v.code for v in e.value.violations} == {"seat-count", "unknown-faction"}
    with pytest.raises(InvalidSetup):
        DOUBLES.new([Seat("a", "red"), Seat("a", "blue")])
    with pytest.raises(InvalidSetup):
        DOUBLES.new(SEATS, {"no-such-option": 1})


def test_same_seed_same_game():
    a = DOUBLES.new(SEATS, seed=9)
    b = DOUBLES.new(SEATS, seed=9)
    for _ in range(20):
        if a.result:
            break
        x = DOUBLES.sample(a)
        assert x == DOUBLES.sample(b)
        DOUBLES.push(a, x); DOUBLES.push(b, x)
    assert dumps(a) == dumps(b)


@pytest.mark.parametrize("game", [DOUBLES, DUEL, ACTS, RAID], ids=lambda g: g.id)
def test_invariant_harness(game, soak_factor):
    report = run_harness(game, games=60 * soak_factor, seed=11)
    assert report.games == 60 * soak_factor and report.rejected > 0


def test_harness_catches_a_leak():
    class Leaky(type(DUEL)):
        def render(self, state, viewer):
            return {"commits": dict(state.round.commits)}

    with pytest.raises(InvariantBroken, match="shows secrets"):
        run_harness(Leaky(), games=5, seed=1)


def test_the_differential_check_catches_a_leak_no_string_matches():
    class Peeking(type(ACTS)):
        # Shows how many of the other hands' cards end in an even digit: no hidden id
        # appears anywhere, so only comparing two hidden variants can see the leak.
        def render(self, state, viewer):
            view = super().render(state, viewer)
            view["even"] = sum(int(c[-1]) % 2 == 0 for s, h in state.hands.items() if s != viewer for c in h.cards)
            return view

    with pytest.raises(InvariantBroken, match="may not see"):
        run_harness(Peeking(), games=10, seed=1, differential_rate=1.0)


def test_the_differential_check_runs_for_hidden_cards_and_sealed_choices():
    for game in (ACTS, DUEL, RAID):
        assert run_harness(game, games=5, seed=3, differential_rate=1.0).variants > 0, game.id


def test_harness_catches_a_mutating_check():
    class Sloppy(type(DOUBLES)):
        def violations(self, state, action, prompt):
            state.note("checked")  # a check that writes: caught by the rejection or replay checks
            return ()

    with pytest.raises(InvariantBroken):
        run_harness(Sloppy(), games=5, seed=1)


def test_unknown_game():
    with pytest.raises(rules.UnknownGame):
        rules.load("chess")


def _raid_with(roll_depends):
    """Raid whose roll step declares ``roll_depends`` and counts its builds."""
    from rules.core import step

    class Declared(type(RAID)):
        built = 0

        @step("roll", rule="Raid §1", depends=roll_depends)
        def ask_roll(self, state):
            type(self).built += 1
            return super().ask_roll(state)

    return Declared()


def test_a_step_that_declares_its_dependencies_has_its_prompt_reused():
    game = _raid_with(("order.index",))  # the raider: the only thing the roll prompt names
    state = game.new([Seat("a", "red"), Seat("b", "blue")], {}, seed=5)
    rolls = 0
    while state.result is None:
        if state.phase == "roll":
            rolls += 1
            assert game.prompt(state) == game.fresh_prompt(state)
        game.push(state, next(iter(game.legal_actions(state))))
    # Two raiders, six rounds: each raider's prompt was built once (fresh_prompt builds
    # it too, every time it is asked).
    assert rolls == 6 and game.built - rolls == 2
    assert run_harness(game, games=5, seed=2).games == 5


def test_the_harness_catches_a_step_that_declares_too_little():
    game = _raid_with(())  # the raider changes, the declaration says nothing does
    with pytest.raises(InvariantBroken, match="depends"):
        run_harness(game, games=5, seed=2)


def test_a_malformed_declaration_fails_where_the_game_is_defined():
    from rules.core import step

    with pytest.raises(TypeError, match="depends"):
        step("roll", depends="actor")  # a string, not a tuple of names


def _raid_deriving(depends=None, mutate=False):
    """Raid whose roll step derives who raids in which round, which its prompt, its check
    and its effect all read; counts how often it is worked out."""
    from rules.core import step

    class Deriving(type(RAID)):
        worked = 0

        @step("roll", rule="Raid §1", depends=depends, derive="raid_derived")
        def ask_roll(self, state):
            assert self.derived(state)[0] == state.order.current
            return super().ask_roll(state)

        def raid_derived(self, state):
            type(self).worked += 1
            return [state.order.current, state.rounds]

        def violations(self, state, action, prompt):
            if state.phase == "roll":
                assert self.derived(state) == [state.order.current, state.rounds]
            return super().violations(state, action, prompt)

        def execute(self, state, action):
            if state.phase == "roll":
                kept = self.derived(state)  # read first, before the effect writes
                if mutate:
                    kept.append("written")
            super().execute(state, action)

    return Deriving()


def test_a_steps_derived_value_is_worked_out_once_per_ply():
    game = _raid_deriving()
    state = game.new([Seat("a", "red"), Seat("b", "blue")], {}, seed=5)
    rolls = 0
    while state.result is None:
        if state.phase == "roll":
            rolls += 1
            assert game.derived(state) == game.fresh_derived(state)
            type(game).worked -= 1  # fresh_derived worked it out once more, on purpose
        else:
            assert game.derived(state) is None  # a step that declares none
        game.push(state, next(iter(game.legal_actions(state))))
    # The prompt, the listing's checks, the push's check and the effect all read it.
    assert rolls == 6 and game.worked == rolls
    assert run_harness(game, games=5, seed=2).games == 5


def test_derived_values_are_forgotten_when_a_state_is_edited_by_hand():
    game = _raid_deriving()
    state = game.new([Seat("a", "red"), Seat("b", "blue")], {}, seed=5)
    assert game.derived(state)[1] == 0
    state.rounds = 3
    state.changed()
    assert game.derived(state)[1] == 3


def test_derived_values_reused_by_a_depends_key_are_checked_by_the_harness():
    game = _raid_deriving(depends=("order.index",))  # the round changes, the key does not say so
    with pytest.raises(InvariantBroken, match="leaves out what it reads"):
        run_harness(game, games=5, seed=2)


def test_the_harness_catches_an_effect_that_writes_a_derived_value():
    game = _raid_deriving(mutate=True)
    with pytest.raises(InvariantBroken, match="never written"):
        run_harness(game, games=5, seed=2)


def test_a_malformed_derive_declaration_fails_where_the_game_is_defined():
    from rules.core import step

    with pytest.raises(TypeError, match="derive must"):
        step("roll", derive=42)


def test_an_action_from_a_seat_not_at_the_table_is_rejected_as_such():
    s = DOUBLES.new(SEATS, seed=3)
    before = dumps(s)
    for bad in (Roll("zed", (1, 2)), Stop("zed")):  # awaited kind or not: the seat comes first
        with pytest.raises(IllegalAction) as e:
            DOUBLES.push(s, bad)
        assert e.value.codes == ("unknown-seat",) and "'zed'" in e.value.violations[0].message
    assert dumps(s) == before


def test_seat_names_follow_every_copy_of_a_state():
    s = DOUBLES.new(SEATS, seed=3)
    assert (s.seat_name("a"), s.seat_name("zed")) == ("Ann", "zed")   # an unknown id names itself
    copied = DOUBLES.apply(s, Roll("a", (1, 2)))
    restored = loads(dumps(s))
    for other in (copied, restored):
        assert other.seat_name("b") == "Bob" and other.seat_name("zed") == "zed"
