"""The dice hub's logic: dice, tokens, buttons and the protocol, with the hardware
passed in. Pure Python in the subset MicroPython and CPython share, so the host tests run
it with fake hardware (and on MicroPython under Node), the simulated hub
(firmware_bridge.simulated.hub) runs it on a pty, and on the board
hardware/firmware/hub.py wires it to the real thing (deploy.py copies this file into the
image as the top-level module ``hubapp``).

One ``Hub.step(now_ms)`` per main-loop pass (every few ms):

1. read the USB link, decode frames, answer commands (every command is ACKed);
2. drain each die's accelerometer FIFO through its roll detector, sending ROLL_STATE on
   every state change and TELEMETRY when streaming is on; the last RESULT_QUEUE roll
   results are kept, and REQUEST_STATE resends them in order (REPLAY) before SNAPSHOT,
   so throws made while the host could not hear arrive with their roll counters;
3. poll the token and button banks, sending TOKEN / BUTTON on debounced changes;
4. send a HEARTBEAT each second with the counters.

Hardware handed in (duck-typed):
* ``link``: ``read() -> bytes`` (never blocks), ``write(bytes)``;
* ``dice``: a list of ``Die`` (its sensor has ``read_fifo() -> [(x, y, z) mg]``);
* ``tokens`` / ``buttons``: ``poll(now_ms) -> [(index, active)]`` and ``bits() -> int``;
* ``store``: where calibration / config files live (``path(name)``);
* ``actions``: ``reset()``, ``repl()``, ``bootloader()`` for REBOOT.
"""

try:
    from firmware_bridge.shared import calibration, codec, detector
except ImportError:  # on the board
    import calibration
    import codec
    import detector

CONFIG_MAGIC = b"TCFG"
CAL_FILE = "cal%d.bin"  # per die index, on the board's file system
CONFIG_FILE = "detector.cfg"  # detector thresholds set over SET_CONFIG, kept across boots
HEARTBEAT_MS = 1000  # 1 Hz; the host calls the link down after 3 s of silence
# The last this-many roll results (every die together) are kept and resent as REPLAY
# before every SNAPSHOT: the hub cannot tell a host that hears from one that does not
# (USB-UART bridges drop what nobody reads), so it keeps them all and the host, which
# de-duplicates by roll counter, takes what it missed. 32 x 7 values: a few hundred
# bytes of the board's RAM.
RESULT_QUEUE = 32
_RESULTS = (detector.ROLLED, detector.CROOKED, detector.ON_FACE)
TELEMETRY_MAX_HZ = 100  # raw-sample streaming cap per die

# The protocol's numbers are the codec's (one source); re-exported under the names the
# firmware, hubctl and the tests have always used.
SRC_TOKENS = codec.SRC_TOKENS
SRC_BUTTONS = codec.SRC_BUTTONS
SRC_HUB = codec.SRC_HUB
SRC_ALL = codec.SRC_ALL

OK = codec.OK
E_UNKNOWN = codec.E_UNKNOWN
E_BAD_PAYLOAD = codec.E_BAD_PAYLOAD
E_NO_SUCH_SOURCE = codec.E_NO_SUCH_SOURCE
E_OUT_OF_RANGE = codec.E_OUT_OF_RANGE
E_NOT_STILL = codec.E_NOT_STILL
E_CALIBRATION = codec.E_CALIBRATION
E_STORAGE = codec.E_STORAGE
CAL_ERRORS = codec.CAL_ERRORS

CAL_THREE_FACE = codec.CAL_THREE_FACE
CAL_SINGLE = codec.CAL_SINGLE
CAL_RESET = codec.CAL_RESET
REBOOT_NORMAL = codec.REBOOT_NORMAL
REBOOT_REPL = codec.REBOOT_REPL
REBOOT_BOOTLOADER = codec.REBOOT_BOOTLOADER

LOG_INFO = codec.LOG_INFO
LOG_WARNING = codec.LOG_WARNING
LOG_ERROR = codec.LOG_ERROR

CAL_STILL_MS = 500  # a calibration reading needs this much stillness behind it
TELEMETRY_BATCH = codec.TELEMETRY_MAX_SAMPLES  # samples per TELEMETRY frame

