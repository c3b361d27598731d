"""The GPIO input source on gpiozero's MockFactory: press, hold, release, bounce, token
slots, keypad, counters, delivery, threading, life cycle."""
from __future__ import annotations

import doctest
import queue
import threading

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import events as ev
from firmware_bridge.gpio import GpioError, GpioSource, parse_pin_map
from firmware_bridge.gpio import source as source_module

from .gpio_helpers import DEFAULT_TEST_MAP, FakeClock, Rig

END_TURN, SEAT0, SEAT1, SEAT2 = 4, 17, 27, 22
KEYS = [10, 9, 11, 8, 7, 18]
SLOTS = [5, 6, 13]


def kinds(events: list[ev.Event]) -> list[tuple[str, str]]:
    return [(type(e).__name__, e.source) for e in events]


def test_start_announces_the_device_and_reads_nothing_as_news() -> None:
    rig = Rig()
    rig.source.start(thread=False)
    assert rig.events == [ev.DeviceOnline(device="gpio", kind="gpio", t=rig.clock.t)]
    assert rig.wait(5.0) == []


def test_press_is_believed_after_the_debounce_time_with_the_edge_time() -> None:
    rig = Rig().start()
    t0 = rig.clock.t
    rig.low(END_TURN)
    assert rig.events == []  # a fresh edge is not news yet
    assert rig.wait(0.019) == []
    [e] = rig.wait(0.002)
    assert e == ev.ButtonPressed(device="gpio", button="end-turn", t=t0, counter=1)
    assert e.source == "button:gpio/end-turn"
    assert rig.source.is_pressed("end-turn")


def test_release_after_press() -> None:
    rig = Rig({"inputs": {"seat_buttons": [SEAT0, SEAT1]}, "hold_s": None}).start()
    rig.low(SEAT1)
    rig.wait(0.03)
    rig.clock.advance(0.2)
    t_up = rig.clock.t
    rig.high(SEAT1)
    assert rig.wait(0.03) == [ev.ButtonReleased(device="gpio", button="seat-1", t=t_up, counter=2)]
    assert not rig.source.is_pressed("seat-1")
    assert [type(e) for e in rig.take()] == [ev.ButtonPressed, ev.ButtonReleased]


def test_hold_is_reported_once_per_press_after_hold_time() -> None:
    rig = Rig().start()
    t0 = rig.clock.t
    rig.low(SEAT2)
    assert kinds(rig.wait(0.5)) == [("ButtonPressed", "button:gpio/seat-2")]
    assert rig.wait(0.49) == []
    [held] = rig.wait(0.02)
    assert held == ev.ButtonHeld(device="gpio", button="seat-2", t=t0 + 1.01, counter=1)
    assert rig.wait(5.0) == []  # once per press
    rig.high(SEAT2)
    assert kinds(rig.wait(0.03)) == [("ButtonReleased", "button:gpio/seat-2")]
    rig.low(SEAT2)
    assert kinds(rig.wait(1.1)) == [("ButtonPressed", "button:gpio/seat-2"),
                                    ("ButtonHeld", "button:gpio/seat-2")]


def test_a_short_press_is_not_a_hold() -> None:
    rig = Rig().start()
    rig.low(END_TURN)
    rig.wait(0.5)
    rig.high(END_TURN)
    assert kinds(rig.wait(2.0)) == [("ButtonReleased", "button:gpio/end-turn")]
    assert not any(isinstance(e, ev.ButtonHeld) for e in rig.events)


def test_hold_time_comes_from_the_pin_map() -> None:
    rig = Rig(DEFAULT_TEST_MAP | {"hold_s": 3.0}).start()
    rig.low(END_TURN)
    assert kinds(rig.wait(2.9)) == [("ButtonPressed", "button:gpio/end-turn")]
    assert kinds(rig.wait(0.2)) == [("ButtonHeld", "button:gpio/end-turn")]


