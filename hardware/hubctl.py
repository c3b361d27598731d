#!/usr/bin/env python3
"""Talk to a dice hub from a terminal: identify it, calibrate its dice, record and replay
roll traces, set detector thresholds, reboot it (to the REPL, say).

    python hardware/hubctl.py --port /dev/ttyACM0 ident
    python hardware/hubctl.py --port /dev/ttyACM0 calibrate --die 0 [--faces 0,1,2] [--single 4]
    python hardware/hubctl.py --port /dev/ttyACM0 record --die 0 --seconds 20 roll.csv
    python hardware/hubctl.py replay roll.csv
    python hardware/hubctl.py --port /dev/ttyACM0 config settle_ms 300 [--die 1]
    python hardware/hubctl.py --port /dev/ttyACM0 reboot [--repl | --bootloader]

It speaks the same protocol as firmware_bridge, with the same codec module and the hub's
own payload layouts (firmware_bridge/shared/hubapp.py), over pyserial; ``--port`` takes any
pyserial URL (``loop://``, ``socket://``, a pty). Commands are retried 3 times at 200 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_bridge.shared import calibration as C  # noqa: E402
from firmware_bridge.shared import detector as D  # noqa: E402
from firmware_bridge.simulated import traces as T  # noqa: E402

RETRIES = 3
RETRY_S = 0.2


class HubLink:
    """A framed conversation with one hub over a pyserial port object."""

    def __init__(self, port: Any, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        from firmware_bridge.shared import codec, hubapp

        self.codec = codec
        self.app = hubapp
        self.port = port
        self.clock = clock
        self.sleep = sleep
        self.decoder = codec.Decoder()
        self.seq = 0
        self.backlog: list[Any] = []

    def send(self, kind: int, src: int, payload: bytes = b"") -> int:
        seq = self.seq
        self.port.write(self.codec.encode_frame(kind, seq, src, payload))
        self.port.flush()
        self.seq = (self.seq + 1) & 0xFF
        return seq

    def frames(self, timeout: float) -> Iterator[Any]:
        """Frames as they arrive, until ``timeout`` seconds pass without the caller
        stopping the iteration."""
        end = self.clock() + timeout
        kept, self.backlog = self.backlog, []  # callers may put frames back meanwhile
        for f in kept:
            yield f
        while self.clock() < end:
            data = self.port.read(256)
            if data:
                for f in self.decoder.feed(data):
                    yield f

    def command(self, kind: int, src: int, payload: bytes = b"", timeout: float = RETRY_S,
                retries: int = RETRIES) -> Any:
        """Send a command and wait for its ACK (retrying); other frames are kept."""
        for _ in range(retries):
            seq = self.send(kind, src, payload)
            for f in self.frames(timeout):
                if f.type == self.codec.ACK:
                    a = self.app.unpack_ack(f.payload)
                    if a[0] == kind and a[1] == seq:
                        return a
                self.backlog.append(f)
        raise TimeoutError("no ACK from the hub")

    def request(self, kind: int, want: int, src: int = 0xFE, timeout: float = 1.0) -> Any:
        """Send ``kind`` and return the first ``want`` frame that comes back."""
        for _ in range(RETRIES):
            self.send(kind, src)
            for f in self.frames(timeout / RETRIES):
                if f.type == want:
                    return f
                self.backlog.append(f)
        raise TimeoutError("the hub did not answer")


def open_port(url: str) -> Any:
    import serial

    return serial.serial_for_url(url, baudrate=115200, timeout=0.05)


def cmd_ident(link: HubLink, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    f = link.request(link.codec.HELLO, link.codec.IDENT)
    ident = link.app.unpack_ident(f.payload)
    out("protocol %d.%d  firmware %s  board %s  boot %08x" % (
        ident["major"], ident["minor"], ident["version"], ident["uid"].hex(), ident["boot_id"]))
    out("dice: " + (", ".join("d%d" % n for n in ident["faces"]) or "none"))
    snap = link.app.unpack_snapshot(link.request(link.codec.REQUEST_STATE, link.codec.SNAPSHOT).payload)
    for i, d in enumerate(snap["dice"]):
        out("die %d: %s face index %d (confidence %d), %d rolls, calibration rev %d%s" % (
            i, D.STATE_NAMES[d["state"]], d["face"], d["confidence"], d["counter"], d["cal_revision"],
            "" if d["calibrated"] else " (canonical)"))
    out("tokens %s  buttons %s" % (bin(snap["tokens"]), bin(snap["buttons"])))
    for f in link.frames(1.2):
        if f.type == link.codec.HEARTBEAT:
            hb = link.app.unpack_heartbeat(f.payload)
            out("uptime %.1f s  " % (hb["uptime_ms"] / 1000) + "  ".join(
                "%s=%d" % kv for kv in hb["counters"].items()))
            break
        if f.type == link.codec.LOG:
            out("log: " + f.payload[1:].decode("utf-8", "replace"))
    return 0


def cmd_calibrate(link: HubLink, args: argparse.Namespace, out: Callable[[str], None],
                  wait: Callable[[str], None] = input) -> int:
    app = link.app
    if args.single is not None:
        steps = [(args.single, app.CAL_SINGLE)]
    else:
        faces = [int(f) for f in args.faces.split(",")]
        if len(faces) != 3:
            raise SystemExit("hubctl: --faces takes three face indices")
        steps = [(f, app.CAL_THREE_FACE) for f in faces]
    for face, mode in steps:
        while True:
            wait("Put die %d down with face index %d (value %d) up, hands off, then press Enter: "
                 % (args.die, face, face + 1))
            link.sleep(0.6)  # the hub wants 0.5 s of stillness behind the reading
            kind, _seq, status, detail, value = link.command(
                link.codec.CALIBRATE_FACE, args.die, bytes([face, mode]))
            if status == app.OK:
                break
            if status == app.E_NOT_STILL:
                out("The die was still moving: again.")
                continue
            reason = app.CAL_ERRORS[detail] if status == app.E_CALIBRATION else str(status)
            out("Refused (%s): start again." % reason)
            return 1
    out("Calibrated die %d: confidence %d (above 990 is good)." % (args.die, value))
    return 0


def cmd_record(link: HubLink, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    app = link.app
    link.command(link.codec.SET_TELEMETRY, args.die, int(args.rate).to_bytes(2, "little"))
    samples: list[tuple[int, int, int, int]] = []
    events = []
    try:
        for f in link.frames(args.seconds):
            if f.type == link.codec.TELEMETRY and f.src == args.die:
                samples += app.unpack_telemetry_payload(f.payload)
            elif f.type == link.codec.ROLL_STATE and f.src == args.die:
                events.append(app.unpack_roll_state(f.payload))
    finally:
        link.command(link.codec.SET_TELEMETRY, args.die, b"\x00\x00")
    meta = {"label": args.label, "faces": str(args.faces)}
    if args.normals:
        meta["normals"] = args.normals
    T.write_trace(args.out, T.Trace(samples, args.rate, args.die, meta))
    out("%d samples, %d roll-state changes -> %s" % (len(samples), len(events), args.out))
    tally: dict[int, int] = {}
    for e in events:
        if e["state"] == D.ROLLED:
            tally[e["face"]] = tally.get(e["face"], 0) + 1
    if tally:
        out("rolled faces: " + ", ".join("%d: %d" % kv for kv in sorted(tally.items())))
    return 0


def cmd_replay(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """Run the detector over a recording, on the host: what the hub would have said."""
    tr = T.read_trace(args.trace, src=args.die)
    faces = int(tr.meta.get("faces", "6"))
    normals = T.parse_normals(tr.meta["normals"]) if "normals" in tr.meta else C.canonical(faces)
    cfg = D.Config(flat_deg=C.FLAT_DEG.get(faces, 25))
    for kv in args.set or []:
        k, _, v = kv.partition("=")
        cfg.set(k, int(v))
    for e in D.run(D.Detector(normals, cfg), tr.samples):
        out("%7d ms  %-8s face index %2d  confidence %4d  roll %d%s" % (
            e.t_ms, e.name(), e.face, e.confidence, e.counter,
            "  (still %d ms)" % e.settle_ms if e.settle_ms else ""))
    return 0


def cmd_config(link: HubLink, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    key = next((k[0] for k in D.CONFIG_KEYS if k[1] == args.key or str(k[0]) == args.key), None)
    if key is None:
        raise SystemExit("hubctl: unknown key %s (one of %s)" % (
            args.key, ", ".join(k[1] for k in D.CONFIG_KEYS)))
    src = 0xFF if args.die is None else args.die
    _k, _s, status, _d, _v = link.command(link.codec.SET_CONFIG, src,
                                          bytes([key]) + int(args.value).to_bytes(4, "little", signed=True))
    out("ok" if status == link.app.OK else "refused (status %d)" % status)
    return 0 if status == link.app.OK else 1


def cmd_reboot(link: HubLink, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    mode = link.app.REBOOT_REPL if args.repl else (
        link.app.REBOOT_BOOTLOADER if args.bootloader else link.app.REBOOT_NORMAL)
    link.command(link.codec.REBOOT, 0xFE, bytes([mode]))
    out("rebooting" + (" to the REPL" if args.repl else " to the bootloader" if args.bootloader else ""))
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", help="serial port or pyserial URL of the hub")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("ident", help="identity, dice, counters")
    c = sub.add_parser("calibrate", help="three-face (or single-face) calibration of a die")
    c.add_argument("--die", type=int, default=0)
    c.add_argument("--faces", default="0,1,2", help="three face indices (default 0,1,2)")
    c.add_argument("--single", type=int, help="re-measure this one face index only")
    r = sub.add_parser("record", help="stream raw samples of a die to a recording")
    r.add_argument("out", type=Path)
    r.add_argument("--die", type=int, default=0)
    r.add_argument("--seconds", type=float, default=20.0)
    r.add_argument("--rate", type=int, default=100)
    r.add_argument("--faces", type=int, default=6)
    r.add_argument("--label", default="recorded roll")
    r.add_argument("--normals", help="the die's normals for the header (x,y,z;...)")
    p = sub.add_parser("replay", help="run the detector over a recording on this computer")
    p.add_argument("trace", type=Path)
    p.add_argument("--die", type=int, default=None)
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a threshold")
    g = sub.add_parser("config", help="set a detector threshold (SET_CONFIG)")
    g.add_argument("key")
    g.add_argument("value", type=int)
    g.add_argument("--die", type=int, default=None, help="one die (default: all)")
    b = sub.add_parser("reboot", help="REBOOT the hub")
    b.add_argument("--repl", action="store_true", help="stay in the REPL after the reset")
    b.add_argument("--bootloader", action="store_true", help="to the UF2 bootloader")
    return ap


def main(argv: Sequence[str] | None = None, link: HubLink | None = None,
         out: Callable[[str], None] = print, wait: Callable[[str], Any] = input) -> int:
    """``link`` and ``wait`` (the "press Enter" prompt) are for tests."""
    args = parser().parse_args(argv)
    if args.cmd == "replay":
        return cmd_replay(args, out)
    if link is None:
        if not args.port:
            raise SystemExit("hubctl: --port is required for " + args.cmd)
        link = HubLink(open_port(args.port))
    if args.cmd == "calibrate":
        return cmd_calibrate(link, args, out, wait)
    handler = {"ident": cmd_ident, "record": cmd_record, "config": cmd_config,
               "reboot": cmd_reboot}[args.cmd]
    return handler(link, args, out)


if __name__ == "__main__":
    raise SystemExit(main())
