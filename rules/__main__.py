"""The command-line referee: the engines' first user interface, and a tool for tables
without the app.

    python -m rules list
    python -m rules play tyranny [--seat ID:FACTION[:NAME] ...] [--seed N] [--option K=V ...] [--save FILE]
    python -m rules replay FILE [--quiet]

While playing, type the number of a listed action, or one of:
    roll V [V ...]   the dice you rolled at the table (for the seat that must roll)
    auto             let the app roll the dice / draw the top card
    json {...}       any action as JSON (as saved in a game file)
    view [SEAT]      the public view, or SEAT's private view (hidden cards included!)
    all              list every legal action (not only the first 30)
    save FILE        write the game (setup + actions) to FILE
    quit             end the game (--save still writes it)

Bad input never ends in a traceback: a bad command line, game file or setup is one line on
stderr naming the file and the field, with exit status 2 (rules/README.md, "The
command-line referee"); a mistake typed during play is answered on one line.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any, Iterable, NoReturn

from . import registry
from .core import PUBLIC, Action, Game, IllegalAction, InvalidSetup, RollRequest, Roll, RulesError, Seat
from .core.jsondata import to_data
from .datafile import short
from .gamefile import MAX_SEED, GameFileError, NotJson, is_seed, parse_json, read_action, read_game_file, save_data

SHOWN = 30
EXIT_BAD_INPUT = 2  # as argparse exits on a bad command line
EXIT_ILLEGAL = 1  # a replayed action broke the rules
EXIT_INTERNAL = 3  # a bug: an exception no check foresaw


def describe(action: Action) -> str:
    """A one-line, human description: ``cop-1 roll 4`` or ``crim-1 move_to to=outer-7``."""
    fields = {k: v for k, v in to_data(action).items() if k not in ("$", "seat", "source")}
    if isinstance(action, Roll):
        return f"{action.seat} roll {' '.join(map(str, action.values))}"
    args = " ".join(f"{k}={_short(v)}" for k, v in fields.items())
    return f"{action.seat} {action.kind}" + (f" {args}" if args else "")


def _short(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def parse_seat(text: str) -> Seat:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(parts[:2]):
        raise argparse.ArgumentTypeError(f"a seat is ID:FACTION[:NAME], not {short(text)}")
    return Seat(parts[0], parts[1], parts[2] if len(parts) == 3 else "")


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, not {short(text)}")
    try:
        return key, parse_json(raw, f"option {key}")
    except NotJson:
        return key, raw  # plain text: ``--option move=up-to``
    except GameFileError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parse_seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = None
    if seed is None or not is_seed(seed):
        raise argparse.ArgumentTypeError(f"the seed is a whole number from 0 to {MAX_SEED}, not {short(text)}")
    return seed


def save_problem(path: str) -> str | None:
    """Why a game cannot be saved to ``path`` (checked before a game starts, so a game is
    never played only to be lost), or ``None``."""
    if not path:
        return "give the file to save to"
    p = Path(path)
    if p.is_dir():
        return f"{path} is a folder; give a file name in it"
    if not p.parent.is_dir():
        return f"the folder {p.parent} is missing"
    return None


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a bad command line answered in one line (no usage block)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


class Referee:
    """One game played at the terminal. A mistake typed at the prompt is answered with one
    line and the game goes on."""

    def __init__(self, game: Game[Any], seats: list[Seat], options: dict[str, Any], seed: int, out: IO[str]) -> None:
        self.game, self.seats, self.options, self.seed, self.out = game, seats, options, seed, out
        self.state = game.new(seats, options, seed)
        self.actions: list[Action] = []
        self.quitting = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def show(self, everything: bool = False) -> list[Action]:
        view = self.game.view(self.state, PUBLIC)
        self.say()
        self.say(json.dumps({k: v for k, v in view.items() if k not in ("prompt", "log", "seats", "viewer", "game")}, separators=(", ", ": ")))
        for entry in view["log"][-5:]:
            self.say(f"  · {entry['text']}")
        self.say(f"ply {self.state.ply} — {self.game.prompt(self.state)}")
        legal = list(self.game.legal_actions(self.state))
        for i, a in enumerate(legal if everything else legal[:SHOWN], 1):
            self.say(f"  {i:>3}. {describe(a)}")
        if len(legal) > SHOWN and not everything:
            self.say(f"  … {len(legal) - SHOWN} more ('all' lists them)")
        return legal

    def push(self, action: Action) -> bool:
        try:
            self.game.push(self.state, action)
        except IllegalAction as e:
            self.say(f"REJECTED {describe(action)}:")
            for v in e.violations:
                self.say(f"  [{v.code}] {v.message} ({v.rule})")
            return False
        self.actions.append(action)
        self.say(f"ok: {describe(action)}")
        return True

    def run(self, lines: Iterable[str]) -> int:
        legal = self.show()
        it = iter(lines)
        while self.state.result is None and not self.quitting:
            self.out.write("> ")
            self.out.flush()
            line = next(it, None)
            if line is None:
                self.say()
                return 0
            legal = self.command(line.strip(), legal)
        if self.state.result is None:
            return 0
        self.say(f"GAME OVER — winner: {self.state.result.winner}; {self.state.result.reason}")
        for side, score in self.state.result.scores.items():
            self.say(f"  {side}: {score.total} {score.breakdown}")
        return 0

    def save(self, path: str) -> None:
        """Write the game so far to ``path``; a file that cannot be written is reported,
        and the game is still here to save elsewhere."""
        problem = save_problem(path)
        if problem is None:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(save_data(self.game, self.seats, self.options, self.seed, self.actions), f, indent=1)
            except OSError as e:
                problem = f"{path}: {e.strerror or e}"
        if problem:
            raise OSError(problem)
        self.say(f"saved {len(self.actions)} actions to {path}")

    def command(self, line: str, legal: list[Action]) -> list[Action]:
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        prompt = self.game.prompt(self.state)
        try:
            if not line:
                return legal
            if line.isdigit():
                n = int(line) if len(line) <= len(str(len(legal))) else 0
                if not 1 <= n <= len(legal):
                    self.say(f"no action {short(line, 20)} (1 to {len(legal)})")
                    return legal
                self.push(legal[n - 1])
            elif word == "roll":
                rolling = [s for s, _ in prompt.awaiting_of_type(RollRequest)]
                seat = rolling[0] if rolling else (prompt.seats() or [self.seats[0].id])[0]
                self.push(Roll(seat, tuple(int(v) for v in rest.split()), source="manual"))
            elif word == "auto":
                action = self.game.sample(self.state)
                if action is None:
                    self.say("nothing to roll or draw now")
                    return legal
                self.push(action)
            elif word == "json":
                self.push(read_action(self.game, parse_json(rest, "json"), "json", ""))
            elif word == "view":
                viewer = rest or PUBLIC
                if viewer != PUBLIC and viewer not in {s.id for s in self.seats}:
                    self.say(f"no seat {short(viewer)}; seats: {', '.join(s.id for s in self.seats)}")
                    return legal
                self.say(json.dumps(self.game.view(self.state, viewer), indent=1))
                return legal
            elif word == "all":
                return self.show(everything=True)
            elif word == "save":
                try:
                    self.save(rest)
                except OSError as e:
                    self.say(f"could not save: {e}")
                return legal
            elif word in ("quit", "exit"):
                self.quitting = True
                return legal
            else:
                self.say(f"unknown command {short(word)} (a number, roll, auto, json, view, all, save, quit)")
                return legal
        except ValueError as e:  # RulesError included: a value typed wrong, or a bad action
            self.say(f"could not read that: {one_line(e)}")
            return legal
        return self.show()


def one_line(e: BaseException) -> str:
    """An exception's message on one line, cut to a readable length."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 300 else text[:297] + "…"


