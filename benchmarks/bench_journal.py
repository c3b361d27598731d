"""Journal costs: resuming a long game, and how many actions per second the Table can
acknowledge with every one durably committed.

* A 10,000-action Tyranny game (random legal play that backs off to a checkpoint whenever
  the game would end, so it keeps going) is written through ``Table.submit`` into a fresh
  journal with a snapshot every 100 actions. (Only this setup runs with
  ``synchronous=OFF``, to take seconds instead of minutes; nothing measured does.)
* **resume**: ``Table.resume`` on a freshly opened journal, with the snapshots (newest
  snapshot + the actions after it) and on a copy without snapshots (a full replay of every
  journaled action); median of N runs. The engine's bare ``replay`` of the same actions is
  shown for reference. Target: resume ≤ 100 ms.
* **first refresh**: what the first ``log()`` + ``can_undo()`` after a resume adds (the
  history is loaded on first use, not by the resume).
* **acknowledged actions/s**: ``Table.submit`` of a game's actions into the journal with
  WAL and ``synchronous=FULL``, each returning only after its commit.

* **open check** (issue 31): what ``Journal.open`` spends checking a journal of 100
  finished games (Tyranny and Liberation by turns, random legal play to the end):
  ``PRAGMA quick_check`` (what the open ran before), ``PRAGMA integrity_check`` (what it
  runs now: it also catches an index that lost rows), the open's row checks (every games
  row, the actions of games in progress: none here, all are finished; each game's count
  of actions and acknowledged changes), every action row's checksum (what the open would
  cost if it checked finished games too; it does not), and the whole ``Journal.open``.

Run: ``.venv/bin/python -m benchmarks journal`` (``--quick``: 1,000 actions, 20 games;
``--open``: the open check alone).
"""
from __future__ import annotations

import copy
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import rules
from rules.core import Rng
from rules.core.playout import choose
from rules.core.jsondata import to_data

from companion import Journal, Table

TARGET_MS = 100.0


