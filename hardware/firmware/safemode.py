"""Safe mode: the way back to the REPL when the hub's firmware owns the USB serial line.

The hub disables Ctrl-C (COBS frames can contain 0x03), so ``mpremote`` cannot interrupt
it. Two ways out, both checked once per boot (boot.py, then main.py reads the cached
answer): the safe-mode pin held to GND while the board starts, or the flag file that the
REBOOT command (mode REPL) writes before it resets.
"""

import os

import hubconfig

_reason = None
_checked = False


def check(pin_factory=None):
    """Returns why to stay in the REPL ("pin" or "flag"), or None to run the hub.
    ``pin_factory(number)`` -> object with ``value()``; defaults to machine.Pin with a
    pull-up."""
    global _reason, _checked
    if _checked:
        return _reason
    _checked = True
    if pin_factory is None:
        import machine

        def pin_factory(n):
            return machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)

    pin = pin_factory(hubconfig.current()["safe_mode"])
    # Held means low on three reads 5 ms apart: one glitch does not strand the hub.
    import time
    held = True
    for _ in range(3):
        if pin.value():
            held = False
            break
        time.sleep_ms(5) if hasattr(time, "sleep_ms") else time.sleep(0.005)
    if held:
        _reason = "pin"
        return _reason
    try:
        os.remove(hubconfig.REPL_FLAG)
        _reason = "flag"
    except OSError:
        pass
    return _reason


def request_repl():
    """Make the next boot stay in the REPL (REBOOT mode REPL)."""
    f = open(hubconfig.REPL_FLAG, "w")
    f.write("repl\n")
    f.close()
