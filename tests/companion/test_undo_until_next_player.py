"""Undo until the next player's first action, in every game (issue 32, item 8).

The issue's words: "at a physical table the fair line is the next player's first action:
until then, a move can be taken back to the throw that allowed it, unless a die was thrown,
a card drawn or a secret revealed after it." Each test finds, in random games of the real
engines, the situation it names (a throw or a draw or a reveal by a seat, then that seat's
own moves), takes the moves back one by one and checks that each undo restores exactly the
table as it was (whose turn it is included), and that the next undo stops at the barrier.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest

from companion import Journal, Table, UndoRefused
from rules.core import Rng
from rules.core.playout import choose

from .table_helpers import new_table

ALL_GAMES = ("tyranny", "liberation", "outrage", "dicetopia", "against_all_tyrants")
# Liberation and Against All Tyrants throw no dice: their chance is a card drawn. In
# Dicetopia a throw (the city's at the start, a die re-rolled) ends what its seat does:
# the throw itself stays (test_dicetopia_a_re_roll_stays).
THROWN = ("tyranny", "outrage")


@dataclass
class Run:
    """A table whose line ends with ``barrier`` (an action undo may not cross) followed by
    ``after``: actions of the same seat, none a barrier; ``views[i]`` is the public view
    and ``actors[i]`` whose turn it was after ``i`` of them."""

    table: Table
    barrier: Any
    after: list[Any]
    views: list[dict[str, Any]]
    actors: list[frozenset[str]]


def find_run(game_id: str, is_barrier: Callable[[Any], bool], *, passed: bool = False, least: int = 1,
             last_kind: str | None = None, want: Callable[[Table], bool] = lambda t: True, seeds: range = range(60), steps: int = 600) -> Run:
    """Play random games until a barrier that ``is_barrier`` accepts is followed by at
    least ``least`` actions of the same seat (and, with ``passed``, the last of them gave
    the turn away, with ``last_kind`` it was of that kind, and ``want`` accepts the table);
    no other seat acted in between."""
    for seed in seeds:
        t = new_table(Journal.open(":memory:"), game_id, seed=seed)
        rng = Rng(seed)
        start: int | None = None  # index in the line of the barrier being followed
        views: list[dict[str, Any]] = []
        actors: list[frozenset[str]] = []
        for _ in range(steps):
            if t.outcome is not None:
                break
            t.submit(choose(rng, list(t.legal_actions())))
            e = t._line[-1]
            if e.barrier and is_barrier(e):
                start, views, actors = len(t._line) - 1, [t.view()], [frozenset(t.prompt.actors)]
                continue
            if start is None or e.barrier or e.seat != t._line[start].seat:
                start = None
                continue
            views.append(t.view())
            actors.append(frozenset(t.prompt.actors))
            after = t._line[start + 1:]
            if (len(after) >= least and t.outcome is None and (not passed or e.seat not in t.prompt.actors)
                    and last_kind in (None, e.kind) and want(t)):
                return Run(t, t._line[start], list(after), views, actors)
    raise AssertionError(f"{game_id}: no such run in {len(seeds)} random games")


def undo_back_to_the_barrier(run: Run) -> UndoRefused:
    """Undo every action after the barrier (each allowed, each restoring the table and
    whose turn it was), then the refused undo at the barrier."""
    t = run.table
    seat = run.barrier.seat
    for i in range(len(run.after), 0, -1):
        assert t.undo_reason() is None and t.can_undo(seat), t.undo_reason()
        t.undo()
        assert t.view() == run.views[i - 1]
        assert frozenset(t.prompt.actors) == run.actors[i - 1] and seat in t.prompt.actors
    assert t._line[-1].seq == run.barrier.seq
    with pytest.raises(UndoRefused) as e:
        t.undo()
    assert t.view() == run.views[0] and t._line[-1].seq == run.barrier.seq  # the refusal changed nothing
    assert t.undo_reason() == e.value.reason and not t.can_undo()
    return e.value


@pytest.mark.parametrize("game_id", THROWN)
def test_a_move_after_a_throw_is_undone_back_to_the_throw_and_not_past_it(game_id):
    # Two of the thrower's own actions after the throw, the last one passing the turn.
    run = find_run(game_id, lambda e: e.kind == "roll", least=2, passed=True)
    refused = undo_back_to_the_barrier(run)
    assert refused.code == "chance-shown"
    name = run.table.seat_name(run.barrier.seat)
    assert refused.reason.startswith(f"{name}'s last action stays") and "rolled" in refused.reason


def test_dicetopia_a_re_roll_stays():
    """Dicetopia's re-roll: the die thrown again is seen by all, so neither the throw nor
    the re-roll that asked for it can be taken back, though the next player has not acted."""
    t = next(t for t in _tables("dicetopia") if t._line[-1].kind == "roll" and len(t._line) > 1
             and t._line[-2].kind == "reroll" and t._line[-2].seat == t._line[-1].seat and t.outcome is None)
    seat = t._line[-1].seat
    assert seat not in t.prompt.actors  # the turn passed with the throw
    with pytest.raises(UndoRefused) as e:
        t.undo(seat)
    assert e.value.code == "chance-shown" and "rolled" in e.value.reason
    assert t._line[-1].kind == "roll"


def _tables(game_id: str, seeds: range = range(60), steps: int = 600) -> Any:
    """Tables after each action of random games (the same table, moved on)."""
    for seed in seeds:
        t = new_table(Journal.open(":memory:"), game_id, seed=seed)
        rng = Rng(seed)
        for _ in range(steps):
            if t.outcome is not None:
                break
            t.submit(choose(rng, list(t.legal_actions())))
            yield t


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_a_card_drawn_stops_undo(game_id):
    run = find_run(game_id, lambda e: e.kind == "draw")
    refused = undo_back_to_the_barrier(run)
    assert refused.code == "chance-shown" and "drawn" in refused.reason


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_a_revealed_secret_stops_undo(game_id):
    run = find_run(game_id, lambda e: not e.chance)
    refused = undo_back_to_the_barrier(run)
    assert refused.code in ("revealed", "secret-revealed")
    assert run.barrier.barrier in refused.reason  # the game's own words for what was shown


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_undo_gives_the_turn_back_until_the_next_player_acts(game_id):
    """A move that passed the turn is taken back (the turn comes back with it) while the
    next seat has not acted; once it has, the move stands, even if that action is then
    taken back."""
    run = find_run(game_id, lambda e: True, passed=True)
    t = run.table
    mover = run.barrier.seat
    assert mover not in t.prompt.actors
    next_seat = sorted(t.prompt.actors)[0]
    with pytest.raises(UndoRefused) as e:
        t.undo(next_seat)
    assert e.value.code == "other-seat" and t.seat_name(mover) in e.value.reason
    assert t.can_undo(mover)
    # The next seat acts: the window closes for the mover.
    legal = [a for a in t.legal_actions() if a.seat == next_seat]
    t.submit(choose(Rng(7), legal))
    with pytest.raises(UndoRefused) as e:
        t.undo(mover)
    assert e.value.code == "other-seat"
    if t.can_undo():  # the next seat takes its own action back: the mover's move still stands
        t.undo()
        assert t._line[-1].seq == run.after[-1].seq and t.prompt.actors == run.actors[-1]
        with pytest.raises(UndoRefused) as e:
            t.undo(mover)
        assert e.value.code == "next-seat-acted" and t.seat_name(next_seat) in e.value.reason
        # ...across a restart too (the undone action is in the journal).
        r = Table.resume(t.journal, t.key)
        assert r.undo_reason(mover) == e.value.reason


def test_tyranny_a_mis_tapped_destination_that_passed_the_turn():
    """The issue's case: in Tyranny a player throws, taps the wrong destination and the
    turn passes at once. Before the next player acts, undo takes the move back (the throw
    stays: the same destinations are offered) and the player moves where they meant to;
    after the next player's first action the move stands."""
    def two_destinations(t: Table) -> bool:
        before = t._state_at(len(t._line) - 1)
        return len({a.tile for a in t.game.legal_actions(before) if a.kind == "move"}) > 1

    run = find_run("tyranny", lambda e: e.kind == "roll", passed=True, last_kind="move", want=two_destinations)
    t = run.table
    mover, mistap = run.barrier.seat, run.after[-1].action
    assert len(run.after) == 1 and mover not in t.prompt.actors
    t.undo()
    assert t.prompt.actors == {mover} and t._line[-1].seq == run.barrier.seq and t.view() == run.views[0]
    meant = next(a for a in t.legal_actions() if a.kind == "move" and a.tile != mistap.tile)
    assert mistap in list(t.legal_actions())  # the same throw, the same destinations
    t.submit(meant)
    assert t.view()["pieces"][mover]["tile"] == meant.tile
    assert t.can_undo() and t.can_undo(mover)  # still the mover's to take back
    [nxt] = t.prompt.actors
    assert nxt != mover
    t.submit(choose(Rng(3), [a for a in t.legal_actions() if a.seat == nxt]))  # the next player's first action
    assert t.undo_reason(mover) is not None and not t.can_undo(mover)
    with pytest.raises(UndoRefused) as e:
        t.undo(mover)
    assert e.value.code == "other-seat" and t.seat_name(nxt) in e.value.reason
    assert t.view()["pieces"][mover]["tile"] == meant.tile


