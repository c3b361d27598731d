"""The Pi's GPIO header reaches the Table: gpiozero's MockFactory pins, driven low and high
as the switches do, become events in ``GpioSource`` (the shipped default pin map), and
``Table.route`` turns them into Tyranny's actions (or rejections naming the rule) through
``rules/tyranny/data/mappings.json``. No Kivy: the app's own path (pump, link) is in
tests/ui/test_gpio_link.py."""
from __future__ import annotations

from typing import Any, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion import Journal
from firmware_bridge.events import TokenPlaced, TokenRemoved
from rules.tyranny.actions import Decline, MoveTo
from rules.core import Roll

from .gpio_board import PINS, Board
from .table_helpers import new_table

@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = None


@pytest.fixture
def board(mock_pins: MockFactory) -> Iterator[Board]:
    table = new_table(Journal.open(":memory:"), "tyranny", seed=1)
    b = Board(table)
    try:
        yield b
    finally:
        b.source.close()


def test_the_default_pin_map_has_the_inputs_this_test_plays():
    assert PINS.end_turn is not None and len(PINS.keypad) == 6 and len(PINS.token_slots) >= 3


def test_end_turn_button_while_a_roll_is_awaited_is_refused_with_its_rule(board):
    ply, view = board.table.ply, board.table.view()
    r = board.press(PINS.end_turn)
    assert r.accepted is None and r.rejected is not None
    # The turn's section first, then the section of what may be declined (issue 31: a refusal says why).
    assert r.rejected.code == "illegal" and r.rejected.rule.startswith("Gameplay: A typical movement turn")
    assert "end-turn button means decline" in r.rejected.message
    assert "There is nothing to decline now" in r.rejected.message
    assert board.table.ply == ply and board.table.view() == view


def test_keypad_roll_then_token_on_the_reachable_tile_moves_the_piece(board):
    t = board.table
    r = board.press(PINS.keypad[0])  # key "1"
    assert r.accepted is not None and r.accepted.action == Roll("cops-1", (1,))
    r = board.token(1, True)  # slot 1 lies under The Docks (mappings/tyranny.json)
    assert r.accepted is not None, r
    assert r.accepted.action == MoveTo("cops-1", tile="o-docks")
    assert t.view()["pieces"]["cops-1"]["tile"] == "o-docks"
    assert t.journal.actions(t.key)[-1].source == "slot:gpio/1"
    # Lifting it again is not a move (the mapping has no on_remove).
    r = board.token(1, False)
    assert r.ignored and "slot 2" in r.ignored and t.ply == 2


def test_token_on_a_tile_the_roll_cannot_reach_is_refused_with_its_rule(board):
    t = board.table
    board.press(PINS.keypad[0])
    ply, view = t.ply, t.view()
    r = board.token(2, True)  # Gamble, two steps away: a 1 cannot reach it
    assert r.rejected is not None and r.rejected.code == "illegal"
    assert r.rejected.rule == "Gameplay: A typical movement turn" and "slot 3" in r.rejected.message
    assert t.ply == ply and t.view() == view


def test_end_turn_button_declines_the_optional_draw(board):
    """Three turns played from the header (keypad, token slots), a move by touch where
    the header has no slot, then the end-turn button says no to Gamble's optional draw."""
    t = board.table
    board.press(PINS.keypad[0])
    assert board.token(1, True).accepted is not None  # cops to The Docks
    board.press(PINS.keypad[0])  # criminals roll 1
    (move,) = [a for a in t.legal_actions() if a.kind == "move"]
    t.submit(move)  # The Pawnshop has no slot on the default header: by touch
    board.press(PINS.keypad[0])  # cops roll 1
    assert board.token(2, True).accepted.action == MoveTo("cops-1", tile="o-gamble-1")
    assert any(a.kind == "decline" for a in t.legal_actions())
    ply = t.ply
    r = board.press(PINS.end_turn)
    assert r.accepted is not None and r.accepted.action == Decline("cops-1")
    assert t.ply == ply + 1 and t.journal.actions(t.key)[-1].source == "button:gpio/end-turn"


def test_seat_button_chooses_the_seat_for_the_keypad(board):
    r = board.press(PINS.seat_buttons[1])
    assert r.ignored == "criminals-2 selected" and board.table.router.focus_seat == "criminals-2"


def test_a_placed_token_is_one_event_however_long_it_stays(board):
    board.token(1, True)
    n = len(board.events)
    for _ in range(5):
        board.t += 1.0
        board.source.poll()
    assert len(board.events) == n and isinstance(board.events[-1], TokenPlaced)
    assert not any(isinstance(e, TokenRemoved) for e in board.events)
