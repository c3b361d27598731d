"""The hub's token slots for Against All Tyrants (``rules/against_all_tyrants/data/mappings.json``):
gpiozero's MockFactory pins, driven as the reed switches are, become ``TokenPlaced`` events in
``GpioSource`` (the shipped default pin map); ``Table.route`` turns slot 1 into an Incident and
slot 2 into 1 damage to the card chosen on the screen, both checked by the engine like a tap.
No window: the screen's part is ``AatPresenter.hub_action`` (the screen submits what it returns)."""
from __future__ import annotations

from typing import Any, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.routing import load_mapping
from companion.ui.games.against_all_tyrants.presenter import AatPresenter
from rules.against_all_tyrants import Damage, Incident, Order

from tests.companion.gpio_board import Board
from tests.rules.against_all_tyrants.helpers import table_typed_options

from .test_presenter import _to_combat

MAPPING = load_mapping("against_all_tyrants")


class Slots(Board):
    """The shared board, with a token set on a slot and lifted again."""

    def place(self, slot: int) -> tuple[Any, Any]:
        """A token set on the slot (the switch closes past the debounce), then lifted:
        the TokenPlaced event and the Table's result for it."""
        n = len(self.events)
        result = self.token(slot, True)
        placed = (self.events[n], result)
        self.token(slot, False)
        return placed


@pytest.fixture
def slots(new_table: Any) -> Iterator[Slots]:
    Device.pin_factory = MockFactory()
    # The table's own cards, typed without steps: their texts are resolved by the table with
    # the generic primitives, which the hub's slots send (an example card's text offers only
    # what its words name: tests/rules/against_all_tyrants/test_texts_as_written.py).
    table = new_table(seed=3, options=table_typed_options())
    s = Slots(table)
    try:
        yield s
    finally:
        s.source.close()
        Device.pin_factory.reset()
        Device.pin_factory = None


def _text_open(t: Any, p: AatPresenter) -> None:
    _to_combat(t, p)
    citadel = next(x for x in p.view()["pieces"] if x["name"] == "Hidden Citadel")
    p.tap_piece(citadel["id"])
    t.submit(next(b.action for b in p.buttons() if isinstance(b.action, Order)))
    assert p.view()["pending"]["kind"] == "text"


def test_the_incident_slot_adds_an_incident_while_a_text_is_applied_and_is_refused_otherwise(slots):
    t = slots.table
    p = AatPresenter(t)
    _to_combat(t, p)
    ev, r = slots.place(0)
    assert type(ev).__name__ == "TokenPlaced" and r.rejected is not None and r.rejected.code == "illegal"
    assert p.view()["escalation"]["incidents"] == 0
    citadel = next(x for x in p.view()["pieces"] if x["name"] == "Hidden Citadel")
    p.tap_piece(citadel["id"])
    t.submit(next(b.action for b in p.buttons() if isinstance(b.action, Order)))
    ev, r = slots.place(0)
    assert r.accepted is not None and isinstance(r.accepted.action, Incident)
    assert r.accepted.action.source == "slot:gpio/0"
    assert p.view()["escalation"]["incidents"] == 1
    assert "Hidden Citadel" in " ".join(p.humanise(x.text) for x in t.log()[-2:])


def test_the_damage_slot_hits_the_card_chosen_on_the_screen(slots):
    t = slots.table
    p = AatPresenter(t)
    _text_open(t, p)
    ev, r = slots.place(1)
    # Several cards could take it and none is chosen: refused, nothing changes.
    assert r.rejected is not None and r.rejected.code == "ambiguous"
    assert p.hub_action(ev, r, MAPPING) is None
    assert p.hub_hint(ev, r, MAPPING).startswith("Several cards could take the hub's damage: tap the card")
    target = next(x for x in p.view()["pieces"] if x["kind"] == "unit" and not x["tokens"] and x["health"] > 1)
    assert p.tap_piece(target["id"])[0] == "select" and p.chosen == target["id"]
    assert any(c.selected for col in p.columns() for c in col.chips if c.id == target["id"])
    ev, r = slots.place(1)
    act = p.hub_action(ev, r, MAPPING)
    assert act == Damage(p.actor(), target["id"], 1) and p.hub_hint(ev, r, MAPPING) == ""
    t.submit(act)  # what the screen does: through the Table, like a tap
    hit = next(x for x in p.view()["pieces"] if x["id"] == target["id"])
    assert hit["tokens"] == {"Damage": 1}
