"""The dice hub's logic: dice, tokens, buttons and the protocol, with the hardware
passed in. Pure Python in the subset MicroPython and CPython share, so the host tests run
it with fake hardware (and on MicroPython under Node); ``hub.py`` wires it to the board.

One ``Hub.step(now_ms)`` per main-loop pass (every few ms):

1. read the USB link, decode frames, answer commands (every command is ACKed);
2. drain each die's accelerometer FIFO through its roll detector, sending ROLL_STATE on
   every state change and TELEMETRY when streaming is on;
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

import struct

import hubconfig

CONFIG_MAGIC = b"TCFG"

# Sources (the frame's src byte): dice are 0..15.
SRC_TOKENS = 0x40
SRC_BUTTONS = 0x41
SRC_HUB = 0xFE
SRC_ALL = 0xFF  # in a command: every die

# ACK status codes.
OK = 0
E_UNKNOWN = 1  # unknown command
E_BAD_PAYLOAD = 2
E_NO_SUCH_SOURCE = 3
E_OUT_OF_RANGE = 4
E_NOT_STILL = 5  # calibration: the die has not been still long enough
E_CALIBRATION = 6  # calibration refused; detail = index in CAL_ERRORS
E_STORAGE = 7  # the file system refused the write
CAL_ERRORS = ("", "count", "repeat", "face", "still", "opposite", "geometry", "wrong-face",
              "too-far", "zero", "faces")

# CALIBRATE_FACE modes and REBOOT modes.
CAL_THREE_FACE = 0
CAL_SINGLE = 1
CAL_RESET = 2
REBOOT_NORMAL = 0
REBOOT_REPL = 1
REBOOT_BOOTLOADER = 2

LOG_INFO = 1
LOG_WARNING = 2
LOG_ERROR = 3

CAL_STILL_MS = 500  # a calibration reading needs this much stillness behind it
TELEMETRY_BATCH = 6  # samples per TELEMETRY frame (5 + 6 x 8 = 53 payload bytes)

CAP_DICE = 1
CAP_TOKENS = 2
CAP_BUTTONS = 4
CAP_TELEMETRY = 8
CAP_CALIBRATION = 16
CAPABILITIES = CAP_DICE | CAP_TOKENS | CAP_BUTTONS | CAP_TELEMETRY | CAP_CALIBRATION

# HEARTBEAT carries these, each as u16 (wrapping), in this order (append-only).
COUNTER_NAMES = ("rx_frames", "rx_bad", "tx_frames", "commands", "naks", "sensor_errors",
                 "fifo_overruns", "rolls", "tokens", "buttons")


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
        for die in dice:
            self._load_calibration(die)
        self._load_config()

    # -- files -------------------------------------------------------------------------

    def _load_calibration(self, die):
        cal, why = calibration.load(self.store.path(hubconfig.CAL_FILE % die.index), die.faces)
        die.install(cal, why)

    def _load_config(self):
        """Thresholds set over SET_CONFIG in an earlier boot: "TCFG", then (die u8, key
        u8, value i32) entries, then a CRC-16 of it all. A damaged file is ignored."""
        try:
            f = open(self.store.path(hubconfig.CONFIG_FILE), "rb")
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
        path = self.store.path(hubconfig.CONFIG_FILE)
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
        """At boot: IDENT unasked (a new boot id tells the host to resync), then a LOG
        line for each die running on canonical normals."""
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
            self._next_heartbeat = now_ms + hubconfig.HEARTBEAT_MS

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
                self._send_roll_state(die.index, ev)
            if die.telemetry_every:
                self._telemetry(die, t, s)
            die.last_t = t
            t += die.period_ms

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

    def _set_config(self, frame):
        """SET_CONFIG: (key id, value) for every die (src 0xFF) or one die (src = die)."""
        try:
            key, value = unpack_set_config(frame.payload)
        except ValueError:
            self._ack(frame, E_BAD_PAYLOAD)
            return
        targets = self.dice if frame.src == SRC_ALL else [d for d in self.dice if d.index == frame.src]
        if not targets:
            self._ack(frame, E_NO_SUCH_SOURCE)
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
            calibration.save(self.store.path(hubconfig.CAL_FILE % die.index), cal)
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
        targets = self.dice if frame.src == SRC_ALL else [d for d in self.dice if d.index == frame.src]
        if not targets:
            self._ack(frame, E_NO_SUCH_SOURCE)
            return
        for die in targets:
            if rate <= 0:
                die.telemetry_every = 0
                die.telemetry_buf = []
            else:
                rate = min(rate, hubconfig.TELEMETRY_MAX_HZ, 1000 // die.period_ms)
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
        self._send(codec.IDENT, SRC_HUB, pack_ident(self.version, self.uid, self.boot_id,
                                                    CAPABILITIES, faces))

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


# -- payloads (little-endian; fields are append-only) ----------------------------------

def _version_bytes(version):
    parts = (version.split("+")[0].split(".") + ["0", "0", "0"])[:3]
    return bytes([int(p) & 0xFF for p in parts])


def pack_log(level, text):
    """level u8, then UTF-8 text (cut to fit the frame)."""
    return bytes([level]) + text.encode()[:57]


def pack_ack(kind, seq, status, detail=0, value=0):
    """acked type u8, acked seq u8, status u8, detail u8, value i16."""
    return struct.pack("<BBBBh", kind, seq, status, detail, value)


def pack_ident(version, uid, boot_id, caps, faces):
    """protocol major u8, minor u8, firmware major/minor/patch u8 x3, board uid 8 bytes,
    boot id u32, capabilities u16, dice count u8, then each die's face count u8."""
    return (struct.pack("<BB", codec.PROTOCOL_MAJOR, codec.PROTOCOL_MINOR)
            + _version_bytes(version) + bytes(uid[:8]) + bytes(8 - len(uid[:8]))
            + struct.pack("<IHB", boot_id, caps, len(faces)) + bytes(faces))


