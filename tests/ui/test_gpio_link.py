"""The app's GPIO start-up without a window (``companion/ui/gpio_link.py`` is Kivy-free):
the mode chosen from --gpio / TC_GPIO / the machine, the link over gpiozero's MockFactory
feeding the app's input pump and the Table exactly as a die does, the seat lights
following the turn, and every failure (no pin factory, a broken pin map, no gpiozero)
a sentence for the devices panel instead of an exception."""
from __future__ import annotations

import threading
import time
from typing import Any, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion import Journal
from companion.routing import load_mapping
from companion.ui.gpio_link import GpioLink, GpioModeError, is_raspberry_pi, resolve_mode
from companion.ui.presenters.devices import DevicesModel, TableWords, gpio_board
from companion.ui.pump import InputPump
from firmware_bridge.events import ButtonPressed, DeviceOnline, TokenPlaced
from rules.core import Roll
from rules.tyranny.actions import MoveTo

from tests.companion.table_helpers import new_table


@pytest.fixture(autouse=True)
def fresh_factory() -> Iterator[None]:
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()
    Device.pin_factory = None


def _wait(cond: Any, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


class App:
    """What start-up gives the link in the app: ``post_event`` puts every event into the
    input pump, whose thread routes it through the Table (app._route / _deliver_routed)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.results: list[tuple[Any, Any]] = []
        self.seen: list[Any] = []
        self.pump = InputPump(table.route, lambda e, r: self.results.append((e, r)))

    def post_event(self, event: Any) -> None:
        self.seen.append(event)
        self.pump.put(event)

    def routed(self, kind: type) -> list[Any]:
        return [r for e, r in self.results if isinstance(e, kind)]


@pytest.fixture
def app() -> Iterator[App]:
    a = App(new_table(Journal.open(":memory:"), "tyranny", seed=1))
    yield a
    a.pump.close()


def test_mode_comes_from_the_flag_then_the_environment_then_the_machine():
    assert resolve_mode("mock", {"TC_GPIO": "off"}) == "mock"
    assert resolve_mode(None, {"TC_GPIO": "mock"}) == "mock"
    assert resolve_mode(None, {}, on_pi=lambda: False) == "off"
    assert resolve_mode(None, {}, on_pi=lambda: True) == "pi"
    with pytest.raises(GpioModeError):
        resolve_mode("lgpio", {})


def test_a_pi_is_known_by_its_device_tree(tmp_path):
    pi, pc = tmp_path / "pi", tmp_path / "pc"
    pi.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    pc.write_bytes(b"QEMU Virtual Machine\x00")
    assert is_raspberry_pi([str(tmp_path / "missing"), str(pi)])
    assert not is_raspberry_pi([str(pc)])


def test_mock_pins_reach_the_table_through_the_input_pump(app):
    link = GpioLink(app.post_event, mode="mock")
    link.connect()
    try:
        assert link.error == "" and link.is_online and link.can_simulate
        assert isinstance(Device.pin_factory, MockFactory) and link.pin_factory is Device.pin_factory
        assert _wait(lambda: any(isinstance(e, DeviceOnline) for e in app.seen))
        # The end-turn button while a roll is awaited: refused, with the rule.
        Device.pin_factory.pin(link.pin_map.end_turn).drive_low()
        assert _wait(lambda: app.routed(ButtonPressed))
        Device.pin_factory.pin(link.pin_map.end_turn).drive_high()
        (r,) = app.routed(ButtonPressed)
        # The turn's section first, then the one of what may be declined (a refusal says why).
        assert r.rejected is not None and r.rejected.rule.startswith("Gameplay: A typical movement turn")
        app.table.submit(Roll("cops-1", (1,)))
        # A token on slot 1 (The Docks): accepted, journaled with the slot as its source.
        Device.pin_factory.pin(link.pin_map.token_slots[1]).drive_low()
        assert _wait(lambda: app.routed(TokenPlaced))
        (r,) = app.routed(TokenPlaced)
        assert r.accepted is not None and r.accepted.action == MoveTo("cops-1", tile="o-docks")
        assert link.tokens() == frozenset({1})
    finally:
        link.close()
    assert not link.is_online


def test_the_panel_presses_a_simulated_button(app):
    link = GpioLink(app.post_event, mode="mock")
    link.connect()
    try:
        link.press("seat-1")
        assert _wait(lambda: app.routed(ButtonPressed))
        assert app.routed(ButtonPressed)[0].ignored == "criminals-2 selected"
        link.set_token(1, True)
        assert _wait(lambda: link.tokens() == frozenset({1}))
        link.set_token(1, False)
        assert _wait(lambda: link.tokens() == frozenset())
    finally:
        link.close()


def test_seat_lights_follow_the_turn(app):
    link = GpioLink(app.post_event, mode="mock")
    link.connect()
    try:
        link.follow(app.table)
        assert link.lit_seats() == frozenset({0})  # cops-1 rolls first
        pin = Device.pin_factory.pin(link.pin_map.seat_leds[1])
        app.table.submit(Roll("cops-1", (1,)))
        app.table.submit(next(a for a in app.table.legal_actions() if a.kind == "move"))
        assert link.lit_seats() == frozenset({1}) and pin.state
        link.follow(None)
        assert link.lit_seats() == frozenset() and not pin.state
    finally:
        link.close()


def test_no_pin_factory_is_a_sentence_not_a_crash(app, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    if is_raspberry_pi():
        pytest.skip("a real Pi has a pin factory")
    try:
        import lgpio  # noqa: F401
        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    link = GpioLink(app.post_event, mode="pi")
    link.connect()  # never raises
    assert not link.is_online
    assert "No GPIO pin factory works on this computer" in link.error and "--gpio mock" in link.error
    assert link.counters() == "not connected"
    board = gpio_board(link, load_mapping("tyranny"), None)
    assert board.error == link.error and not board.online


def test_a_broken_pin_map_is_a_sentence_not_a_crash(app, tmp_path):
    bad = tmp_path / "pins.json"
    bad.write_text('{"inputs": {"token_slots": [5, 5]}}', encoding="utf-8")
    link = GpioLink(app.post_event, mode="mock", pin_map=str(bad))
    link.connect()
    assert not link.is_online and "is used twice" in link.error and "GPIO 5 (header pin 29)" in link.error
    missing = GpioLink(app.post_event, mode="mock", pin_map=str(tmp_path / "nope.json"))
    missing.connect()
    assert "cannot be used" in missing.error


def test_a_pin_already_taken_is_a_sentence_not_a_crash(app):
    from gpiozero import DigitalInputDevice

    Device.pin_factory = MockFactory()
    squatter = DigitalInputDevice(5)  # slot 0's pin, held by someone else
    try:
        link = GpioLink(app.post_event, mode="mock")
        link.connect()
        assert not link.is_online and "token slot 0" in link.error and "GPIO 5" in link.error
    finally:
        squatter.close()


def test_the_board_says_what_each_pin_does_in_player_words(app):
    link = GpioLink(app.post_event, mode="mock")
    link.connect()
    try:
        table = app.table
        from rules.tyranny.board import default_board

        tiles = default_board().tiles  # what the Tyranny screen names its tiles by
        words = TableWords("Tyranny", ("Ann", "Bob"), lambda e: tiles[e.partition(":")[2]].name)
        Device.pin_factory.pin(link.pin_map.token_slots[1]).drive_low()
        assert _wait(lambda: link.tokens() == frozenset({1}))
        link.follow(table)
        b = gpio_board(link, load_mapping("tyranny"), words)
        slot = b.of("slot")[1]
        assert slot.role == "Token slot 2" and slot.state == "● token" and slot.active
        assert slot.meaning == "The Docks: a token here means move there"
        assert slot.pin == "GPIO 6 · header pin 31"
        end = next(r for r in b.of("button") if r.key == "end-turn")
        assert end.meaning.startswith("says no to the optional step") and end.state == "○ up"
        seat = next(r for r in b.of("button") if r.key == "seat-1")
        assert seat.meaning == "chooses Bob for keypad entry and secret choices"
        assert [r.meaning for r in b.of("button") if r.key == "seat-3"] == ["a seat this table does not have"]
        assert [r.state for r in b.of("led")][:2] == ["● lit", "○ off"] and b.of("led")[0].meaning == "Ann's turn light"
        assert b.of("keypad")[0].meaning.startswith("a die value typed in for the seat that rolls")
        assert b.of("buzzer") and b.simulated and "MockFactory" in b.status
        # No id a player would have to decode.
        assert [r.meaning.split(":")[0] for r in b.of("slot")][:3] == ["Police Station", "The Docks", "Gamble"]
        assert not any("tile:" in r.meaning or "o-docks" in r.meaning or "police-station" in r.meaning for r in b.rows)
    finally:
        link.close()


def test_the_devices_model_remembers_the_last_gpio_input_and_lost_throws():
    from firmware_bridge.events import ThrowsMissed

    m = DevicesModel()
    m.record(DeviceOnline(device="gpio", kind="gpio", t=1.0))
    m.record(TokenPlaced(device="gpio", slot=1, t=2.0))
    assert "last input: token placed on slot 2" in m.rows()[0].detail
    m.record(ButtonPressed(device="gpio", button="end-turn", t=3.0))
    assert "last input: End-turn button pressed" in m.rows()[0].detail
    m.record(ThrowsMissed(device="hub1", die=0, count=3, counter=40, t=4.0))
    assert "⚠ 3 throws lost while unheard" in m.rows()[1].detail


def _clock_table(t: Any) -> Any:
    from companion import Table
    from companion.clocks import ClockConfig, ClockMode
    from tests.companion.table_helpers import seats_for

    return Table.create(Journal.open(":memory:"), game_id="tyranny", seats=seats_for("tyranny"), seed=1,
                        clocks=ClockConfig(ClockMode.SUDDEN_DEATH, main=60, warning=10), clock=t.mono, wall=t.wall)


@pytest.mark.parametrize("sound", [True, False])
def test_the_buzzer_sounds_clock_alerts_when_sounds_are_on(sound):
    from tests.companion.clock_fakes import FakeTime

    t = FakeTime()
    table = _clock_table(t)
    link = GpioLink(lambda e: None, mode="mock")
    link.sound_on = lambda: sound
    link.connect()
    beeps: list[str] = []
    try:
        link.lights.beep = lambda name, **kw: beeps.append(name)  # the pattern, not its timing
        link.follow(table)
        t.wait(20)
        table.tick()
        assert beeps == []  # 40 s left: no alert, no sound
        t.wait(31)
        table.tick()  # 9 s left: the warning
        t.wait(10)
        table.tick()  # the flag falls
        assert beeps == (["warning", "expired"] if sound else [])
    finally:
        link.close()
