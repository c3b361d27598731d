"""The app's Bluetooth dice link and its presenters, without Kivy: the fake radio's dice
(firmware_bridge.ble.fake, the real byte protocols behind bleak's front end) scanned,
paired, blinked, given to a seat, unpaired; the devices card and the tray's words."""
from __future__ import annotations

import queue
import threading
from types import SimpleNamespace as NS

import pytest

pytest.importorskip("bleak")

from firmware_bridge.ble.fake import FakeGoDice, FakePixel, FakeRadio  # noqa: E402
from firmware_bridge.events import DieRolled  # noqa: E402

from companion import Journal, Table  # noqa: E402
from companion.ui.ble_link import BleLink, give_seats, resolve_mode  # noqa: E402
from companion.ui.presenters.devices import DevicesModel, ble_card  # noqa: E402
from companion.ui.presenters.dice import DiceModel, live_dice  # noqa: E402


@pytest.fixture
def radio_link():
    radio = FakeRadio()
    px = radio.add(FakePixel("C0:FF:EE:00:00:01", pixel_id=0x1234ABCD, die_type="d20", name="Red d20"))
    gd = radio.add(FakeGoDice("C0:FF:EE:00:00:02", shell="D6"))
    events: queue.Queue = queue.Queue()
    statuses: dict = {}
    changed = threading.Event()
    link = BleLink(events.put, "demo", radio=radio, on_status=lambda s: statuses.__setitem__(s.device, s),
                   on_change=changed.set, scan_s=0.2)
    yield NS(link=link, radio=radio, px=px, gd=gd, events=events, statuses=statuses)
    link.close()


def _until(q: queue.Queue, kind: str, timeout: float = 5.0, where=lambda e: True):
    while True:
        e = q.get(timeout=timeout)
        if type(e).__name__ == kind and where(e):
            return e


def test_modes_fall_back_to_off_without_bleak():
    assert resolve_mode(None, {}, demo=True, available=lambda: True) == ("demo", "")
    assert resolve_mode(None, {}, available=lambda: True) == ("on", "")
    mode, why = resolve_mode("demo", {}, available=lambda: False)
    assert mode == "off" and "bleak" in why
    with pytest.raises(ValueError):
        resolve_mode("maybe", {})


def test_scan_pair_blink_roll_give_and_unpair(radio_link):
    r = radio_link
    link = r.link
    link.scan(wait=True)
    kinds = sorted((f.kind, f.name) for f in link.found)
    assert kinds == [("godice", "GoDice_000002_K_v04"), ("pixels", "Red d20")]
    card = ble_card(link, r.statuses)
    assert {f.title for f in card.found} == {"Pixel “Red d20” · d20", "GoDice"}
    assert card.message.startswith("Found 2 Bluetooth dice")

    px = link.pair(r.px.address, seat="cops-1")
    online = _until(r.events, "DeviceOnline")
    assert online.device == px and online.kind == "pixels" and online.faces == (20,)
    assert [f.kind for f in link.found] == ["godice"]  # the paired die leaves the found list
    link.blink(px, wait=True)
    assert r.px.blinks == 1 and "is blinking" in ble_card(link, r.statuses).dice[0].note

    r.px.roll(17)
    rolled = _until(r.events, "DieRolled")
    assert (rolled.source, rolled.value, rolled.outcome) == (f"die:{px}/0", 17, "rolled")

    journal = Journal.open(":memory:")
    table = Table.create(journal, game_id="tyranny", seats=[{"id": "cops-1", "faction": "cops", "name": "Ann"},
                                                            {"id": "crim-1", "faction": "criminals", "name": "Bob"}],
                         devices={"die:hub1/0": "crim-1"})
    give_seats(table, link.seats(), link.sources)
    assert table.devices == {"die:hub1/0": "crim-1", f"die:{px}/0": "cops-1"} == table.router.devices
    assert journal.game(table.key).devices == table.devices  # journaled: a resumed game has it
    # "Give to: the table" on the devices panel: the game's choice, journaled; the link's
    # own record (a die paired again after a restart is nobody's) never overrides it.
    table.assign_devices({f"die:{px}/0": None})
    link.give(px, "crim-1")
    give_seats(table, link.seats(), link.sources)
    assert table.devices == {"die:hub1/0": "crim-1", f"die:{px}/0": "crim-1"} == journal.game(table.key).devices
    table.assign_devices({f"die:{px}/0": None})
    link.give(px, "")
    give_seats(table, link.seats(), link.sources)
    assert table.devices == {"die:hub1/0": "crim-1"} == journal.game(table.key).devices

    link.unpair(px, wait=True)
    assert _until(r.events, "DeviceOffline").reason == "closed"
    assert px not in link.paired and "unpaired" in link.message


