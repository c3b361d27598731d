"""Rule engines against python-chess in machine instructions: a figure that load cannot move.

``bench rules`` times the checked ``push`` on the clock, and on a machine shared with other
busy processes its microseconds move by 10–20 % from run to run (python-chess's own figure
with them). This benchmark counts the instructions the CPU executes instead, under
valgrind's cachegrind, which are the same from run to run to a fraction of a percent
(with ``PYTHONHASHSEED`` fixed): what to compare when a change is worth 1 % and the
machine is busy. It measures the same thing as ``bench rules``: recorded random games
replayed with the checked ``push`` (setups excluded), against python-chess's
``push_uci`` + ``pop`` at every position (the walk along the game excluded).

Each figure is the difference of two runs of one child process, with and without the
measured loop, divided by the items done: imports, recording and setups cancel out.
Instructions are not time (a cache miss or a slow instruction costs more), so this is a
guide for comparing two versions of the code; the target stays the CPU-time ratio of
``bench rules``.

Run: ``.venv/bin/python -m benchmarks instructions [--game=ID ...] [--games=N]``
(needs ``valgrind``; ``apt-get install valgrind`` on Debian).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from typing import Sequence

import rules

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _child(argv: Sequence[str]) -> int:
    """In the measured process: set up, then run the loop or not; print the items done."""
    from benchmarks.bench_rules import chess_games, recorded

    what, n, mode = argv[0], int(argv[1]), argv[2]
    if what == "chess":
        import chess

        games = chess_games(n, 1)
        boards = [chess.Board() for _ in games]
        moves = [[chess.Move.from_uci(u) for u in g] for g in games]
        for board, ucis, ms in zip(boards, games, moves):
            for uci, m in zip(ucis, ms):
                if mode == "loop":
                    board.push_uci(uci)
                    board.pop()
                board.push(m)  # the walk along the game, in both runs: it cancels out
        print(sum(len(g) for g in games))
        return 0
    game = rules.load(what)
    rec = recorded(game, n, 1)
    states = [game.new(seats, options, seed) for (seats, options, seed), _ in rec]  # type: ignore[misc]
    if mode == "loop":
        push = game.push
        for state, (_, actions) in zip(states, rec):
            for a in actions:
                push(state, a)
    print(sum(len(a) for _, a in rec))
    return 0


def _instructions(what: str, n: int, mode: str) -> tuple[int, int]:
    """Instructions executed by one child process, and the items it reports."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-m", "benchmarks.bench_instructions", "--child", what, str(n), mode],
        capture_output=True, text=True, env=env, check=True,
    )
    found = _REFS.search(out.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(out.stdout.split()[-1])


def per_item(what: str, n: int) -> float:
    """Instructions per validated action (or per chess push_uci + pop) over ``n`` games."""
    with_loop, items = _instructions(what, n, "loop")
    without, _ = _instructions(what, n, "none")
    return (with_loop - without) / items


def main(argv: list[str]) -> int:
    if shutil.which("valgrind") is None:
        # Skipped, not failed: `./dev bench` runs every benchmark, and the others need no valgrind.
        print("skipped: valgrind is not installed (apt-get install valgrind); this benchmark counts instructions under it")
        return 0
    only = {a.split("=", 1)[1] for a in argv if a.startswith("--game=")}
    n = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--games=")), 10)
    games = [info.id for info in rules.catalog() if not only or info.id in only]
    w = max(len(g) for g in ["chess", *games])
    chess_ir = per_item("chess", n)
    print(f"{'chess':<{w}}  push_uci + pop  {chess_ir:8,.0f} instructions per move   ({n} random games)")
    for gid in games:
        ir = per_item(gid, n)
        print(f"{gid:<{w}}  validated push  {ir:8,.0f} instructions per action ({n} recorded games): {chess_ir / ir:.2f}x chess")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