CAP_DICE = codec.CAP_DICE
CAP_TOKENS = codec.CAP_TOKENS
CAP_BUTTONS = codec.CAP_BUTTONS
CAP_TELEMETRY = codec.CAP_TELEMETRY
CAP_CALIBRATION = codec.CAP_CALIBRATION
CAPABILITIES = CAP_DICE | CAP_TOKENS | CAP_BUTTONS | CAP_TELEMETRY | CAP_CALIBRATION

COUNTER_NAMES = codec.COUNTER_NAMES  # what HEARTBEAT carries, in order


class Die:
    """One accelerometer die: its sensor, detector, calibration and telemetry state."""

    def __init__(self, index, sensor, faces, rate_hz):
        self.index = index
        self.sensor = sensor
        self.faces = faces
        self.period_ms = 1000 // rate_hz
        self.cal = calibration.default(faces)
        self.cal_status = "missing"
        self.config = detector.Config(flat_deg=calibration.FLAT_DEG.get(faces, 25))
        self.detector = detector.Detector(self.cal.normals, self.config)
        self.session = calibration.Session(faces)
        self.telemetry_every = 0  # send every n-th sample; 0 = off
        self.telemetry_buf = []
        self.telemetry_t0 = 0
        self._tick = 0
        self.last_t = None
        self.errors = 0  # sensor read failures (a cable pulled out)

    def install(self, cal, status=None):
        self.cal = cal
        self.cal_status = status
        self.detector.set_normals(cal.normals)
        self.config.set("one_g_mg", cal.one_g)


