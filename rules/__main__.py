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
    quit
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, Iterable

from . import registry
from .core import PUBLIC, Action, Game, IllegalAction, InvalidSetup, RollRequest, Roll, RulesError, Seat
from .core.actions import parse_action
from .core.jsondata import to_data

SHOWN = 30


def describe(action: Action) -> str:
    """A one-line, human description: ``cop-1 roll 4`` or ``crim-1 move_to to=outer-7``."""
    fields = {k: v for k, v in to_data(action).items() if k not in ("$", "seat", "source")}
    if isinstance(action, Roll):
        return f"{action.seat} roll {' '.join(map(str, action.values))}"
    args = " ".join(f"{k}={_short(v)}" for k, v in fields.items())
    return f"{action.seat} {action.kind}" + (f" {args}" if args else "")


def _short(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def save_data(game: Game[Any], seats: list[Seat], options: dict[str, Any], seed: int, actions: Iterable[Action]) -> dict[str, Any]:
    return {
        "game": game.id,
        "seats": [{"id": s.id, "faction": s.faction, "name": s.name} for s in seats],
        "options": options,
        "seed": seed,
        "actions": [to_data(a) for a in actions],
    }


def parse_seat(text: str) -> Seat:
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(parts[:2]):
        raise argparse.ArgumentTypeError(f"seat must be ID:FACTION[:NAME], not {text!r}")
    return Seat(parts[0], parts[1], parts[2] if len(parts) == 3 else "")


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option must be KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


class Referee:
    """One game played at the terminal."""

    def __init__(self, game: Game[Any], seats: list[Seat], options: dict[str, Any], seed: int, out: IO[str]) -> None:
        self.game, self.seats, self.options, self.seed, self.out = game, seats, options, seed, out
        self.state = game.new(seats, options, seed)
        self.actions: list[Action] = []

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
        while self.state.result is None:
            self.out.write("> ")
            self.out.flush()
            line = next(it, None)
            if line is None:
                self.say()
                return 0
            legal = self.command(line.strip(), legal)
        self.say(f"GAME OVER — winner: {self.state.result.winner}; {self.state.result.reason}")
        for side, score in self.state.result.scores.items():
            self.say(f"  {side}: {score.total} {score.breakdown}")
        return 0

    def command(self, line: str, legal: list[Action]) -> list[Action]:
        word, _, rest = line.partition(" ")
        prompt = self.game.prompt(self.state)
        try:
            if not line:
                return legal
            if line.isdigit():
                n = int(line)
                if not 1 <= n <= len(legal):
                    self.say(f"no action {n}")
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
                self.push(parse_action(json.loads(rest)))
            elif word == "view":
                viewer = rest or PUBLIC
                self.say(json.dumps(self.game.view(self.state, viewer), indent=1))
                return legal
            elif word == "all":
                return self.show(everything=True)
            elif word == "save":
                with open(rest, "w", encoding="utf-8") as f:
                    json.dump(save_data(self.game, self.seats, self.options, self.seed, self.actions), f, indent=1)
                self.say(f"saved {len(self.actions)} actions to {rest}")
                return legal
            elif word in ("quit", "exit"):
                raise SystemExit(0)
            else:
                self.say(f"unknown command {word!r} (a number, roll, auto, json, view, all, save, quit)")
                return legal
        except (ValueError, KeyError) as e:
            if isinstance(e, IllegalAction):
                raise
            self.say(f"could not read that: {e}")
            return legal
        return self.show()


def cmd_list(out: IO[str]) -> int:
    for info in registry.catalog():
        print(f"{info.id:<12} {info.title}  ({info.min_seats}–{info.max_seats} seats; {', '.join(info.factions)})", file=out)
    return 0


def cmd_play(args: argparse.Namespace, inp: IO[str], out: IO[str]) -> int:
    game = registry.load(args.game)
    seats = args.seat or game.default_seats()
    options = dict(args.option or [])
    try:
        referee = Referee(game, seats, options, args.seed, out)
    except InvalidSetup as e:
        print(f"cannot start: {e}", file=out)
        return 2
    rc = referee.run(inp)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(save_data(game, seats, referee.options, args.seed, referee.actions), f, indent=1)
    return rc


def cmd_replay(args: argparse.Namespace, out: IO[str]) -> int:
    with open(args.file, encoding="utf-8") as f:
        data = json.load(f)
    game = registry.load(data["game"])
    seats = [Seat(s["id"], s["faction"], s.get("name", "")) for s in data["seats"]]
    state = game.new(seats, data.get("options", {}), data.get("seed", 0))
    for i, raw in enumerate(data["actions"], 1):
        action = parse_action(raw)
        try:
            game.push(state, action)
        except IllegalAction as e:
            print(f"action {i} ({describe(action)}) is illegal:", file=out)
            for v in e.violations:
                print(f"  [{v.code}] {v.message} ({v.rule})", file=out)
            return 1
        if not args.quiet:
            print(f"{i:>4}. {describe(action)}", file=out)
    print(f"replayed {len(data['actions'])} actions; ply {state.ply}; {game.prompt(state)}", file=out)
    if state.result:
        print(f"winner: {state.result.winner} — {state.result.reason}", file=out)
    return 0


def main(argv: list[str] | None = None, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    inp = inp or sys.stdin
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m rules", description="The command-line referee.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games")
    play = sub.add_parser("play", help="play a game in the terminal")
    play.add_argument("game")
    play.add_argument("--seat", action="append", type=parse_seat, help="ID:FACTION[:NAME], in turn order")
    play.add_argument("--seed", type=int, default=0)
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
    except RulesError as e:
        print(f"error: {e}", file=out)
        return 2


if __name__ == "__main__":
    sys.exit(main())
