"""Where BLE clients and scanners come from (gpiozero style: the source asks a factory,
tests and the demo hand in another). ``BleakFactory`` makes bleak's own ``BleakClient``
and ``BleakScanner``, on the platform's backend (BlueZ, WinRT, CoreBluetooth, Android)
or on one given: ``firmware_bridge.ble.fake.FakeRadio.factory()`` gives bleak a backend
whose radio is a set of fake dice speaking the real byte protocols, so the source runs
bleak's real front end either way.

bleak is imported when a factory first makes something, never at import time: the
codecs and the rest of the bridge work without it (``pip install '.[ble]'``).

>>> f = BleakFactory()
>>> f.backend_name
'platform'
"""

from __future__ import annotations

import importlib.util
import sys

from typing import Any, Callable, Protocol

from firmware_bridge.ble.errors import BleUnavailableError

__all__ = ["BleFactory", "BleakFactory", "bleak_available"]


class BleFactory(Protocol):
    """What the source needs from a factory. The objects made follow bleak's front-end
    API: a client has ``connect()``, ``disconnect()``, ``is_connected``, ``services``,
    ``start_notify(uuid, callback)`` and ``write_gatt_char(uuid, data, response=)``; a
    scanner has ``start()`` and ``stop()`` and calls ``detection_callback(device, adv)``."""

    def client(self, address: str, *, disconnected_callback: Callable[[Any], None],
               timeout: float) -> Any: ...

    def scanner(self, detection_callback: Callable[[Any, Any], None], *, passive: bool = False) -> Any: ...


def bleak_available() -> bool:
    """Whether bleak is installed here: found, not imported. The app asks before its first
    frame, and importing bleak (with its backends' types) waits until a die is scanned
    for or paired; an install that then fails to import is said as bleak missing is.

    >>> bleak_available() == (importlib.util.find_spec("bleak") is not None)
    True
    """
    if "bleak" in sys.modules:  # imported already (or blocked, as a test may do: None)
        return sys.modules["bleak"] is not None
    try:
        return importlib.util.find_spec("bleak") is not None
    except (ImportError, ValueError):
        return False


def _bleak() -> Any:
    try:
        import bleak
    except ImportError as e:
        raise BleUnavailableError("Bluetooth dice need bleak: pip install 'tabletop-companion[ble]' "
                                  "(%s)" % e) from e
    return bleak


class BleakFactory:
    """bleak's client and scanner. ``client_backend`` / ``scanner_backend``: bleak backend
    classes to use instead of the platform's (bleak's ``backend=`` argument);
    ``backend_kwargs`` go to them (a fake radio travels this way)."""

    def __init__(self, client_backend: type | None = None, scanner_backend: type | None = None,
                 **backend_kwargs: Any) -> None:
        self.client_backend = client_backend
        self.scanner_backend = scanner_backend
        self.backend_kwargs = backend_kwargs

    @property
    def backend_name(self) -> str:
        return getattr(self.client_backend, "__name__", "platform")

    def client(self, address: str, *, disconnected_callback: Callable[[Any], None],
               timeout: float) -> Any:
        bleak = _bleak()
        kw: dict[str, Any] = dict(self.backend_kwargs)
        if self.client_backend is not None:
            kw["backend"] = self.client_backend
        return bleak.BleakClient(address, disconnected_callback=disconnected_callback,
                                 timeout=timeout, **kw)

    def scanner(self, detection_callback: Callable[[Any, Any], None], *, passive: bool = False) -> Any:
        """``passive``: no scan requests, so no scan response is heard. BlueZ scans
        passively only through an advertisement monitor, which needs patterns: the
        Systemic Games company id (a Pixel's manufacturer data) and the ``GoDice_`` name."""
        bleak = _bleak()
        kw: dict[str, Any] = dict(self.backend_kwargs)
        if self.scanner_backend is not None:
            kw["backend"] = self.scanner_backend
        if passive:
            kw["scanning_mode"] = "passive"
            if self.scanner_backend is None and sys.platform.startswith("linux"):
                kw["bluez"] = {"or_patterns": _bluez_patterns()}
        return bleak.BleakScanner(detection_callback, **kw)


def _bluez_patterns() -> list[Any]:
    from bleak.assigned_numbers import AdvertisementDataType as T

    try:
        from bleak.args.bluez import OrPattern
    except ImportError:  # bleak before 1.0 (the [ble] extra allows 0.22)
        from bleak.backends.bluezdbus.advertisement_monitor import OrPattern

    return [OrPattern(0, T.MANUFACTURER_SPECIFIC_DATA, (0x0D39).to_bytes(2, "little")),
            OrPattern(0, T.COMPLETE_LOCAL_NAME, b"GoDice_"),
            OrPattern(0, T.SHORTENED_LOCAL_NAME, b"GoDice_")]