def long_game(game: Any, seats: list[dict[str, str]], seed: int, n: int, every: int = 25) -> list[Any]:
    """``n`` legal actions of one game that does not end: random play (kind first, as the
    playout harness plays), stepping back to an earlier checkpoint whenever an action ends
    the game, further back after repeated failures."""
    rng = Rng(seed)
    state = game.new(seats, {}, seed)
    actions: list[Any] = []
    checkpoints = [(0, copy.deepcopy(state))]
    fails = 0
    while len(actions) < n:
        a = choose(rng, list(game.legal_actions(state)))
        game.push_unchecked(state, a)
        actions.append(a)
        if state.result is not None:
            fails += 1
            back = min(len(checkpoints) - 1, 1 + fails // 3)
            if back:
                del checkpoints[len(checkpoints) - back:]
            k, saved = checkpoints[-1]
            state = copy.deepcopy(saved)
            del actions[k:]
            continue
        if len(actions) % every == 0:
            checkpoints.append((len(actions), copy.deepcopy(state)))
            fails = 0
    return actions


def _median_ms(fn: Any, runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), out


def library(path: Path, games: int) -> int:
    """``games`` finished games (Tyranny and Liberation by turns) journaled at ``path``
    (setup only with ``synchronous=OFF``); returns the number of actions."""
    j = Journal.open(path)
    j._db.execute("PRAGMA synchronous=OFF")
    total = 0
    for i in range(games):
        game_id = ("tyranny", "liberation")[i % 2]
        game = rules.load(game_id)
        seats = [{"id": s.id, "faction": s.faction, "name": f"P{k}"} for k, s in enumerate(game.default_seats())]
        t = Table.create(j, game_id=game_id, seats=seats, seed=i)
        rng = Rng(i)
        while t.outcome is None:
            t.submit(choose(rng, list(t.legal_actions())))
        total += t.ply
        t.close()
    j.close()
    return total


def open_check(folder: Path, games: int, runs: int) -> None:
    """The open's checks on a journal of ``games`` finished games (see the docstring)."""
    from companion import journal_check

    path = folder / "library.sqlite3"
    t0 = time.perf_counter()
    n = library(path, games)
    build_s = time.perf_counter() - t0

    def pragma(name: str) -> Any:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute(f"PRAGMA {name}").fetchall()
        finally:
            db.close()

    def rows() -> Any:
        acks = journal_check.read_acks(str(path))
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return journal_check.problems(db, acks)
        finally:
            db.close()

    def every_action() -> Any:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        journal_check.register(db)
        try:
            return db.execute(f"SELECT COUNT(*) FROM actions NOT INDEXED WHERE NOT {journal_check.ACTION_OK}").fetchall()
        finally:
            db.close()

    def whole_open() -> Any:
        Journal.open(path).close()

    quick_ms, ok = _median_ms(lambda: pragma("quick_check"), runs)
    full_ms, ok2 = _median_ms(lambda: pragma("integrity_check"), runs)
    rows_ms, found = _median_ms(rows, runs)
    every_ms, bad = _median_ms(every_action, runs)
    open_ms, _ = _median_ms(whole_open, runs)
    assert ok == ok2 == [("ok",)] and found == [] and bad == [(0,)], (ok, ok2, found, bad)
    size = path.stat().st_size / 1e6
    print(f"open check: {games} finished games, {n} actions, {size:.1f} MB (journaled in {build_s:.1f} s); median of {runs}")
    print(f"  quick_check (before)   : {quick_ms:8.1f} ms")
    print(f"  integrity_check (now)  : {full_ms:8.1f} ms")
    print(f"  the open's row checks  : {rows_ms:8.1f} ms")
    print(f"  every action's checksum: {every_ms:8.1f} ms  (not run at open)")
    print(f"  Journal.open, all of it: {open_ms:8.1f} ms")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    if "--open" in argv:
        folder = Path(tempfile.mkdtemp(prefix="bench-journal-"))
        try:
            open_check(folder, 20 if quick else 100, 3 if quick else 7)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return 0
    n = 1_000 if quick else 10_000
    runs = 3 if quick else 7
    acks = 100 if quick else 500
    game = rules.load("tyranny")
    seats = [{"id": s.id, "faction": s.faction, "name": ""} for s in game.default_seats()]
    folder = Path(tempfile.mkdtemp(prefix="bench-journal-"))
    try:
        t0 = time.perf_counter()
        actions = long_game(game, seats, seed=1, n=n)
        gen_s = time.perf_counter() - t0

        path = folder / "journal.sqlite3"
        j = Journal.open(path, snapshot_every=100)
        j._db.execute("PRAGMA synchronous=OFF")  # setup only: see the module docstring
        table = Table.create(j, game_id="tyranny", seats=seats, seed=1)
        t0 = time.perf_counter()
        for a in actions:
            table.submit(a)
        build_s = time.perf_counter() - t0
        key, final = table.key, to_data(table.state)
        j.close()

        bare = folder / "no-snapshots.sqlite3"
        shutil.copy(path, bare)
        db = sqlite3.connect(bare)
        db.execute("DELETE FROM snapshots")
        db.commit()
        db.close()

        def resume(p: Path) -> Any:
            jj = Journal.open(p)
            try:
                t = time.perf_counter()
                tab = Table.resume(jj, key)
                ms = (time.perf_counter() - t) * 1000
                return ms, to_data(tab.state)
            finally:
                jj.close()

        def history(p: Path) -> tuple[float, float]:
            """What the first screen refresh adds (the full history for the log and undo),
            and what a later refresh pays (the log is cached until the history changes)."""
            jj = Journal.open(p)
            try:
                tab = Table.resume(jj, key)
                t = time.perf_counter()
                tab.can_undo()
                tab.log()
                first = (time.perf_counter() - t) * 1000
                t = time.perf_counter()
                tab.can_undo()
                tab.log()
                return first, (time.perf_counter() - t) * 1000
            finally:
                jj.close()

        snap = [resume(path) for _ in range(runs)]
        hist = [history(path) for _ in range(runs)]
        hist_ms = statistics.median(h[0] for h in hist)
        again_ms = statistics.median(h[1] for h in hist)
        full = [resume(bare) for _ in range(runs)]
        assert all(s == final for _, s in snap + full), "a resumed state differs from the played one"
        snap_ms = statistics.median(ms for ms, _ in snap)
        full_ms = statistics.median(ms for ms, _ in full)
        engine_ms, state = _median_ms(lambda: game.replay(seats, {}, 1, actions), runs)
        assert to_data(state) == final

        # Acknowledged actions per second, synchronous=FULL (the Journal's own setting).
        j = Journal.open(folder / "acks.sqlite3")
        table = Table.create(j, game_id="tyranny", seats=seats, seed=1)
        t0 = time.perf_counter()
        for a in actions[:acks]:
            table.submit(a)
        ack_s = time.perf_counter() - t0
        sync = j._db.execute("PRAGMA synchronous").fetchone()[0]
        j.close()

        print(f"game: tyranny, {n} actions (generated in {gen_s:.1f} s, journaled in {build_s:.1f} s), snapshot every 100")
        print(f"resume with snapshots   : {snap_ms:8.1f} ms median of {runs}  (target <= {TARGET_MS:.0f} ms: {'met' if snap_ms <= TARGET_MS else 'NOT met'})")
        print(f"then log() + can_undo() : {hist_ms:8.1f} ms median of {runs}  (loads the {n}-action history, first refresh)")
        print(f"later refreshes         : {again_ms:8.1f} ms median of {runs}  (log() cached until the history changes)")
        print(f"resume, full replay     : {full_ms:8.1f} ms median of {runs}  ({full_ms / snap_ms:.0f}x slower)")
        print(f"engine replay alone     : {engine_ms:8.1f} ms median of {runs}")
        print(f"acknowledged actions/s  : {acks / ack_s:8.0f}  ({acks} submits, WAL, synchronous={'FULL' if sync == 2 else sync}, "
              f"{ack_s / acks * 1000:.2f} ms each)")
        open_check(folder, 20 if quick else 100, runs)
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