def pack_roll_state(state, face, confidence, t_ms, counter):
    """state u8, face index u8, confidence i16 (x1000), device ms u32, roll counter u16."""
    return struct.pack("<BBhIH", state, face, confidence, t_ms & 0xFFFFFFFF, counter & 0xFFFF)


def pack_switch(index, active, bits, t_ms, counter):
    """TOKEN / BUTTON: input u8, active u8, all inputs' bits u32, device ms u32, change
    counter u16."""
    return struct.pack("<BBIIH", index, 1 if active else 0, bits, t_ms & 0xFFFFFFFF,
                       counter & 0xFFFF)


def pack_heartbeat(t_ms, counters):
    """uptime ms u32, then the COUNTER_NAMES counters as u16 each."""
    return struct.pack("<I", t_ms & 0xFFFFFFFF) + b"".join(
        struct.pack("<H", c & 0xFFFF) for c in counters)


def pack_snapshot(t_ms, dice, tokens, buttons):
    """device ms u32, token bits u32, button bits u32, dice count u8, then per die:
    state u8, face u8, confidence i16, roll counter u16, calibration revision u16,
    calibrated u8."""
    out = struct.pack("<IIIB", t_ms & 0xFFFFFFFF, tokens, buttons, len(dice))
    for d in dice:
        out += struct.pack("<BBhHHB", d[0], d[1], d[2], d[3] & 0xFFFF, d[4] & 0xFFFF,
                           1 if d[5] else 0)
    return out


def pack_telemetry(t0_ms, samples):
    """first sample's device ms u32, count u8, then per sample: ms after the first u16,
    x, y, z mg i16."""
    out = struct.pack("<IB", t0_ms & 0xFFFFFFFF, len(samples))
    for s in samples:
        out += struct.pack("<Hhhh", s[0] & 0xFFFF, s[1], s[2], s[3])
    return out


def unpack_telemetry_payload(payload):
    """[(t_ms, x, y, z), ...] from a TELEMETRY payload (the recorder's side)."""
    t0, n = struct.unpack_from("<IB", payload, 0)
    out = []
    for i in range(n):
        dt, x, y, z = struct.unpack_from("<Hhhh", payload, 5 + 8 * i)
        out.append((t0 + dt, x, y, z))
    return out


def _need(payload, n):
    if len(payload) < n:
        raise ValueError("short payload")


def unpack_set_config(payload):
    """key id u8, value i32."""
    _need(payload, 5)
    return struct.unpack_from("<Bi", payload, 0)


def unpack_calibrate(payload):
    """face index u8, mode u8 (0 three-face, 1 single face, 2 reset); mode defaults to 0."""
    _need(payload, 1)
    return payload[0], (payload[1] if len(payload) > 1 else CAL_THREE_FACE)


def unpack_telemetry(payload):
    """rate Hz u16 (0 = off)."""
    _need(payload, 2)
    return struct.unpack_from("<H", payload, 0)[0]


def unpack_reboot(payload):
    """mode u8 (0 normal, 1 REPL, 2 bootloader); defaults to normal."""
    return payload[0] if len(payload) else REBOOT_NORMAL


# -- the host's side of the same layouts (hubctl.py and the tests use these) ---------------

def unpack_ack(payload):
    """(acked type, acked seq, status, detail, value)."""
    _need(payload, 6)
    return struct.unpack_from("<BBBBh", payload, 0)


def unpack_ident(payload):
    _need(payload, 20)
    major, minor = payload[0], payload[1]
    version = "%d.%d.%d" % (payload[2], payload[3], payload[4])
    uid = bytes(payload[5:13])
    boot_id, caps, n = struct.unpack_from("<IHB", payload, 13)
    return {"major": major, "minor": minor, "version": version, "uid": uid,
            "boot_id": boot_id, "caps": caps, "faces": list(payload[20:20 + n])}


def unpack_roll_state(payload):
    _need(payload, 10)
    state, face, conf, t, counter = struct.unpack_from("<BBhIH", payload, 0)
    return {"state": state, "face": face, "confidence": conf, "t_ms": t, "counter": counter}


def unpack_switch(payload):
    _need(payload, 12)
    index, active, bits, t, counter = struct.unpack_from("<BBIIH", payload, 0)
    return {"index": index, "active": bool(active), "bits": bits, "t_ms": t, "counter": counter}


def unpack_heartbeat(payload):
    _need(payload, 4)
    (t,) = struct.unpack_from("<I", payload, 0)
    counters = {}
    for i in range(min(len(COUNTER_NAMES), (len(payload) - 4) // 2)):
        counters[COUNTER_NAMES[i]] = struct.unpack_from("<H", payload, 4 + 2 * i)[0]
    return {"uptime_ms": t, "counters": counters}


def unpack_snapshot(payload):
    _need(payload, 13)
    t, tokens, buttons, n = struct.unpack_from("<IIIB", payload, 0)
    dice = []
    for i in range(n):
        st, face, conf, counter, rev, ok = struct.unpack_from("<BBhHHB", payload, 13 + 9 * i)
        dice.append({"state": st, "face": face, "confidence": conf, "counter": counter,
                     "cal_revision": rev, "calibrated": bool(ok)})
    return {"t_ms": t, "tokens": tokens, "buttons": buttons, "dice": dice}
