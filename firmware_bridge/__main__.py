"""``python -m firmware_bridge`` (or ``tabletop-bridge``): look at the table's devices
from a terminal.

    python -m firmware_bridge list                      serial ports, and which are hubs
    python -m firmware_bridge monitor /dev/ttyACM0      live events and counters
    python -m firmware_bridge monitor --serial E66038B7134F2A2B
    python -m firmware_bridge monitor                   the one hub plugged in
    python -m firmware_bridge monitor PORT --record roll.csv [--die 0]   also record samples
    python -m firmware_bridge simulate [--dice 2]       a simulated hub on a pty
    python -m firmware_bridge simulate --control        ... driven by commands on stdin

``monitor`` takes any pyserial URL (a device, a pty, ``socket://``); it prints one line
per event and, every ``--interval`` seconds, the bridge's counters and the hub's own.
Ctrl-C stops either command.

Bad input never ends in a traceback: a bad argument is one ``error:`` line on stderr and
exit status 2 (usage); a port that cannot be opened, a hub that does not answer or a
file that cannot be written is one ``error:`` line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from typing import Any, Callable, NoReturn, Sequence

from firmware_bridge import events as E
from firmware_bridge.errors import BridgeError
from firmware_bridge.shared import codec

Out = Callable[[str], None]


def format_event(e: E.Event, t0: float = 0.0) -> str:
    """One line for an event: time since ``t0``, type, source, the other fields.

    >>> format_event(E.DieRolled(device="hub1", die=0, value=4, outcome="rolled",
    ...              confidence=0.991, counter=17, boot_id=5, t=12.5), t0=10.0)
    '    2.500  DieRolled       die:hub1/0  value=4 outcome=rolled confidence=0.991 counter=17 boot_id=5 faces=6'
    """
    d = e.to_dict()
    for k in ("type", "device", "t", "die", "slot", "button"):
        d.pop(k, None)
    fields = " ".join("%s=%s" % (k, ("%.3f" % v) if isinstance(v, float) else v)
                      for k, v in d.items() if v not in (None, "", [], ()))
    return "%9.3f  %-15s %s  %s" % (e.t - t0, type(e).__name__, e.source, fields)


def cmd_list(args: argparse.Namespace, out: Out) -> int:
    from firmware_bridge.serial.discovery import hub_id_for, list_ports

    ports = list_ports()
    if not ports:
        out("no serial ports")
        return 0
    hubs = 0
    for p in ports:
        hid = hub_id_for(p)
        if hid is not None:
            hubs += 1
        mark = "hub?" if hid is not None and hid.kind == "bridge" else ("hub" if hid else "")
        out("%-4s %-20s %-9s %-24s %s" % (mark, p.device, p.usb_id or "-",
                                          p.serial_number or "-",
                                          hid.board if hid else (p.description or "")))
    out("%d port(s), %d hub(s) by VID:PID (hub?: a USB-UART chip; only IDENT proves it)"
        % (len(ports), hubs))
    return 0


def _counter_lines(conn: Any) -> list[str]:
    lines = ["bridge: " + conn.counters().line()]
    drops = {k: v for k, v in conn.drop_reasons().items() if v}
    if drops:
        lines[0] += "  (dropped: %s)" % "  ".join("%s %d" % kv for kv in sorted(drops.items()))
    hb = conn.hub_counters()
    if hb is not None:
        lines.append("hub:    uptime %.1f s  " % (hb.uptime_ms / 1000)
                     + "  ".join("%s %d" % kv for kv in hb.counters))
    return lines


class CliError(BridgeError):
    """A runtime failure the command reports as one ``error:`` line (exit status 1)."""


def cmd_monitor(args: argparse.Namespace, out: Out) -> int:
    from firmware_bridge.serial import BridgeError, HubConnection, find_hub

    try:
        if args.serial:
            url = find_hub(args.serial).device
        elif args.port_opt or args.port:
            url = args.port_opt or args.port
        else:
            url = find_hub().device
    except BridgeError as e:
        raise CliError(str(e)) from None
    t0 = time.monotonic()
    lock = threading.Lock()

    def show(e: E.Event) -> None:
        with lock:
            out(format_event(e, t0))

    samples: list[tuple[int, int, int, int]] = []

    def telemetry(frame: Any) -> None:
        if frame.type == codec.TELEMETRY and frame.src == args.die:
            samples.extend(codec.unpack_telemetry(frame.payload))

    conn = HubConnection(url, show, device=args.name, silence_s=args.silence,
                         on_frame=telemetry if args.record else None)
    try:
        conn.connect(timeout=args.timeout)
        if args.record:
            ack = conn.command(codec.SET_TELEMETRY, args.die, codec.pack_set_telemetry(args.rate))
            if not ack.ok:
                conn.close()
                raise CliError("the hub refused telemetry for die %d: %s"
                               % (args.die, codec.STATUS_NAMES[ack.status]
                                  if ack.status < len(codec.STATUS_NAMES) else ack.status))
    except (BridgeError, KeyboardInterrupt) as e:
        conn.close()
        if isinstance(e, KeyboardInterrupt):
            raise
        raise CliError(str(e)) from None
    out("monitoring %s (Ctrl-C stops)%s" % (url, " recording die %d to %s" % (args.die, args.record)
                                              if args.record else ""))
    end = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while end is None or time.monotonic() < end:
            wait = args.interval if end is None else max(0.0, min(args.interval, end - time.monotonic()))
            time.sleep(wait)
            with lock:
                for line in _counter_lines(conn):
                    out(line)
    except KeyboardInterrupt:
        pass
    finally:
        if args.record:
            try:
                conn.command(codec.SET_TELEMETRY, args.die, codec.pack_set_telemetry(0))
            except BridgeError:
                pass  # unplugged: the hub forgets telemetry when it restarts anyway
        conn.close()
    with lock:
        for line in _counter_lines(conn):
            out(line)
    if args.record:
        _write_recording(args, conn, samples, out)
    return 0


def _write_recording(args: argparse.Namespace, conn: Any, samples: list[tuple[int, int, int, int]],
                     out: Out) -> None:
    """The recording format of hardware/README.md §7 (what ``hubctl.py record`` writes)."""
    from firmware_bridge.simulated import traces as T

    ident = conn.ident
    meta = {"label": args.label}
    if ident is not None and args.die < len(ident.faces):
        meta["faces"] = str(ident.faces[args.die])
    try:
        T.write_trace(args.record, T.Trace(sorted(samples), args.rate, args.die, meta))
    except (OSError, ValueError) as e:
        raise CliError("cannot write the recording %s: %s" % (args.record, e)) from None
    out("%d samples of die %d -> %s" % (len(samples), args.die, args.record))


def cmd_simulate(args: argparse.Namespace, out: Out) -> int:
    from firmware_bridge.simulated.hub import SimulatedHub

    from firmware_bridge.simulated.hub import SimulatedHubError

    try:
        hub = SimulatedHub(dice=[args.faces] * args.dice, seed=args.seed, speed=args.speed)
    except SimulatedHubError as e:
        raise UsageError(str(e)) from None
    lock = threading.Lock()
    if args.control:
        def written(die: int, state: dict[str, int], t: float) -> None:
            with lock:
                out("written die=%d state=%d face=%d t_ns=%d" % (die, state["state"], state.get("face", -1),
                                                                 int(t * 1e9)))
        hub.on_result_written = written
    hub.start()
    try:
        with lock:
            out("simulated hub on %s  (pty %s; dice: %s; Ctrl-C stops)" % (
                hub.port, hub.pty_path, ", ".join("d%d" % f for f in hub.faces)))
            out("connect with: python -m firmware_bridge monitor %s" % hub.port)
        end = None if args.seconds is None else time.monotonic() + args.seconds
        done = threading.Event()
        if args.control:
            threading.Thread(target=_control_loop, args=(hub, sys.stdin, out, lock, done),
                             name="simulate-control", daemon=True).start()
        next_roll = None if not args.roll_every else time.monotonic() + args.roll_every
        while (end is None or time.monotonic() < end) and not done.is_set():
            done.wait(0.05)
            if next_roll is not None and time.monotonic() >= next_roll:
                hub.roll()
                next_roll += args.roll_every
    except KeyboardInterrupt:
        pass
    finally:
        hub.stop()
    return 0


CONTROL_HELP = "roll [DIE [VALUE]] [crooked] | turn DIE [VALUE] | quit"


def control_command(hub: Any, line: str) -> str | None:
    """Carry out one ``--control`` line on ``hub``; the reply, or None for ``quit``.

    >>> class Hub:
    ...     def roll(self, die=None, value=None, crooked=None): return [(die, value, crooked)]
    ...     def turn(self, die, value=None): return (die, value)
    >>> control_command(Hub(), "roll 0 5 crooked")
    'ok roll'
    >>> print(control_command(Hub(), "fly"))
    error: unknown command 'fly' (roll [DIE [VALUE]] [crooked] | turn DIE [VALUE] | quit)
    >>> control_command(Hub(), "quit") is None
    True
    """
    from firmware_bridge.simulated.hub import SimulatedHubError

    words = line.split()
    if not words:
        return "ok"
    cmd, rest = words[0], words[1:]
    crooked = None
    if "crooked" in rest:
        rest.remove("crooked")
        crooked = True
    try:
        nums = [int(w) for w in rest]
        if cmd == "quit":
            return None
        if cmd == "roll" and len(nums) <= 2:
            hub.roll(*nums, crooked=crooked)
        elif cmd == "turn" and 1 <= len(nums) <= 2 and crooked is None:
            hub.turn(*nums)
        else:
            return "error: unknown command %r (%s)" % (line.strip(), CONTROL_HELP)
    except (ValueError, SimulatedHubError) as e:
        return "error: %s" % e
    return "ok %s" % cmd


def _control_loop(hub: Any, stream: Any, out: Out, lock: threading.Lock, done: threading.Event) -> None:
    """Commands from ``stream`` (the parent's pipe), one per line, until ``quit`` or end
    of input (the parent has gone: the hub stops with it)."""
    try:
        for line in stream:
            reply = control_command(hub, line)
            if reply is None:
                break
            with lock:
                out(reply)
    finally:
        done.set()


# Upper bounds for times given in seconds: beyond them a wait overflows the platform's
# clock (time.sleep(1e300) raises) long before anyone would want it.
DAY_S = 86400.0
YEAR_S = 366 * DAY_S


class UsageError(BridgeError):
    """A bad argument, reported as one ``error:`` line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (argparse prints the whole usage
    block first), then exit status 2."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        self.exit(2, "%s: error: %s (see --help)\n" % (self.prog, message))


def _number(low: float | None = None, *, above: bool = False, kind: type = float,
            high: float | None = None) -> Callable[[str], Any]:
    """An argparse type: a finite number (never nan or inf) of ``kind`` that is >= ``low``
    (> ``low`` with ``above``) and <= ``high``."""
    def parse(text: str) -> Any:
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not %s" % (
                text, "a whole number" if kind is int else "a number")) from None
        if not math.isfinite(v):
            raise argparse.ArgumentTypeError("%r is not a finite number" % text)
        if low is not None and (v <= low if above else v < low):
            raise argparse.ArgumentTypeError("%s must be %s %s" % (text, ">" if above else ">=", low))
        if high is not None and v > high:
            raise argparse.ArgumentTypeError("%s must be <= %s" % (text, high))
        return v
    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def _device_name(text: str) -> str:
    if not text or "/" in text:
        raise argparse.ArgumentTypeError("%r: a device name is not empty and has no '/' "
                                         "(it goes into sources such as die:hub1/0)" % text)
    return text