def test_bounce_gives_one_press() -> None:
    """A contact that chatters for 12 ms (toggles 1-3 ms apart) then stays closed."""
    rig = Rig().start()
    t0 = rig.clock.t
    for gap_ms in (1, 2, 1, 3, 2, 1, 2):
        rig.low(END_TURN)
        rig.wait(gap_ms / 1000)  # the ticker may look at any moment
        rig.high(END_TURN)
        rig.wait(0.0005)
    t_last = rig.clock.t
    rig.low(END_TURN)
    for _ in range(10):  # the ticker polls many times while the level settles
        rig.wait(0.005)
    rig.wait(1.5)
    rig.high(END_TURN)
    rig.clock.advance(0.001)
    rig.low(END_TURN)  # a bounce on release too
    rig.clock.advance(0.002)
    rig.high(END_TURN)
    rig.wait(0.1)
    presses = [e for e in rig.events if isinstance(e, ev.ButtonPressed)]
    assert len(presses) == 1 and presses[0].t == t_last > t0
    assert [type(e) for e in rig.events] == [ev.ButtonPressed, ev.ButtonHeld, ev.ButtonReleased]


def test_a_flicker_shorter_than_the_debounce_time_never_shows() -> None:
    rig = Rig().start()
    rig.low(SLOTS[0])
    rig.wait(0.015)
    rig.high(SLOTS[0])
    assert rig.wait(1.0) == []
    assert rig.source.tokens() == frozenset()


def test_tokens_placed_and_removed() -> None:
    rig = Rig().start()
    t0 = rig.clock.t
    rig.low(SLOTS[2])
    rig.low(SLOTS[0])
    assert rig.wait(0.03) == [ev.TokenPlaced(device="gpio", slot=0, t=t0, counter=1),
                              ev.TokenPlaced(device="gpio", slot=2, t=t0, counter=2)]
    assert rig.source.tokens() == {0, 2}
    rig.high(SLOTS[2])
    [e] = rig.wait(0.03)
    assert e == ev.TokenRemoved(device="gpio", slot=2, t=t0 + 0.03, counter=3)
    assert e.source == "slot:gpio/2"
    assert rig.source.tokens() == {0}


def test_a_token_already_on_a_slot_at_start_is_state_not_news() -> None:
    rig = Rig()
    rig.factory.pin(SLOTS[1]).closed = True  # a token lies there before the app starts
    rig.start()
    assert rig.source.tokens() == {1}
    assert rig.wait(1.0) == []
    rig.factory.pin(SLOTS[1]).closed = False
    rig.high(SLOTS[1])
    assert kinds(rig.wait(0.03)) == [("TokenRemoved", "slot:gpio/1")]


def test_keypad_keys_enter_their_values() -> None:
    rig = Rig().start()
    for value, gpio in enumerate(KEYS, 1):
        rig.low(gpio)
        rig.wait(0.03)
        rig.high(gpio)  # the release makes no event
        rig.wait(0.03)
    assert [(type(e), e.value, e.seat) for e in rig.events] == [
        (ev.KeypadValue, v, None) for v in range(1, 7)]
    assert rig.events[0].source == "keypad:gpio"


def test_a_keypad_can_belong_to_a_seat() -> None:
    rig = Rig({"inputs": {"keypad": KEYS, "keypad_seat": 2}}).start()
    rig.low(KEYS[3])
    [e] = rig.wait(0.03)
    assert (e.value, e.seat, e.source) == (4, 2, "keypad:gpio/2")


def test_counters_increase_across_inputs() -> None:
    rig = Rig().start()
    for gpio in (SLOTS[0], SEAT0, KEYS[0], END_TURN):
        rig.low(gpio)
        rig.wait(0.03)
    counters = [e.counter for e in rig.events]
    assert counters == sorted(counters) == [1, 2, 3, 4]


def test_events_go_to_the_queue_without_a_callback() -> None:
    clock = FakeClock()
    factory = MockFactory()
    src = GpioSource(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory, clock=clock,
                     device="pi")
    src.start(thread=False)
    assert isinstance(src.queue.get_nowait(), ev.DeviceOnline)
    factory.pin(END_TURN).drive_low()
    clock.advance(0.05)
    src.poll()
    assert src.queue.get_nowait().source == "button:pi/end-turn"
    src.close()
    assert src.queue.get_nowait() == ev.DeviceOffline(device="pi", reason="closed", t=clock.t)
    with pytest.raises(queue.Empty):
        src.queue.get_nowait()


