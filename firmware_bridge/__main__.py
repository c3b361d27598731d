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
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any, Callable, Sequence

from firmware_bridge import events as E
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
        out("error: %s" % e)
        return 2
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
                out("error: the hub refused telemetry for die %d: %s"
                    % (args.die, codec.STATUS_NAMES[ack.status] if ack.status < len(codec.STATUS_NAMES) else ack.status))
                conn.close()
                return 2
    except BridgeError as e:
        conn.close()
        out("error: %s" % e)
        return 2
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
    T.write_trace(args.record, T.Trace(sorted(samples), args.rate, args.die, meta))
    out("%d samples of die %d -> %s" % (len(samples), args.die, args.record))


def cmd_simulate(args: argparse.Namespace, out: Out) -> int:
    from firmware_bridge.simulated.hub import SimulatedHub

    from firmware_bridge.simulated.hub import SimulatedHubError

    try:
        hub = SimulatedHub(dice=[args.faces] * args.dice, seed=args.seed, speed=args.speed)
    except SimulatedHubError as e:
        out("error: %s" % e)
        return 2
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m firmware_bridge",
                                description="The table's input devices, from a terminal.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="serial ports, and which are dice hubs (by USB VID:PID)")
    m = sub.add_parser("monitor", help="live events and counters of one hub")
    m.add_argument("port", nargs="?", help="device path or pyserial URL (default: the one hub found)")
    m.add_argument("--port", dest="port_opt", help="the same, as an option")
    m.add_argument("--serial", help="find the hub by its USB serial number")
    m.add_argument("--name", default="hub1", help="the device name used in events (hub1)")
    m.add_argument("--interval", type=float, default=5.0, help="seconds between counter lines")
    m.add_argument("--seconds", type=float, default=None, help="stop after this long")
    m.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for the hub")
    m.add_argument("--silence", type=float, default=3.0, help="link down after this much silence")
    m.add_argument("--record", metavar="FILE", help="also record a die's raw samples (TELEMETRY) "
                   "to FILE in the recording format (hardware/README.md section 7)")
    m.add_argument("--die", type=int, default=0, help="the die to record (0)")
    m.add_argument("--rate", type=int, default=100, help="samples per second to record (<= 100)")
    m.add_argument("--label", default="recorded with monitor", help="the recording's label")
    s = sub.add_parser("simulate", help="run a simulated hub on a pty and print its path")
    s.add_argument("--dice", type=int, default=2)
    s.add_argument("--faces", type=int, default=6)
    s.add_argument("--seed", type=int, default=None, help="repeatable dice, rolls and boot ids")
    s.add_argument("--speed", type=float, default=1.0, help="device clock speed-up (1: real time)")
    s.add_argument("--roll-every", type=float, default=0.0, help="throw every die every N seconds")
    s.add_argument("--seconds", type=float, default=None, help="stop after this long")
    s.add_argument("--control", action="store_true",
                   help="take commands on stdin (%s), one per line, and print "
                        "'written die=D state=S face=F t_ns=T' (time.monotonic_ns) when a result "
                        "frame is on the pty; stops at end of input" % CONTROL_HELP)
    return p


def main(argv: Sequence[str] | None = None, out: Out | None = None) -> int:
    if out is None:
        def out(line: str) -> None:
            print(line, flush=True)
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    handler = {"list": cmd_list, "monitor": cmd_monitor, "simulate": cmd_simulate}[args.command]
    return handler(args, out)


if __name__ == "__main__":
    sys.exit(main())
