"""A tap's journal commit runs off the UI thread (issue 34; tests/ui/test_commit_ui.py).

The app's real journal (the sqlite file the app opened) is wrapped so that its commits
wait until the scenario lets them go: a slow SD card that never finishes by itself. While
a tap's commit waits, the window keeps running frames, the tapped button says it is being
recorded, the panel and Undo take no second tap, and the screen still shows the game as it
was (nothing is shown done before the Table committed it). A refusal at commit time (an
input routed first on the same thread, as a die would be) is shown as any refusal: on the
banner for a public tap, on the gate's page for a secret choice, whose page stays open.
Nothing here measures time: frames and states are counted and checked."""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterator

from tests.ui.scenarios import SEATS, _reachable_tiles, _screen, _tap_face, _wait_for, hold_gate, settle


class SlowJournal:
    """The app's journal, each commit (an action appended, one undone) held on an Event
    until :meth:`release`; every other call goes straight through."""

    def __init__(self, journal: Any) -> None:
        self._journal = journal
        self._go = threading.Event()
        self._go.set()
        self.waiting = threading.Event()  # a commit has reached the journal and waits
        self.threads: list[str] = []  # the threads that committed

    def hold(self) -> None:
        self.waiting.clear()
        self._go.clear()

    def release(self) -> None:
        self._go.set()

    @property
    def held(self) -> bool:
        return not self._go.is_set()

    def _commit(self, name: str, *a: Any, **k: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        self.waiting.set()
        self._go.wait(20)  # bounded: a failing scenario must not hang the test run
        return getattr(self._journal, name)(*a, **k)

    def append(self, *a: Any, **k: Any) -> Any:
        return self._commit("append", *a, **k)

    def mark_undone(self, *a: Any, **k: Any) -> Any:
        return self._commit("mark_undone", *a, **k)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)


def _panel(d: Any) -> list[Any]:
    return _screen(d).ids.actions.buttons


def _button(d: Any, label: str) -> Any:
    return next(b for b in _panel(d) if b.text == label)


def _first_on_pump(d: Any, call: Callable[[], Any]) -> tuple[threading.Event, list[Any]]:
    """Put ``call`` on the app's input pump, to run when the returned Event is set: an
    input that reaches the Table before the next tap's commit (as a die routed first)."""
    go, answers = threading.Event(), []

    def first() -> Any:
        go.wait(20)
        return call()

    d.app.input_pump.call(first, lambda f: answers.append(f.exception() or f.result()))
    return go, answers


def _while_held(d: Any, slow: SlowJournal, what: str) -> Iterator[float]:
    """The commit waits in the journal: frames keep running, the screen stays as it was."""
    from kivy.clock import Clock

    scr = _screen(d)
    yield from _wait_for(lambda: slow.waiting.is_set(), 5)
    d.check(slow.waiting.is_set() and slow.held, f"{what}: the commit reached the journal and waits")
    shown, frames = scr.shown_ply, Clock.frames
    for _ in range(10):
        yield 0.02
    d.check(Clock.frames - frames >= 10 and slow.held, f"{what}: frames ran while the commit waited "
            f"({Clock.frames - frames})")
    d.check(scr.recording and scr.shown_ply == shown, f"{what}: still recording, the game shown as it was")
    d.check(slow.threads[-1] == "input-pump", f"{what}: committed on the input pump's thread ({slow.threads})")


