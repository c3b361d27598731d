"""The Raspberry Pi's GPIO header as a device of the app: token slots, seat and end-turn
buttons, the value keypad (inputs, ``firmware_bridge.gpio.GpioSource``) and the seat LEDs
and buzzer (outputs, ``GpioFeedback``), wired from a pin map. No Kivy here: events go to
the ``on_event`` callable the app gives (``app.post_event``), which shows them at once and
routes them through the input pump to the Table, exactly like a die's.

Which pins: a *mode* chooses the pin factory.

* ``"pi"``: gpiozero's own choice (lgpio on a Raspberry Pi 5);
* ``"mock"``: gpiozero's ``MockFactory`` (simulated pins, for demos and tests; the devices
  panel then offers "Place token" / "Press" to drive them);
* ``"off"``: no GPIO;
* ``"auto"`` (the default): ``"pi"`` on a Raspberry Pi (its device tree says so) or when
  ``GPIOZERO_PIN_FACTORY`` names a factory, else ``"off"``: a laptop has no header, and
  probing one there only produces warnings.

The mode comes from ``--gpio`` on the command line, else ``TC_GPIO`` in the environment.
A factory that cannot load or a pin that cannot be opened is never an exception out of
:meth:`GpioLink.connect`: it becomes :attr:`GpioLink.error`, a sentence the devices panel
shows.
"""
from __future__ import annotations

import logging
import os
import threading
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from firmware_bridge.errors import BridgeError

from ..errors import CompanionError

log = logging.getLogger("companion.ui.gpio")

GPIO_DEVICE = "gpio"
GPIO_MODES = ("auto", "pi", "mock", "off")
# How long a "Press" from the devices panel holds a simulated button down: longer than
# any sane debounce (20 ms by default), shorter than the hold time (1 s).
SIM_PRESS_S = 0.15

_MODEL_FILES = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")

OnEvent = Callable[[Any], None]


class GpioModeError(CompanionError, ValueError):
    """A GPIO mode that is not one of :data:`GPIO_MODES`."""


def is_raspberry_pi(model_files: Iterable[str] = _MODEL_FILES) -> bool:
    """Whether this computer says it is a Raspberry Pi (its device tree's model string)."""
    for path in model_files:
        try:
            if "raspberry pi" in Path(path).read_bytes().decode("ascii", "replace").lower():
                return True
        except OSError:
            continue
    return False


def resolve_mode(mode: str | None = None, env: Mapping[str, str] | None = None,
                 on_pi: Callable[[], bool] = is_raspberry_pi) -> str:
    """The mode to run: ``mode`` (the command line), else ``TC_GPIO``, else ``"auto"``;
    ``"auto"`` becomes ``"pi"`` or ``"off"`` (see the module doc).

    >>> resolve_mode("mock"), resolve_mode(None, {"TC_GPIO": "off"})
    ('mock', 'off')
    >>> resolve_mode("auto", {}, on_pi=lambda: False), resolve_mode("auto", {}, on_pi=lambda: True)
    ('off', 'pi')
    >>> resolve_mode(None, {"GPIOZERO_PIN_FACTORY": "mock"}, on_pi=lambda: False)
    'pi'
    """
    env = os.environ if env is None else env
    chosen = (mode or env.get("TC_GPIO") or "auto").strip().lower()
    if chosen not in GPIO_MODES:
        raise GpioModeError(f"--gpio takes {', '.join(GPIO_MODES)}, not {chosen!r}")
    if chosen == "auto":
        return "pi" if (on_pi() or env.get("GPIOZERO_PIN_FACTORY")) else "off"
    return chosen


