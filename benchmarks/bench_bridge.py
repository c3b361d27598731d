"""firmware_bridge: how fast the host side of the dice-hub protocol is, in one run.

* **Decode throughput** (frames/s): ``codec.Decoder.feed`` on a realistic stream (ROLL_STATE,
  TOKEN, HEARTBEAT, SNAPSHOT, TELEMETRY mix) fed in 64-byte reads, against two baselines
  measured in the same run: the bare minimum a framed CRC protocol costs in CPython
  (``bytes.split(b"\\0")`` + ``binascii.crc_hqx`` per frame, no COBS, no objects), and
  pyserial's own ``loop://`` port reading the same bytes (what the serial layer costs
  before any decoding). The ratio to the 115200-baud line rate is the head-room.
* **Reader-thread CPU share**: a ``HubConnection`` reading a pty on which a writer thread
  plays hub at a given frame rate — a realistic table (two dice rolling, tokens, 1 Hz
  heartbeats: ~30 frames/s) and the full 115200-baud line rate (11,520 bytes/s of frames,
  paced every 10 ms). CPU seconds of the reader thread (its own CPU clock) per wall second.
* **Latency** pty → ``on_event``: the simulated hub (``firmware_bridge.simulated.hub``)
  rolls; the time from the roll frame's write on the pty master to the callback, p50/p99.

Run: ``.venv/bin/python -m benchmarks bridge`` (``--quick``: shorter).
"""
from __future__ import annotations

import binascii
import os
import statistics
import threading
import time
from typing import Callable, Sequence

import serial

from firmware_bridge.shared import codec

LINE_BYTES_S = 115200 / 10  # 8N1: ten bits on the wire per byte


def realistic_stream(n_frames: int) -> tuple[bytes, int]:
    """``n_frames`` frames of a busy table, in proportions a hub with two dice sends:
    mostly ROLL_STATE, some TOKEN/BUTTON, a HEARTBEAT, the odd SNAPSHOT and TELEMETRY."""
    out = bytearray()
    seq = 0
    for i in range(n_frames):
        k = i % 20
        if k < 12:
            frame = codec.encode_frame(codec.ROLL_STATE, seq, i % 2,
                                       codec.pack_roll_state(1 + k % 5, k % 6, 990 - k, i * 10, i))
        elif k < 16:
            frame = codec.encode_frame(codec.TOKEN, seq, codec.SRC_TOKENS,
                                       codec.pack_switch(k % 6, k % 2, 0b101, i * 10, i))
        elif k < 18:
            frame = codec.encode_frame(codec.HEARTBEAT, seq, codec.SRC_HUB,
                                       codec.pack_heartbeat(i * 10, list(range(10))))
        elif k == 18:
            frame = codec.encode_frame(codec.SNAPSHOT, seq, codec.SRC_HUB, codec.pack_snapshot(
                i, [(1, 2, 990, i, 1, True), (5, 0, 1000, i, 1, True)], 0b11, 0))
        else:
            frame = codec.encode_frame(codec.TELEMETRY, seq, 0, codec.pack_telemetry(
                i, [(j * 10, 12, -30, 1000) for j in range(6)]))
        out += frame
        seq = (seq + 1) & 0xFF
    return bytes(out), n_frames


def _best_rate(fn: Callable[[], int], repeats: int) -> float:
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        n = fn()
        best = max(best, n / (time.perf_counter() - t))
    return best


def decode_with_decoder(stream: bytes, chunk: int = 64) -> int:
    d = codec.Decoder()
    n = 0
    for i in range(0, len(stream), chunk):
        n += len(d.feed(stream[i:i + chunk]))
    return n


def decode_baseline_split_crc(stream: bytes) -> int:
    """The floor: split on zeros, CRC each piece (COBS leaves the CRC meaningless here, so
    the check is computed and compared but its verdict ignored, to keep the work equal)."""
    n = 0
    crc = binascii.crc_hqx
    for piece in stream.split(b"\0"):
        if piece:
            crc(piece[:-2], 0xFFFF) == piece[-2] | (piece[-1] << 8)  # noqa: B015
            n += 1
    return n


