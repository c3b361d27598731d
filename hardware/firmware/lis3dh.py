"""Driver for the ST LIS3DH 3-axis accelerometer over I2C (MicroPython).

Why this part: it is sold on breakouts by Adafruit (PID 2809), SparkFun and countless
cheap modules, runs from 1.71-3.6 V at a few uA, has two I2C addresses (0x18 with
SDO/SA0 low, 0x19 high: two dice on one bus, as Outrage! needs) and a 32-sample FIFO, so
the hub never loses samples while it writes a calibration file or answers the host.

Setup used here: 100 Hz (configurable 1-400), +-8 g full scale (a landing is 3-8 g),
high-resolution 12-bit mode (4 mg per digit at +-8 g), block data update, FIFO in stream
mode. Register facts are from the LIS3DH datasheet (DocID17530) and AN3308.

``to_mg`` is pure (host-tested); ``LIS3DH`` only moves bytes through a ``machine.I2C``
(or anything with ``readfrom_mem``/``writeto_mem``).
"""

WHO_AM_I = 0x0F
WHO_AM_I_VALUE = 0x33
CTRL_REG1 = 0x20
CTRL_REG4 = 0x23
CTRL_REG5 = 0x24
STATUS_REG = 0x27
OUT_X_L = 0x28
FIFO_CTRL_REG = 0x2E
FIFO_SRC_REG = 0x2F
AUTO_INCREMENT = 0x80  # sub-address MSB: read several registers in one transfer

ADDRESSES = (0x18, 0x19)

# Output data rate codes (CTRL_REG1 bits 7..4) by Hz.
_ODR = {1: 0x1, 10: 0x2, 25: 0x3, 50: 0x4, 100: 0x5, 200: 0x6, 400: 0x7}
# Full-scale code (CTRL_REG4 bits 5..4) and mg per digit in high-resolution mode.
_FS = {2: (0x0, 1), 4: (0x1, 2), 8: (0x2, 4), 16: (0x3, 12)}


def ctrl_reg1(rate_hz):
    """CTRL_REG1: output data rate, normal power (LPen = 0), X, Y, Z enabled."""
    if rate_hz not in _ODR:
        raise ValueError("unsupported LIS3DH rate")
    return (_ODR[rate_hz] << 4) | 0x07


def ctrl_reg4(range_g):
    """CTRL_REG4: block data update, full scale, high-resolution (12-bit) mode."""
    if range_g not in _FS:
        raise ValueError("unsupported LIS3DH range")
    return 0x80 | (_FS[range_g][0] << 4) | 0x08


def mg_per_digit(range_g):
    return _FS[range_g][1]


def to_mg(buf, range_g, offset=0):
    """(x, y, z) in milli-g from six output bytes (little-endian, 12-bit left-justified
    in 16 in high-resolution mode)."""
    k = _FS[range_g][1]
    out = []
    for i in range(3):
        v = buf[offset + 2 * i] | (buf[offset + 2 * i + 1] << 8)
        if v & 0x8000:
            v -= 0x10000
        out.append((v >> 4) * k)  # arithmetic shift keeps the sign
    return (out[0], out[1], out[2])


class LIS3DH:
    """One LIS3DH. ``read_fifo()`` returns every sample since the last call."""

    def __init__(self, i2c, addr=0x18, rate_hz=100, range_g=8):
        self.i2c = i2c
        self.addr = addr
        self.rate_hz = rate_hz
        self.range_g = range_g
        self.overruns = 0  # FIFO overflows: samples were lost (the loop stalled > 320 ms)
        self._six = bytearray(6)
        self.init()

    def _write(self, reg, value):
        self.i2c.writeto_mem(self.addr, reg, bytes([value]))

    def _read(self, reg):
        return self.i2c.readfrom_mem(self.addr, reg, 1)[0]

    def init(self):
        """Check the chip, then configure it. Raises OSError when it is not there."""
        who = self._read(WHO_AM_I)
        if who != WHO_AM_I_VALUE:
            raise OSError("no LIS3DH at 0x%02x (WHO_AM_I 0x%02x)" % (self.addr, who))
        self._write(CTRL_REG1, ctrl_reg1(self.rate_hz))
        self._write(CTRL_REG4, ctrl_reg4(self.range_g))
        self._write(CTRL_REG5, 0x40)  # FIFO enable
        self._write(FIFO_CTRL_REG, 0x00)  # bypass first: clears the FIFO
        self._write(FIFO_CTRL_REG, 0x80)  # stream mode: oldest samples drop when full

    def read(self):
        """The latest sample (x, y, z) in mg, without the FIFO's history."""
        self.i2c.readfrom_mem_into(self.addr, OUT_X_L | AUTO_INCREMENT, self._six)
        return to_mg(self._six, self.range_g)

    def read_fifo(self):
        """All samples waiting in the FIFO, oldest first, as (x, y, z) mg tuples."""
        src = self._read(FIFO_SRC_REG)
        if src & 0x40:  # OVRN_FIFO
            self.overruns += 1
        n = src & 0x1F
        if src & 0x40 and n == 0:
            n = 32
        out = []
        six = self._six
        for _ in range(n):
            self.i2c.readfrom_mem_into(self.addr, OUT_X_L | AUTO_INCREMENT, six)
            out.append(to_mg(six, self.range_g))
        return out


def probe(i2c):
    """The LIS3DH addresses that answer on this bus."""
    found = []
    present = i2c.scan()
    for a in ADDRESSES:
        if a in present:
            try:
                if i2c.readfrom_mem(a, WHO_AM_I, 1)[0] == WHO_AM_I_VALUE:
                    found.append(a)
            except OSError:
                pass
    return found