def _output_file(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError("%s is a directory, not a file" % text)
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("folder %s does not exist" % folder)
    return text


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m firmware_bridge",
                description="The table's input devices, from a terminal.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="serial ports, and which are dice hubs (by USB VID:PID)")
    m = sub.add_parser("monitor", help="live events and counters of one hub")
    m.add_argument("port", nargs="?", help="device path or pyserial URL (default: the one hub found)")
    m.add_argument("--port", dest="port_opt", help="the same, as an option")
    m.add_argument("--serial", help="find the hub by its USB serial number")
    m.add_argument("--name", default="hub1", type=_device_name,
                   help="the device name used in events (hub1)")
    m.add_argument("--interval", type=_number(0, above=True, high=DAY_S), default=5.0,
                   help="seconds between counter lines")
    m.add_argument("--seconds", type=_number(0, high=YEAR_S), default=None, help="stop after this long")
    m.add_argument("--timeout", type=_number(0, above=True, high=DAY_S), default=5.0,
                   help="seconds to wait for the hub")
    m.add_argument("--silence", type=_number(0, above=True, high=DAY_S), default=3.0,
                   help="link down after this much silence")
    m.add_argument("--record", metavar="FILE", type=_output_file,
                   help="also record a die's raw samples (TELEMETRY) "
                   "to FILE in the recording format (hardware/README.md section 7)")
    m.add_argument("--die", type=_number(0, kind=int, high=codec.MAX_DICE - 1), default=0,
                   help="the die to record (0)")
    m.add_argument("--rate", type=_number(1, kind=int, high=100), default=100,
                   help="samples per second to record (1..100)")
    m.add_argument("--label", default="recorded with monitor", help="the recording's label")
    s = sub.add_parser("simulate", help="run a simulated hub on a pty and print its path")
    s.add_argument("--dice", type=_number(1, kind=int, high=codec.MAX_DICE), default=2)
    s.add_argument("--faces", type=int, default=6)
    s.add_argument("--seed", type=int, default=None, help="repeatable dice, rolls and boot ids")
    s.add_argument("--speed", type=_number(0.01, high=1000), default=1.0,
                   help="device clock speed-up (1: real time)")
    s.add_argument("--roll-every", type=_number(0, high=DAY_S), default=0.0,
                   help="throw every die every N seconds")
    s.add_argument("--seconds", type=_number(0, high=YEAR_S), default=None, help="stop after this long")
    s.add_argument("--control", action="store_true",
                   help="take commands on stdin (%s), one per line, and print "
                        "'written die=D state=S face=F t_ns=T' (time.monotonic_ns) when a result "
                        "frame is on the pty; stops at end of input" % CONTROL_HELP)
    return p


def main(argv: Sequence[str] | None = None, out: Out | None = None,
         err: Out | None = None) -> int:
    """Run one command; returns the exit status: 0, 1 (it failed: ``error:`` line on
    ``err``), 2 (bad arguments), 130 (Ctrl-C before it started)."""
    if out is None:
        def out(line: str) -> None:
            print(line, flush=True)
    if err is None:
        def err(line: str) -> None:
            print(line, file=sys.stderr, flush=True)
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    handler = {"list": cmd_list, "monitor": cmd_monitor, "simulate": cmd_simulate}[args.command]
    try:
        return handler(args, out)
    except UsageError as e:
        err("%s %s: error: %s" % (parser.prog, args.command, e))
        return 2
    except CliError as e:
        err("error: %s" % e)
        return 1
    except OSError as e:  # the terminal or a pipe went away, a device failed under us
        err("error: %s" % (e.strerror or e))
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