def read_loop_port(stream: bytes, chunk: int = 4096) -> int:
    """pyserial loop:// reading the stream back (it holds one byte per queue item, so the
    stream goes through in slices that fit its 4096-item buffer)."""
    port = serial.serial_for_url("loop://", timeout=0)
    got = 0
    for i in range(0, len(stream), chunk):
        port.write(stream[i:i + chunk])
        got += len(port.read(chunk))
    port.close()
    return stream.count(b"\0") if got == len(stream) else 0


def bench_decode(quick: bool) -> dict[str, float]:
    n = 20_000 if quick else 100_000
    stream, frames = realistic_stream(n)
    assert decode_with_decoder(stream) == frames
    repeats = 3 if quick else 5
    mean_len = len(stream) / frames
    res = {
        "frames": frames,
        "mean_frame_bytes": mean_len,
        "decoder_fps": _best_rate(lambda: decode_with_decoder(stream), repeats),
        "decoder_big_chunk_fps": _best_rate(lambda: decode_with_decoder(stream, 1 << 20), repeats),
        "baseline_split_crc_fps": _best_rate(lambda: decode_baseline_split_crc(stream), repeats),
        "line_rate_fps": LINE_BYTES_S / mean_len,
    }
    small = stream[: 200 * 1024]
    res["loop_port_fps"] = _best_rate(lambda: read_loop_port(small), 2)
    return res


# -- CPU share of the reader thread --------------------------------------------------------

class PtyHub:
    """A pty whose master end plays a minimal hub for the CPU benchmark: answers HELLO and
    REQUEST_STATE, and writes the realistic stream at ``bytes_per_s`` in 10 ms slices."""

    def __init__(self, bytes_per_s: float) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)
        self.bytes_per_s = bytes_per_s
        self.stop = threading.Event()
        self.seq = 0
        self.written = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._answer, daemon=True),
                        threading.Thread(target=self._stream, daemon=True)]

    def _send(self, kind: int, src: int, payload: bytes) -> None:
        with self.lock:
            os.write(self.master, codec.encode_frame(kind, self.seq, src, payload))
            self.seq = (self.seq + 1) & 0xFF

    def _answer(self) -> None:
        d = codec.Decoder()
        while not self.stop.is_set():
            try:
                data = os.read(self.master, 256)
            except OSError:
                time.sleep(0.01)  # no slave open yet
                continue
            for f in d.feed(data):
                if f.type == codec.HELLO:
                    self._send(codec.IDENT, codec.SRC_HUB, codec.pack_ident(
                        "0.1.0", b"benchhub", 1, 31, [6, 6], tokens=16, buttons=4))
                elif f.type == codec.REQUEST_STATE:
                    self._send(codec.SNAPSHOT, codec.SRC_HUB, codec.pack_snapshot(
                        0, [(0, 0, 0, 0, 0, True)] * 2, 0, 0))

    def _stream(self) -> None:
        frames = []
        counters = [0, 0]  # each die's results numbered one after another, as a hub's are
        for i in range(4000):
            k = i % 10
            if k < 6:
                counters[i % 2] += 1
                frames.append((codec.ROLL_STATE, i % 2, codec.pack_roll_state(
                    (1, 4, 5)[k % 3], k, 990, i, counters[i % 2])))
            elif k < 9:
                frames.append((codec.TOKEN, codec.SRC_TOKENS, codec.pack_switch(k, k % 2, k, i, i)))
            else:
                frames.append((codec.HEARTBEAT, codec.SRC_HUB, codec.pack_heartbeat(i, list(range(10)))))
        i = 0
        budget = 0.0
        next_t = time.monotonic()
        while not self.stop.is_set():
            budget += self.bytes_per_s * 0.01
            while budget > 0:
                kind, src, payload = frames[i % len(frames)]
                i += 1
                with self.lock:
                    data = codec.encode_frame(kind, self.seq, src, payload)
                    os.write(self.master, data)
                    self.seq = (self.seq + 1) & 0xFF
                    self.written += len(data)
                budget -= len(data)
            next_t += 0.01
            time.sleep(max(0.0, next_t - time.monotonic()))

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(1)
        os.close(self.master)