class Hub:
    def __init__(self, link, dice, tokens, buttons, store, actions, uid, boot_id,
                 version="0.0.0", now_ms=0):
        self.link = link
        self.dice = dice
        self.tokens = tokens
        self.buttons = buttons
        self.store = store
        self.actions = actions
        self.uid = uid
        self.boot_id = boot_id
        self.version = version
        self.seq = 0
        self.decoder = codec.Decoder()
        self.counters = {
            "rx_frames": 0, "rx_bad": 0, "tx_frames": 0, "commands": 0, "naks": 0,
            "sensor_errors": 0, "fifo_overruns": 0, "rolls": 0, "tokens": 0, "buttons": 0,
        }
        self._next_heartbeat = now_ms
        self._pending_action = None
        # (die, state, face, confidence, device ms, roll counter) of the latest results,
        # oldest first, at most RESULT_QUEUE.
        self.results = []
        for die in dice:
            self._load_calibration(die)
        self._load_config()

    # -- files -------------------------------------------------------------------------

    def _load_calibration(self, die):
        cal, why = calibration.load(self.store.path(CAL_FILE % die.index), die.faces)
        die.install(cal, why)

    def _load_config(self):
        """Thresholds set over SET_CONFIG in an earlier boot: "TCFG", then (die u8, key
        u8, value i32) entries, then a CRC-16 of it all. A damaged file is ignored."""
        try:
            f = open(self.store.path(CONFIG_FILE), "rb")
        except OSError:
            return
        try:
            data = f.read()
        finally:
            f.close()
        if data[:4] != CONFIG_MAGIC or len(data) < 6:
            return
        body, crc = data[:-2], data[-2] | (data[-1] << 8)
        if calibration.crc16(body) != crc:
            return
        i = 4
        while i + 6 <= len(body):
            index, key = body[i], body[i + 1]
            value = int.from_bytes(body[i + 2:i + 6], "little")
            if value & 0x80000000:
                value -= 0x100000000
            for die in self.dice:
                if die.index == index:
                    try:
                        die.config.set(key, value)
                    except ValueError:
                        pass
            i += 6

    def _save_config(self):
        """Every die's thresholds that differ from the defaults (one_g excepted: that is
        the calibration's), written atomically."""
        body = bytearray(CONFIG_MAGIC)
        for die in self.dice:
            defaults = detector.Config(flat_deg=calibration.FLAT_DEG.get(die.faces, 25))
            for key, value in die.config.items():
                if key == 13:  # one_g comes from the die's calibration
                    continue
                if value != defaults.get(key):
                    body.append(die.index)
                    body.append(key)
                    body += (value & 0xFFFFFFFF).to_bytes(4, "little")
        crc = calibration.crc16(bytes(body))
        body.append(crc & 0xFF)
        body.append(crc >> 8)
        path = self.store.path(CONFIG_FILE)
        f = open(path + ".tmp", "wb")
        try:
            f.write(bytes(body))
        finally:
            f.close()
        import os
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(path + ".tmp", path)

    # -- the loop ------------------------------------------------------------------------

    def announce(self):
        """At boot: a lone 0x00 (ends whatever the host's decoder holds: REPL text, a
        frame cut by the reset), IDENT unasked (a new boot id tells the host to resync),
        then a LOG line for each die running on canonical normals."""
        self.link.write(b"\x00")
        self._send_ident()
        for die in self.dice:
            if die.cal_status is not None:
                self._log(LOG_WARNING, "die %d: calibration %s, canonical normals"
                          % (die.index, die.cal_status))

    def step(self, now_ms):
        """One pass of the main loop at device time ``now_ms``."""
        if self._pending_action is not None:
            # REBOOT was ACKed on the previous pass, so the host has its answer.
            action = self._pending_action
            self._pending_action = None
            action()
            return
        data = self.link.read()
        if data:
            for frame in self._feed(data):
                self._command(frame, now_ms)
        for die in self.dice:
            self._drain(die, now_ms)
        if self.tokens is not None:
            for index, active in self.tokens.poll(now_ms):
                self.counters["tokens"] += 1
                self._send_token(index, active, now_ms)
        if self.buttons is not None:
            for index, active in self.buttons.poll(now_ms):
                self.counters["buttons"] += 1
                self._send_button(index, active, now_ms)
        if now_ms >= self._next_heartbeat:
            self._send_heartbeat(now_ms)
            self._next_heartbeat = now_ms + HEARTBEAT_MS

    def _drain(self, die, now_ms):
        """Every sample waiting in the die's FIFO, timestamped back from now at the
        sensor's period, through the detector (and to telemetry when it is on)."""
        try:
            samples = die.sensor.read_fifo()
        except OSError:
            die.errors += 1
            self.counters["sensor_errors"] += 1
            return
        over = getattr(die.sensor, "overruns", 0)
        if over:
            self.counters["fifo_overruns"] += over
            die.sensor.overruns = 0
        n = len(samples)
        if not n:
            return
        t = now_ms - (n - 1) * die.period_ms
        if die.last_t is not None and t <= die.last_t:
            t = die.last_t + 1  # never go back in time when the loop ran early
        for s in samples:
            ev = die.detector.update(t, s[0], s[1], s[2])
            if ev is not None:
                if ev.state == detector.ROLLED:
                    self.counters["rolls"] += 1
                if ev.state in _RESULTS:
                    self._keep_result(die.index, ev)
                self._send_roll_state(die.index, ev)
            if die.telemetry_every:
                self._telemetry(die, t, s)
            die.last_t = t
            t += die.period_ms

    def _keep_result(self, die_index, ev):
        self.results.append((die_index, ev.state, ev.face, ev.confidence, ev.t_ms, ev.counter))
        if len(self.results) > RESULT_QUEUE:
            self.results.pop(0)

    def _telemetry(self, die, t, s):
        die._tick += 1
        if die._tick < die.telemetry_every:
            return
        die._tick = 0
        if not die.telemetry_buf:
            die.telemetry_t0 = t
        die.telemetry_buf.append((t - die.telemetry_t0, s[0], s[1], s[2]))
        if len(die.telemetry_buf) >= TELEMETRY_BATCH:
            self._send_telemetry(die)
            die.telemetry_buf = []

    # -- commands ------------------------------------------------------------------------

    def _command(self, frame, now_ms):
        self.counters["commands"] += 1
        kind = frame.type
        if kind == codec.HELLO:
            self._send_ident()
        elif kind == codec.PING:
            self._ack(frame, OK)
        elif kind == codec.REQUEST_STATE:
            self._send_replay()
            self._send_snapshot(now_ms)
        elif kind == codec.SET_CONFIG:
            self._set_config(frame)
        elif kind == codec.CALIBRATE_FACE:
            self._calibrate(frame)
        elif kind == codec.SET_TELEMETRY:
            self._set_telemetry(frame)
        elif kind == codec.REBOOT:
            self._reboot(frame)
        else:
            self._ack(frame, E_UNKNOWN)

    def _target_dice(self, frame):
        """The dice a command addresses (src 0xFF: all); none: NAK E_NO_SUCH_SOURCE."""
        targets = self.dice if frame.src == SRC_ALL else [d for d in self.dice if d.index == frame.src]
        if not targets:
            self._ack(frame, E_NO_SUCH_SOURCE)
        return targets

    def _set_config(self, frame):
        """SET_CONFIG: (key id, value) for every die (src 0xFF) or one die (src = die)."""
        try:
            key, value = unpack_set_config(frame.payload)
        except ValueError:
            self._ack(frame, E_BAD_PAYLOAD)
            return
        targets = self._target_dice(frame)
        if not targets:
            return
        try:
            for die in targets:
                die.config.set(key, value)
        except ValueError:
            self._ack(frame, E_OUT_OF_RANGE)
            return
        try:
            self._save_config()
        except OSError:
            self._ack(frame, E_STORAGE)
            return
        self._ack(frame, OK)

    def _die_for(self, frame):
        for die in self.dice:
            if die.index == frame.src:
                return die
        self._ack(frame, E_NO_SUCH_SOURCE)
        return None

    def _calibrate(self, frame):
        """CALIBRATE_FACE (src = die): face index and mode. The die must have been still
        for CAL_STILL_MS; its mean gravity over that time is the measurement."""
        die = self._die_for(frame)
        if die is None:
            return
        try:
            face, mode = unpack_calibrate(frame.payload)
        except ValueError:
            self._ack(frame, E_BAD_PAYLOAD)
            return
        if mode == CAL_RESET:
            die.session = calibration.Session(die.faces)
            die.install(calibration.default(die.faces), "reset")
            self._store_calibration(frame, die, die.cal)
            return
        if face >= die.faces:
            self._ack(frame, E_OUT_OF_RANGE)
            return
        v = die.detector.rest_vector()
        if v is None or die.detector.still_ms() < CAL_STILL_MS:
            self._ack(frame, E_NOT_STILL)
            return
        try:
            if mode == CAL_SINGLE:
                cal, _moved = calibration.recalibrate_face(die.cal, face, v)
            else:
                cal = die.session.add(face, v, (die.cal.revision + 1) & 0xFFFF)
                if cal is None:  # one or two faces so far
                    self._ack(frame, OK, len(die.session.samples))
                    return
        except calibration.CalibrationError as e:
            die.session = calibration.Session(die.faces)
            self._ack(frame, E_CALIBRATION, CAL_ERRORS.index(e.code) if e.code in CAL_ERRORS else 0)
            return
        die.install(cal, None)
        self._store_calibration(frame, die, cal)

    def _store_calibration(self, frame, die, cal):
        try:
            calibration.save(self.store.path(CAL_FILE % die.index), cal)
        except OSError:
            self._ack(frame, E_STORAGE)
            return
        # Detail: 3 faces done, and the confidence the host should show.
        self._ack(frame, OK, 3, cal.confidence)

    def _set_telemetry(self, frame):
        """SET_TELEMETRY (src = die, or 0xFF for all): rate in Hz, 0 = off; capped."""
        try:
            rate = unpack_telemetry(frame.payload)
        except ValueError:
            self._ack(frame, E_BAD_PAYLOAD)
            return
        targets = self._target_dice(frame)
        if not targets:
            return
        for die in targets:
            if rate <= 0:
                die.telemetry_every = 0
                die.telemetry_buf = []
            else:
                rate = min(rate, TELEMETRY_MAX_HZ, 1000 // die.period_ms)
                die.telemetry_every = max(1, (1000 // die.period_ms) // rate)
                die._tick = 0
        self._ack(frame, OK)

    def _reboot(self, frame):
        try:
            mode = unpack_reboot(frame.payload)
        except ValueError:
            self._ack(frame, E_BAD_PAYLOAD)
            return
        action = {REBOOT_NORMAL: self.actions.reset, REBOOT_REPL: self.actions.repl,
                  REBOOT_BOOTLOADER: self.actions.bootloader}.get(mode)
        if action is None:
            self._ack(frame, E_OUT_OF_RANGE)
            return
        self._ack(frame, OK)
        self._pending_action = action

    # -- sending -------------------------------------------------------------------------

    def _send(self, kind, src, payload):
        self.link.write(codec.encode_frame(kind, self.seq, src, payload))
        self.seq = (self.seq + 1) & 0xFF
        self.counters["tx_frames"] += 1

    def _feed(self, data):
        frames = self.decoder.feed(data)
        self.counters["rx_frames"] += len(frames)
        self.counters["rx_bad"] = self.decoder.errors()
        return frames

    def _log(self, level, text):
        self._send(codec.LOG, SRC_HUB, pack_log(level, text))

    def _ack(self, frame, status, detail=0, value=0):
        if status != OK:
            self.counters["naks"] += 1
        self._send(codec.ACK, frame.src, pack_ack(frame.type, frame.seq, status, detail, value))

    def _send_ident(self):
        faces = bytes([d.faces for d in self.dice])
        tokens = self.tokens.debouncer.count if self.tokens is not None else 0
        buttons = self.buttons.debouncer.count if self.buttons is not None else 0
        self._send(codec.IDENT, SRC_HUB, pack_ident(self.version, self.uid, self.boot_id,
                                                    CAPABILITIES, faces, tokens=tokens,
                                                    buttons=buttons))

    def _send_replay(self):
        for r in self.results:
            self._send(codec.REPLAY, r[0], pack_roll_state(r[1], r[2], r[3], r[4], r[5]))

    def _send_roll_state(self, die_index, ev):
        self._send(codec.ROLL_STATE, die_index,
                   pack_roll_state(ev.state, ev.face, ev.confidence, ev.t_ms, ev.counter))

    def _send_token(self, index, active, now_ms):
        self._send(codec.TOKEN, SRC_TOKENS,
                   pack_switch(index, active, self.tokens.bits(), now_ms, self.counters["tokens"]))

    def _send_button(self, index, active, now_ms):
        self._send(codec.BUTTON, SRC_BUTTONS,
                   pack_switch(index, active, self.buttons.bits(), now_ms, self.counters["buttons"]))

    def _send_heartbeat(self, now_ms):
        self._send(codec.HEARTBEAT, SRC_HUB, pack_heartbeat(now_ms, self.counter_values()))

    def _send_snapshot(self, now_ms):
        dice = []
        for d in self.dice:
            st = d.detector.snapshot()
            dice.append((st[0], st[1], st[2], st[4], d.cal.revision, d.cal_status is None))
        tokens = self.tokens.bits() if self.tokens is not None else 0
        buttons = self.buttons.bits() if self.buttons is not None else 0
        self._send(codec.SNAPSHOT, SRC_HUB, pack_snapshot(now_ms, dice, tokens, buttons))

    def _send_telemetry(self, die):
        self._send(codec.TELEMETRY, die.index,
                   pack_telemetry(die.telemetry_t0, die.telemetry_buf))

    def counter_values(self):
        return [self.counters[name] for name in COUNTER_NAMES]


# -- payloads: the codec's layouts, under the firmware's names ------------------------

pack_log = codec.pack_log
pack_ack = codec.pack_ack
pack_ident = codec.pack_ident
pack_roll_state = codec.pack_roll_state
pack_switch = codec.pack_switch
pack_heartbeat = codec.pack_heartbeat
pack_snapshot = codec.pack_snapshot
pack_telemetry = codec.pack_telemetry
unpack_set_config = codec.unpack_set_config
unpack_calibrate = codec.unpack_calibrate
unpack_telemetry = codec.unpack_set_telemetry  # SET_TELEMETRY's rate
unpack_reboot = codec.unpack_reboot
unpack_telemetry_payload = codec.unpack_telemetry  # TELEMETRY's samples (the recorder)
unpack_ack = codec.unpack_ack
unpack_ident = codec.unpack_ident
unpack_roll_state = codec.unpack_roll_state
unpack_switch = codec.unpack_switch
unpack_heartbeat = codec.unpack_heartbeat
unpack_snapshot = codec.unpack_snapshot