def cmd_list(out: IO[str]) -> int:
    for info in registry.catalog():
        print(f"{info.id:<12} {info.title}  ({info.min_seats}–{info.max_seats} seats; {', '.join(info.factions)})", file=out)
    return 0


def cmd_play(args: argparse.Namespace, inp: IO[str], out: IO[str]) -> int:
    if args.save is not None:
        problem = save_problem(args.save)
        if problem:
            raise CliError(f"--save: {problem}")
    game = registry.load(args.game)
    seats = args.seat or game.default_seats()
    options = dict(args.option or [])
    try:
        referee = Referee(game, seats, options, args.seed, out)
    except InvalidSetup as e:
        raise CliError(f"cannot start {game.title}: {e}") from None
    rc = referee.run(inp)
    if args.save is not None:
        try:
            referee.save(args.save)
        except OSError as e:
            raise CliError(f"could not save the game: {e}") from None
    return rc


def cmd_replay(args: argparse.Namespace, out: IO[str]) -> int:
    file = read_game_file(args.file)
    game = registry.load(file.game)
    try:
        state = game.new(file.seats, file.options, file.seed)
    except InvalidSetup as e:
        raise CliError(f"{args.file}: cannot start {game.title}: {e}") from None
    for i, raw in enumerate(file.actions, 1):
        action = read_action(game, raw, args.file, f"actions[{i - 1}]")
        try:
            game.push(state, action)
        except IllegalAction as e:
            print(f"action {i} ({describe(action)}) is illegal:", file=out)
            for v in e.violations:
                print(f"  [{v.code}] {v.message} ({v.rule})", file=out)
            return EXIT_ILLEGAL
        if not args.quiet:
            print(f"{i:>4}. {describe(action)}", file=out)
    print(f"replayed {len(file.actions)} actions; ply {state.ply}; {game.prompt(state)}", file=out)
    if state.result:
        print(f"winner: {state.result.winner} — {state.result.reason}", file=out)
    return 0


class CliError(RulesError):
    """A command that cannot be carried out; the message says why, in one line."""


def main(argv: list[str] | None = None, inp: IO[str] | None = None, out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """Run the referee. Bad input of any kind ends in one line on ``err`` and a non-zero
    exit status: 2 for input that cannot be used, 1 for a replayed action that breaks the
    rules, 3 for a bug (an error no check foresaw)."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    err = err or sys.stderr
    parser = ArgumentParser(prog="python -m rules", description="The command-line referee.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND (list, play or replay)")
    sub.add_parser("list", help="list the games")
    play = sub.add_parser("play", help="play a game in the terminal")
    play.add_argument("game")
    play.add_argument("--seat", action="append", type=parse_seat, help="ID:FACTION[:NAME], in turn order")
    play.add_argument("--seed", type=parse_seed, default=0, help=f"0 to {MAX_SEED}")
    play.add_argument("--option", action="append", type=parse_option, help="KEY=VALUE (VALUE as JSON)")
    play.add_argument("--save", help="write the game to this file when it ends")
    replay = sub.add_parser("replay", help="replay a saved action file, checking every action")
    replay.add_argument("file")
    replay.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return cmd_list(out)
        if args.command == "play":
            return cmd_play(args, inp, out)
        return cmd_replay(args, out)
    except RulesError as e:  # GameFileError, CliError, UnknownGame…
        print(f"{parser.prog}: error: {one_line(e)}", file=err)
        return EXIT_BAD_INPUT
    except Exception as e:  # the last resort: still one line, and says it is a bug
        print(f"{parser.prog}: internal error: {type(e).__name__}: {one_line(e)} (please report it)", file=err)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