def bench_cpu(bytes_per_s: float, seconds: float) -> dict[str, float]:
    from firmware_bridge.serial import HubConnection

    hub = PtyHub(bytes_per_s)
    hub.start()
    events = [0]

    def count(e: object) -> None:
        events[0] += 1

    conn = HubConnection(hub.path, count).connect()
    try:
        time.sleep(0.5)  # settle
        c0, w0, g0, b0 = conn.reader_cpu_s() or 0.0, time.monotonic(), conn.counters().frames_good, hub.written
        time.sleep(seconds)
        c1, w1, g1, b1 = conn.reader_cpu_s() or 0.0, time.monotonic(), conn.counters().frames_good, hub.written
        bad = conn.counters().frames_bad
    finally:
        conn.close()
        hub.close()
    return {"cpu_share": (c1 - c0) / (w1 - w0), "frames_s": (g1 - g0) / (w1 - w0),
            "bytes_s": (b1 - b0) / (w1 - w0), "frames_bad": bad, "events": events[0]}


# -- latency from the simulated hub -------------------------------------------------------

def _timed_hub_class() -> type:
    """The simulated hub with a stopwatch on its pty writes: the monotonic time just
    before each write, for every roll result the write completes (by die and counter)."""
    from firmware_bridge.simulated.hub import SimulatedHub

    class TimedHub(SimulatedHub):
        def __init__(self, *a: object, **kw: object) -> None:
            super().__init__(*a, **kw)  # type: ignore[arg-type]
            self.write_t: dict[tuple[int, int], float] = {}
            self._watch = codec.Decoder()

        def _flush(self) -> None:
            if self._master is None or not self._out:
                return
            pending = bytes(self._out)
            t = time.monotonic()
            super()._flush()
            written = pending[: len(pending) - len(self._out)]
            for f in self._watch.feed(written):
                if f.type == codec.ROLL_STATE:
                    st = codec.unpack_roll_state(f.payload)
                    if st["state"] in (1, 4, 5):
                        self.write_t.setdefault((f.src, st["counter"]), t)

    return TimedHub


def bench_latency(rolls: int, speed: float = 50.0) -> dict[str, float]:
    """``rolls`` results (both dice thrown together) from the simulated hub; latency =
    callback time − write time of the result frame on the pty master."""
    from firmware_bridge import events as E
    from firmware_bridge.serial import HubConnection

    hub = _timed_hub_class()(dice=[6, 6], seed=11, speed=speed).start()
    got: dict[tuple[int, int], float] = {}
    done = threading.Event()

    def on_event(e: object) -> None:
        if isinstance(e, E.DieRolled):
            got[(e.die, e.counter)] = time.monotonic()  # type: ignore[index]
            if len(got) >= rolls:
                done.set()

    conn = HubConnection(hub.port, on_event).connect()
    try:
        time.sleep(0.5)
        while not done.is_set():
            hub.roll(None, wait=True)
            # The next throw's trace is computed in this thread; starting it the moment
            # a result is written would measure this benchmark's own contention for the
            # GIL, not the bridge (people do not re-throw within milliseconds).
            time.sleep(0.05)
        done.wait(2)
    finally:
        conn.close()
        hub.stop()
    lat = [1000 * (t - hub.write_t[k]) for k, t in got.items() if k in hub.write_t]
    return {"n": len(lat), "p50_ms": _pct(lat, 50), "p99_ms": _pct(lat, 99), "max_ms": max(lat),
            "mean_ms": statistics.fmean(lat)}


def bench_latency_bare(rolls: int) -> dict[str, float]:
    """The same measure without the simulated hub's own work in the process: a thread
    writes one ROLL_STATE result frame every 20 ms straight onto a pty master."""
    from firmware_bridge import events as E
    from firmware_bridge.serial import HubConnection

    hub = PtyHub(0.0)
    hub.threads = hub.threads[:1]  # answer HELLO / REQUEST_STATE, no stream
    hub.start()
    sent: dict[int, float] = {}
    got: dict[int, float] = {}

    def on_event(e: object) -> None:
        if isinstance(e, E.DieRolled):
            got[e.counter] = time.monotonic()  # type: ignore[index]

    conn = HubConnection(hub.path, on_event).connect()
    try:
        time.sleep(0.3)
        for i in range(1, rolls + 1):
            with hub.lock:
                data = codec.encode_frame(codec.ROLL_STATE, hub.seq, 0,
                                          codec.pack_roll_state(1, i % 6, 1000, i, i))
                hub.seq = (hub.seq + 1) & 0xFF
                sent[i] = time.monotonic()
                os.write(hub.master, data)
            time.sleep(0.02)
        time.sleep(0.2)
    finally:
        conn.close()
        hub.close()
    lat = [1000 * (got[k] - sent[k]) for k in sent if k in got]
    return {"n": len(lat), "p50_ms": _pct(lat, 50), "p99_ms": _pct(lat, 99), "max_ms": max(lat),
            "mean_ms": statistics.fmean(lat)}


