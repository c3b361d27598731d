"""A simulated dice hub on a pseudo-terminal: the app and the tests open it with pyserial
exactly as they open a hub on USB, and it speaks the real protocol because it runs the
firmware's own hub logic (firmware_bridge/shared/hubapp.py, the file deploy.py copies
onto the board) with virtual hardware:

* each die is a virtual accelerometer: a throw is a synthetic trace
  (firmware_bridge.simulated.traces) fed through the firmware's roll detector, so a roll
  goes handling -> rolling -> rolled on the line with the timing of a real die;
* token slots and buttons are raw levels behind the firmware's debouncer;
* the hub's calibration and threshold files live in a temporary folder, which survives
  a reboot as the board's flash does.

The ``roller`` (firmware_bridge.simulated.rollers) decides the outcome of each throw and
a PhysicsRoller renders it into an accelerometer trace landing on that face.

Faults on demand: line noise, REPL text, a truncated frame, flipped bits, unplug and
replug, a reboot (new boot id, sequence from 0), a crooked die, heartbeat silence.

``port`` is a stable path (a symlink in a temporary folder) that always points at the
current pty: an unplug closes the pty (an open port reads EOF/EIO and the path stops
resolving, as a USB device vanishes), a replug opens a new pty and repoints the link.

>>> with SimulatedHub(dice=[6], seed=1, speed=20) as hub:   # doctest: +SKIP
...     port = serial.serial_for_url(hub.port, timeout=0.1)
...     hub.roll(0, value=4, wait=True)
"""

from __future__ import annotations

import fcntl
import math
import os
import random
import shutil
import sys
import tempfile
import termios
import threading
import time
import tty
import weakref
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Sequence

from firmware_bridge.shared import calibration as C
from firmware_bridge.shared import codec, hubapp
from firmware_bridge.shared import detector as D
from firmware_bridge.shared.debounce import Debouncer
from firmware_bridge.simulated import traces as T
from firmware_bridge.simulated.physics import PhysicsRoller
from firmware_bridge.simulated.rollers import RandomRoller, Roller, RollOutcome
from firmware_bridge.errors import BridgeError

SAMPLE_HZ = 100
PERIOD_MS = 1000 // SAMPLE_HZ
FIFO_DEPTH = 32  # the LIS3DH's FIFO: more samples waiting than this are overrun
DEBOUNCE_MS = 20
REST_LOOP = 50  # samples of a die's last rest, replayed while it lies still

REPL_BANNER = (b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n"
               b"Type \"help()\" for more information.\r\n>>> ")
TRACEBACK = (b"Traceback (most recent call last):\r\n"
             b"  File \"main.py\", line 4, in <module>\r\n"
             b"  File \"hub.py\", line 121, in main\r\n"
             b"OSError: [Errno 5] EIO\r\n"
             b"MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n>>> ")

RESULTS = (D.ROLLED, D.ON_FACE, D.CROOKED)


class SimulatedHubError(BridgeError, ValueError):
    """A request the simulated hub cannot carry out (no such die, a face value out of
    range, a fault while unplugged)."""