def slow_commit(d: Any) -> Iterator[float]:
    app = d.app
    app.new_game("tyranny", SEATS, {}, seed=11)
    yield from settle(d)
    scr, table = _screen(d), app.table
    slow = table.journal = SlowJournal(table.journal)
    undo = scr.ids.undo

    # A roll entered on the dice tray, its commit held: the tray's tap answered at once.
    slow.hold()
    _tap_face(d, 6)
    yield from _wait_for(lambda: scr.recording, 3)
    d.check(scr.recording and undo.disabled, "the roll is being recorded")
    yield from _while_held(d, slow, "the roll")
    slow.release()
    yield from settle(d)
    d.check(table.ply == 1 and not scr.recording and scr.shown_ply == 1, f"the roll was recorded (ply {table.ply})")
    # Ann → the Sewer Grate, Bob rolls 1 → the Pawn Shop, Ann rolls 2 → a Gains tile.
    for face in (None, 1, None, 2, None):
        before = table.ply
        if face is None:
            d.tap(_reachable_tiles(d)[0])
        else:
            _tap_face(d, face)
        yield from settle(d, since=before)
    d.check(table.view()["phase"] == "draw", f"Ann may draw a Gains card (phase {table.view()['phase']})")
    at_draw = table.ply
    dont = next(s.action for s in scr.ids.actions._shown if s.label == "Don't draw")

    # A button of the panel: marked as being recorded, nothing else tappable meanwhile.
    slow.hold()
    d.tap(_button(d, "Don't draw"))
    yield from _wait_for(lambda: scr.recording, 3)
    marked = [b for b in _panel(d) if b.text.endswith("recording…")]
    d.check([b.text for b in marked] == ["Don't draw — recording…"], f"the tapped button says it is being recorded: "
            f"{[b.text for b in _panel(d)]}")
    d.check(all(b.disabled for b in _panel(d)) and undo.disabled, "no button of the panel, nor Undo, takes a tap meanwhile")
    yield 0.1  # a frame drawn with it (the commit still waits)
    d.shot("commit-recording")
    yield from _while_held(d, slow, "Don't draw")
    slow.release()
    yield from settle(d)
    d.check(table.ply == at_draw + 1 and scr.shown_ply == at_draw + 1 and not scr.recording,
            f"the tap was recorded, then shown (ply {table.ply})")
    d.check(not any(b.text.endswith("recording…") or b.disabled for b in _panel(d)), "the panel is free again")
    d.check(not undo.disabled, "Ann may take her choice back")

    # Undo goes the same way.
    slow.hold()
    d.tap(undo)
    yield from _wait_for(lambda: scr.recording, 3)
    yield from _while_held(d, slow, "undo")
    slow.release()
    yield from settle(d)
    d.check(table.ply == at_draw and scr.shown_ply == at_draw and d.has("Don't draw"), f"undone (ply {table.ply})")
    d.note("recorded off the UI thread: roll, panel tap, undo")

    # Another input reaches the Table first: the tap passed its check, its commit is refused.
    go, answers = _first_on_pump(d, lambda: table.submit(dont))
    scr.ids.banner.hide()
    d.tap(_button(d, "Don't draw"))
    yield from _wait_for(lambda: scr.recording, 3)
    d.check(scr.recording and table.ply == at_draw, "the tap waits behind the other input")
    go.set()
    yield from _wait_for(lambda: not scr.recording and scr.ids.banner.shown > 0, 5)
    yield from settle(d)
    banner = scr.ids.banner
    d.check(answers and not isinstance(answers[0], BaseException), f"the other input was recorded: {answers}")
    d.check(banner.shown > 0 and banner.message and not scr.recording, f"the refusal is on the banner: {banner.message!r}")
    d.check(table.ply == at_draw + 1, f"only the first was applied (ply {table.ply})")
    d.note("refused at commit: " + banner.message)
    d.shot("commit-refused")
    scr.undo()
    yield from settle(d)
    d.check(table.ply == at_draw, f"back to Ann's draw (ply {table.ply})")

    # A secret choice behind the gate, refused at commit time: said on the page, which stays.
    gate = scr.ids.gate
    d.tap("Enter Gains card")
    yield from _wait_for(lambda: gate.active, 3)
    yield 0.3
    yield from hold_gate(d, gate)
    go, answers = _first_on_pump(d, lambda: table.submit(dont))
    card = d.find("Criminals lose 500")
    page = next(w for w in d.walk(gate) if type(w).__name__ == "GatePage")
    d.tap(card)
    yield from _wait_for(lambda: scr.recording, 3)
    d.check(page.disabled and "Recording" in page.ids.refusal.text, "the page says the choice is being recorded")
    go.set()
    yield from _wait_for(lambda: not scr.recording, 5)
    yield 0.2
    d.check(gate.active and page.parent is not None and page.ids.refusal.text.startswith("✖"),
            f"the refusal is on the seat's page, the gate open: {page.ids.refusal.text!r}")
    d.check(table.ply == at_draw + 1 and table.view()["influence"] == 500, "the card was not applied")
    d.shot("commit-gate-refused")
    gate.close()
    yield from settle(d)
    scr.undo()
    yield from settle(d)

    # The same choice with a slow commit: the gate closes only once it is recorded.
    d.tap("Enter Gains card")
    yield from _wait_for(lambda: gate.active, 3)
    yield 0.3
    yield from hold_gate(d, gate)
    slow.hold()
    d.tap(d.find("Criminals lose 500"))
    yield from _wait_for(lambda: scr.recording, 3)
    yield from _while_held(d, slow, "the card")
    d.check(gate.active, "the gate stays open while the choice is recorded")
    slow.release()
    yield from settle(d)
    d.check(not gate.active and table.view()["influence"] == 0, "recorded: the gate closed, the card applied")
    d.note("secret choice: refused on its page, recorded behind the gate")