def bench_reconnect(cycles: int, away_s: float = 0.2) -> list[float]:
    """Seconds from the simulated hub's replug to the next successful handshake, with
    the default back-off (0.5 s → 8 s) and replug watch, after ``away_s`` unplugged."""
    from firmware_bridge.serial import HubConnection
    from firmware_bridge.simulated.hub import SimulatedHub

    hub = SimulatedHub(dice=[6], seed=5, speed=10).start()
    conn = HubConnection(hub.port, lambda e: None).connect()
    out = []
    try:
        for _ in range(cycles):
            n = len(conn.connect_times())
            hub.unplug()
            time.sleep(away_s)
            t = time.monotonic()
            hub.replug()
            end = time.monotonic() + 20
            while len(conn.connect_times()) == n and time.monotonic() < end:
                time.sleep(0.002)
            out.append(conn.connect_times()[-1] - t)
    finally:
        conn.close()
        hub.stop()
    return out


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main(argv: Sequence[str]) -> int:
    quick = "--quick" in argv
    load = os.getloadavg()[0]
    print("load average (1 min) at start: %.2f" % load)
    d = bench_decode(quick)
    print("decode: %d frames, mean %.1f bytes on the wire" % (d["frames"], d["mean_frame_bytes"]))
    print("  codec.Decoder, 64-byte reads     %10.0f frames/s" % d["decoder_fps"])
    print("  codec.Decoder, one big chunk     %10.0f frames/s" % d["decoder_big_chunk_fps"])
    print("  baseline split(0) + crc_hqx      %10.0f frames/s  (Decoder = %.2fx of it)"
          % (d["baseline_split_crc_fps"], d["decoder_fps"] / d["baseline_split_crc_fps"]))
    print("  baseline pyserial loop:// read   %10.0f frames/s" % d["loop_port_fps"])
    print("  115200-baud line rate            %10.0f frames/s  (Decoder head-room %.0fx)"
          % (d["line_rate_fps"], d["decoder_fps"] / d["line_rate_fps"]))
    secs = 3.0 if quick else 10.0
    for label, rate in (("realistic table (~30 frames/s)", 30 * 22.0),
                        ("full 115200-baud line rate", LINE_BYTES_S)):
        c = bench_cpu(rate, secs)
        print("reader thread, %s: %.1f%% of one core  (%.0f frames/s, %.0f bytes/s, %d bad, %d events)"
              % (label, 100 * c["cpu_share"], c["frames_s"], c["bytes_s"], c["frames_bad"], c["events"]))
    try:
        import firmware_bridge.simulated.hub  # noqa: F401
    except ImportError:
        print("latency: firmware_bridge.simulated.hub is not in the tree; skipped")
        return 0
    lat = bench_latency(60 if quick else 400)
    print("latency pty write -> on_event, simulated hub (%d roll results): p50 %.2f ms  p99 %.2f ms"
          "  max %.2f ms  mean %.2f ms" % (lat["n"], lat["p50_ms"], lat["p99_ms"], lat["max_ms"], lat["mean_ms"]))
    bare = bench_latency_bare(100 if quick else 500)
    print("latency pty write -> on_event, bare pty writer (%d frames):        p50 %.2f ms  p99 %.2f ms"
          "  max %.2f ms  mean %.2f ms" % (bare["n"], bare["p50_ms"], bare["p99_ms"], bare["max_ms"], bare["mean_ms"]))
    for away, cycles in ((0.2, 5 if quick else 20), (3.0, 2 if quick else 5), (10.0, 1 if quick else 2)):
        rc = bench_reconnect(cycles, away)
        print("reconnect after replug, %.1f s unplugged, default back-off (%d cycles): median %.0f ms  max %.0f ms"
              % (away, len(rc), 1000 * statistics.median(rc), 1000 * max(rc)))
    print("load average (1 min) at end: %.2f" % os.getloadavg()[0])
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
