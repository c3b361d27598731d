"""Fake hardware for running the hub's logic (firmware_bridge/shared/hubapp.py) off the board.

Written in the Python subset MicroPython shares, because the same fakes drive the hub on
CPython and on MicroPython under Node, and the two runs must send identical bytes.
"""


class FakeLink:
    """The USB serial line: the test pushes host bytes in and reads hub bytes out."""

    def __init__(self):
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read(self, limit=256):
        data = bytes(self.inbox[:limit])
        self.inbox = self.inbox[limit:]
        return data

    def write(self, data):
        self.outbox += data

    def take(self):
        data = bytes(self.outbox)
        self.outbox = bytearray()
        return data


class FakeSensor:
    """A die's accelerometer FIFO fed from a list of (t_ms, x, y, z) samples: each read
    returns the samples whose time has come (the test sets ``now``)."""

    def __init__(self, samples):
        self.samples = list(samples)
        self.now = -1
        self.overruns = 0
        self.fail = False

    def read_fifo(self):
        if self.fail:
            raise OSError(5, "EIO")
        out = []
        while self.samples and self.samples[0][0] <= self.now:
            s = self.samples.pop(0)
            out.append((s[1], s[2], s[3]))
        return out


class FakeBank:
    """A token or button bank: raw levels set by the test, through the real debouncer."""

    def __init__(self, count, stable_ms=20):
        try:
            from firmware_bridge.shared.debounce import Debouncer
        except ImportError:  # on MicroPython: the image's top-level copy
            from debounce import Debouncer

        self.levels = [False] * count
        self.debouncer = Debouncer(count, stable_ms)

    def poll(self, t_ms):
        return self.debouncer.update(t_ms, self.levels)

    def bits(self):
        return self.debouncer.bits()


class FakeStore:
    def __init__(self, folder):
        self.folder = folder

    def path(self, name):
        return self.folder + "/" + name


class FakeActions:
    def __init__(self):
        self.done = []

    def reset(self):
        self.done.append("reset")

    def repl(self):
        self.done.append("repl")

    def bootloader(self):
        self.done.append("bootloader")


def make_hub(hubapp, traces, folder, faces=6, uid=b"\x01\x02\x03\x04\x05\x06\x07\x08",
             boot_id=0x12345678):
    """A hub with one die per trace, 6 token slots and 4 buttons."""
    dice = []
    sensors = []
    for i in range(len(traces)):
        s = FakeSensor(traces[i])
        sensors.append(s)
        dice.append(hubapp.Die(i, s, faces, 100))
    tokens = FakeBank(6)
    buttons = FakeBank(4)
    link = FakeLink()
    actions = FakeActions()
    hub = hubapp.Hub(link, dice, tokens, buttons, FakeStore(folder), actions, uid, boot_id,
                     "0.1.0", 0)
    return hub, link, sensors, tokens, buttons, actions


def run_until(hub, sensors, t_from, t_to, step_ms=10):
    """Step the hub from t_from to t_to (exclusive) every step_ms, sensors in step."""
    t = t_from
    while t < t_to:
        for s in sensors:
            s.now = t
        hub.step(t)
        t += step_ms
    return t