def test_a_failing_callback_is_counted_and_does_not_stop_the_source() -> None:
    seen: list[ev.Event] = []

    def handler(e: ev.Event) -> None:
        seen.append(e)
        if isinstance(e, ev.TokenPlaced):
            raise RuntimeError("listener bug")

    clock, factory = FakeClock(), MockFactory()
    src = GpioSource(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory, clock=clock,
                     on_event=handler)
    src.start(thread=False)
    factory.pin(SLOTS[0]).drive_low()
    clock.advance(0.001)
    factory.pin(SEAT0).drive_low()  # later, though earlier in the pin map
    clock.advance(0.05)
    src.poll()
    assert [type(e) for e in seen] == [ev.DeviceOnline, ev.TokenPlaced, ev.ButtonPressed]
    assert [e.counter for e in seen[1:]] == [1, 2]
    assert src.callback_errors == 1
    src.close()


def test_close_releases_the_pins_and_stops_reporting() -> None:
    rig = Rig().start()
    rig.source.close()
    assert kinds(rig.take()) == [("DeviceOffline", "device:gpio")]
    rig.low(END_TURN)
    assert rig.wait(1.0) == []
    DigitalInputDevice(END_TURN, pin_factory=rig.factory).close()  # the pin is free again
    rig.source.close()  # twice is harmless
    assert rig.events == []


def test_a_pin_in_use_is_a_gpio_error_naming_the_role() -> None:
    factory = MockFactory()
    squatter = DigitalInputDevice(SLOTS[1], pin_factory=factory)
    src = GpioSource(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory)
    with pytest.raises(GpioError, match=r"GPIO 6 \(header pin 31\) for the token slot 1"):
        src.start(thread=False)
    assert not src.is_running
    squatter.close()
    # Nothing opened before the failure stays claimed: the whole map opens now.
    src.start(thread=False)
    src.close()


def test_unknown_button_name() -> None:
    rig = Rig().start()
    with pytest.raises(KeyError):
        rig.source.is_pressed("seat-9")


def test_the_ticker_thread_confirms_presses_and_holds_without_polling() -> None:
    """Real time and the real thread: no poll() from the test. Only the order and the
    kinds are checked; how long it took is not."""
    factory = MockFactory()
    q: queue.Queue[ev.Event] = queue.Queue()
    pm = parse_pin_map(DEFAULT_TEST_MAP | {"hold_s": 0.05})
    threads: set[str] = set()

    def handler(e: ev.Event) -> None:
        threads.add(threading.current_thread().name)
        q.put(e)

    with GpioSource(pm, pin_factory=factory, on_event=handler) as src:
        assert isinstance(q.get(timeout=10), ev.DeviceOnline)
        factory.pin(SEAT1).drive_low()
        assert isinstance(q.get(timeout=10), ev.ButtonPressed)
        assert isinstance(q.get(timeout=10), ev.ButtonHeld)
        factory.pin(SEAT1).drive_high()
        assert isinstance(q.get(timeout=10), ev.ButtonReleased)
        assert src.is_running
    assert isinstance(q.get(timeout=10), ev.DeviceOffline)
    assert "gpio-source" in threads


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 60)), min_size=1, max_size=40))
def test_debounced_events_follow_the_levels_that_lasted(steps: list[tuple[bool, int]]) -> None:
    """Whatever the raw timeline (pressed?, ms until the next change): the events alternate
    press/release; each one is stamped with the start of a run of that level which lasted
    at least the debounce time; after a quiet spell the debounced state is the raw level."""
    rig = Rig({"inputs": {"end_turn": END_TURN}, "debounce_ms": 20, "hold_s": None}).start()
    runs: list[list] = [[rig.clock.t, False, 0.0]]  # [start, pressed, seconds], merged
    for pressed, ms in steps:
        if pressed != runs[-1][1]:
            runs.append([rig.clock.t, pressed, 0.0])
        (rig.low if pressed else rig.high)(END_TURN)
        for _ in range(ms // 7):  # polls in between, as the ticker would
            rig.wait(0.007)
        rig.wait((ms % 7) / 1000)
        runs[-1][2] += ms / 1000
    runs[-1][2] = float("inf")
    rig.wait(0.05)
    seen = [type(e) for e in rig.events]
    assert seen == [ev.ButtonPressed, ev.ButtonReleased][: len(seen)] * (len(seen) // 2) + (
        [ev.ButtonPressed] if len(seen) % 2 else [])
    by_start = {start: (pressed, secs) for start, pressed, secs in runs}
    for e in rig.events:
        pressed, secs = by_start[e.t]
        assert pressed == isinstance(e, ev.ButtonPressed)
        assert secs >= 0.0195
    assert rig.source.is_pressed("end-turn") == steps[-1][0]
    rig.source.close()


def test_doctests() -> None:
    result = doctest.testmod(source_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
