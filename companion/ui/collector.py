"""When Python's cyclic garbage collector may run in the app.

After start-up the app holds some 80,000 objects that live as long as it does (Kivy, the
widgets of the table screen, their rules and bindings). A full collection walks all of
them: 27–36 ms measured on the demo's table on this machine, two frames' worth, at a
moment Python chooses (on a die result's frame, it was the dice latency's worst case). And
during start-up Python ran ~145 collections (25–33 ms) over objects that were all still
in use.

So the entry point holds collections off while the app starts (:func:`hold`), and once a
table is on screen :func:`settle` collects what start-up left behind and *freezes* the
survivors (``gc.freeze``): later collections skip them, and a full one costs well under a
millisecond. A table closed (:func:`release`) unfreezes them again, so its widgets can be
collected. Reference counting frees most objects as usual all along; this only concerns
reference cycles.

>>> import gc
>>> hold(); gc.isenabled()
False
>>> settle(); gc.isenabled(), gc.get_freeze_count() > 0
(True, True)
>>> release(); gc.get_freeze_count()
0
>>> hold(); resume(); gc.isenabled()
True
"""
from __future__ import annotations

import gc


def hold() -> None:
    """No automatic collections until :func:`settle` (start-up)."""
    gc.disable()


def settle() -> None:
    """Collect everything once, keep what survives out of later collections, and let
    collections run again. Call it when the app is idle (after a table's first frame)."""
    gc.collect()
    gc.freeze()
    gc.enable()


def resume() -> None:
    """Automatic collections on again, without collecting now (the app is closing)."""
    gc.enable()


def release() -> None:
    """Let collections see every object again (a table is closing: its screen's objects
    may become garbage)."""
    gc.unfreeze()
