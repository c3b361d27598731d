"""A tap answered without making the screen again (issue 34), in the real app: widgets are
given new words rather than remade, nothing is drawn under the privacy gate, a closed page
leaves no card's words in a spare widget, and the public view is made once per change of
the game. No time is measured here (``python -m benchmarks taps`` does that)."""
from __future__ import annotations

from typing import Any, Iterator

from tests.ui.scenarios import _screen, _wait_for, settle


def kept_widgets(d: Any) -> Iterator[float]:
    """Button rows, gate pages and the gate's veil on the demo's table."""
    from companion.ui.presenters.actions import GateChoice, GateLine, GateSection
    from companion.ui.widgets.action_panel import ButtonRow
    from companion.ui.widgets.drawn import is_drawn
    from companion.ui.widgets.gate_page import GatePage

    yield from settle(d)
    scr = _screen(d)
    app = d.app

    # The public view: made once per change of the game, made again after one.
    p = scr.presenter
    first = p.view()
    d.check(p.view() is first, "the public view is made once while the game does not change")

    # A row given new words keeps its buttons, and their taps do what the new words say.
    tapped: list[str] = []
    row = ButtonRow()
    row.set_buttons([(w, "normal", "auto", (lambda w=w: tapped.append(w))) for w in ("Alpha", "Beta")])
    before = list(reversed(row.children))
    row.set_buttons([(w, "normal", "auto", (lambda w=w: tapped.append(w))) for w in ("Gamma", "Delta")])
    after = list(reversed(row.children))
    d.check([b.uid for b in after] == [b.uid for b in before], "the row's buttons are kept, not made again")
    d.check([b.text for b in after] == ["Gamma", "Delta"], f"the kept buttons say the new words: {[b.text for b in after]}")
    after[0].dispatch("on_release")
    d.check(tapped == ["Gamma"], f"a kept button does what its new words say: {tapped}")
    # One button fewer: it goes to the spare pool emptied, and the next row that grows takes it.
    row.set_buttons([("Only", "normal", "auto", lambda: None)])
    let_go = after[1]
    d.check(let_go.parent is None and let_go in ButtonRow._spare, "a button a row lets go is kept as a spare")
    d.check(let_go.text == "" and let_go.act is None, "a spare keeps no words and does nothing")
    other = ButtonRow()
    other.set_buttons([("One", "normal", "auto", lambda: None), ("Two", "normal", "auto", lambda: None)])
    d.check(any(b is let_go for b in other.children), "a row that grows takes a spare before making a button")
    other.set_buttons([])
    row.set_buttons([])

    # A page behind the gate shown again keeps its widgets where they are of the same kind.
    page = GatePage(on_choose=lambda c: None)

    def sections(word: str) -> list[GateSection]:
        return [GateSection(title=f"{word} title", lines=(GateLine(f"{word} line"),),
                            choices=(GateChoice(f"{word} one", None), GateChoice(f"{word} two", None)))]

    page.show(sections("North"))
    page.refuse("not now")
    widgets = [w.uid for w in page.ids.box.children]
    page.show(sections("South"))
    d.check([w.uid for w in page.ids.box.children] == widgets, "a page shown again keeps its widgets")
    d.check(d.texts(page) == ["✖ not now", "South title", "South line", "South one", "South two"],
            f"…and shows the new words: {d.texts(page)}")
    d.check(page.ids.refusal.text == "✖ not now", "the refusal stays at the top of a page shown again")
    page.show([GateSection(lines=(GateLine("Just a line"),))])
    d.check(d.texts(page) == ["✖ not now", "Just a line"], f"a shorter page drops what it no longer shows: {d.texts(page)}")
    page.release()

    # The gate: what it covers is not drawn while it is up, and comes back in its place.
    gate = scr.ids.gate
    parent = gate.parent
    covered = [w for w in parent.children[parent.children.index(gate) + 1:] if is_drawn(w)]
    order = [parent.canvas.indexof(w.canvas) for w in covered]
    d.check(covered, "the table under the gate is drawn before the gate opens")
    seat = p.seats()[0]["id"]
    scr.open_hand(seat)
    yield from _wait_for(lambda: gate.active, 2)
    d.check(gate.active and is_drawn(gate), "the gate is up")
    d.check(not any(is_drawn(w) for w in covered), "nothing under the gate is drawn while it is up")
    d.shot("taps-gate-up")
    hold = d.press(gate.ids.hold)
    yield from _wait_for(lambda: gate.phase == "open", 3)
    d.release(hold)
    d.check(gate.phase == "open", "the hold opened the seat's page")
    shown = [b for b in d.walk(gate) if isinstance(b.parent, ButtonRow)]
    gate.close()
    yield 0.1
    d.check([parent.canvas.indexof(w.canvas) for w in covered] == order,
            "the table is drawn again, in its place under the gate, once the gate closes")
    d.check(all(b.text == "" for b in shown) and all(b.text == "" for b in ButtonRow._spare),
            "no card's words stay in a button once the page is gone")
    d.shot("taps-gate-closed")

    # An action: the view is made again, once.
    table = app.table
    action = next(iter(table.legal_actions()))
    table.submit(action)
    yield from settle(d)
    again = p.view()
    d.check(again is not first and again.get("ply") == table.ply and p.view() is again,
            "after an action the view is made again, once, and shows it")
