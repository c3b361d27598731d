"""Undo and redo follow the table's policy, with two engines: a seat's own actions until
the next player's first action, never across another seat's action, a shown chance
result or a revealed secret; refusals say why; undone actions stay in the journal and the
log. Every game: tests/companion/test_undo_until_next_player.py."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion import Journal, Table, UndoRefused
from rules.core import Rng
from rules.core.playout import choose

from tests.rules.core.minigames import Pick

from .table_helpers import GAMES, clean_replay, new_table, same_state


def refusal(t, seat=None):
    with pytest.raises(UndoRefused) as e:
        t.undo(seat)
    assert e.value.reason and str(e.value).startswith("Undo refused: ")
    assert t.undo_reason(seat) == e.value.reason and not t.can_undo(seat)
    return e.value.code


def scan(game_id, want, seeds=range(40), steps=400):
    """Play random games until the last action fits ``want(table)``; yields tables."""
    for seed in seeds:
        t = new_table(Journal.open(":memory:"), game_id, seed=seed)
        rng = Rng(seed)
        for _ in range(steps):
            if t.outcome is not None:
                break
            t.submit(choose(rng, list(t.legal_actions())))
            if want(t):
                yield t
                break


@pytest.mark.parametrize("game_id", GAMES)
def test_nothing_to_undo(game_id):
    t = new_table(Journal.open(":memory:"), game_id)
    assert refusal(t) == "nothing-to-undo"
    assert refusal(t, t.seats[0]["id"]) == "nothing-to-undo"


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_result_that_was_shown(game_id):
    t = next(scan(game_id, lambda t: t._line[-1].chance))
    assert refusal(t) == "chance-shown"


@pytest.mark.parametrize("game_id", GAMES)
def test_revealed_information(game_id):
    t = next(scan(game_id, lambda t: t._line[-1].barrier and not t._line[-1].chance and t.outcome is None))
    assert refusal(t) in ("revealed", "secret-revealed")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_turn_passed_but_only_another_seat_is_refused(game_id):
    t = next(scan(game_id, lambda t: not t._line[-1].barrier and t._line[-1].seat not in t.prompt.actors and t.outcome is None))
    mover = t._line[-1].seat
    assert t.undo_reason() is None and t.can_undo(mover)
    other = next(s for s in t.prompt.actors)
    assert refusal(t, other) == "other-seat"
    t.undo()
    assert mover in t.prompt.actors


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_then_redo_round_trip(game_id):
    t = next(scan(game_id, lambda t: t.can_undo()))
    before = t.view()
    ply, last = t.ply, t._line[-1]
    acc = t.undo()
    assert acc.seq == last.seq and t.ply == ply - 1
    assert same_state(t.state, clean_replay(t))
    assert any(l.undone for l in t.log())
    rows = {r.seq: r for r in t.journal.actions(t.key)}
    assert rows[last.seq].undone == 1
    assert t.can_redo()
    # The redo survives a restart.
    r = Table.resume(t.journal, t.key)
    assert r.can_redo()
    r.redo()
    assert r.view() == before and r.ply == ply
    assert t.journal.actions(t.key)[-1].undone == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_new_action_supersedes_the_redo(game_id):
    t = next(scan(game_id, lambda t: t.can_undo()))
    undone = t._line[-1]
    t.undo()
    t.submit(choose(Rng(1), list(t.legal_actions())))
    assert not t.can_redo()
    with pytest.raises(UndoRefused) as e:
        t.redo()
    assert e.value.code == "nothing-to-redo"
    assert {r.seq: r.undone for r in t.journal.actions(t.key)}[undone.seq] == 2
    assert sum(l.undone for l in t.log()) == 1


@pytest.mark.parametrize("game_id", GAMES)
def test_game_over_cannot_be_undone(game_id):
    t = next(scan(game_id, lambda t: t.outcome is not None, steps=5000))
    assert refusal(t) == "game-over"


def test_secret_choice_is_a_barrier():
    from .table_helpers import seats_for

    t = Table.create(Journal.open(":memory:"), game_id="mini-duel", seats=seats_for("mini-duel"), seed=1)
    seat = t.secrets.status().next_seat
    t.secrets.commit(seat, Pick(seat, "two"))
    assert refusal(t) == "secret-revealed"


@settings(max_examples=20)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), steps=st.integers(1, 150))
def test_an_allowed_undo_never_crosses_a_barrier_or_another_seats_action(game, seed, steps):
    """Whenever undo is allowed, the last action is the asking seat's own, no other seat
    acted after it (even with an action since undone), and it was no shown chance result or
    reveal; the undo restores exactly the state before it, whose turn it is included, and
    a refusal changes nothing."""
    t = new_table(Journal.open(":memory:"), game, seed=seed)
    rng = Rng(seed)
    history = [t.view()]
    for _ in range(steps):
        if t.outcome is not None:
            break
        if rng.randint(1, 3) == 1 and t._line:
            last = t._line[-1]
            before = t.view()
            allowed = t.can_undo()
            try:
                t.undo()
            except UndoRefused:
                assert not allowed and t.view() == before
                continue
            assert allowed and last.barrier is None and not last.chance and last.kind != "commit"
            assert all(e.seat == last.seat for e in t._entries if e.seq > last.seq)
            assert last.seat in t.prompt.actors
            history.pop()
            assert t.view() == history[-1]
            continue
        t.submit(choose(rng, list(t.legal_actions())))
        history.append(t.view())
