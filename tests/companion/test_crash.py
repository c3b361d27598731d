"""Crash test: a child process plays random games through a Table and reports each
acknowledged action on its stdout only after ``submit``/``undo`` returned; the parent
SIGKILLs it at a random moment, reopens the journal, and checks that every acknowledged
action is there (and every acknowledged undo is marked) and that each game resumes to
exactly the state of a clean replay of its journaled line of play.

The child is forked from the test process (everything already imported), so a trial costs
its random 0.05–0.3 s of play rather than an interpreter start. Each trial resumes the
journal the previous one left behind.
"""
from __future__ import annotations

import os
import random
import select
import signal
import sys
import time
import traceback

import pytest

from companion import Journal, Table, UndoRefused
from companion.clocks import ClockConfig, ClockMode
from rules.core import Rng
from rules.core.playout import choose
from rules.core.jsondata import to_data

from .table_helpers import new_table

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _child(path: str, game_id: str, seed: int, out_fd: int) -> None:
    out = os.fdopen(out_fd, "w", buffering=1)
    try:
        j = Journal.open(path, snapshot_every=7)
        running = [g for g in j.games("in-progress") if g.game_id == game_id]
        clocks = ClockConfig(ClockMode.FISCHER, main=3600, increment=5)  # journaled with each action
        t = Table.resume(j, running[0].key) if running else new_table(j, game_id, seed=seed, clocks=clocks)
        rng = Rng(seed)
        while True:
            if t.outcome is not None:
                t = new_table(j, game_id, seed=rng.randint(0, 10**6), clocks=clocks)
            if rng.randint(1, 12) == 1 and t.can_redo():
                # Announce the redo first: if the kill lands inside it, the parent knows the
                # undo it had acknowledged may have been redone without an acknowledgement.
                out.write(f"I {t.key} {t._redo[-1].seq}\n")
                acc = t.redo()
                out.write(f"R {t.key} {acc.seq}\n")
                continue
            if rng.randint(1, 5) == 1:
                try:
                    acc = t.undo()
                except UndoRefused:
                    continue
                out.write(f"U {t.key} {acc.seq}\n")
                continue
            acc = t.submit(choose(rng, list(t.legal_actions())))
            out.write(f"A {t.key} {acc.seq}\n")
    except BaseException:
        out.write("E " + traceback.format_exc().replace("\n", " | ") + "\n")
        out.flush()
        os._exit(1)


def _trial(path: str, game_id: str, seed: int, run_s: float) -> list[str]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        try:
            _child(path, game_id, seed, w)
        finally:
            os._exit(0)
    os.close(w)
    buf = b""
    deadline = time.monotonic() + run_s
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([r], [], [], left)
        if ready:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            buf += chunk
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        buf += chunk
    os.close(r)
    text = buf.decode()
    lines = text.split("\n")[:-1]  # the last piece is empty or a half-written line
    errors = [l for l in lines if l.startswith("E ")]
    assert not errors, errors[0]
    return lines


def _check(path: str, acked: dict[str, dict[int, str]], maybe_redone: set[tuple[str, int]]) -> int:
    j = Journal.open(path)
    try:
        games = j.games()
        for g in games:
            rows = {r.seq: r for r in j.actions(g.key)}
            for seq, what in acked.get(g.key, {}).items():
                assert seq in rows, f"acknowledged action {seq} of game {g.key} is missing"
                if what == "U":
                    assert rows[seq].undone != 0 or (g.key, seq) in maybe_redone, \
                        f"acknowledged undo of {seq} in {g.key} is not in the journal"
                elif what == "R":
                    assert rows[seq].undone in (0, 1, 2), f"acknowledged redo of {seq} in {g.key} is not in the journal"
            t = Table.resume(j, g.key)
            assert t.clocks is not None and t.clocks.active == t.clocked_seats()
            clean = t.game.replay(t.seats, t.options, t.seed, [e.action for e in t._line])
            assert to_data(t.state) == to_data(clean), f"game {g.key} resumed to a state that is not the clean replay"
            t.close()
        assert set(acked) <= {g.key for g in games}
        return sum(len(v) for v in acked.values())
    finally:
        j.close()


@pytest.mark.parametrize("game_id", ["tyranny", "liberation"])
def test_sigkill_never_loses_an_acknowledged_action(tmp_path, soak_factor, game_id):
    trials = 25 * soak_factor  # per engine: 50 trials in all by default
    rnd = random.Random(f"crash-{game_id}")
    path = str(tmp_path / "journal.sqlite3")
    acked: dict[str, dict[int, str]] = {}
    maybe_redone: set[tuple[str, int]] = set()  # a redo the kill interrupted: done or not
    total = 0
    for trial in range(trials):
        lines = _trial(path, game_id, seed=rnd.randrange(10**6), run_s=rnd.uniform(0.05, 0.3))
        for i, line in enumerate(lines):
            kind, key, seq = line.split()
            if kind == "I":
                if i == len(lines) - 1:
                    maybe_redone.add((key, int(seq)))
                continue
            acked.setdefault(key, {})[int(seq)] = kind
            maybe_redone.discard((key, int(seq)))
        total += len(lines)
        _check(path, acked, maybe_redone)
    # the kills did land mid-game, and actions were acknowledged across restarts
    assert total > trials
    print(f"{game_id}: {trials} SIGKILLs, {total} acknowledged changes, {len(acked)} games", file=sys.stderr)
