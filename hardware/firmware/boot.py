# boot.py: runs first on every start. Decide safe mode while the pin is still held, and
# say so on the REPL (the hub's framed protocol has not started yet).
import safemode

_why = safemode.check()
if _why:
    print("tc-dicehub: safe mode (%s): staying in the REPL; reset to run the hub" % _why)