class GpioLink:
    """The GPIO header as one device of the devices panel (``device`` = "gpio"): opens the
    pin map's inputs and outputs on :meth:`connect`, releases them on :meth:`disconnect`.

    ``pin_map``: a path to a pin map file (None: ``firmware_bridge/gpio/default_pinmap.json``).
    ``pin_factory``: a gpiozero factory to use instead of the mode's (tests).
    After a failure :attr:`error` says what went wrong in plain words, and the link stays
    usable: a second :meth:`connect` tries again."""

    def __init__(self, on_event: OnEvent, mode: str = "pi", pin_map: str | os.PathLike[str] | None = None,
                 pin_factory: Any = None) -> None:
        if mode not in ("pi", "mock"):
            raise GpioModeError(f"a GPIO link runs on real pins (pi) or simulated ones (mock), not {mode!r}")
        self.device = GPIO_DEVICE
        self.mode = mode
        self.on_event = on_event
        self.pin_map_path = pin_map
        self.pin_map: Any = None  # firmware_bridge.gpio.PinMap once read
        self.pin_factory = pin_factory
        self.source: Any = None
        self.lights: Any = None
        self.error = ""
        self._lock = threading.Lock()
        self._table: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self.sound_on: Callable[[], bool] = lambda: True  # the app's sound setting (start_gpio)
        self._load_pin_map()

    # ------------------------------------------------------------ life cycle

    def _load_pin_map(self) -> None:
        try:
            from firmware_bridge.gpio import load_pin_map

            self.pin_map = load_pin_map(self.pin_map_path)
        except ImportError as e:  # gpiozero is not installed (the Android build leaves it out)
            self.error = f"GPIO needs gpiozero, which is not installed here ({e})."
        except (OSError, UnicodeDecodeError, BridgeError) as e:  # a missing file, a PinMapError naming the problem
            where = self.pin_map_path or "the default pin map"
            self.error = f"The pin map {where} cannot be used: {e}"

    def _factory(self) -> Any:
        """The pin factory for this mode, or raise with a plain reason."""
        if self.pin_factory is not None:
            return self.pin_factory
        from gpiozero import Device

        if self.mode == "mock":
            from gpiozero.pins.mock import MockFactory

            # A MockFactory a test already installed is the one whose pins it drives.
            if not isinstance(Device.pin_factory, MockFactory):
                Device.pin_factory = MockFactory()
            self.pin_factory = Device.pin_factory
            return self.pin_factory
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                self.pin_factory = Device.ensure_pin_factory()
            except Exception as e:
                tried = "; ".join(str(w.message) for w in caught)
                raise _NoFactory(
                    "No GPIO pin factory works on this computer"
                    + (f" ({tried})" if tried else f" ({e})")
                    + ". On a Raspberry Pi install lgpio (sudo apt install python3-lgpio); "
                    "elsewhere start the app with --gpio mock to simulate the board.") from e
        return self.pin_factory

    def connect(self) -> None:
        """Open the inputs and outputs; on failure :attr:`error` says why (never raises)."""
        with self._lock:
            if self.source is not None or self.pin_map is None:
                return
            try:
                from firmware_bridge.gpio import GpioFeedback, GpioSource

                factory = self._factory()
                source = GpioSource(self.pin_map, pin_factory=factory, on_event=self.on_event, device=self.device)
                source.start()
            except _NoFactory as e:
                self.error = str(e)
                return
            except Exception as e:  # GpioError names the pin and its role; anything else: say it
                log.exception("GPIO inputs")
                self.error = f"The GPIO inputs cannot be opened: {e}"
                return
            lights = GpioFeedback(self.pin_map, pin_factory=factory)
            try:
                lights.open()
            except Exception as e:  # the inputs work without the LEDs: keep them, say so
                log.exception("GPIO outputs")
                self.error = f"The seat LEDs and buzzer cannot be opened: {e}"
                lights = None
            else:
                self.error = ""
            self.source, self.lights = source, lights
        self._show_turn()

    def disconnect(self) -> None:
        with self._lock:
            source, lights, self.source, self.lights = self.source, self.lights, None, None
        if source is not None:
            source.close()  # announces DeviceOffline("closed")
        if lights is not None:
            lights.close()

    def close(self) -> None:
        self.follow(None)
        self.disconnect()

    @property
    def is_online(self) -> bool:
        source = self.source
        return bool(source is not None and source.is_running)

    def counters(self) -> str:
        source = self.source
        if source is None:
            return "not connected"  # why (``error``) is on the GPIO board, said once
        errors = source.callback_errors
        return f"{len(self.pin_map.inputs())} inputs, {len(self.pin_map.outputs())} outputs" + (
            f", {errors} listener errors" if errors else "")

    # ------------------------------------------------------------ live state

    def tokens(self) -> frozenset[int]:
        """The slots holding a token now (debounced); none while not connected."""
        source = self.source
        return source.tokens() if source is not None else frozenset()

    def is_pressed(self, button: str) -> bool:
        source = self.source
        try:
            return bool(source is not None and source.is_pressed(button))
        except KeyError:
            return False

    def lit_seats(self) -> frozenset[int]:
        lights = self.lights
        return lights.lit_seats if lights is not None else frozenset()

    # ------------------------------------------------------------ seat LEDs follow the game

    def follow(self, table: Any) -> None:
        """Light the LED of the seat(s) whose turn it is in ``table`` (None: all out), and
        keep doing so as the game goes on."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._table = table
        if table is not None:
            self._unsubscribe = table.subscribe(self._on_change)
        self._show_turn()

    def _on_change(self, change: Any) -> None:
        self._show_turn()
        if getattr(change, "kind", "") == "clock":
            self._sound_clock(change.detail or ())

    def _sound_clock(self, events: Any) -> None:
        """Low time, a flag fall…: the buzzer plays the pin map's "warning" (or "expired"
        for the serious ones) with the screen's alert, when the app's sounds are on. A
        table on a Pi often has no speaker: the buzzer is its alarm."""
        lights, table = self.lights, self._table
        if lights is None or table is None or not self.sound_on():
            return
        from .presenters.clock_alerts import alerts_for

        try:
            names = {s["id"]: s.get("name") or s["id"] for s in table.seats}
            alerts = alerts_for(list(events), names)
            if alerts:
                lights.beep("expired" if any(a.kind == "bad" for a in alerts) else "warning")
        except Exception:  # a missing pattern or a buzzer that failed must not stop the game
            log.exception("buzzer")

    def _show_turn(self) -> None:
        lights, table = self.lights, self._table
        if lights is None:
            return
        positions: set[int] = set()
        if table is not None:
            try:
                ids = [s["id"] for s in table.seats]
                positions = {ids.index(a) for a in table.prompt.actors if a in ids}
            except CompanionError:  # a closed table: nobody's turn
                positions = set()
        try:
            lights.show_turn({p for p in positions if p < len(self.pin_map.seat_leds)})
        except Exception:  # an LED that failed must not stop the game
            log.exception("seat LEDs")

    # ------------------------------------------------------------ simulated pins (mock mode)

    @property
    def can_simulate(self) -> bool:
        """Whether the pins are simulated (the panel may then press buttons and place tokens)."""
        if self.source is None:
            return False
        from gpiozero.pins.mock import MockFactory

        return isinstance(self.pin_factory, MockFactory)

    def _pin(self, gpio: int) -> Any:
        if not self.can_simulate:
            raise RuntimeError("these are real pins: press the real button or place a real token")
        return self.pin_factory.pin(gpio)

    def set_token(self, slot: int, present: bool) -> None:
        """Simulate a magnet over slot ``slot``'s reed switch (the switch closes to GND)."""
        pin = self._pin(self.pin_map.token_slots[slot])
        pin.drive_low() if present else pin.drive_high()

    def press(self, button: str, hold_s: float = SIM_PRESS_S) -> None:
        """Simulate a press of ``button`` ("seat-0", "end-turn"): down now, up ``hold_s`` later."""
        pin = self._pin(self.button_pin(button))
        pin.drive_low()
        timer = threading.Timer(hold_s, pin.drive_high)
        timer.daemon = True
        timer.start()

    def button_pin(self, button: str) -> int:
        pm = self.pin_map
        if button == "end-turn" and pm.end_turn is not None:
            return int(pm.end_turn)
        if button.startswith("seat-") and button[5:].isdigit() and int(button[5:]) < len(pm.seat_buttons):
            return int(pm.seat_buttons[int(button[5:])])
        raise KeyError(f"no button named {button!r} in the pin map")


class _NoFactory(CompanionError, RuntimeError):
    """No pin factory could be loaded (the message says what was tried and what to do)."""


def start_gpio(app: Any, mode: str, pin_map: str | None = None, pin_factory: Any = None) -> GpioLink | None:
    """Start the GPIO header as a device of ``app`` (mode "pi" or "mock"; "off": nothing)
    as the demo starts its simulated hub: the link joins the devices panel, opens its pins
    once the first frame is on screen, lights the LED of the seat whose turn it is in the
    open game, and is closed with the app. A failure is shown in the devices panel."""
    if mode == "off":
        return None
    from .frames import after_first_frame
    from .presenters.devices import DevicesModel

    if app.devices is None:
        app.devices = DevicesModel()
    link = GpioLink(app.post_event, mode=mode, pin_map=pin_map, pin_factory=pin_factory)
    app.devices.add_link(GPIO_DEVICE, link)
    app.add_closer(link.close)
    app.gpio_link = link
    link.sound_on = lambda: bool(getattr(app.settings, "sound", True))

    def opened() -> None:
        link.connect()
        link.follow(app.table)
        app.devices.changed()

    app.bind(table=lambda _app, table: link.follow(table))
    after_first_frame(opened)
    return link
