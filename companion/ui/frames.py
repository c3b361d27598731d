"""Work put off until the app's next frame is on screen (Kivy-free at import): the demo's
hub, the GPIO board and the Bluetooth dice start after the first frame, so start-up shows
the table first."""
from __future__ import annotations

import logging
from typing import Any, Callable

log = logging.getLogger("companion.ui.frames")


def after_first_frame(fn: Callable[[], None]) -> None:
    """Call ``fn`` on the UI thread once the next frame is on screen (at once when
    there is no Kivy window, e.g. outside the app)."""
    try:
        from kivy.clock import Clock
        from kivy.core.window import Window
    except Exception:  # no window provider (outside the app): run it now
        log.debug("no Kivy window: running %r at once", fn, exc_info=True)
        fn()
        return
    if Window is None:
        fn()
        return

    def flipped(*_a: Any) -> None:
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: fn(), 0)

    Window.bind(on_flip=flipped)