@pytest.mark.parametrize("game_id", ("tyranny", "outrage"))
def test_an_undo_across_a_turn_pass_is_journaled_resumed_and_published(tmp_path, game_id):
    """The journal records the undo as any other (the action kept, marked undone); a
    restart resumes with the turn given back; subscribers (the screen, the phones' server)
    hear of it; each seat's phone page says who must act now."""
    from companion.web.seatview import seat_payload

    run = find_run(game_id, lambda e: e.kind == "roll", passed=True)
    t = run.table
    path = tmp_path / "journal.sqlite3"
    # The same game, played into a journal on disk.
    j = Journal.open(path)
    disk = Table.create(j, game_id=game_id, seats=t.seats, options=t.options, seed=t.seed)
    for e in t._line:
        disk.submit(e.action)
    mover, [waiting] = run.barrier.seat, sorted(disk.prompt.actors)
    assert mover != waiting and seat_payload(disk, waiting)["must"]["now"]
    heard = []
    disk.subscribe(heard.append)
    acc = disk.undo()
    assert [c.kind for c in heard] == ["undo"] and acc.seq == run.after[-1].seq
    assert disk.prompt.actors == {mover}
    assert seat_payload(disk, mover)["must"]["now"] and not seat_payload(disk, waiting)["must"]["now"]
    assert seat_payload(disk, waiting)["must"]["waiting_for"] == [disk.seat_name(mover)]
    rows = {r.seq: r.undone for r in j.actions(disk.key)}
    assert rows[acc.seq] == 1
    view, ply = disk.view(), disk.ply
    j.close()
    r = Table.resume(Journal.open(path), disk.key)
    assert r.view() == view and r.ply == ply and r.prompt.actors == {mover}
    assert r.can_redo() and any(line.undone for line in r.log())
    assert r.can_undo() == (len(run.after) > 1)  # the mover's earlier moves, back to the throw


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_every_action_that_shows_a_secret_is_a_barrier(game_id, soak_factor):
    """Now that an action may be undone after the turn passed, an action undo may take back
    must show nobody anything hidden from them before it (what the engine itself calls
    secret for that viewer: a card in a hand, a deck, a Special Forces Deck). Random games
    of every engine; with ``--long`` twenty times as many."""
    from rules.core import PUBLIC
    from rules.core.harness import strings_in

    # Seeds known to reach a reveal: Outrage!'s 3, a Wall Walk swap (a card handed over) at
    # its 215th action; Dicetopia's 11, the last swap of the game, which reveals everyone's
    # missions before High Stakes Gambling's draw (so before the outcome).
    known = {"outrage": {3}, "dicetopia": {11}}.get(game_id, set())
    for seed in sorted(known | set(range(2 * soak_factor))):
        t = new_table(Journal.open(":memory:"), game_id, seed=seed)
        rng = Rng(seed)
        seats = [s["id"] for s in t.seats]
        for _ in range(250):
            if t.outcome is not None:
                break
            action = choose(rng, list(t.legal_actions()))
            viewers = [PUBLIC] + seats  # the actor too: a peek taken back could be retried
            hidden = {v: set(t.game.secrets(t.state, v)) - {""} for v in viewers}
            t.submit(action)
            if t._line[-1].barrier or t.outcome is not None:
                continue  # a barrier, or the end (everything is shown then)
            for v in viewers:
                shown = hidden[v] & set(strings_in(t.game.view(t.state, v)))
                assert not shown, f"{game_id} seed {seed}: {action} showed {sorted(shown)} to {v} and may be undone"
