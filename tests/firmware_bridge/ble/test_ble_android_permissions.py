"""Android's run-time Bluetooth permissions (``firmware_bridge.ble.android``), asked before a
scan and before a connection. python-for-android's ``android.permissions`` and ``jnius``
exist only on a device: these tests put stand-ins with the same call shapes in
``sys.modules`` (``request_permissions(list, callback(permissions, grants))``, answered
from another thread as Android does; ``autoclass('android.os.Build$VERSION').SDK_INT``)
and run the real source on the fake radio."""
from __future__ import annotations

import queue
import sys
import threading
import types
from typing import Any, Iterator

import pytest

from firmware_bridge.ble.errors import BleUnavailableError
from firmware_bridge.ble.fake import FakePixel, FakeRadio
from firmware_bridge.ble.source import BleDiceSource

from .ble_helpers import WAIT, online

PX = "C0:FF:EE:00:00:01"


class FakeAndroid:
    def __init__(self, api: int, grant: bool) -> None:
        self.api, self.grant = api, grant
        self.asked: list[list[str]] = []

    def request_permissions(self, permissions: list[str], callback: Any) -> None:
        self.asked.append(list(permissions))
        grants = [self.grant] * len(permissions)
        threading.Thread(target=callback, args=(permissions, grants)).start()

    def autoclass(self, name: str) -> Any:
        assert name == "android.os.Build$VERSION"
        return types.SimpleNamespace(SDK_INT=self.api)


@pytest.fixture
def android(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def install(api: int, grant: bool) -> FakeAndroid:
        fake = FakeAndroid(api, grant)
        perms = types.ModuleType("android.permissions")
        perms.request_permissions = fake.request_permissions  # type: ignore[attr-defined]
        pkg = types.ModuleType("android")
        pkg.permissions = perms  # type: ignore[attr-defined]
        jnius = types.ModuleType("jnius")
        jnius.autoclass = fake.autoclass  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "android", pkg)
        monkeypatch.setitem(sys.modules, "android.permissions", perms)
        monkeypatch.setitem(sys.modules, "jnius", jnius)
        monkeypatch.setenv("ANDROID_ARGUMENT", "/data/user/0/org.tabletopcompanion/files/app")
        return fake

    yield install


def _source(radio: FakeRadio) -> BleDiceSource:
    return BleDiceSource(queue.Queue(), factory=radio.factory(), backoff_first=0.005,
                         backoff_limit=0.02, identify_wait_s=0.3, connect_timeout=2.0).start()


@pytest.mark.parametrize("api, wanted", [
    # bleak's Android scanner itself insists on a location permission, even on 12+.
    (34, ["android.permission.BLUETOOTH_SCAN", "android.permission.BLUETOOTH_CONNECT",
          "android.permission.ACCESS_FINE_LOCATION"]),
    (31, ["android.permission.BLUETOOTH_SCAN", "android.permission.BLUETOOTH_CONNECT",
          "android.permission.ACCESS_FINE_LOCATION"]),
    (30, ["android.permission.ACCESS_FINE_LOCATION"]),
])
def test_a_granted_scan_asks_the_permissions_of_the_android_version_once(android, api, wanted):
    fake = android(api, grant=True)
    radio = FakeRadio()
    radio.add(FakePixel(PX, die_type="d6", name="Red d6"))
    with _source(radio) as src:
        assert [d.name for d in src.scan(0.01)] == ["Red d6"]
        assert [d.name for d in src.scan(0.01)] == ["Red d6"]
    assert fake.asked == [wanted]  # once per app run


def test_a_refused_scan_says_which_permission_in_player_words(android):
    fake = android(33, grant=False)
    radio = FakeRadio()
    radio.add(FakePixel(PX, die_type="d6"))
    with _source(radio) as src:
        with pytest.raises(BleUnavailableError, match="Nearby devices permission") as refused:
            src.scan(0.01)
        assert "Android's settings" in str(refused.value)
        # Asked again next time: the user may have allowed it in the settings meanwhile.
        fake.grant = True
        assert len(src.scan(0.01)) == 1
    assert len(fake.asked) == 2


def test_a_refused_connection_is_the_dies_warning_and_it_connects_once_allowed(android):
    fake = android(30, grant=False)
    radio = FakeRadio()
    radio.add(FakePixel(PX, die_type="d6"))
    with _source(radio) as src:
        dev = src.add_pixel(PX)
        pause = threading.Event()
        for _ in range(int(WAIT / 0.01)):
            if isinstance(src.last_error(dev), BleUnavailableError):
                break
            pause.wait(0.01)
        assert "Location permission" in str(src.last_error(dev))
        assert "Location permission" in (src.status(dev).warning or "")
        assert not src.is_online(dev)
        fake.grant = True  # the back-off tries again, and now it may
        assert online(src, dev).device == dev


def test_off_android_nothing_is_asked(monkeypatch):
    monkeypatch.delenv("ANDROID_ARGUMENT", raising=False)
    monkeypatch.setitem(sys.modules, "android", None)  # importing it would fail
    radio = FakeRadio()
    radio.add(FakePixel(PX, die_type="d6"))
    with _source(radio) as src:
        assert len(src.scan(0.01)) == 1