def test_godice_shell_battery_warning_and_another_host(radio_link):
    r = radio_link
    link = r.link
    r.gd.shell = "D20"  # the die wears a D20 shell, the app still thinks D6
    gd = link.pair(r.gd.address, shell="D6")
    _until(r.events, "DeviceOnline")
    r.gd.roll(17)
    motion = _until(r.events, "DieMotion")
    assert motion.state in ("rolling", "unknown")
    link.source.barrier()
    card = ble_card(link, r.statuses, {})
    assert "set to the D6 shell" in card.dice[0].warning
    link.set_shell(gd, "D20")
    assert link.paired[gd].shell == "D20" and "D20" in link.message
    r.gd.set_battery(9)
    # The die's own report after it connected (90 %) may still be on its way: wait for 9 %.
    assert _until(r.events, "BatteryLevel", where=lambda e: e.percent != 90).percent == 9
    link.source.barrier()
    d = ble_card(link, r.statuses, {}).dice[0]
    assert d.battery_low and d.battery.startswith("⚠ battery low (9 %)")
    # Taken by another phone: it drops and does not advertise; the card says so in words.
    r.gd.other_host = True
    r.gd.drop()
    _until(r.events, "DeviceOffline")
    for _ in range(100):
        link.source.barrier()
        if "another phone or app" in r.statuses[gd].warning:
            break
        threading.Event().wait(0.05)
    d = ble_card(link, r.statuses, {}).dice[0]
    assert d.link == "○ offline" and "connected to another phone or app" in d.warning


def test_no_bluetooth_here_is_a_sentence():
    class NoRadio:
        def client(self, *a, **k):
            raise OSError("no D-Bus")

        def scanner(self, *a, **k):
            raise OSError("[Errno 2] No such file or directory: '/run/dbus/system_bus_socket'")

    link = BleLink(lambda e: None, "on", factory=NoRadio(), scan_s=0.05)
    try:
        link.scan(wait=True)
        assert link.error.startswith("There is no Bluetooth here the app can use")
        card = ble_card(link, {})
        assert card.status.startswith("○ no Bluetooth") and not card.online
    finally:
        link.close()


def test_the_tray_names_a_bluetooth_die_and_its_lost_throw():
    devs = DevicesModel()
    from firmware_bridge.events import DeviceOnline, ThrowsMissed

    devs.record(DeviceOnline(device="godice-a1", kind="godice", protocol="godice", faces=(6,), t=1.0))
    devs.record_status(NS(device="godice-a1", name="", color="blue"))
    assert devs.rows() == []  # a Bluetooth die is a line of the Bluetooth card, not a card of its own
    m = DiceModel()
    m.set_live(live_dice(devs, {}, None))
    assert m.name_of("die:godice-a1/0") == "the blue GoDice"
    m.on_missed(ThrowsMissed(device="godice-a1", die=0, count=1, counter=2, boot_id=1, t=2.0), now=2.0)
    assert "hub" not in m.notice and m.notice.startswith("⚠ The blue GoDice lies on another face")
    crooked = DieRolled(device="godice-a1", die=0, value=3, outcome="crooked", confidence=0.8, counter=3, t=3.0)
    m.on_rolled(crooked, NS(accepted=None, rejected=NS(code="crooked-die", message="leaning"), ignored=None))
    assert m.last == "⚠ The blue GoDice leans on 3: re-roll, or accept it."


def test_the_examples_in_the_docstrings():
    import doctest

    import companion.ui.ble_link as ble_link
    import companion.ui.presenters.devices as devices
    import companion.ui.presenters.dice as dice

    for module in (ble_link, devices, dice):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_the_command_line_takes_ble_modes():
    from companion.__main__ import build_parser

    assert build_parser().parse_args(["--ble", "demo"]).ble == "demo"
    assert build_parser().parse_args([]).ble is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--ble", "maybe"])
