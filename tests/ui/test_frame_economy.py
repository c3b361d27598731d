"""Start-up and frame economy in a real window (no timing asserted: see BENCHMARKS.md)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_demo_opens_on_its_table_with_hidden_overlays_undrawn(run_app):
    run_app("demo_first_frame", demo=True)


def test_pressed_tint_moves_towards_white():
    import doctest

    from companion.ui.widgets import tint

    assert doctest.testmod(tint).failed == 0


def test_hidden_widget_leaves_and_rejoins_the_drawing_in_its_place():
    from kivy.uix.widget import Widget

    from companion.ui.widgets.drawn import is_drawn, set_drawn

    parent = Widget()
    below, middle, above = Widget(), Widget(), Widget()
    for w in (below, middle, above):
        parent.add_widget(w)  # added last = drawn last (on top)
    order = [parent.canvas.indexof(w.canvas) for w in (below, middle, above)]
    assert order == sorted(order)
    set_drawn(middle, False)
    assert not is_drawn(middle) and middle.parent is parent
    set_drawn(middle, False)  # already hidden: nothing changes
    set_drawn(above, False)
    set_drawn(middle, True)
    set_drawn(above, True)
    assert [parent.canvas.indexof(w.canvas) for w in (below, middle, above)] == order
    parent.remove_widget(middle)
    assert not is_drawn(middle)


def test_a_tap_gives_widgets_new_words_and_the_gate_hides_the_table(run_app):
    run_app("taps_scenarios:kept_widgets", demo=True)
