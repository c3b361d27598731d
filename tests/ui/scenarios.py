"""UI scenarios, each run in its own process by ``tests/ui/test_app.py`` through
``tests/ui/driver.py``. A scenario yields seconds to wait; it drives the app only with
simulated touches (taps, holds) and checks what the widget tree shows."""
from __future__ import annotations

from typing import Any, Iterator

SECRET = "Gains 9: Gain 500 influence — SECRET-TEXT-42"


def privacy_gate(d: Any) -> Iterator[float]:
    """The gate never has the secret in the widget tree before the hold completes; a
    hold let go early shows nothing; a full hold shows it; it hides itself again."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui.widgets.privacy_gate import PrivacyGate

    gate = PrivacyGate(size_hint=(1, 1))
    Window.add_widget(gate)
    built = []

    def build() -> Any:
        built.append(1)
        return Label(text=SECRET)

    gate.open_for("crim-1", "Bob (◆ Criminals)", build, purpose="see your hand", hold_s=0.6, auto_hide_s=1.5)
    yield 0.2
    d.check(not any(SECRET in t for t in d.texts()), "secret in the tree before any hold")
    d.check(d.has("Pass the device to") and d.has("Bob (◆ Criminals)"), "the gate names the seat")
    d.shot("gate-waiting")
    hold = d.find("HOLD here to reveal")
    touch = d.press(hold)
    yield 0.25
    d.check(gate.phase == "holding" and 0 < gate.progress < 1, f"holding, progress {gate.progress}")
    d.check(not any(SECRET in t for t in d.texts()), "secret in the tree during the hold")
    d.shot("gate-holding")
    d.release(touch)
    yield 0.1
    d.check(gate.phase == "waiting" and not built, "an early release reveals nothing")
    touch = d.press(d.find("HOLD here to reveal"))
    yield 0.9
    d.release(touch)
    yield 0.1
    d.check(gate.phase == "open" and built == [1], f"a full hold opens the gate (phase {gate.phase})")
    d.check(any(SECRET in t for t in d.texts()), "the secret shows after the hold")
    d.shot("gate-open")
    yield 1.7
    d.check(gate.phase == "idle" and not gate.active, "the gate hid itself")
    d.check(not any(SECRET in t for t in d.texts()), "the secret is gone from the tree after hiding")
    d.note("gate: secret built only after a full hold and destroyed on auto-hide")
