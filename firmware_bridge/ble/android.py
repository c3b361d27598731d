"""Android's run-time Bluetooth permissions, asked before the first scan or connection.

Android grants Bluetooth LE to an app in two different ways depending on its version:
from Android 12 (API 31) the "Nearby devices" permissions ``BLUETOOTH_SCAN`` and
``BLUETOOTH_CONNECT``; before it, a location permission (``ACCESS_FINE_LOCATION``), since
a scan could locate the phone. bleak's Android backend asks only for the location
permissions when it starts a scan (and refuses to scan unless one is granted), so on
Android 12 and later the app asks for the Nearby devices permissions and a location
permission together, in one dialog, before bleak's own request (which then finds them
granted). The manifest lists all of them (``android.permissions`` in ``buildozer.spec``;
``BLUETOOTH`` and ``BLUETOOTH_ADMIN`` capped at API 30, where they were replaced).

python-for-android provides the ``android.permissions`` module (``request_permissions``
with a callback) and ``jnius`` on the device; neither exists elsewhere, and nothing here
is imported off Android (``ANDROID_ARGUMENT`` is python-for-android's marker, the one
``kivy.utils.platform`` reads).

>>> needed_permissions(31)
('android.permission.BLUETOOTH_SCAN', 'android.permission.BLUETOOTH_CONNECT', 'android.permission.ACCESS_FINE_LOCATION')
>>> needed_permissions(30)
('android.permission.ACCESS_FINE_LOCATION',)
>>> on_android({})
False
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any

from firmware_bridge.ble.errors import BleUnavailableError

__all__ = ["NEARBY_DEVICES", "LOCATION", "needed_permissions", "on_android", "api_level",
           "Permissions"]

NEARBY_DEVICES = ("android.permission.BLUETOOTH_SCAN", "android.permission.BLUETOOTH_CONNECT")
LOCATION = ("android.permission.ACCESS_FINE_LOCATION",)
NEARBY_DEVICES_API = 31  # Android 12


def needed_permissions(api: int) -> tuple[str, ...]:
    """The run-time permissions Bluetooth LE needs on Android API level ``api``."""
    return NEARBY_DEVICES + LOCATION if api >= NEARBY_DEVICES_API else LOCATION


def on_android(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this process runs inside a python-for-android app."""
    return "ANDROID_ARGUMENT" in environ


def api_level() -> int:
    """The device's Android API level (``Build.VERSION.SDK_INT``), through pyjnius."""
    from jnius import autoclass  # python-for-android only

    return int(autoclass("android.os.Build$VERSION").SDK_INT)


class Permissions:
    """Asks once per app run; a refusal is asked again at the next scan or connection (the
    user may have changed their mind in Android's settings). Off Android it grants at once.
    """

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        self._environ = environ
        self._granted = False

    async def ensure(self) -> None:
        """Return once Bluetooth may be used; raise ``BleUnavailableError`` with a sentence
        for the user when Android refused."""
        if self._granted or not on_android(self._environ):
            self._granted = True
            return
        from android.permissions import request_permissions  # python-for-android only

        wanted = list(needed_permissions(api_level()))
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[list[Any]] = loop.create_future()

        def answered(permissions: list[str], grants: list[Any]) -> None:
            # Android calls back on its own thread.
            loop.call_soon_threadsafe(lambda: answer.done() or answer.set_result(list(grants)))

        request_permissions(wanted, answered)
        grants = await answer
        if len(grants) < len(wanted) or not all(grants):
            what = "Nearby devices" if wanted[0] in NEARBY_DEVICES else "Location"
            raise BleUnavailableError(
                "Bluetooth dice need the %s permission: allow it for Tabletop Companion in "
                "Android's settings (Apps → Tabletop Companion → Permissions)" % what)
        self._granted = True
