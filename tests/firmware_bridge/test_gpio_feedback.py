"""GPIO outputs on MockFactory: the seat LEDs show whose turn it is, the buzzer plays the
pin map's beep patterns."""
from __future__ import annotations

import doctest
import threading

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from firmware_bridge.gpio import (GpioError, GpioFeedback, UnknownBeepError, UnknownSeatError,
                                  parse_pin_map)
from firmware_bridge.gpio import feedback as feedback_module

from .gpio_helpers import DEFAULT_TEST_MAP

LEDS = [24, 12, 16]
BUZZER = 25


class Sleeper:
    """Records the waits instead of waiting, and what the buzzer was doing meanwhile."""

    def __init__(self, factory: MockFactory) -> None:
        self.factory = factory
        self.waits: list[tuple[float, bool]] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append((seconds, self.factory.pin(BUZZER).state))


@pytest.fixture()
def rig() -> tuple[GpioFeedback, MockFactory, Sleeper]:
    factory = MockFactory()
    sleeper = Sleeper(factory)
    fb = GpioFeedback(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory, sleep=sleeper)
    fb.open()
    yield fb, factory, sleeper
    fb.close()


def lit(factory: MockFactory) -> list[bool]:
    return [factory.pin(p).state for p in LEDS]


def test_everything_starts_off(rig) -> None:
    fb, factory, _ = rig
    assert lit(factory) == [False, False, False]
    assert factory.pin(BUZZER).state is False
    assert fb.lit_seats == frozenset()


def test_the_active_seat_is_lit_and_only_it(rig) -> None:
    fb, factory, _ = rig
    fb.show_turn(0)
    assert lit(factory) == [True, False, False]
    fb.show_turn(2)
    assert lit(factory) == [False, False, True]
    assert fb.lit_seats == {2}


def test_simultaneous_actors_and_nobody(rig) -> None:
    fb, factory, _ = rig
    fb.show_turn([0, 1])
    assert lit(factory) == [True, True, False]
    fb.show_turn(None)
    assert lit(factory) == [False, False, False]
    fb.show_turn({2})
    fb.show_turn(())
    assert lit(factory) == [False, False, False]


def test_a_seat_without_a_led_is_refused_and_nothing_changes(rig) -> None:
    fb, factory, _ = rig
    fb.show_turn(1)
    with pytest.raises(UnknownSeatError, match="seat position.s. 3, 7") as info:
        fb.show_turn([0, 3, 7])
    assert isinstance(info.value, ValueError)
    with pytest.raises(UnknownSeatError):
        fb.show_turn(-1)
    assert lit(factory) == [False, True, False]


def test_a_beep_pattern_drives_the_buzzer(rig) -> None:
    fb, factory, sleeper = rig
    fb.beep("expired", wait=True)
    pin = factory.pin(BUZZER)
    assert [s.state for s in pin.states] == [False] + [True, False] * 3
    # Each step: on for on_s (buzzer sounding), then off for off_s (silent).
    assert sleeper.waits == [(0.4, True), (0.15, False), (0.4, True), (0.15, False), (0.4, True)]
    assert pin.state is False and fb.beeps_played == 1


def test_patterns_come_from_the_pin_map(rig) -> None:
    fb, factory, sleeper = rig
    fb.beep("tick", wait=True)
    assert sleeper.waits == [(0.05, True)]
    with pytest.raises(UnknownBeepError, match="known: tick, warning, expired"):
        fb.beep("fanfare")


def test_a_background_beep_is_cut_by_a_newer_one() -> None:
    """Real threads, real waiting: a 10 s pattern is cut at once by silence()/a new beep."""
    factory = MockFactory()
    pm = parse_pin_map(DEFAULT_TEST_MAP | {"beeps": {"long": [[10, 0]], "tick": [[0.01, 0]]}})
    with GpioFeedback(pm, pin_factory=factory) as fb:
        fb.beep("long")
        on = threading.Event()
        for _ in range(1000):
            if factory.pin(BUZZER).state:
                on.set()
                break
            on.wait(0.01)
        assert on.is_set()
        fb.beep("tick")  # cuts "long", plays "tick" in the background
        fb.silence()
        assert factory.pin(BUZZER).state is False
        assert fb.beeps_played in (1, 2)  # "tick" may be cut before it starts
    assert not [t for t in threading.enumerate() if t.name == "gpio-beep"]


def test_no_buzzer_in_the_pin_map_means_silent_beeps() -> None:
    factory = MockFactory()
    pm = parse_pin_map({"outputs": {"seat_leds": [24]}, "beeps": {"tick": [[0.05, 0]]}})
    with GpioFeedback(pm, pin_factory=factory) as fb:
        fb.beep("tick", wait=True)
        assert fb.beeps_played == 0
        with pytest.raises(UnknownBeepError):
            fb.beep("warning")


def test_a_claimed_pin_is_a_gpio_error_and_nothing_stays_claimed() -> None:
    factory = MockFactory()
    squatter = LED(BUZZER, pin_factory=factory)
    fb = GpioFeedback(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory)
    with pytest.raises(GpioError, match=r"GPIO 25 \(header pin 22\) for the buzzer"):
        fb.open()
    squatter.close()
    LED(LEDS[0], pin_factory=factory).close()  # the seat LEDs were released
    fb.open()
    fb.close()


def test_close_turns_everything_off() -> None:
    factory = MockFactory()
    fb = GpioFeedback(parse_pin_map(DEFAULT_TEST_MAP), pin_factory=factory)
    fb.open()
    fb.show_turn([0, 2])
    fb.close()
    assert lit(factory) == [False, False, False]
    assert fb.lit_seats == frozenset()


def test_doctests() -> None:
    result = doctest.testmod(feedback_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