class _Sensor:
    """A die's accelerometer FIFO: samples (device ms, x, y, z) become readable when the
    device clock reaches them; while nothing is scheduled the die lies still (its last
    rest replayed). ``now`` is set by the hub loop before each step."""

    def __init__(self) -> None:
        self.queue: deque[tuple[int, int, int, int]] = deque()
        self.loop: list[tuple[int, int, int]] = []
        self.last_t = -PERIOD_MS
        self.busy_until = -PERIOD_MS  # device ms at which the last scheduled trace ends
        self.now = 0
        self.overruns = 0
        self.fail = False  # a pulled cable: reads raise OSError

    def rest_on(self, samples: Sequence[tuple[int, int, int, int]]) -> None:
        self.loop = [(x, y, z) for _, x, y, z in samples[-REST_LOOP:]]

    def play(self, samples: Sequence[tuple[int, int, int, int]]) -> int:
        """Schedule a trace from the next sample period on, or after the throw still in
        progress (a die is picked up again once it has come to rest); returns the offset
        from the trace's times to device ms. The die then rests as the trace left it."""
        keep = max(self.now, self.busy_until)
        while self.queue and self.queue[-1][0] > keep:
            self.queue.pop()  # rest samples made ahead of time
        start = max(keep, self.queue[-1][0] if self.queue else self.last_t) + PERIOD_MS
        # The die is resting already: keep only the last 100 ms of the trace's opening
        # rest. (A trace opens flat on its start face; after a crooked landing the die
        # leans, and the jump to flat then merges into the pick-up instead of settling
        # as a result of its own.)
        x0, y0, z0 = samples[0][1:]
        first = len(samples)
        for i, (_, x, y, z) in enumerate(samples):
            if abs(x - x0) + abs(y - y0) + abs(z - z0) > 150:
                first = i
                break
        samples = samples[max(0, first - 10):]
        offset = start - samples[0][0]
        for t, x, y, z in samples:
            self.queue.append((t + offset, x, y, z))
        self.busy_until = self.queue[-1][0]
        self.rest_on(samples)
        return offset

    def rebase(self) -> None:
        """The device clock restarted (a reboot): pending motion is cut short."""
        self.queue.clear()
        self.last_t = self.busy_until = -PERIOD_MS

    def _top_up(self) -> None:
        t = self.queue[-1][0] if self.queue else self.last_t
        i = 0
        while t < self.now + 200 and self.loop:
            t += PERIOD_MS
            x, y, z = self.loop[i % len(self.loop)]
            self.queue.append((t, x, y, z))
            i += 1

    def read_fifo(self) -> list[tuple[int, int, int]]:
        if self.fail:
            raise OSError(5, "EIO")
        self._top_up()
        out = []
        while self.queue and self.queue[0][0] <= self.now:
            s = self.queue.popleft()
            self.last_t = s[0]
            out.append((s[1], s[2], s[3]))
        if len(out) > FIFO_DEPTH:
            self.overruns += len(out) - FIFO_DEPTH
            out = out[-FIFO_DEPTH:]
        return out


class _Bank:
    """Token slots or buttons: raw levels set by the simulation, debounced by the
    firmware's debouncer."""

    def __init__(self, count: int) -> None:
        self.levels = [False] * count
        self.debouncer = Debouncer(count, DEBOUNCE_MS)

    def poll(self, t_ms: int) -> list[tuple[int, bool]]:
        return self.debouncer.update(t_ms, self.levels)

    def bits(self) -> int:
        return self.debouncer.bits()


class _Store:
    def __init__(self, folder: str) -> None:
        self.folder = folder

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)


class _Link:
    """The hub's USB serial: what the host wrote waits in ``inbox``; what the hub writes
    goes through the simulation's fault injection to the pty."""

    def __init__(self, emit: Callable[[bytes], None]) -> None:
        self.inbox = bytearray()
        self._emit = emit

    def read(self) -> bytes:
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        self._emit(data)


class _Actions:
    """REBOOT's effects, carried out by the loop once the step that ACKed it is over."""

    def __init__(self) -> None:
        self.pending: str | None = None

    def reset(self) -> None:
        self.pending = "reset"

    def repl(self) -> None:
        self.pending = "repl"

    def bootloader(self) -> None:
        self.pending = "bootloader"


