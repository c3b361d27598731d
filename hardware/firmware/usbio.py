"""USB serial I/O for the hub (MicroPython): binary frames on the REPL's USB CDC port.

Ctrl-C is disabled while the hub runs (a COBS frame may hold 0x03, which would otherwise
raise KeyboardInterrupt); ``close()`` gives it back. Reads never block: ``select.poll``
says whether a byte is waiting.
"""

import select
import sys

import micropython


class UsbSerial:
    def __init__(self):
        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self, limit=256):
        """Up to ``limit`` bytes that have arrived, or b"" (never waits)."""
        buf = bytearray()
        while len(buf) < limit and self._poll.poll(0):
            b = self._in.read(1)
            if not b:
                break
            buf += b
        return bytes(buf)

    def write(self, data):
        self._out.write(data)

    def close(self):
        micropython.kbd_intr(3)
