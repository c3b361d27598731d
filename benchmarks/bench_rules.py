"""Rule engines against python-chess, in one process and one run, and the guard they keep.

**The guard:** for every game, an action checked and applied by the kernel's ``push`` must
cost no more CPU time than python-chess's ``push_uci`` + ``pop`` of a move: the CPU ratio
(chess's time over the game's) must stay at or above 1.0x. Each game's line says ``pass``
or ``FAIL``, a summary table closes the run, and the exit status is 1 if any game fails.
The ratio is measured in CPU time because the wall clock on a shared machine also counts
the time the process waited for a core. (The earlier 2x target is retired: it measured
the interpreter, not anything a table feels, and moved with the CPU.)


* **Validated actions per second**, for every game in the catalogue: action lists of random games are recorded
  first, then replayed with the checked ``push`` (every action validated, then applied),
  so the figure is validation + apply, not the random player. python-chess: ``push_uci``
  + ``pop`` of every move along random games (the baseline: a parsed, legality-checked
  move), and plain ``push_uci`` along the game for reference. The two are timed game by
  game, interleaved, in rounds; each game counts with its best round. The ratio's spread
  round by round (whole rounds, not best games) is printed too, and the same comparison
  in CPU time (``time.process_time``, best round per game): on a machine shared with
  other busy processes the wall clock also counts the time this process waited for a
  core, in bursts that spoil some games of either side and not others.
* **Complete random games per second.** Each game: ``random_playout`` (listing legal
  actions, choosing one, ``push_unchecked``) until a faction wins, capped at a ply limit;
  python-chess: random legal moves until ``is_game_over()``.

Run: ``.venv/bin/python -m benchmarks rules`` from the checkout (``--quick`` for a short run;
``--game=outrage`` once or more to measure only those games).
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable

import chess

import rules
from rules.core import Game
from rules.core.playout import random_playout

GUARD = 1.0
"""The least CPU ratio (python-chess's push_uci + pop over one checked action) a game keeps."""


def _best(fn: Callable[[], int], repeats: int) -> float:
    """The best rate (items per second) over ``repeats`` runs of ``fn`` (which returns items done)."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        n = fn()
        rates.append(n / (time.perf_counter() - t))
    return max(rates)


def chess_games(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        board = chess.Board()
        moves = []
        while not board.is_game_over() and len(moves) < 400:
            m = rng.choice(list(board.legal_moves))
            moves.append(m.uci())
            board.push(m)
        games.append(moves)
    return games


def chess_plain(games: list[list[str]]) -> int:
    """push_uci along the games (each move parsed and checked once)."""
    done = 0
    for moves in games:
        board = chess.Board()
        for uci in moves:
            board.push_uci(uci)
        done += len(moves)
    return done


def chess_random_games(n: int, seed: int) -> int:
    chess_games(n, seed)
    return n


def recorded(game: Game[Any], n: int, seed: int) -> list[tuple[object, list[object]]]:
    out = []
    for g in range(n):
        play = random_playout(game, seed + g, max_plies=2000)
        out.append(((play.seats, play.options, play.seed), play.actions))
    return out


def validated(game: Game[Any], games: list[tuple[object, list[object]]]) -> int:
    """Every recorded game replayed with the checked push, in one call: not timed here,
    but the entry point to profile (it is what the timed games do, setups included)."""
    done = 0
    push = game.push
    for (seats, options, seed), actions in games:  # type: ignore[misc]
        state = game.new(seats, options, seed)
        for a in actions:
            push(state, a)
        done += len(actions)
    return done


def game_s(game: Game[Any], rec: tuple[object, list[object]]) -> tuple[float, float]:
    """Seconds to push one recorded game's actions through the kernel's generic checked
    ``push`` (the same path for every game: no engine has one of its own), on the wall
    clock and in CPU time; setting the game up (not an action) is done before the clocks
    start."""
    (seats, options, seed), actions = rec  # type: ignore[misc]
    push = game.push
    state = game.new(seats, options, seed)
    c = time.process_time()
    t = time.perf_counter()
    for a in actions:
        push(state, a)
    t = time.perf_counter() - t
    return t, time.process_time() - c


def chess_game_s(moves: list[str]) -> tuple[float, float, float, float]:
    """Seconds for one game's push_uci + pop at every position (with the plain push that
    walks on), and seconds for that walk alone, to be taken out: wall clock, then CPU
    time, for each."""
    board = chess.Board()
    c = time.process_time()
    t = time.perf_counter()
    for uci in moves:
        board.push_uci(uci)
        board.pop()
        board.push(chess.Move.from_uci(uci))
    loop = time.perf_counter() - t
    loop_cpu = time.process_time() - c
    board = chess.Board()
    c = time.process_time()
    t = time.perf_counter()
    for uci in moves:
        board.push(chess.Move.from_uci(uci))
    walk = time.perf_counter() - t
    return loop, walk, loop_cpu, time.process_time() - c


def random_games(game: Game[Any], n: int, seed: int) -> tuple[int, int]:
    finished = 0
    for g in range(n):
        finished += random_playout(game, seed + g, max_plies=2000).finished
    return n, finished


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    only = {a.split("=", 1)[1] for a in argv if a.startswith("--game=")}
    n_games, repeats = (10, 2) if quick else (60, 5)
    cgames = chess_games(n_games, 1)
    c_moves = sum(len(m) for m in cgames)
    results: list[tuple[str, float, float, float]] = []
    for info in rules.catalog():
        if only and info.id not in only:
            continue
        game = rules.load(info.id)
        results.append((game.title, *_measure(game, cgames, c_moves, n_games, repeats)))
    print(f"== guard: every game's CPU ratio ≥ {GUARD:.1f}x (python-chess push_uci + pop / one checked action) ==")
    for title, t_us, c_us, ratio in results:
        print(f"{title:<22} {t_us:>6.1f} µs per action  {c_us:>6.1f} µs per chess move  "
              f"{ratio:>5.2f}x  {'pass' if ratio >= GUARD else 'FAIL'}")
    return 0 if all(ratio >= GUARD for *_, ratio in results) else 1


def _measure(game: Game[Any], cgames: list[list[str]], c_moves: int, n_games: int, repeats: int) -> tuple[float, float, float]:
    """One game against python-chess: µs of CPU per checked action, per chess push_uci +
    pop, and their ratio (the guard's figure). Interleaved game by game: each round plays game g
    of the engine and then chess game g, for every g, and each game counts with its best
    round. A burst of load from another process then spoils single games of either engine
    in single rounds, not a whole series of one engine."""
    tgames = recorded(game, n_games, 1)
    t_actions = sum(len(a) for _, a in tgames)
    inf = float("inf")
    t_best, c_best, w_best = [inf] * n_games, [inf] * n_games, [inf] * n_games
    # The same in CPU time (time.process_time): what the process itself spent, whatever
    # other processes on the machine did meanwhile.
    t_cpu, c_cpu, w_cpu = [inf] * n_games, [inf] * n_games, [inf] * n_games
    t_round: list[float] = []
    c_round: list[float] = []
    c_plain_s: list[float] = []
    for _ in range(repeats):
        t_sum = c_sum = 0.0
        for g in range(n_games):
            ts, ts_cpu = game_s(game, tgames[g])
            loop, walk, loop_cpu, walk_cpu = chess_game_s(cgames[g])
            t_best[g] = min(t_best[g], ts)
            c_best[g] = min(c_best[g], loop)
            w_best[g] = min(w_best[g], walk)
            t_cpu[g] = min(t_cpu[g], ts_cpu)
            c_cpu[g] = min(c_cpu[g], loop_cpu)
            w_cpu[g] = min(w_cpu[g], walk_cpu)
            t_sum += ts
            c_sum += loop - walk
        t_round.append(t_sum)
        c_round.append(c_sum)
        c_plain_s.append(_timed(lambda: chess_plain(cgames)))
    t_rate = t_actions / sum(t_best)
    c_rate = c_moves / (sum(c_best) - sum(w_best))
    c_plain = c_moves / min(c_plain_s)
    round_ratios = [(t_actions / ts) / (c_moves / cs) for ts, cs in zip(t_round, c_round)]
    t_us = 1e6 * sum(t_cpu) / t_actions
    c_us = 1e6 * (sum(c_cpu) - sum(w_cpu)) / c_moves

    k = max(5, n_games // 3)
    t0 = time.perf_counter()
    _, finished = random_games(game, k, 10_000)
    t_games = k / (time.perf_counter() - t0)
    c_games = _best(lambda: chess_random_games(k, 10_000), 1)

    ratio = t_rate / c_rate
    lengths = [len(a) for _, a in tgames]
    name = game.id[:10]
    print(f"== {game.title} ==")
    print(f"{name:<10} validated push      {t_rate:>10,.0f} actions/s   ({t_actions} actions of {len(tgames)} recorded random games, median {statistics.median(lengths):.0f} plies)")
    print(f"{'chess':<10} push_uci + pop      {c_rate:>10,.0f} moves/s     ({c_moves} moves of {len(cgames)} random games)")
    print(f"{'chess':<10} push_uci alone      {c_plain:>10,.0f} moves/s")
    print(f"{'wall':<10} {name} / chess {ratio:>8.2f}x   (wall clock, for reference; "
          f"round by round {min(round_ratios):.2f}–{max(round_ratios):.2f}x over {repeats} rounds)")
    cpu_ratio = c_us / t_us
    print(f"{'guard':<10} {t_us:.1f} µs per {name} action, {c_us:.1f} µs per chess push_uci + pop: "
          f"{cpu_ratio:.2f}x CPU (best of {repeats} per game, time.process_time): "
          f"{'pass' if cpu_ratio >= GUARD else 'FAIL'} (guard ≥ {GUARD:.1f}x)")
    print(f"{name:<10} random games        {t_games:>10,.1f} games/s    ({finished}/{k} finished within 2,000 plies)")
    print(f"{'chess':<10} random games        {c_games:>10,.1f} games/s")
    return t_us, c_us, cpu_ratio


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t