class SimulatedHub:
    """A dice hub on a pty, running the firmware's hub logic on its own thread.

    ``dice``: face count per die (``[6, 6]``), or ``count`` dice of ``sides`` faces
    (default two d6). ``seed`` makes the dice, the rolls and the boot ids repeatable.
    ``roller`` decides throws (default RandomRoller; a PhysicsRoller also renders them).
    ``speed`` runs the device clock faster than real time (a throw takes about 3 s of
    device time; heartbeats come every 1/speed s). ``link_dir``: where the stable
    ``port`` symlink is made (default: the hub's temporary folder, removed by ``stop()``
    or when the object is collected).

    Face values: ``roll(value=v)`` lands face index ``v - 1`` (the default index-to-value
    map a host applies); outcomes carry the face index.
    """

    def __init__(self, dice: Iterable[int] | None = None, *, count: int | None = None,
                 sides: int = 6, seed: int | None = None, roller: Roller | None = None,
                 tokens: int = 6, buttons: int = 4, speed: float = 1.0,
                 uid: bytes | None = None, link_dir: str | os.PathLike[str] | None = None,
                 name: str = "tc-hub0", version: str = "0.1.0") -> None:
        faces = list(dice) if dice is not None else [sides] * (2 if count is None else count)
        if not 1 <= len(faces) <= codec.MAX_DICE:
            raise SimulatedHubError("a hub carries 1 to %d dice, not %d" % (codec.MAX_DICE, len(faces)))
        for f in faces:
            if f not in C.CANONICAL:
                raise SimulatedHubError("no d%d: the simulated dice are %s"
                                        % (f, ", ".join("d%d" % k for k in sorted(C.CANONICAL))))
        if not isinstance(speed, (int, float)) or not math.isfinite(speed) or speed <= 0:
            # nan passes "<= 0" and inf makes every device clock step infinite
            raise SimulatedHubError("speed must be a finite number > 0, not %r" % (speed,))
        self.faces = faces
        self.speed = float(speed)
        self.rng = random.Random(seed)
        # Faults and boot ids draw on their own generators (the loop thread uses them), so
        # a seeded hub throws the same faces however many reboots happen in between.
        self._fault_rng = random.Random(self.rng.random())
        self._boot_rng = random.Random(self.rng.random())
        self.roller: Roller = roller if roller is not None else RandomRoller()
        self._physics = roller if isinstance(roller, PhysicsRoller) else PhysicsRoller(
            mount_seed=0 if seed is None else seed)
        self.uid = uid if uid is not None else bytes(self.rng.randrange(256) for _ in range(8))
        self.version = version
        self._folder = tempfile.mkdtemp(prefix="tc-simhub-")
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._folder, True)
        self.port = str(Path(link_dir or self._folder) / name)
        self._store = _Store(self._folder)
        self._sensors = [_Sensor() for _ in faces]
        self._tokens = _Bank(tokens)
        self._buttons = _Bank(buttons)
        self._crooked = [False] * len(faces)
        for i, f in enumerate(faces):
            d = self._physics.prepare(i, f)
            # The die was calibrated on this hub once: its file is on the "flash".
            C.save(self._store.path(hubapp.CAL_FILE % i), d.calibration)
            boot = T.rest(f, d.face, self.rng, d.mount, self._physics.sensor, seconds=0.6)
            self._sensors[i].rest_on(boot.samples)

        self._cond = threading.Condition(threading.RLock())
        self._render = threading.Lock()  # the physics roller and self.rng (API callers)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self.pty_path: str | None = None
        self.mode = "off"  # off, run, repl, bootloader
        self._out = bytearray()
        self._truncate = 0
        self._flips: list[int] = []
        self._silent_until = 0.0
        self._close_at = 0.0
        self._drained_at: float | None = None
        self.sent: deque[tuple[codec.Frame, str]] = deque(maxlen=20000)
        self.results: list[list[dict[str, int]]] = [[] for _ in faces]
        self.boots = 0
        self.tx_dropped = 0
        self.hub: hubapp.Hub | None = None
        self.boot_id = 0
        # Called on the loop thread as (die, roll state, time.monotonic()) once the last
        # byte of a result frame is on the pty: latency benchmarks start their clock here.
        self.on_result_written: Callable[[int, dict[str, int], float], None] | None = None
        self._marks: list[list] = []  # [bytes of _out up to a result's end, die, state]

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> "SimulatedHub":
        """Plug in (open the pty, make ``port``), boot, and run the loop thread."""
        with self._cond:
            if self._thread is not None:
                raise SimulatedHubError("the simulated hub is already running")
            self._open_pty()
            self._boot()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="simulated-hub", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the loop, close the pty and remove the temporary files."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        with self._cond:
            self._close_pty()
            self.mode = "off"
        if os.path.islink(self.port):
            os.unlink(self.port)
        self._cleanup()

    def __enter__(self) -> "SimulatedHub":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def plugged(self) -> bool:
        # Under the lock: the hub's thread closes the pty's fds before it clears
        # ``_master``, and an app whose read just failed must see the hub unplugged.
        with self._cond:
            return self._master is not None

    # -- the table: dice, tokens, buttons ---------------------------------------------

    def _check_die(self, die: int) -> int:
        if not 0 <= die < len(self.faces):
            raise SimulatedHubError("no die %d: this hub has dice 0..%d" % (die, len(self.faces) - 1))
        return self.faces[die]

    def _face(self, die: int, value: int | None) -> int | None:
        faces = self._check_die(die)
        if value is None:
            return None
        if not 1 <= value <= faces:
            raise SimulatedHubError("a d%d shows 1..%d, not %d" % (faces, faces, value))
        return value - 1

    def roll(self, die: int | None = None, value: int | None = None, *,
             crooked: bool | None = None, wait: bool = False,
             timeout: float | None = None) -> list[RollOutcome]:
        """Throw die ``die`` (every die when None). ``value`` forces the face value that
        ends up; otherwise the roller decides. ``crooked`` lands it leaning (default:
        whatever ``set_crooked`` said for that die). Returns the outcome of each die
        thrown, as the firmware's detector will report it; with ``wait`` returns once the
        hub has sent every result (``timeout``: real seconds; by default the throw's
        own duration and 5 s more)."""
        dice = range(len(self.faces)) if die is None else [die]
        plans = []
        for d in dice:
            face = self._face(d, value)
            lean = self._crooked[d] if crooked is None else crooked
            plans.append((d, face, lean))
        return self._throw(plans, wait, timeout, hand=False)

    def turn(self, die: int, value: int | None = None, *, wait: bool = False,
             timeout: float | None = None) -> RollOutcome:
        """Pick die ``die`` up, turn it to ``value`` by hand and put it down: the hub
        reports ``onFace``, not a roll."""
        return self._throw([(die, self._face(die, value), False)], wait, timeout, hand=True)[0]

    def _throw(self, plans: list[tuple[int, int | None, bool]], wait: bool,
               timeout: float | None, hand: bool) -> list[RollOutcome]:
        outcomes = []
        rendered = []
        # Traces are made outside the loop's lock (tens of ms each): the hub keeps
        # running meanwhile, as a board does while a die is in the air.
        with self._render:
            for d, face, lean in plans:
                faces = self.faces[d]
                if hand:
                    out = self._physics.turn(d, faces, self.rng, face)
                elif self.roller is self._physics:
                    out = self._physics.roll(d, faces, self.rng, face, lean)
                else:
                    want = self.roller.roll(d, faces, self.rng, face, lean)
                    if want.state == "onFace":
                        out = self._physics.turn(d, faces, self.rng, want.face_index)
                    else:
                        out = self._physics.roll(d, faces, self.rng, want.face_index,
                                                 want.state == "crooked")
                trace = self._physics.last_trace
                assert trace is not None
                rendered.append((d, trace.samples, int(trace.meta["landed_ms"])))
                outcomes.append(out)
        with self._cond:
            boots = self.boots
            # A die's result comes after it lands (earlier results are older news, such
            # as the power-on onFace).
            landed = {d: self._sensors[d].play(samples) + land for d, samples, land in rendered}

            def pending() -> bool:
                return self.boots == boots and any(
                    not any(r["t_ms"] > t for r in self.results[d][-4:]) for d, t in landed.items())

            if wait:
                # Default: until the last landing plus settling, in real seconds, and
                # 5 s to spare for a busy machine.
                due = max(t - self._sensors[d].now for d, t in landed.items())
                limit = (due / 1000.0 / self.speed + 5.0) if timeout is None else timeout
                end = time.monotonic() + limit
                while pending():
                    left = end - time.monotonic()
                    if left <= 0:
                        raise TimeoutError("the simulated hub sent no result within %.1f s" % limit)
                    self._cond.wait(left)
        return outcomes

    def set_crooked(self, die: int, crooked: bool = True) -> None:
        """From now on die ``die`` lands leaning against something (``crooked``)."""
        self._check_die(die)
        self._crooked[die] = crooked

    def set_token(self, slot: int, present: bool) -> None:
        """A token placed on (or taken off) slot ``slot``; the hub reports it once the
        reed switch has been stable for the debounce time."""
        with self._cond:
            if not 0 <= slot < len(self._tokens.levels):
                raise SimulatedHubError("no token slot %d" % slot)
            self._tokens.levels[slot] = present

    def press(self, button: int, down: bool = True) -> None:
        """Button ``button`` held down (or released)."""
        with self._cond:
            if not 0 <= button < len(self._buttons.levels):
                raise SimulatedHubError("no button %d" % button)
            self._buttons.levels[button] = down

    def pull_die_cable(self, die: int, pulled: bool = True) -> None:
        """A die's sensor stops answering (counted as sensor_errors in HEARTBEAT)."""
        self._check_die(die)
        self._sensors[die].fail = pulled

    # -- faults -----------------------------------------------------------------------

    def _write_raw(self, data: bytes) -> None:
        with self._cond:
            if self._master is None:
                raise SimulatedHubError("the simulated hub is unplugged")
            self._out += data

    def inject_garbage(self, data: bytes | None = None, terminate: bool = True) -> bytes:
        """Line noise (random bytes unless ``data``); with ``terminate`` a 0x00 follows so
        only the noise is lost, else it glues to (and takes down) the next frame."""
        with self._cond:
            noise = data if data is not None else bytes(
                self._fault_rng.randrange(1, 256) for _ in range(self._fault_rng.randint(1, 80)))
        noise += b"\x00" if terminate else b""
        self._write_raw(noise)
        return noise

    def inject_repl_traceback(self, terminate: bool = False) -> None:
        """A MicroPython traceback and REPL prompt on the line (what a crashed firmware
        prints). Without ``terminate`` it glues to the next frame, which is lost."""
        self._write_raw(TRACEBACK + (b"\x00" if terminate else b""))

    def send_truncated(self, count: int = 1) -> None:
        """The next ``count`` frames the hub sends are cut short (a byte or more of
        each is lost, the delimiter arrives)."""
        with self._cond:
            self._truncate += count

    def flip_bits(self, bits: int = 1) -> None:
        """The next frame the hub sends has ``bits`` random bits flipped (delimiter
        excepted)."""
        if bits < 1:
            raise SimulatedHubError("flip at least one bit")
        with self._cond:
            self._flips.append(bits)

    def go_silent(self, seconds: float) -> None:
        """The hub's main loop stalls for ``seconds`` (real time): no heartbeat, no
        answers; commands wait in its buffer, sensor FIFOs overrun."""
        with self._cond:
            self._silent_until = time.monotonic() + seconds
            # A stall, whether or not the loop gets a pass during it: on a loaded machine
            # its thread may not be scheduled until the silence is over, and the first
            # pass after it must still advance the device clock fully (and overrun the
            # FIFOs), not by a slow pass's 100 ms.
            self._stalled = True

    def unplug(self) -> None:
        """Pull the USB cable: the pty closes (an open port fails, ``port`` dangles).
        The hub keeps running (as a self-powered hub does); what it sends is lost."""
        with self._cond:
            if self._master is None:
                raise SimulatedHubError("the simulated hub is already unplugged")
            self._close_pty()

    def replug(self, reboot: bool = False) -> None:
        """Plug back in: a new pty, ``port`` repointed at it. ``reboot``: the hub lost
        power meanwhile (a bus-powered hub), so it boots afresh (new boot id)."""
        with self._cond:
            if self._master is not None:
                raise SimulatedHubError("the simulated hub is already plugged in")
            self._open_pty()
            if reboot or self.mode == "bootloader":
                self._boot()

    def reboot(self) -> None:
        """Reset the board: a new boot id, the device clock and the sequence from 0,
        IDENT announced unasked; calibration and thresholds kept (they are on flash)."""
        with self._cond:
            self._boot()

    def crash_to_repl(self) -> None:
        """The firmware dies and the board sits at the REPL (until ``reboot()``)."""
        with self._cond:
            self.mode = "repl"
            if self._master is not None:
                self._out += TRACEBACK

    # -- inside ----------------------------------------------------------------------

    def _advance(self, stalled: bool) -> int:
        """Device ms now. The clock runs ``speed`` times real time but advances at most
        100 ms per pass of a loop that was merely slow to be scheduled (so a busy test
        machine cannot overrun the FIFOs); a stall (go_silent) advances it fully."""
        mono = time.monotonic()
        elapsed = (mono - self._mono) * 1000.0 * self.speed
        self._mono = mono
        self._clock += elapsed if stalled else min(elapsed, 100.0)
        return int(self._clock)

    def _boot(self) -> None:
        self._mono = time.monotonic()
        self._clock = 0.0
        self._stalled = False
        self.boots += 1
        self.boot_id = self._boot_rng.getrandbits(32)
        for s in self._sensors:
            s.rebase()
            s.now = 0
        self._tokens.debouncer = Debouncer(len(self._tokens.levels), DEBOUNCE_MS)
        self._buttons.debouncer = Debouncer(len(self._buttons.levels), DEBOUNCE_MS)
        self._actions = _Actions()
        self._link = _Link(self._emit)
        dice = [hubapp.Die(i, self._sensors[i], f, SAMPLE_HZ) for i, f in enumerate(self.faces)]
        self.hub = hubapp.Hub(self._link, dice, self._tokens, self._buttons, self._store,
                              self._actions, self.uid, self.boot_id, self.version, 0)
        self.mode = "run"
        self._out.clear()
        self._marks.clear()
        self.hub.announce()

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, before any app opens it
        tty.setraw(master)
        fl = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, fl | os.O_NONBLOCK)
        self._master, self._slave = master, slave
        self.pty_path = os.ttyname(slave)
        self._point_port(self.pty_path)

    def _point_port(self, target: str) -> None:
        tmp = self.port + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(target, tmp)
        os.replace(tmp, self.port)  # atomically: the port path is never missing a link

    def _close_pty(self) -> None:
        if self._master is not None and os.path.lexists(self.port):
            # Not left dangling at /dev/pts/N: the kernel may give that number to another
            # program's terminal, which a reconnecting app must never open.
            self._point_port(os.path.join(self._folder, "unplugged"))
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self.pty_path = None
        self._out.clear()
        self._marks.clear()

    def _emit(self, data: bytes) -> None:
        """One frame from the hub: recorded, then corrupted if a fault is pending, then
        queued for the pty (or lost while unplugged)."""
        if data == b"\x00":  # the boot's resynchronising delimiter: not a frame
            if self._master is not None:
                self._out += data
            return
        frame = codec.decode_frame(data)
        fate = "sent"
        if self._master is None:
            fate = "unplugged"
        elif self._truncate:
            self._truncate -= 1
            data = data[:self._fault_rng.randrange(1, len(data) - 1)] + b"\x00"
            fate = "truncated"
        elif self._flips:
            buf = bytearray(data)
            for bit in self._fault_rng.sample(range((len(buf) - 1) * 8), self._flips.pop(0)):
                buf[bit >> 3] ^= 1 << (bit & 7)
            data = bytes(buf)
            fate = "flipped"
        self.sent.append((frame, fate))
        result = None
        if frame.type == codec.ROLL_STATE:
            st = codec.unpack_roll_state(frame.payload)
            if st["state"] in RESULTS:
                self.results[frame.src].append(st)
                self._cond.notify_all()
                result = st
        if fate != "unplugged":
            self._out += data
            if result is not None and self.on_result_written is not None:
                self._marks.append([len(self._out), frame.src, result])

    def _run(self) -> None:
        # At most 200 ms of device time per pass, so sensor FIFOs never overrun while the
        # loop keeps up; a stall (go_silent) does overrun them, as on the board.
        period = min(0.005, 0.2 / self.speed)
        while not self._stop.is_set():
            with self._cond:
                self._tick()
            time.sleep(period)

    def _tick(self) -> None:
        incoming = b""
        if self._master is not None:
            try:
                incoming = os.read(self._master, 4096)
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:  # EIO: no reader on the other side yet
                pass
        hub = self.hub
        if self.mode == "run" and hub is not None and time.monotonic() >= self._silent_until:
            self._link.inbox += incoming
            now = self._advance(self._stalled)
            self._stalled = False
            for s in self._sensors:
                s.now = now
            hub.step(now)
            action = self._actions.pending
            if action is not None:
                # Hub.step calls the action one pass after the pass that ACKed REBOOT.
                self._actions.pending = None
                if action == "reset":
                    self._boot()
                elif action == "repl":
                    self.mode = "repl"
                    self._out += REPL_BANNER
                else:
                    # The board re-enumerates as a USB drive: the port goes 0.2 s after
                    # the host has read the ACK (a read in progress then returns it
                    # before failing), or after 1 s whatever happens.
                    self.mode = "bootloader"
                    self._close_at = time.monotonic() + 1.0
                    self._drained_at = None
        elif self.mode == "bootloader" and self._master is not None:
            mono = time.monotonic()
            if self._drained_at is None and self._unread() == 0:
                self._drained_at = mono
            if mono >= self._close_at or (self._drained_at is not None
                                          and mono - self._drained_at >= 0.2):
                self._close_pty()
        elif self.mode == "run":
            self._stalled = True
            self._link.inbox += incoming  # a stalled loop: commands wait in the buffer
        self._flush()

    def _unread(self) -> int:
        """Bytes written to the pty that the app has not read yet."""
        if self._slave is None:
            return 0
        buf = fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0")
        return int.from_bytes(buf, sys.byteorder) + len(self._out)

    def _flush(self) -> None:
        if self._master is None or not self._out:
            return
        try:
            n = os.write(self._master, self._out)
        except (BlockingIOError, InterruptedError):
            n = 0
        except OSError:
            n = 0
        if n < len(self._out) and len(self._out) > 65536:
            # Nobody reads the port: a USB device drops what the host does not fetch.
            self.tx_dropped += len(self._out) - n
            self._out.clear()
            self._marks.clear()
            return
        del self._out[:n]
        if self._marks:
            self._report_written(n)

    def _report_written(self, n: int) -> None:
        now = time.monotonic()
        hook = self.on_result_written
        left = []
        for mark in self._marks:
            mark[0] -= n
            if mark[0] > 0:
                left.append(mark)
            elif hook is not None:
                hook(mark[1], mark[2], now)
        self._marks = left

    # -- what the hub said -------------------------------------------------------------

    def frames(self, fate: str | None = "sent") -> list[codec.Frame]:
        """Frames the hub has sent (all fates with None): a test's ground truth."""
        with self._cond:
            return [f for f, x in self.sent if fate is None or x == fate]
